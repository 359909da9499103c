/*
 * kernels_qpool.c - 2-d max pooling of u8 and i8 tensors (between the
 * QLinearConvs of a quantized CNN), threaded over channel planes. The
 * plan is kernels_window.c's; like it, each kernel tap's range of output
 * columns inside the input row is found once per row, so the inner loop
 * has no bounds checks. Padding never enters the max (cpu-ref's rule);
 * a window with no input position in it gives the dtype's lowest value.
 */
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "blas_internal.h"

typedef struct qpool {
    const rlxb_window *p;
    const uint8_t *x;
    uint8_t *y;
    int is_signed;
} qpool;

/* Output columns [*lo, *hi) whose tap at offset OFF is inside the row. */
static void tap_range(const rlxb_window *p, size_t kx, size_t *lo,
                      size_t *hi)
{
    long off = (long)(kx * p->dw) - (long)p->pw;
    long a = off >= 0 ? 0 : (-off + (long)p->sw - 1) / (long)p->sw;
    long last = (long)p->iw - 1 - off; /* ox * sw <= last */
    long b = last < 0 ? 0 : last / (long)p->sw + 1;
    if (b > (long)p->ow)
        b = (long)p->ow;
    if (a > b)
        a = b;
    *lo = (size_t)a;
    *hi = (size_t)b;
}

/* out[o] = max(out[o], row[o * sw + off]) for o from LO while 16
 * columns fit (stride 1 or 2, the 16 or 32 bytes read inside the row);
 * returns where the scalar loop goes on. i8 compares as u8 after
 * flipping the sign bit. */
static size_t vec_taps(const rlxb_window *p, const uint8_t *row, long off,
                       size_t lo, size_t hi, uint8_t *out, int is_signed)
{
#if defined(__SSE2__)
    long sw = (long)p->sw;
    if (sw != 1 && sw != 2)
        return lo;
    const __m128i flip = _mm_set1_epi8(is_signed ? (char)0x80 : 0);
    const __m128i even = _mm_set1_epi16(0x00ff);
    size_t o = lo;
    for (; o + 16 <= hi && (long)o * sw + off + 16 * sw <= (long)p->iw;
         o += 16) {
        const uint8_t *sp = row + ((long)o * sw + off);
        __m128i v;
        if (sw == 1) {
            v = _mm_loadu_si128((const __m128i *)sp);
        } else {
            __m128i a = _mm_loadu_si128((const __m128i *)sp);
            __m128i b = _mm_loadu_si128((const __m128i *)(sp + 16));
            v = _mm_packus_epi16(_mm_and_si128(a, even),
                                 _mm_and_si128(b, even));
        }
        __m128i cur = _mm_loadu_si128((const __m128i *)(out + o));
        __m128i m = _mm_max_epu8(_mm_xor_si128(v, flip),
                                 _mm_xor_si128(cur, flip));
        _mm_storeu_si128((__m128i *)(out + o), _mm_xor_si128(m, flip));
    }
    return o;
#else
    (void)p;
    (void)row;
    (void)off;
    (void)hi;
    (void)out;
    (void)is_signed;
    return lo;
#endif
}

#define POOL_PLANE(T, LOWEST)                                                \
    static void plane_##T(const rlxb_window *p, const T *x, T *y)          \
    {                                                                      \
        for (size_t oy = 0; oy < p->oh; oy++) {                            \
            T *out = y + oy * p->ow;                                       \
            for (size_t o = 0; o < p->ow; o++)                             \
                out[o] = LOWEST;                                           \
            for (size_t ky = 0; ky < p->kh; ky++) {                        \
                long iy = (long)(oy * p->sh + ky * p->dh) - (long)p->ph;   \
                if (iy < 0 || iy >= (long)p->ih)                           \
                    continue;                                              \
                const T *row = x + (size_t)iy * p->iw;                     \
                for (size_t kx = 0; kx < p->kw; kx++) {                    \
                    size_t lo, hi;                                         \
                    tap_range(p, kx, &lo, &hi);                            \
                    long off = (long)(kx * p->dw) - (long)p->pw;           \
                    lo = vec_taps(p, (const uint8_t *)row, off, lo, hi,    \
                                  (uint8_t *)out, (T)-1 < 0);              \
                    for (size_t o = lo; o < hi; o++) {                     \
                        T v = row[(long)(o * p->sw) + off];                \
                        out[o] = v > out[o] ? v : out[o];                  \
                    }                                                      \
                }                                                          \
            }                                                              \
        }                                                                  \
    }

POOL_PLANE(uint8_t, 0)
POOL_PLANE(int8_t, -128)

static void planes(void *arg, size_t begin, size_t end)
{
    const qpool *q = arg;
    const rlxb_window *p = q->p;
    size_t in = p->ih * p->iw, out = p->oh * p->ow;
    for (size_t t = begin; t < end; t++) {
        if (q->is_signed)
            plane_int8_t(p, (const int8_t *)q->x + t * in,
                         (int8_t *)q->y + t * out);
        else
            plane_uint8_t(p, q->x + t * in, q->y + t * out);
    }
}

void rlxb_qpool_run(rlxb_pool *pool, const rlxb_window *p,
                    const void *x, void *y, int is_signed)
{
    qpool q = { .p = p, .x = x, .y = y, .is_signed = is_signed };
    size_t per = p->oh * p->ow * p->kh * p->kw;
    size_t grain = per ? (size_t)(1 << 16) / per + 1 : 1;
    rlxb_parallel_for(pool, p->n * p->c, grain, planes, &q);
}
