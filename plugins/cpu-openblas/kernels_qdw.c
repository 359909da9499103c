/*
 * kernels_qdw.c - depthwise conv_integer (one input and one output
 * channel per group) computed directly, with the fused requantization
 * epilogue (qfuse.c). On the GEMM of kernels_q.c such a conv is a
 * 1-row by kh*kw-deep product per group, padded to an 8-row tile and
 * rebuilt by im2col per channel: mostly wasted work. Here strides 1
 * and 2 take their taps in pairs on vpmaddwd over flat runs of a
 * channel's padded plane (see phased below); other strides and
 * dilations accumulate each output row tap by tap in i32 over a run of
 * columns. Either way each row is requantized while hot.
 *
 * Padding reads x's zero point, so it adds (zx - zx) * w = 0 and is
 * skipped. The sum of at most 255 * 255 per tap wraps in u32 exactly as
 * the reference's int64 sum wraps to i32; the epilogue is kernels_q.c's,
 * operation for operation (its divide as qround.h does it, with the same
 * results), so the bytes match cpu-ref's separate ops.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"
#include "qround.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#define QDW_RUN 256 /* output columns accumulated at a time */

typedef struct qdw {
    const rlxb_qplan *p;
    const uint8_t *x, *w;
    const void *zx_src, *zw_src;
    void *y;
    const int32_t *bias;
    const float *mult;
    float scale, inv, flo, fhi; /* inv: 1 / scale */
    int mode;                 /* rlxb_qdiv_mode(scale), AVX-512 only */
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
    size_t j = 0;
#if defined(__AVX512F__)
    /* the same results 16 at a time (qround.h): the bytes do not change */
    __m512i vb = _mm512_set1_epi32((int32_t)bv), vz = _mm512_set1_epi32(r->zp);
    __m512 vm = _mm512_set1_ps(mu), vs = _mm512_set1_ps(r->scale);
    __m512 vinv = _mm512_set1_ps(r->inv);
    __m512 vlo = _mm512_set1_ps(flo), vhi = _mm512_set1_ps(fhi);
    int mode = r->mode;
    for (; j < len; j += 16) {
        __mmask16 m = len - j >= 16 ? (__mmask16)0xffff
                                    : (__mmask16)((1u << (len - j)) - 1);
        __m512i a = _mm512_maskz_loadu_epi32(m, acc + j);
        __m512 q = _mm512_mul_ps(
            _mm512_cvtepi32_ps(_mm512_add_epi32(a, vb)), vm);
        __m512 t = rlxb_qdiv_round(q, vs, vinv, mode);
        t = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(t, t, _CMP_ORD_Q), t);
        t = _mm512_min_ps(_mm512_max_ps(t, vlo), vhi);
        __m512i v = _mm512_add_epi32(_mm512_cvttps_epi32(t), vz);
        _mm512_mask_cvtepi32_storeu_epi8(o + j, m, v);
    }
#endif
    for (; j < len; j++) {
        float q = (float)(int32_t)(acc[j] + bv) * mu;
        if (r->scale != 1.0f)
            q = q / r->scale;
        float t = q == q ? nearbyintf(q) : 0.0f;
        t = t < flo ? flo : t;
        t = t > fhi ? fhi : t;
        o[j] = (uint8_t)((int32_t)t + r->zp); /* i8: two's complement */
    }
}

/* Strides 1 and 2 without dilation: taps in pairs, two taps per i32 lane
 * (vpmaddwd). The channel's plane, less its zero point, is copied once
 * into i16 rows of the padded plane (padding is 0 = zx - zx), laid out so
 * that for each output, flattened as i = oy * wq + ox over rows of wq
 * columns (those past ow computed and dropped), the two inputs of a tap
 * pair are one i32 at a fixed offset from i:
 *   stride 2: the padded rows split by parity into two phases of
 *     [rows][2 * wq] i16. Row 2 r + f is row r of phase f, and columns
 *     (2 c, 2 c + 1) of it, taps kx and kx + 1 of output column c - kx / 2,
 *     are i32 c: tap pair (ky, kx) reads phase ky & 1 at
 *     (ky >> 1) * wq + kx / 2.
 *   stride 1: the padded plane P of [rows][wq] i16, and beside it Q of
 *     i32 pairs Q[j] = (P[j], P[j + 1]): pair (ky, kx) reads Q at
 *     ky * wq + kx.
 * An odd last tap of a row pairs with a weight of 0. The flat runs are
 * rounded up to whole vectors; the arrays have slack past their ends so
 * every read is inside them. */
