/*
 * kernels_qdw.c - depthwise conv_integer (one input and one output
 * channel per group) computed directly, with the fused requantization
 * epilogue (qfuse.c). On the GEMM of kernels_q.c such a conv is a
 * 1-row by kh*kw-deep product per group, padded to an 8-row tile and
 * rebuilt by im2col per channel: mostly wasted work. Here each output
 * row is accumulated tap by tap in i32 over a run of columns, which the
 * compiler vectorises for stride 1, then requantized while hot.
 *
 * Padding reads x's zero point, so it adds (zx - zx) * w = 0 and is
 * skipped. The sum of at most 255 * 255 per tap wraps in u32 exactly as
 * the reference's int64 sum wraps to i32; the epilogue is kernels_q.c's,
 * operation for operation, so the bytes match cpu-ref's separate ops.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"

#define QDW_RUN 256 /* output columns accumulated at a time */

typedef struct qdw {
    const rlxb_qplan *p;
    const uint8_t *x, *w;
    const void *zx_src, *zw_src;
    void *y;
    const int32_t *bias;
    const float *mult;
    float scale, flo, fhi;
    int32_t zp;
    atomic_int *oom;          /* set by a task that found no scratch */
} qdw;

static int32_t byte_at(rlx_dtype t, const void *p, size_t i)
{
    return t == RLX_DTYPE_U8 ? (int32_t)((const uint8_t *)p)[i]
                             : (int32_t)((const int8_t *)p)[i];
}

/* Output columns [*a, *b) whose tap at input offset OFF lies inside the
 * input row. */
static void tap_cols(const rlxb_qplan *p, long off, long *a, long *b)
{
    long sw = (long)p->sw;
    long lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
    long last = (long)p->iw - 1 - off;
    long hi = last < 0 ? 0 : last / sw + 1;
    if (hi > (long)p->ow)
        hi = (long)p->ow;
    *a = lo > hi ? hi : lo;
    *b = hi;
}

/* acc[o - o0] += (x[o * sw + off] - zx) * wv for o in [a, b). */
static void tap_u8(uint32_t *acc, const uint8_t *src, long o0, long a,
                   long b, long sw, long off, int32_t zx, int32_t wv)
{
    if (sw == 1) {
        const uint8_t *s = src + off;
        for (long o = a; o < b; o++)
            acc[o - o0] += (uint32_t)(((int32_t)s[o] - zx) * wv);
    } else {
        for (long o = a; o < b; o++)
            acc[o - o0] +=
                (uint32_t)(((int32_t)src[o * sw + off] - zx) * wv);
    }
}

static void tap_i8(uint32_t *acc, const int8_t *src, long o0, long a,
                   long b, long sw, long off, int32_t zx, int32_t wv)
{
    if (sw == 1) {
        const int8_t *s = src + off;
        for (long o = a; o < b; o++)
            acc[o - o0] += (uint32_t)(((int32_t)s[o] - zx) * wv);
    } else {
        for (long o = a; o < b; o++)
            acc[o - o0] +=
                (uint32_t)(((int32_t)src[o * sw + off] - zx) * wv);
    }
}

/* kernels_q.c's epilogue on LEN sums of channel CH into OUT. */
static void finish(const qdw *r, const uint32_t *acc, size_t len,
                   size_t ch, void *out)
{
    const rlxb_qepi *e = &r->p->epi;
    if (!e->on) {
        memcpy(out, acc, len * sizeof *acc);
        return;
    }
    uint32_t bv = r->bias ? (uint32_t)r->bias[ch] : 0;
    float mu = r->mult[e->mult_mode == 1 ? ch : 0];
    float flo = r->flo, fhi = r->fhi;
    uint8_t *o = out;
    for (size_t j = 0; j < len; j++) {
        float q = (float)(int32_t)(acc[j] + bv) * mu;
        if (r->scale != 1.0f)
            q = q / r->scale;
        float t = q == q ? nearbyintf(q) : 0.0f;
        t = t < flo ? flo : t;
        t = t > fhi ? fhi : t;
        o[j] = (uint8_t)((int32_t)t + r->zp); /* i8: two's complement */
    }
}

/* Strides 1 and 2 without dilation: the channel's plane, less its zero
 * point, is copied once into s * s i16 phases (phase (fy, fx) holds the
 * padded plane's rows fy, fy + s, ... and columns fx, fx + s, ...;
 * padding is 0 = zx - zx). Each tap then reads its phase at a fixed
 * offset, so the output is accumulated over whole phase rows as one
 * flat run per tap (the columns past ow computed and dropped): long
 * runs that vectorise well on the small planes of late layers. */
