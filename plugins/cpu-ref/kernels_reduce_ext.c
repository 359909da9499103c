/*
 * kernels_reduce_ext.c - the reductions of ABI 1.4 (min, prod, L1, L2,
 * log-sum-exp, sum of squares) on every dtype they take, and reduce_sum,
 * reduce_mean and reduce_max on integers and f64. The plan is reduce_prepare's:
 * the input walked in order, each element folded into the output slot
 * its index maps to. Floats fold in double; integers in int64, wrapping,
 * except mean and L2, which go through double and truncate.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cpu_ref_internal.h"

/* ---- floats: acc[] in double ---------------------------------------- */

static void fold_float(rlx__cpu_ref_node *n, const void *ctx, size_t o,
                       size_t i)
{
    const rlx__cpu_ref_node *x = ctx;
    double v = rlx__cpu_ref_load_double(x, i), *acc = &n->acc[o];
    switch (n->op) {
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: *acc += v; break;
    case RLX_OP_REDUCE_MIN:
        if (v < *acc || isnan(v))
            *acc = isnan(*acc) ? *acc : v;
        break;
    case RLX_OP_REDUCE_PROD: *acc *= v; break;
    case RLX_OP_REDUCE_L1: *acc += fabs(v); break;
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_SUM_SQUARE: *acc += v * v; break;
    case RLX_OP_REDUCE_MAX:
    case RLX_OP_REDUCE_LOG_SUM_EXP: /* pass 1: the maximum */
        if (v > *acc || isnan(v))
            *acc = isnan(*acc) ? *acc : v;
        break;
    default: break;
    }
}

/* Log-sum-exp pass 2: sum of e^(x - max) into the slot after the max. */
static void fold_lse(rlx__cpu_ref_node *n, const void *ctx, size_t o,
                     size_t i)
{
    const rlx__cpu_ref_node *x = ctx;
    double m = n->acc[o];
    if (isfinite(m))
        n->acc[n->count + o] += exp(rlx__cpu_ref_load_double(x, i) - m);
}

static void run_float(rlx__cpu_ref_node *n, const rlx__cpu_ref_node *x)
{
    double init = n->op == RLX_OP_REDUCE_MIN ? INFINITY
                  : n->op == RLX_OP_REDUCE_PROD ? 1.0
                  : n->op == RLX_OP_REDUCE_LOG_SUM_EXP ||
                          n->op == RLX_OP_REDUCE_MAX
                      ? -INFINITY
                      : 0.0;
    for (size_t o = 0; o < n->count; o++)
        n->acc[o] = init;
    rlx__cpu_ref_reduce_walk(n, x->count, fold_float, x);
    if (n->op == RLX_OP_REDUCE_LOG_SUM_EXP) {
        for (size_t o = 0; o < n->count; o++)
            n->acc[n->count + o] = 0.0;
        rlx__cpu_ref_reduce_walk(n, x->count, fold_lse, x);
        /* an infinite or NaN maximum is the answer itself */
        for (size_t o = 0; o < n->count; o++)
            if (isfinite(n->acc[o]))
                n->acc[o] += log(n->acc[n->count + o]);
    }
    size_t per = n->plan.reduce.per_output;
    for (size_t o = 0; o < n->count; o++) {
        double v = n->acc[o];
        if (n->op == RLX_OP_REDUCE_L2)
            v = sqrt(v);
        else if (n->op == RLX_OP_REDUCE_MEAN)
            v /= (double)per; /* an empty axis: 0 / 0, NaN */
        rlx__cpu_ref_store_double(n, o, v);
    }
    rlx__cpu_ref_node_narrow(n);
}

/* ---- integers: acc[] holds int64 bit patterns ----------------------- */

static int64_t get(const rlx__cpu_ref_node *n, size_t o)
{
    int64_t v;
    memcpy(&v, &n->acc[o], sizeof v);
    return v;
}

static void put(rlx__cpu_ref_node *n, size_t o, int64_t v)
{
    memcpy(&n->acc[o], &v, sizeof v);
}

static int64_t wrap(uint64_t u)
{
    return (int64_t)u;
}

static void fold_int(rlx__cpu_ref_node *n, const void *ctx, size_t o,
                     size_t i)
{
    const rlx__cpu_ref_node *x = ctx;
    int64_t v = rlx__cpu_ref_load_int(x, i), a = get(n, o);
    uint64_t uv = (uint64_t)v, ua = (uint64_t)a;
    int u64 = x->dtype == RLX_DTYPE_U64; /* order its bits unsigned */
    int more = u64 ? uv > ua : v > a, less = u64 ? uv < ua : v < a;
    switch (n->op) {
    case RLX_OP_REDUCE_SUM: put(n, o, wrap(ua + uv)); break;
    case RLX_OP_REDUCE_MAX: put(n, o, more ? v : a); break;
    case RLX_OP_REDUCE_MIN: put(n, o, less ? v : a); break;
    case RLX_OP_REDUCE_PROD: put(n, o, wrap(ua * uv)); break;
    case RLX_OP_REDUCE_L1:
        put(n, o, wrap(ua + (v < 0 && !u64 ? 0 - uv : uv)));
        break;
    case RLX_OP_REDUCE_SUM_SQUARE: put(n, o, wrap(ua + uv * uv)); break;
    case RLX_OP_REDUCE_MEAN: /* in double, as the mean is truncated */
        n->acc[o] += u64 ? (double)uv : (double)v;
        break;
    case RLX_OP_REDUCE_L2: {
        double d = u64 ? (double)uv : (double)v;
        n->acc[o] += d * d;
        break;
    }
    default: break;
    }
}

static void run_int(rlx__cpu_ref_node *n, const rlx__cpu_ref_node *x)
{
    size_t per = n->plan.reduce.per_output;
    int in_double = n->op == RLX_OP_REDUCE_MEAN || n->op == RLX_OP_REDUCE_L2;
    int64_t least, greatest;
    rlx__cpu_ref_int_range(x->dtype, &least, &greatest);
    int64_t init = n->op == RLX_OP_REDUCE_MAX    ? least
                   : n->op == RLX_OP_REDUCE_MIN  ? greatest
                   : n->op == RLX_OP_REDUCE_PROD ? 1
                                                 : 0;
    for (size_t o = 0; o < n->count; o++) {
        if (in_double)
            n->acc[o] = 0.0;
        else
            put(n, o, init);
    }
    rlx__cpu_ref_reduce_walk(n, x->count, fold_int, x);
    for (size_t o = 0; o < n->count; o++) {
        int64_t v;
        if (in_double) {
            /* the mean of an empty axis is 0; both results lie within
             * the dtype's range, so the conversion is exact */
            double d = n->op == RLX_OP_REDUCE_L2 ? sqrt(n->acc[o])
                       : per ? n->acc[o] / (double)per
                             : 0.0;
            if (x->dtype == RLX_DTYPE_U64) /* bits of the unsigned value */
                v = d >= 18446744073709551615.0 ? -1
                                                : (int64_t)(uint64_t)d;
            else
                v = d >= 9223372036854775807.0 ? INT64_MAX : (int64_t)d;
        } else {
            v = get(n, o);
        }
        rlx__cpu_ref_store_int(n, o, v);
    }
}

void rlx__cpu_ref_reduce_ext_run(const rlx_executable *exe,
                                 rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_node *x = &exe->nodes[n->inputs[0]];
    if (rlx__cpu_ref_is_int(x->dtype))
        run_int(n, x);
    else
        run_float(n, x);
}