static int phased(const rlxb_qplan *p)
{
    return p->dh == 1 && p->dw == 1 && p->sh == p->sw &&
           (p->sw == 1 || p->sw == 2) && p->kw <= 16 && p->kh <= 16;
}

#define QDW_CHUNK 64 /* outputs accumulated in registers at a time */
#define QDW_STACK (48 * 1024) /* scratch bytes kept on the stack */
#define QDW_SLACK 64 /* i32 elements of slack past each array */

/* Output columns computed per row. */
static size_t phased_wq(const rlxb_qplan *p)
{
    return p->ow + (p->kw - 1) / p->sw;
}

/* A plane is done in bands of output rows, so that its arrays stay in
 * the first-level cache (and small enough for malloc's heap). */
#define QDW_BAND 2048 /* outputs of a band, about */
static size_t phased_band(const rlxb_qplan *p)
{
    size_t b = QDW_BAND / phased_wq(p);
    b = b < 1 ? 1 : b;
    return b < p->oh ? b : p->oh;
}

/* Rows of each phase in a band (one spare). */
static size_t phased_rows(const rlxb_qplan *p)
{
    return phased_band(p) + (p->kh - 1) / p->sh + 1;
}

/* i16 elements of a padded row, and of a phase (stride 2) or of P */
static size_t phased_rw(const rlxb_qplan *p)
{
    return p->sw == 2 ? 2 * phased_wq(p) : phased_wq(p);
}

static size_t phased_plane(const rlxb_qplan *p)
{
    return phased_rows(p) * phased_rw(p) + 2 * QDW_SLACK;
}

/* i32 elements of the pair arrays: two phases (stride 2), or P (kept at
 * an even start) and Q */
static size_t phased_pairs(const rlxb_qplan *p)
{
    size_t plane = phased_plane(p);
    return p->sw == 2 ? plane : plane / 2 + 1 + plane;
}

/* Sums of N outputs, rounded up to whole chunks. */
static size_t phased_acc(size_t n)
{
    return (n + QDW_CHUNK - 1) / QDW_CHUNK * QDW_CHUNK;
}

static size_t scratch_bytes(const rlxb_qplan *p)
{
    return (phased_pairs(p) + phased_acc(phased_band(p) * phased_wq(p))) *
               sizeof(int32_t) + 64;
}

/* acc[i] = sum over pairs t of the two i16 at base[t] + 2 i times the
 * weight pair wp[t], for i < N (a multiple of 16): QDW_CHUNK at a time,
 * then single vectors. */
#if defined(__AVX512BW__)
static void pairs_run(const int16_t *const *base, const int32_t *wp,
                      size_t n_pairs, size_t n, uint32_t *acc)
{
    size_t i = 0;
    for (; i + QDW_CHUNK <= n; i += QDW_CHUNK) {
        __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
        for (size_t t = 0; t < n_pairs; t++) {
            const int16_t *s = base[t] + 2 * i;
            __m512i w = _mm512_set1_epi32(wp[t]);
            a0 = _mm512_add_epi32(
                a0, _mm512_madd_epi16(_mm512_loadu_si512(s), w));
            a1 = _mm512_add_epi32(
                a1, _mm512_madd_epi16(_mm512_loadu_si512(s + 32), w));
            a2 = _mm512_add_epi32(
                a2, _mm512_madd_epi16(_mm512_loadu_si512(s + 64), w));
            a3 = _mm512_add_epi32(
                a3, _mm512_madd_epi16(_mm512_loadu_si512(s + 96), w));
        }
        _mm512_storeu_si512(acc + i, a0);
        _mm512_storeu_si512(acc + i + 16, a1);
        _mm512_storeu_si512(acc + i + 32, a2);
        _mm512_storeu_si512(acc + i + 48, a3);
    }
    for (; i < n; i += 16) {
        __m512i a0 = _mm512_setzero_si512();
        for (size_t t = 0; t < n_pairs; t++)
            a0 = _mm512_add_epi32(
                a0, _mm512_madd_epi16(_mm512_loadu_si512(base[t] + 2 * i),
                                      _mm512_set1_epi32(wp[t])));
        _mm512_storeu_si512(acc + i, a0);
    }
}
#elif defined(__AVX2__)
static void pairs_run(const int16_t *const *base, const int32_t *wp,
                      size_t n_pairs, size_t n, uint32_t *acc)
{
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
        for (size_t t = 0; t < n_pairs; t++) {
            const int16_t *s = base[t] + 2 * i;
            __m256i w = _mm256_set1_epi32(wp[t]);
#define QDW_LD(k) _mm256_loadu_si256((const __m256i *)(const void *)(s + (k)))
            a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(QDW_LD(0), w));
            a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(QDW_LD(16), w));
            a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(QDW_LD(32), w));
            a3 = _mm256_add_epi32(a3, _mm256_madd_epi16(QDW_LD(48), w));
