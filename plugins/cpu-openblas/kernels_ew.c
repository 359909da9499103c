/*
 * kernels_ew.c - elementwise f32 kernels: unary ops and broadcasting
 * binary ops, as flat loops the compiler vectorises for the variant's
 * ISA (check with -fopt-info-vec), split over the pool in chunks.
 * Results match cpu-ref's double-then-round: exactly for + - * / and
 * sqrt, within a few ulp for the transcendental ones.
 */
#include <math.h>

#include "blas_internal.h"
#include "vmath.h"

/* Elements per task: below this, one thread. Waking a pool thread costs
 * microseconds, which an add over 64K floats (memory-bound, about as
 * long) barely repays; transcendental ops cost ~10x more per element. */
#define EW_GRAIN 65536
#define EW_GRAIN_HEAVY 8192

static size_t grain_of(rlx_op op)
{
    switch (op) {
    case RLX_OP_RELU: case RLX_OP_NEG: case RLX_OP_ABS: case RLX_OP_ADD:
    case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_MAX: case RLX_OP_MIN:
    case RLX_OP_HARD_SWISH: case RLX_OP_HARD_SIGMOID: case RLX_OP_CLIP:
        return EW_GRAIN;
    default:
        return EW_GRAIN_HEAVY;
    }
}

/* ---- unary ----------------------------------------------------------- */

typedef struct unary_job {
    rlx_op op;
    int64_t approx;
    float f0, f1;             /* hard_sigmoid's alpha, beta; clip's bounds */
    const float *x;
    float *y;
} unary_job;

/* max(0, min(1, alpha x + beta)), NaN kept (cpu-ref's select order). */
static void hard_sigmoid_range(float alpha, float beta,
                               const float *restrict x, float *restrict y,
                               size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float v = alpha * x[i] + beta;
        y[i] = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
    }
}

/* x below LO is LO, then above HI is HI (cpu-ref's order: HI wins when
 * LO > HI), NaN kept. */
static void clip_range(float lo, float hi, const float *restrict x,
                       float *restrict y, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float v = x[i] < lo ? lo : x[i];
        y[i] = v > hi ? hi : v;
    }
}

void rlxb_unary_range(rlx_op op, int64_t approx,
                           const float *restrict x, float *restrict y,
                           size_t n)
{
    switch (op) {
    case RLX_OP_RELU:
        for (size_t i = 0; i < n; i++)
            y[i] = x[i] > 0.0f || x[i] != x[i] ? x[i] : 0.0f;
        return;
    case RLX_OP_NEG:
        for (size_t i = 0; i < n; i++)
            y[i] = -x[i];
        return;
    case RLX_OP_ABS:
        for (size_t i = 0; i < n; i++)
            y[i] = fabsf(x[i]);
        return;
    case RLX_OP_SQRT:
        for (size_t i = 0; i < n; i++)
            y[i] = sqrtf(x[i]);
        return;
    case RLX_OP_RSQRT:
        for (size_t i = 0; i < n; i++)
            y[i] = 1.0f / sqrtf(x[i]);
        return;
    case RLX_OP_EXP:
        for (size_t i = 0; i < n; i++)
            y[i] = rlxb_exp(x[i]);
        return;
    case RLX_OP_SIGMOID:
        for (size_t i = 0; i < n; i++)
            y[i] = rlxb_sigmoid(x[i]);
        return;
    case RLX_OP_SILU:
        for (size_t i = 0; i < n; i++)
            y[i] = x[i] * rlxb_sigmoid(x[i]);
        return;
    case RLX_OP_TANH:
        for (size_t i = 0; i < n; i++)
            y[i] = rlxb_tanh(x[i]);
        return;
    case RLX_OP_GELU:
        if (approx == RLX_GELU_TANH)
            for (size_t i = 0; i < n; i++)
                y[i] = rlxb_gelu_tanh(x[i]);
        else
            for (size_t i = 0; i < n; i++)
                y[i] = rlxb_gelu_erf(x[i]);
        return;
    case RLX_OP_HARD_SWISH:
        for (size_t i = 0; i < n; i++) {
            float v = x[i] * (1.0f / 6.0f) + 0.5f;
            float h = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
            /* -inf gives 0 (its limit), not -inf * 0; NaN stays */
            y[i] = h == 0.0f ? 0.0f : x[i] * h;
        }
        return;
    /* libm's float functions: not vectorised, still threaded */
    case RLX_OP_LOG:
        for (size_t i = 0; i < n; i++)
            y[i] = logf(x[i]);
        return;
    case RLX_OP_SIN:
        for (size_t i = 0; i < n; i++)
            y[i] = sinf(x[i]);
        return;
    case RLX_OP_COS:
        for (size_t i = 0; i < n; i++)
            y[i] = cosf(x[i]);
        return;
    case RLX_OP_TAN:
        for (size_t i = 0; i < n; i++)
            y[i] = tanf(x[i]);
        return;
    case RLX_OP_ATAN:
        for (size_t i = 0; i < n; i++)
            y[i] = atanf(x[i]);
        return;
    default:
        return; /* prepare admits no other op */
    }
}

