/*
 * pjrt_emit_reduce.c - the reductions over a set of axes (none: all),
 * with keepdims as a reshape: sum, mean, max, and since ABI 1.4 min,
 * prod, L1, L2, log-sum-exp and sum of squares; integers reduce in their
 * own dtype (wrapping; max and min start from the dtype's extremes, as a
 * saturated +-inf literal gives them). Mean divides the sum by the
 * element count, so an empty axis gives 0/0 = NaN as rlx wants; max and
 * min propagate NaN. Log-sum-exp shifts by a finite maximum so large
 * inputs do not overflow. Integer mean and L2 go through f64 and
 * truncate (then wrap to the width), as cpu-ref's do. argmax and argmin: pjrt_emit_arg.c.
 */
#include <math.h>

#include "pjrt_emit.h"

/* R (X reduced over AXES) broadcast back to X's shape. */
uint32_t rlxp_unreduce(rlxp_emit *e, uint32_t r, uint32_t x, uint32_t na,
                       const int64_t *axes)
{
    const rlxp_val *v = rlxp_type_of(e, x);
    rlxp_val to = *v;
    to.dt = rlxp_type_of(e, r)->dt;
    int64_t map[RLXP_MAX_RANK];
    uint32_t k = 0;
    for (uint32_t d = 0; d < v->rank; d++) {
        int reduced = 0;
        for (uint32_t i = 0; i < na; i++)
            reduced |= axes[i] == (int64_t)d;
        if (!reduced)
            map[k++] = d;
    }
    return rlxp_broadcast(e, r, &to, map);
}

/* log(sum(exp(x - m))) + m with m the maximum, or 0 where that is
 * infinite (then the result is the maximum itself, or -inf when every
 * element is -inf or the axis is empty). */
static uint32_t log_sum_exp(rlxp_emit *e, uint32_t x, uint32_t na,
                            const int64_t *axes)
{
    uint32_t m = rlxp_reduce(e, x, na, axes, "stablehlo.maximum", -INFINITY);
    uint32_t inf = rlxp_compare(e, rlxp_un(e, "stablehlo.abs", m),
                                rlxp_splat_like(e, m, INFINITY), "EQ");
    m = rlxp_select(e, inf, rlxp_splat_like(e, m, 0.0), m);
    uint32_t ex = rlxp_un(e, "stablehlo.exponential",
                          rlxp_bin(e, "stablehlo.subtract", x,
                                   rlxp_unreduce(e, m, x, na, axes)));
    uint32_t s = rlxp_reduce(e, ex, na, axes, "stablehlo.add", 0.0);
    return rlxp_bin(e, "stablehlo.add", rlxp_un(e, "stablehlo.log", s), m);
}

uint32_t rlxp_emit_reduce(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val v = *rlxp_type_of(e, x);
    int keep = n->n_int_attrs > RLX_ATTR_REDUCE_KEEPDIMS &&
               n->int_attrs[RLX_ATTR_REDUCE_KEEPDIMS] != 0;
    int sel[RLXP_MAX_RANK] = { 0 };
    uint32_t given = n->n_int_attrs > RLX_ATTR_REDUCE_AXES
                         ? n->n_int_attrs - RLX_ATTR_REDUCE_AXES : 0;
    for (uint32_t i = 0; i < given; i++) {
        int64_t ax = n->int_attrs[RLX_ATTR_REDUCE_AXES + i];
        if (ax < 0)
            ax += v.rank;
        if (ax >= 0 && ax < (int64_t)v.rank)
            sel[ax] = 1;
    }
    int64_t axes[RLXP_MAX_RANK];
    uint32_t na = 0;
    double count = 1.0;
    for (uint32_t d = 0; d < v.rank; d++)
        if (given == 0 || sel[d]) {
            axes[na++] = d;
            count *= (double)v.dims[d];
        }
    uint32_t y;
    int fl = v.dt == RLX_DTYPE_F32 || v.dt == RLX_DTYPE_F64;
    if (!fl && (n->op == RLX_OP_REDUCE_MEAN || n->op == RLX_OP_REDUCE_L2)) {
        /* integers: in f64, truncated toward zero at the end as cpu-ref
         * does; the mean of an empty axis is 0 */
        uint32_t d = rlxp_convert(e, x, RLX_DTYPE_F64);
        if (n->op == RLX_OP_REDUCE_L2)
            d = rlxp_bin(e, "stablehlo.multiply", d, d);
        y = rlxp_reduce(e, d, na, axes, "stablehlo.add", 0.0);
        if (n->op == RLX_OP_REDUCE_L2)
            y = rlxp_un(e, "stablehlo.sqrt", y);
        else if (count == 0.0)
            y = rlxp_splat_like(e, y, 0.0);
        else
            y = rlxp_bin(e, "stablehlo.divide", y,
                         rlxp_splat_like(e, y, count));
        y = rlxp_reshape(e, y, n->rank, n->shape);
        /* through i64, whose narrowing wraps as cpu-ref's store does
         * (an L2 can pass the dtype's top); u64 directly */
        if (n->dtype != RLX_DTYPE_U64)
            y = rlxp_convert(e, y, RLX_DTYPE_I64);
        return rlxp_convert(e, y, n->dtype);
    }
    switch (n->op) {
    case RLX_OP_REDUCE_MAX:
        y = rlxp_reduce(e, x, na, axes, "stablehlo.maximum", -INFINITY);
        break;
    case RLX_OP_REDUCE_MIN:
        y = rlxp_reduce(e, x, na, axes, "stablehlo.minimum", INFINITY);
        break;
    case RLX_OP_REDUCE_PROD:
        y = rlxp_reduce(e, x, na, axes, "stablehlo.multiply", 1.0);
        break;
    case RLX_OP_REDUCE_L1: {
        /* stablehlo.abs takes no unsigned operand: |x| is x there */
        int uns = v.dt == RLX_DTYPE_U8 || v.dt == RLX_DTYPE_U16 ||
                  v.dt == RLX_DTYPE_U32 || v.dt == RLX_DTYPE_U64;
        y = rlxp_reduce(e, uns ? x : rlxp_un(e, "stablehlo.abs", x), na,
                        axes, "stablehlo.add", 0.0);
        break;
    }
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_SUM_SQUARE:
        y = rlxp_reduce(e, rlxp_bin(e, "stablehlo.multiply", x, x), na,
                        axes, "stablehlo.add", 0.0);
        if (n->op == RLX_OP_REDUCE_L2)
            y = rlxp_un(e, "stablehlo.sqrt", y);
        break;
    case RLX_OP_REDUCE_LOG_SUM_EXP:
        y = log_sum_exp(e, x, na, axes);
        break;
    default: /* sum, mean */
        y = rlxp_reduce(e, x, na, axes, "stablehlo.add", 0.0);
        break;
    }
    if (n->op == RLX_OP_REDUCE_MEAN && y != RLXP_NONE)
        y = rlxp_bin(e, "stablehlo.divide", y, rlxp_splat_like(e, y, count));
    (void)keep; /* the node's shape already says whether dims were kept */
    y = rlxp_reshape(e, y, n->rank, n->shape);
    return rlxp_out(e, n, y);
}