#undef QDW_LD
        }
        _mm256_storeu_si256((__m256i *)(void *)(acc + i), a0);
        _mm256_storeu_si256((__m256i *)(void *)(acc + i + 8), a1);
        _mm256_storeu_si256((__m256i *)(void *)(acc + i + 16), a2);
        _mm256_storeu_si256((__m256i *)(void *)(acc + i + 24), a3);
    }
    for (; i < n; i += 8) {
        __m256i a0 = _mm256_setzero_si256();
        for (size_t t = 0; t < n_pairs; t++)
            a0 = _mm256_add_epi32(
                a0, _mm256_madd_epi16(
                        _mm256_loadu_si256((const __m256i *)(const void *)(
                            base[t] + 2 * i)),
                        _mm256_set1_epi32(wp[t])));
        _mm256_storeu_si256((__m256i *)(void *)(acc + i), a0);
    }
}
#else
static void pairs_run(const int16_t *const *base, const int32_t *wp,
                      size_t n_pairs, size_t n, uint32_t *acc)
{
    memset(acc, 0, n * sizeof *acc);
    for (size_t t = 0; t < n_pairs; t++) {
        const int16_t *restrict s = base[t];
        int32_t w0 = (int16_t)(uint16_t)((uint32_t)wp[t] & 0xffffu);
        int32_t w1 = (int16_t)(uint16_t)((uint32_t)wp[t] >> 16);
        for (size_t i = 0; i < n; i++)
            acc[i] += (uint32_t)(s[2 * i] * w0 + s[2 * i + 1] * w1);
    }
}
#endif

/* The weight pair (lo, hi) as vpmaddwd reads it: lo in the low half. */
static int32_t wpair(int32_t lo, int32_t hi)
{
    return (int32_t)(((uint32_t)(uint16_t)(int16_t)hi << 16) |
                     (uint32_t)(uint16_t)(int16_t)lo);
}

/* D[i] = X[i] - ZX as i16 for i < N. */
static void row_i16(const uint8_t *x, int x_u8, int32_t zx, size_t n,
                    int16_t *restrict d)
{
    size_t i = 0;
#if defined(__AVX512BW__)
    __m512i vz = _mm512_set1_epi16((int16_t)zx);
    for (; i < n; i += 32) {
        __mmask32 m = n - i >= 32 ? ~(__mmask32)0
                                  : (__mmask32)((1u << (n - i)) - 1);
        __m256i b = _mm256_maskz_loadu_epi8(m, x + i);
        __m512i w = x_u8 ? _mm512_cvtepu8_epi16(b) : _mm512_cvtepi8_epi16(b);
        _mm512_mask_storeu_epi16(d + i, m, _mm512_sub_epi16(w, vz));
    }
#endif
    if (x_u8)
        for (; i < n; i++)
            d[i] = (int16_t)((int32_t)x[i] - zx);
    else
        for (; i < n; i++)
            d[i] = (int16_t)((int32_t)(int8_t)x[i] - zx);
}