static int phased(const rlxb_qplan *p)
{
    return p->dh == 1 && p->dw == 1 && p->sh == p->sw &&
           (p->sw == 1 || p->sw == 2);
}

/* Columns of a phase row, and rows (one spare for the flat run's end). */
static size_t phased_wq(const rlxb_qplan *p)
{
    return p->ow + (p->kw - 1) / p->sw;
}

static size_t phased_rows(const rlxb_qplan *p)
{
    return p->oh + (p->kh - 1) / p->sh + 1;
}

static size_t scratch_bytes(const rlxb_qplan *p)
{
    size_t wq = phased_wq(p);
    return p->sw * p->sw * phased_rows(p) * wq * sizeof(int16_t) +
           p->oh * wq * sizeof(int32_t);
}

static void phased_channel(const qdw *r, const uint8_t *x, size_t ch,
                           const int32_t *wv, int16_t *ph, uint32_t *acc,
                           uint8_t *y, size_t ysz)
{
    const rlxb_qplan *p = r->p;
    size_t s = p->sw, sh = s == 2, wq = phased_wq(p), rows = phased_rows(p);
    size_t plane = rows * wq;
    int32_t zx = byte_at(p->tb, r->zx_src, 0);
    memset(ph, 0, s * s * plane * sizeof *ph);
    /* input columns [0, nx) land inside the phases */
    size_t nx = wq * s > p->pw ? wq * s - p->pw : 0;
    nx = nx < p->iw ? nx : p->iw;
    int x_u8 = p->tb == RLX_DTYPE_U8;
    for (size_t iy = 0; iy < p->ih; iy++) {
        size_t ry = iy + p->ph;
        if ((ry >> sh) >= rows)
            break;
        const uint8_t *row = x + iy * p->iw;
        int16_t *d = ph + (ry & sh) * s * plane + (ry >> sh) * wq;
        if (s == 1) {
            int16_t *restrict dd = d + p->pw;
            if (x_u8)
                for (size_t ix = 0; ix < nx; ix++)
                    dd[ix] = (int16_t)((int32_t)row[ix] - zx);
            else
                for (size_t ix = 0; ix < nx; ix++)
                    dd[ix] = (int16_t)((int32_t)(int8_t)row[ix] - zx);
            continue;
        }
        /* stride 2: column cx = ix + pw to phase cx & 1, index cx >> 1 */
        for (size_t ix = 0; ix < nx; ix++) {
            size_t cx = ix + p->pw;
            int32_t v = x_u8 ? (int32_t)row[ix] : (int32_t)(int8_t)row[ix];
            d[(cx & 1) * plane + (cx >> 1)] = (int16_t)(v - zx);
        }
    }
    size_t n = p->oh * wq;
    memset(acc, 0, n * sizeof *acc);
    for (size_t ky = 0; ky < p->kh; ky++)
        for (size_t kx = 0; kx < p->kw; kx++) {
            const int16_t *restrict src =
                ph + ((ky & sh) * s + (kx & sh)) * plane +
                (ky >> sh) * wq + (kx >> sh);
            uint32_t *restrict a = acc;
            int32_t w1 = wv[ky * p->kw + kx];
            for (size_t i = 0; i < n; i++)
                a[i] += (uint32_t)((int32_t)src[i] * w1);
        }
    for (size_t oy = 0; oy < p->oh; oy++)
        finish(r, acc + oy * wq, p->ow, ch, y + oy * p->ow * ysz);
}

