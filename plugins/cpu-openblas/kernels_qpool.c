/*
 * kernels_qpool.c - 2-d max pooling of u8 and i8 tensors (between the
 * QLinearConvs of a quantized CNN), threaded over channel planes. The
 * plan is kernels_window.c's; like it, each kernel tap's range of output
 * columns inside the input row is found once per row, so the inner loop
 * has no bounds checks. Padding never enters the max (cpu-ref's rule);
 * a window with no input position in it gives the dtype's lowest value.
 */
#include <string.h>

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