static void phased_channel(const qdw *r, const uint8_t *x, size_t ch,
                           const int32_t *wv, int32_t *mem, uint32_t *acc,
                           uint8_t *y, size_t ysz)
{
    const rlxb_qplan *p = r->p;
    size_t s = p->sw, wq = phased_wq(p), rows = phased_rows(p);
    size_t band = phased_band(p);
    int32_t zx = byte_at(p->tb, r->zx_src, 0);
    int x_u8 = p->tb == RLX_DTYPE_U8;
    int16_t *ph = (int16_t *)(void *)mem;
    size_t rw = phased_rw(p), plane = phased_plane(p);
    /* input columns [0, nx) land inside a padded row */
    size_t nx = rw > p->pw ? rw - p->pw : 0;
    nx = nx < p->iw ? nx : p->iw;
    const int16_t *base[8 * 16];
    int32_t wp[8 * 16];
    size_t n_pairs = 0;
    int16_t *q = ph + plane + (plane & 1); /* stride 1: Q after P */
    for (size_t ky = 0; ky < p->kh; ky++)
        for (size_t kx = 0; kx < p->kw; kx += 2) {
            int32_t w1 = kx + 1 < p->kw ? wv[ky * p->kw + kx + 1] : 0;
            base[n_pairs] = s == 1 ? q + 2 * (ky * wq + kx)
                                   : ph + (ky & 1) * plane +
                                         2 * ((ky >> 1) * wq + kx / 2);
            wp[n_pairs++] = wpair(wv[ky * p->kw + kx], w1);
        }
    for (size_t oy0 = 0; oy0 < p->oh; oy0 += band) {
        size_t ob = p->oh - oy0 < band ? p->oh - oy0 : band;
        /* zeros where no input lands: stride 1 needs only P's (Q is
         * made whole from P) */
        memset(mem, 0, (s == 1 ? plane / 2 + 1 : phased_pairs(p)) *
                           sizeof *mem);
        /* padded rows oy0 * s + rb of the band */
        for (size_t rb = 0; rb < rows * s; rb++) {
            size_t ry = oy0 * s + rb;
            if (ry < p->ph || ry - p->ph >= p->ih)
                continue;
            size_t f = s == 2 ? rb & 1 : 0, rr = s == 2 ? rb >> 1 : rb;
            row_i16(x + (ry - p->ph) * p->iw, x_u8, zx, nx,
                    ph + f * plane + rr * rw + p->pw);
        }
        if (s == 1) {
            /* Q[j] = (P[j], P[j + 1]) */
            int16_t *restrict qq = q;
            const int16_t *restrict pp = ph;
            for (size_t j = 0; j + 1 < plane; j++) {
                qq[2 * j] = pp[j];
                qq[2 * j + 1] = pp[j + 1];
            }
        }
        pairs_run(base, wp, n_pairs, (ob * wq + 15) / 16 * 16, acc);
        for (size_t oy = 0; oy < ob; oy++)
            finish(r, acc + oy * wq, p->ow, ch,
                   y + (oy0 + oy) * p->ow * ysz);
    }
}

/* One image's channel: task T = img * c + ch. */
static void dw_task(void *arg, size_t begin, size_t end)
{
    const qdw *r = arg;
    const rlxb_qplan *p = r->p;
    if (phased(p)) {
        /* a band's arrays fit the stack but for very wide rows (a
         * malloc per run costs page faults when the heap is trimmed) */
        _Alignas(64) unsigned char stack[QDW_STACK];
        size_t need = scratch_bytes(p);
        unsigned char *mem = need <= sizeof stack ? stack : malloc(need);
        if (!mem) {
            atomic_store(r->oom, 1);
            return;
        }
        int32_t *pairs = (int32_t *)(void *)mem;
        uint32_t *acc = (uint32_t *)(void *)(pairs + phased_pairs(p));
        size_t ysz = p->epi.on ? 1 : sizeof(int32_t);
        size_t taps = p->kh * p->kw, plane = p->ih * p->iw;
        int32_t wv[256];
        for (size_t t = begin; t < end; t++) {
            size_t ch = t % p->c;
            int32_t zw = byte_at(p->ta, r->zw_src,
                                 p->za_count == 1 ? 0 : ch);
            for (size_t q = 0; q < taps; q++)
                wv[q] = byte_at(p->ta, r->w, ch * taps + q) - zw;
            phased_channel(r, r->x + t * plane, ch, wv, pairs, acc,
                           (uint8_t *)r->y + t * p->oh * p->ow * ysz, ysz);
        }
        if (mem != stack)
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
        r.inv = 1.0f / r.scale;
#if defined(__AVX512F__)
        r.mode = rlxb_qdiv_mode(r.scale);
#endif
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