static void unary_task(void *ctx, size_t b, size_t e)
{
    const unary_job *j = ctx;
    if (j->op == RLX_OP_HARD_SIGMOID)
        hard_sigmoid_range(j->f0, j->f1, j->x + b, j->y + b, e - b);
    else if (j->op == RLX_OP_CLIP)
        clip_range(j->f0, j->f1, j->x + b, j->y + b, e - b);
    else
        rlxb_unary_range(j->op, j->approx, j->x + b, j->y + b, e - b);
}

void rlxb_unary(rlxb_pool *pool, rlx_op op, int64_t approx,
                     const float *fattr, const float *x, float *y,
                     size_t count)
{
    unary_job j = { op, approx, fattr[0], fattr[1], x, y };
    rlxb_parallel_for(pool, count, grain_of(op), unary_task, &j);
}

/* ---- binary ---------------------------------------------------------- */

/* NumPy's maximum and minimum: a NaN on either side wins. */
static inline float f_max(float a, float b)
{
    return a != a || b != b ? a + b : (a > b ? a : b);
}
static inline float f_min(float a, float b)
{
    return a != a || b != b ? a + b : (a < b ? a : b);
}

/* One loop per op and operand pattern: a and b step by SA and SB
 * (0 or 1) known at compile time, so each loop vectorises. */
#define BIN_LOOPS(NAME, EXPR)                                               \
    static void NAME(const float *restrict a, const float *restrict b,      \
                     float *restrict y, size_t n, int sa, int sb)           \
    {                                                                       \
        if (sa && sb) {                                                     \
            for (size_t i = 0; i < n; i++) {                                \
                float A = a[i], B = b[i];                                   \
                y[i] = EXPR;                                                \
            }                                                               \
        } else if (sa) {                                                    \
            const float B = b[0];                                           \
            for (size_t i = 0; i < n; i++) {                                \
                float A = a[i];                                             \
                y[i] = EXPR;                                                \
            }                                                               \
        } else if (sb) {                                                    \
            const float A = a[0];                                           \
            for (size_t i = 0; i < n; i++) {                                \
                float B = b[i];                                             \
                y[i] = EXPR;                                                \
            }                                                               \
        } else {                                                            \
            const float A = a[0], B = b[0];                                 \
            const float v = EXPR;                                           \
            for (size_t i = 0; i < n; i++)                                  \
                y[i] = v;                                                   \
        }                                                                   \
    }

BIN_LOOPS(bin_add, A + B)
BIN_LOOPS(bin_sub, A - B)
BIN_LOOPS(bin_mul, A * B)
BIN_LOOPS(bin_div, A / B)
BIN_LOOPS(bin_max, f_max(A, B))
BIN_LOOPS(bin_min, f_min(A, B))
BIN_LOOPS(bin_pow, powf(A, B))

typedef void (*bin_fn)(const float *, const float *, float *, size_t, int,
                       int);

#define ROW_CHUNK 8192 /* a long row is split into pieces of this size */

typedef struct binary_job {
    bin_fn fn;
    const rlxb_binary *p;
    const float *a, *b;
    float *y;
    size_t pieces;   /* per row */
} binary_job;

static void binary_task(void *ctx, size_t begin, size_t end)
{
    const binary_job *j = ctx;
    const rlxb_binary *p = j->p;
    for (size_t u = begin; u < end; u++) {
        size_t row = u / j->pieces, piece = u % j->pieces;
        size_t ia = 0, ib = 0, rest = row;
        for (uint32_t d = p->rank; d-- > 0;) {
            size_t idx = rest % p->dims[d];
            rest /= p->dims[d];
            ia += idx * p->a_stride[d];
            ib += idx * p->b_stride[d];
        }
        size_t lo = piece * ROW_CHUNK;
        size_t n = p->len - lo < ROW_CHUNK ? p->len - lo : ROW_CHUNK;
        j->fn(j->a + ia + (p->a_inner ? lo : 0),
              j->b + ib + (p->b_inner ? lo : 0), j->y + row * p->len + lo, n,
              p->a_inner, p->b_inner);
    }
}

void rlxb_binary_run(rlxb_pool *pool, rlx_op op,
                          const rlxb_binary *p, const float *a,
                          const float *b, float *y)
{
    bin_fn fn;
    switch (op) {
    case RLX_OP_ADD: fn = bin_add; break;
    case RLX_OP_SUB: fn = bin_sub; break;
    case RLX_OP_MUL: fn = bin_mul; break;
    case RLX_OP_DIV: fn = bin_div; break;
    case RLX_OP_MAX: fn = bin_max; break;
    case RLX_OP_MIN: fn = bin_min; break;
    case RLX_OP_POW: fn = bin_pow; break;
    default: return;
    }
    if (p->len == 0 || p->rows == 0)
        return;
    binary_job j = { fn, p, a, b, y, (p->len + ROW_CHUNK - 1) / ROW_CHUNK };
    size_t units = p->rows * j.pieces;
    size_t per_unit = p->len < ROW_CHUNK ? p->len : ROW_CHUNK;
    size_t grain = (grain_of(op) + per_unit - 1) / per_unit;
    rlxb_parallel_for(pool, units, grain, binary_task, &j);
}
