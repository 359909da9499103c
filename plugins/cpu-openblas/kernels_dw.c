/*
 * kernels_dw.c - depthwise 2-d convolution (one input and one output
 * channel per group), direct, one channel plane per job: the phase-plane
 * kernel for strides 1 and 2 without dilation, and a bounds-precomputed
 * one for the rest. kernels_conv.c plans the conv, packs the weights
 * (one kernel per channel, a folded batch norm applied) and dispatches.
 */
#include <stdatomic.h>
#include <string.h>

#include "conv_internal.h"

#if RLX__SGEMM_NR

/* Output columns [*lo, *hi) whose tap at input column ox * sw + off is
 * inside a row of IW. */
static void tap_range(long off, long sw, long iw, long ow, long *lo,
                      long *hi)
{
    *lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
    *hi = iw - 1 - off < 0 ? 0 : (iw - 1 - off) / sw + 1;
    if (*hi > ow)
        *hi = ow;
    if (*lo > *hi)
        *lo = *hi;
}

#define DW_TAPS 32 /* kernel widths whose ranges are kept on the stack */

/* Output planes (image-channel) [begin, end) of a depthwise conv. Each
 * tap's column range is worked out once per task, not per row (its two
 * divisions cost more than a short row's multiply-adds). */
void rlxb_dw_jobs(void *arg, size_t begin, size_t end)
{
    const rlxb_conv_ctx *cx = arg;
    const rlxb_conv *p = cx->p;
    size_t kk = p->kh * p->kw;
    long sw = (long)p->sw;
    long lo_b[DW_TAPS], hi_b[DW_TAPS];
    for (size_t b = 0; b < p->kw && b < DW_TAPS; b++)
        tap_range((long)(b * p->dw) - (long)p->pw, sw, (long)p->iw,
                  (long)p->ow, &lo_b[b], &hi_b[b]);
    for (size_t plane = begin; plane < end; plane++) {
        size_t ch = plane % p->m;
        const float *xc = cx->x + plane * p->ih * p->iw;
        const float *wc = p->packed + ch * kk;
        float *yc = cx->y + plane * p->p;
        for (size_t oy = 0; oy < p->oh; oy++) {
            float *row = yc + oy * p->ow;
            memset(row, 0, p->ow * sizeof *row);
            for (size_t a = 0; a < p->kh; a++) {
                long r = (long)(oy * p->sh + a * p->dh) - (long)p->ph;
                if (r < 0 || r >= (long)p->ih)
                    continue;
                const float *xr = xc + (size_t)r * p->iw;
                for (size_t b = 0; b < p->kw; b++) {
                    float wv = wc[a * p->kw + b];
                    long off = (long)(b * p->dw) - (long)p->pw, lo, hi;
                    if (b < DW_TAPS) {
                        lo = lo_b[b];
                        hi = hi_b[b];
                    } else {
                        tap_range(off, sw, (long)p->iw, (long)p->ow, &lo,
                                  &hi);
                    }
                    if (hi <= lo)
                        continue;
                    /* input column of output lo, then every sw */
                    const float *xs = xr + (lo * sw + off);
                    float *yo = row + lo;
                    long len = hi - lo;
                    if (sw == 1)
                        for (long t = 0; t < len; t++)
                            yo[t] += wv * xs[t];
                    else
                        for (long t = 0; t < len; t++)
                            yo[t] += wv * xs[t * sw];
                }
            }
        }
        rlxb_conv_epilogue(p, yc,
                                cx->res ? cx->res + plane * p->p : NULL,
                                p->p, ch, 1, p->p);
    }
}

/* Depthwise convs with stride 1 or 2 (both axes alike) and no dilation
 * run on a zero-padded copy of the plane, split by stride s into s * s
 * phase planes (rows and columns of one remainder mod s): tap (a, b)
 * then reads phase (a % s, b % s) shifted by (a / s, b / s), the same
 * shift for every output, so over the flattened plane (row step WP, the
 * phase width) each tap is one long multiply-add with no bounds checks,
 * whatever the plane's size. The WP - ow columns past each row's end
 * are computed and dropped. */
/* Outputs accumulated this many at a time in registers over every tap
 * (one vector of the widest ISA; GCC's vector type, which it splits into
 * what the variant's ISA has). */
#define DW_VEC 16
typedef float dw_vec __attribute__((vector_size(DW_VEC * sizeof(float))));

