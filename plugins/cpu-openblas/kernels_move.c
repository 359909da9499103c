/*
 * kernels_move.c - transpose of 4-byte elements (f32, i32): each output
 * row is a strided gather from the input, rows split over the pool.
 * Other element sizes go through cpu-ref.
 */
#include "blas_internal.h"

typedef struct move_job {
    const rlxb_transpose *p;
    const uint32_t *x;
    uint32_t *y;
} move_job;

static void transpose_task(void *ctx, size_t begin, size_t end)
{
    const move_job *j = ctx;
    const rlxb_transpose *p = j->p;
    uint32_t last = p->rank - 1;
    size_t len = p->dims[last], step = p->stride[last];
    for (size_t row = begin; row < end; row++) {
        size_t base = 0, rest = row;
        for (uint32_t d = last; d-- > 0;) {
            base += (rest % p->dims[d]) * p->stride[d];
            rest /= p->dims[d];
        }
        const uint32_t *restrict x = j->x + base;
        uint32_t *restrict y = j->y + row * len;
        if (step == 1)
            for (size_t i = 0; i < len; i++)
                y[i] = x[i];
        else
            for (size_t i = 0; i < len; i++)
                y[i] = x[i * step];
    }
}

void rlxb_transpose_run(rlxb_pool *pool,
                             const rlxb_transpose *p, const uint32_t *x,
                             uint32_t *y)
{
    size_t len = p->dims[p->rank - 1];
    if (len == 0 || p->rows == 0)
        return;
    move_job j = { p, x, y };
    size_t grain = len >= 16384 ? 1 : 16384 / len;
    rlxb_parallel_for(pool, p->rows, grain, transpose_task, &j);
}