/* One image's channel: task T = img * c + ch. */
static void dw_task(void *arg, size_t begin, size_t end)
{
    const qdw *r = arg;
    const rlxb_qplan *p = r->p;
    if (phased(p)) {
        unsigned char *mem = malloc(scratch_bytes(p));
        if (!mem) {
            atomic_store(r->oom, 1);
            return;
        }
        size_t wq = phased_wq(p);
        int16_t *ph = (int16_t *)(void *)mem;
        uint32_t *acc = (uint32_t *)(void *)(mem + p->sw * p->sw *
                                                       phased_rows(p) * wq *
                                                       sizeof *ph);
        size_t ysz = p->epi.on ? 1 : sizeof(int32_t);
        size_t taps = p->kh * p->kw, plane = p->ih * p->iw;
        int32_t wv[64];
        for (size_t t = begin; t < end; t++) {
            size_t ch = t % p->c;
            int32_t zw = byte_at(p->ta, r->zw_src,
                                 p->za_count == 1 ? 0 : ch);
            for (size_t q = 0; q < taps; q++)
                wv[q] = byte_at(p->ta, r->w, ch * taps + q) - zw;
            phased_channel(r, r->x + t * plane, ch, wv, ph, acc,
                           (uint8_t *)r->y + t * p->oh * p->ow * ysz, ysz);
        }
        free(mem);
        return;
    }
    size_t plane = p->ih * p->iw, opix = p->oh * p->ow, taps = p->kh * p->kw;
    size_t ysz = r->p->epi.on ? 1 : sizeof(int32_t);
    int32_t zx = byte_at(p->tb, r->zx_src, 0);
    int x_u8 = p->tb == RLX_DTYPE_U8;
    uint32_t acc[QDW_RUN];
    int32_t wv[64];
    for (size_t t = begin; t < end; t++) {
        size_t ch = t % p->c;
        const uint8_t *x = r->x + t * plane;
        int32_t zw = byte_at(p->ta, r->zw_src, p->za_count == 1 ? 0 : ch);
        for (size_t q = 0; q < taps; q++)
            wv[q] = byte_at(p->ta, r->w, ch * taps + q) - zw;
        uint8_t *y = (uint8_t *)r->y + t * opix * ysz;
        for (size_t oy = 0; oy < p->oh; oy++) {
            for (size_t o0 = 0; o0 < p->ow; o0 += QDW_RUN) {
                size_t o1 = p->ow - o0 < QDW_RUN ? p->ow : o0 + QDW_RUN;
                memset(acc, 0, (o1 - o0) * sizeof *acc);
                for (size_t ky = 0; ky < p->kh; ky++) {
                    long iy = (long)(oy * p->sh + ky * p->dh) - (long)p->ph;
                    if (iy < 0 || iy >= (long)p->ih)
                        continue;
                    const uint8_t *src = x + (size_t)iy * p->iw;
                    for (size_t kx = 0; kx < p->kw; kx++) {
                        long off = (long)(kx * p->dw) - (long)p->pw, a, b;
                        tap_cols(p, off, &a, &b);
                        a = a < (long)o0 ? (long)o0 : a;
                        b = b > (long)o1 ? (long)o1 : b;
                        if (a >= b)
                            continue;
                        int32_t w1 = wv[ky * p->kw + kx];
                        if (x_u8)
                            tap_u8(acc, src, (long)o0, a, b, (long)p->sw,
                                   off, zx, w1);
                        else
                            tap_i8(acc, (const int8_t *)src, (long)o0, a, b,
                                   (long)p->sw, off, zx, w1);
                    }
                }
                finish(r, acc, o1 - o0, ch,
                       y + (oy * p->ow + o0) * ysz);
            }
        }
    }
}

int rlxb_qdw_fits(const rlxb_qplan *p)
{
    return p->is_conv && p->cg == 1 && p->m == 1 && p->kh * p->kw <= 64;
}

int rlxb_qdw_run(rlxb_pool *pool, const rlxb_qplan *p,
                 const void *const *in, void *y)
{
    atomic_int oom = 0;
    qdw r = { .p = p, .x = in[0], .w = in[1], .zx_src = in[2],
              .zw_src = in[3], .y = y, .oom = &oom };
    const rlxb_qepi *e = &p->epi;
    if (e->on) {
        r.bias = e->bias_in >= 0 ? in[e->bias_in] : NULL;
        r.mult = in[e->mult_in];
        r.scale = *(const float *)in[e->scale_in];
        r.zp = byte_at(e->out, in[e->zp_in], 0);
        int32_t lo = e->out == RLX_DTYPE_U8 ? 0 : -128;
        int32_t hi = e->out == RLX_DTYPE_U8 ? 255 : 127;
        for (uint32_t c = 0; c < e->n_clamp; c++) {
            int32_t v = byte_at(e->out, in[e->clamp_in[c]], 0);
            if (e->clamp_op[c] == RLX_OP_MAX) {
                lo = lo > v ? lo : v;
                hi = hi > v ? hi : v;
            } else {
                lo = lo < v ? lo : v;
                hi = hi < v ? hi : v;
            }
        }
        r.flo = (float)(lo - r.zp);
        r.fhi = (float)(hi - r.zp);
    }
    if (p->nb * p->c == 0 || p->oh * p->ow == 0)
        return 0;
    rlxb_parallel_for(pool, p->nb * p->c, 1, dw_task, &r);
    return atomic_load(&oom) ? -1 : 0;
}