#define DW_MAX_TAPS 64 /* kernels up to 8 x 8 */
int rlxb_dw_phased(const rlxb_conv *p)
{
    return p->sh == p->sw && (p->sh == 1 || p->sh == 2) && p->dh == 1 &&
           p->dw == 1 && p->kh * p->kw <= DW_MAX_TAPS;
}

/* Phase plane rows and columns (HP x WP). */
static void dw_phase_dims(const rlxb_conv *p, size_t *hp, size_t *wp)
{
    size_t s = p->sh;
    *hp = p->oh + (p->kh - 1) / s;
    *wp = p->ow + (p->kw - 1) / s;
}

size_t rlxb_dw_scratch_floats(const rlxb_conv *p)
{
    size_t hp, wp;
    dw_phase_dims(p, &hp, &wp);
    /* phases, a vector of zeros, the accumulator rounded up to whole
     * vectors, an input row's even and odd columns */
    return p->sh * p->sh * hp * wp + DW_VEC + p->oh * wp + DW_VEC +
           p->iw + 2;
}

/* Phase row D (WP wide) of columns c reading S[c + h] (S: NS floats),
 * zeros where that is outside S. */
static void dw_phase_row(float *d, size_t wp, const float *s, long ns,
                         long h)
{
    long lo = h < 0 ? -h : 0, hi = ns - h < (long)wp ? ns - h : (long)wp;
    if (lo > (long)wp)
        lo = (long)wp;
    if (hi < lo)
        hi = lo;
    for (long c = 0; c < lo; c++)
        d[c] = 0.0f;
    if (hi > lo)
        memcpy(d + lo, s + lo + h, (size_t)(hi - lo) * sizeof *d);
    for (long c = hi; c < (long)wp; c++)
        d[c] = 0.0f;
}


/* Rows of Y (oh x ow) = act(ACC rows (step WP) + B) for the
 * activations rlxb_conv_epilogue computes the same way inline (none,
 * relu, hard_swish): 1, or 0 (nothing written) for the others. */
static int dw_rows_out(const rlxb_conv *p, float *restrict y,
                       const float *restrict acc, size_t wp, float b)
{
    rlx_op act = p->act;
    if (act != RLX_OP_INVALID && act != RLX_OP_RELU &&
        act != RLX_OP_HARD_SWISH)
        return 0;
    for (size_t oy = 0; oy < p->oh; oy++) {
        float *yr = y + oy * p->ow;
        const float *ar = acc + oy * wp;
        if (act == RLX_OP_INVALID)
            for (size_t j = 0; j < p->ow; j++)
                yr[j] = ar[j] + b;
        else if (act == RLX_OP_RELU)
            for (size_t j = 0; j < p->ow; j++) {
                float v = ar[j] + b;
                yr[j] = v > 0.0f || v != v ? v : 0.0f;
            }
        else /* hard_swish, as kernels_ew.c's */
            for (size_t j = 0; j < p->ow; j++) {
                float v = ar[j] + b;
                float t = v * (1.0f / 6.0f) + 0.5f;
                float h = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
                yr[j] = h == 0.0f ? 0.0f : v * h;
            }
    }
    return 1;
}

