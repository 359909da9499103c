/*
 * kernels_row.c - f32 kernels that reduce along rows: softmax (last
 * axis, causal or not), layer_norm, rms_norm, and reduce_sum/mean/max
 * over one contiguous block of axes. Rows are split over the pool.
 *
 * Sums use 16 partial accumulators, a fixed-width inner loop the
 * compiler turns into vector adds without -ffast-math (which would also
 * break NaN handling); max keeps cpu-ref's rule that NaN wins.
 */
#include <math.h>
#include <string.h>

#include "blas_internal.h"
#include "vmath.h"

#define LANES 16
#define ROW_GRAIN 16384 /* elements per task */

static float sum16(const float *restrict x, size_t n)
{
    float acc[LANES] = { 0 };
    size_t j = 0;
    for (; j + LANES <= n; j += LANES)
        for (int l = 0; l < LANES; l++)
            acc[l] += x[j + l];
    float s = 0.0f;
    for (; j < n; j++)
        s += x[j];
    for (int l = 0; l < LANES; l++)
        s += acc[l];
    return s;
}

/* Sum of (x - mean)^2, like sum16 (no scratch row written and read). */
static float sqdev16(const float *restrict x, float mean, size_t n)
{
    float acc[LANES] = { 0 };
    size_t j = 0;
    for (; j + LANES <= n; j += LANES)
        for (int l = 0; l < LANES; l++) {
            float d = x[j + l] - mean;
            acc[l] += d * d;
        }
    float s = 0.0f;
    for (; j < n; j++) {
        float d = x[j] - mean;
        s += d * d;
    }
    for (int l = 0; l < LANES; l++)
        s += acc[l];
    return s;
}

static inline float max_nan(float acc, float v)
{
    return v > acc || v != v ? v : acc;
}

static float max16(const float *restrict x, size_t n)
{
    float acc[LANES];
    for (int l = 0; l < LANES; l++)
        acc[l] = -INFINITY;
    size_t j = 0;
    for (; j + LANES <= n; j += LANES)
        for (int l = 0; l < LANES; l++)
            acc[l] = max_nan(acc[l], x[j + l]);
    float m = -INFINITY;
    for (; j < n; j++)
        m = max_nan(m, x[j]);
    for (int l = 0; l < LANES; l++)
        m = max_nan(m, acc[l]);
    return m;
}

static size_t grain_rows(size_t len)
{
    return len >= ROW_GRAIN ? 1 : ROW_GRAIN / (len ? len : 1);
}

/* ---- softmax --------------------------------------------------------- */

typedef struct row_job {
    const void *plan;
    rlx_op op;
    const float *x, *g, *b;
    float *y;
} row_job;

static void softmax_row(const float *restrict x, float *restrict y,
                        size_t keep, size_t len)
{
    float m = max16(x, keep);
    for (size_t j = 0; j < keep; j++)
        y[j] = rlxb_exp(x[j] - m);
    float inv = 1.0f / sum16(y, keep);
    for (size_t j = 0; j < keep; j++)
        y[j] *= inv;
    for (size_t j = keep; j < len; j++)
        y[j] = 0.0f;
}

static void softmax_task(void *ctx, size_t begin, size_t end)
{
    const row_job *j = ctx;
    const rlxb_axis *p = j->plan;
    for (size_t o = begin; o < end; o++) {
        size_t keep = p->len;
        if (p->causal) { /* row i keeps columns j < i + len + 1 - rows */
            size_t i = o % p->rows;
            keep = i + p->len + 1 > p->rows ? i + p->len + 1 - p->rows : 0;
            if (keep > p->len)
                keep = p->len;
        }
        softmax_row(j->x + o * p->len, j->y + o * p->len, keep, p->len);
    }
}

void rlxb_softmax_run(rlxb_pool *pool, const rlxb_axis *p,
                           const float *x, float *y)
{
    row_job j = { .plan = p, .x = x, .y = y };
    rlxb_parallel_for(pool, p->outer, grain_rows(p->len), softmax_task,
                           &j);
}

/* ---- layer_norm, rms_norm --------------------------------------------- */

static void norm_task(void *ctx, size_t begin, size_t end)
{
    const row_job *j = ctx;
    const rlxb_norm *p = j->plan;
    size_t n = p->cols;
    const float *restrict g = j->g, *restrict be = j->b;
    for (size_t r = begin; r < end; r++) {
        const float *restrict x = j->x + r * n;
        float *restrict y = j->y + r * n;
        float mean = 0.0f;
        if (j->op == RLX_OP_LAYER_NORM)
            mean = sum16(x, n) / (float)n;
        float scale = 1.0f / sqrtf(sqdev16(x, mean, n) / (float)n + p->eps);
        if (j->op == RLX_OP_LAYER_NORM)
            for (size_t c = 0; c < n; c++)
                y[c] = (x[c] - mean) * scale * g[c] + be[c];
        else
            for (size_t c = 0; c < n; c++)
                y[c] = x[c] * scale * g[c];
    }
}

void rlxb_norm_run(rlxb_pool *pool, rlx_op op,
                        const rlxb_norm *p, const float *x,
                        const float *gamma, const float *beta, float *y)
{
    row_job j = { .plan = p, .op = op, .x = x, .g = gamma, .b = beta,
                  .y = y };
    rlxb_parallel_for(pool, p->rows, grain_rows(p->cols), norm_task,
                           &j);
}

/* ---- reductions over [outer, len, inner] ------------------------------ */

static void reduce_task(void *ctx, size_t begin, size_t end)
{
    const row_job *j = ctx;
    const rlxb_axis *p = j->plan;
    int is_max = j->op == RLX_OP_REDUCE_MAX;
    float scale = j->op == RLX_OP_REDUCE_MEAN ? 1.0f / (float)p->len : 1.0f;
    for (size_t o = begin; o < end; o++) {
        const float *restrict x = j->x + o * p->len * p->inner;
        float *restrict y = j->y + o * p->inner;
        if (p->inner == 1) {
            float v = is_max ? max16(x, p->len) : sum16(x, p->len);
            /* an empty mean is 0 * inf = NaN, as specified */
            y[0] = is_max ? v : v * scale;
            continue;
        }
        for (size_t i = 0; i < p->inner; i++)
            y[i] = is_max ? -INFINITY : 0.0f;
        for (size_t r = 0; r < p->len; r++) {
            const float *restrict xr = x + r * p->inner;
            if (is_max)
                for (size_t i = 0; i < p->inner; i++)
                    y[i] = max_nan(y[i], xr[i]);
            else
                for (size_t i = 0; i < p->inner; i++)
                    y[i] += xr[i];
        }
        if (!is_max)
            for (size_t i = 0; i < p->inner; i++)
                y[i] *= scale;
    }
}

void rlxb_reduce_run(rlxb_pool *pool, rlx_op op,
                          const rlxb_axis *p, const float *x, float *y)
{
    row_job j = { .plan = p, .op = op, .x = x, .y = y };
    rlxb_parallel_for(pool, p->outer,
                           grain_rows(p->len * (p->inner ? p->inner : 1)),
                           reduce_task, &j);
}