void rlxb_dw_phase_jobs(void *arg, size_t begin, size_t end)
{
    const rlxb_conv_ctx *cx = arg;
    rlxb_conv *p = cx->p;
    size_t s = p->sh, hp, wp;
    dw_phase_dims(p, &hp, &wp);
    size_t plane_f = hp * wp, kk = p->kh * p->kw;
    unsigned slot = rlxb_conv_take_slot(p);
    float *ph = p->scratch + slot * p->slot_floats;
    float *acc = ph + s * s * plane_f + DW_VEC;
    float *even = acc + p->oh * wp + DW_VEC, *odd = even + (p->iw + 1) / 2;
    long n_even = (long)(p->iw + 1) / 2, n_odd = (long)p->iw / 2;
    /* flattened outputs, rounded up to whole vectors: the last tap's
     * last read is at most DW_VEC - 1 past the end of its phase plane,
     * into the next one or the zeros after the last, and what those
     * lanes make is never copied out */
    size_t len = (p->oh - 1) * wp + p->ow;
    len = (len + DW_VEC - 1) / DW_VEC * DW_VEC;
    memset(ph + s * s * plane_f, 0, DW_VEC * sizeof *ph);
    const float *base[DW_MAX_TAPS];
    float wv[DW_MAX_TAPS];
    for (size_t plane = begin; plane < end; plane++) {
        size_t ch = plane % p->m;
        const float *xc = cx->x + plane * p->ih * p->iw;
        const float *wc = p->packed + ch * kk;
        /* phase (u, v), row r, column c: input (r s + u - ph, c s + v - pw);
         * at stride 2 an input row is split into its even and odd
         * columns once, and each phase row is a shifted copy of one */
        for (size_t u = 0; u < s; u++)
            for (size_t r = 0; r < hp; r++) {
                long iy = (long)(r * s + u) - (long)p->ph;
                int inside = iy >= 0 && iy < (long)p->ih;
                const float *xr = xc + (inside ? (size_t)iy * p->iw : 0);
                if (inside && s == 2)
                    for (size_t c = 0; c < p->iw / 2; c++) {
                        even[c] = xr[2 * c];
                        odd[c] = xr[2 * c + 1];
                    }
                if (inside && s == 2 && p->iw % 2)
                    even[p->iw / 2] = xr[p->iw - 1];
                for (size_t v = 0; v < s; v++) {
                    float *d = ph + (u * s + v) * plane_f + r * wp;
                    long e = (long)v - (long)p->pw;
                    if (!inside)
                        memset(d, 0, wp * sizeof *d);
                    else if (s == 1)
                        dw_phase_row(d, wp, xr, (long)p->iw, e);
                    else if (e % 2 == 0) /* input column 2 (c + e / 2) */
                        dw_phase_row(d, wp, even, n_even, e / 2);
                    else /* 2 (c + (e - 1) / 2) + 1 */
                        dw_phase_row(d, wp, odd, n_odd, (e - 1) / 2);
                }
            }
        for (size_t ta = 0; ta < p->kh; ta++)
            for (size_t tb = 0; tb < p->kw; tb++) {
                base[ta * p->kw + tb] = ph + ((ta % s) * s + tb % s) *
                                                 plane_f +
                                        (ta / s) * wp + tb / s;
                wv[ta * p->kw + tb] = wc[ta * p->kw + tb];
            }
        /* DW_VEC outputs at a time, every tap added in registers: four
         * vectors at once first (four independent chains of FMAs, not
         * one waiting on its own latency at each tap), then one */
        size_t j = 0;
        for (; j + 4 * DW_VEC <= len; j += 4 * DW_VEC) {
            dw_vec v0 = { 0 }, v1 = { 0 }, v2 = { 0 }, v3 = { 0 };
            for (size_t t = 0; t < kk; t++) {
                dw_vec x0, x1, x2, x3;
                const float *b = base[t] + j;
                memcpy(&x0, b, sizeof x0); /* unaligned loads */
                memcpy(&x1, b + DW_VEC, sizeof x1);
                memcpy(&x2, b + 2 * DW_VEC, sizeof x2);
                memcpy(&x3, b + 3 * DW_VEC, sizeof x3);
                v0 += wv[t] * x0;
                v1 += wv[t] * x1;
                v2 += wv[t] * x2;
                v3 += wv[t] * x3;
            }
            memcpy(acc + j, &v0, sizeof v0);
            memcpy(acc + j + DW_VEC, &v1, sizeof v1);
            memcpy(acc + j + 2 * DW_VEC, &v2, sizeof v2);
            memcpy(acc + j + 3 * DW_VEC, &v3, sizeof v3);
        }
        for (; j < len; j += DW_VEC) {
            dw_vec v = { 0 };
            for (size_t t = 0; t < kk; t++) {
                dw_vec xv;
                memcpy(&xv, base[t] + j, sizeof xv); /* unaligned load */
                v += wv[t] * xv;
            }
            memcpy(acc + j, &v, sizeof v);
        }
        /* the output rows out of the accumulator, with the bias and
         * activation on the way when no residual is added; else copied,
         * then the epilogue on the whole plane (long runs keep the
         * activation vectorised) */
        float *yc = cx->y + plane * p->p;
        if (!cx->res && dw_rows_out(p, yc, acc, wp, p->fbias[ch]))
            continue;
        for (size_t oy = 0; oy < p->oh; oy++)
            memcpy(yc + oy * p->ow, acc + oy * wp, p->ow * sizeof *yc);
        rlxb_conv_epilogue(p, yc,
                                cx->res ? cx->res + plane * p->p : NULL,
                                p->p, ch, 1, p->p);
    }
    atomic_flag_clear_explicit(&p->busy[slot], memory_order_release);
}

#endif /* RLX__SGEMM_NR */
