/*
 * pjrt_emit_rows.c - softmax (any axis, optional causal mask) and the
 * norms over the last axis, composed from reduce, broadcast_in_dim and
 * elementwise ops in f32. Causal masking compares two iotas; a row with
 * every entry masked comes out all zeros as in rlx/ops.h.
 */
#include <math.h>

#include "pjrt_emit.h"

/* Broadcast R (X's shape without AXIS) back to X's shape. */
static uint32_t expand(rlxp_emit *e, uint32_t r, uint32_t x, uint32_t axis)
{
    const rlxp_val *v = rlxp_type_of(e, x);
    rlxp_val to = *v;
    int64_t map[RLXP_MAX_RANK];
    uint32_t k = 0;
    for (uint32_t d = 0; d < v->rank; d++)
        if (d != axis)
            map[k++] = d;
    to.dt = rlxp_type_of(e, r)->dt;
    return rlxp_broadcast(e, r, &to, map);
}

static uint32_t softmax(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val v = *rlxp_type_of(e, x);
    int64_t axis = n->n_int_attrs > RLX_ATTR_SOFTMAX_AXIS
                       ? n->int_attrs[RLX_ATTR_SOFTMAX_AXIS] : -1;
    if (axis < 0)
        axis += v.rank;
    int causal = n->n_int_attrs > RLX_ATTR_SOFTMAX_CAUSAL &&
                 n->int_attrs[RLX_ATTR_SOFTMAX_CAUSAL] != 0;
    if (v.rank == 0) /* one element: weight 1 (exp(x - x) / itself) */
        return rlxp_out(e, n, rlxp_splat_like(e, x, 1.0));
    int64_t ax = axis;
    uint32_t mask = RLXP_NONE;
    if (causal && v.rank >= 2 && axis == (int64_t)v.rank - 1) {
        rlxp_val iv = v;
        iv.dt = RLX_DTYPE_I64;
        int64_t rows = v.dims[v.rank - 2], cols = v.dims[v.rank - 1];
        uint32_t i = rlxp_iota(e, &iv, v.rank - 2);
        uint32_t j = rlxp_iota(e, &iv, v.rank - 1);
        /* masked: j > i + (cols - rows) */
        uint32_t lim = rlxp_bin(e, "stablehlo.add", i,
                                rlxp_splat_like(e, i, (double)(cols - rows)));
        mask = rlxp_compare(e, j, lim, "GT");
        x = rlxp_select(e, mask, rlxp_splat_like(e, x, -INFINITY), x);
    }
    uint32_t m = rlxp_reduce(e, x, 1, &ax, "stablehlo.maximum", -INFINITY);
    if (mask != RLXP_NONE) /* a fully masked row: shift by 0, not -inf */
        m = rlxp_select(e, rlxp_compare(e, m, rlxp_splat_like(e, m,
                                                              -INFINITY),
                                        "EQ"),
                        rlxp_splat_like(e, m, 0.0), m);
    uint32_t ex = rlxp_un(e, "stablehlo.exponential",
                          rlxp_bin(e, "stablehlo.subtract", x,
                                   expand(e, m, x, (uint32_t)axis)));
    uint32_t s = rlxp_reduce(e, ex, 1, &ax, "stablehlo.add", 0.0);
    uint32_t y = rlxp_bin(e, "stablehlo.divide", ex,
                          expand(e, s, ex, (uint32_t)axis));
    if (mask != RLXP_NONE)
        y = rlxp_select(e, mask, rlxp_splat_like(e, y, 0.0), y);
    return rlxp_out(e, n, y);
}

/* Broadcast a [d] vector along the last axis of X. */
static uint32_t along_last(rlxp_emit *e, uint32_t g, uint32_t x)
{
    const rlxp_val *v = rlxp_type_of(e, x);
    int64_t map[1] = { (int64_t)v->rank - 1 };
    return rlxp_broadcast(e, g, v, map);
}

static uint32_t norm(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    uint32_t g = rlxp_in_f32(e, n, 1);
    if (x == RLXP_NONE || g == RLXP_NONE)
        return RLXP_NONE;
    const rlxp_val v = *rlxp_type_of(e, x);
    int layer = n->op == RLX_OP_LAYER_NORM;
    double eps = n->n_float_attrs > RLX_ATTR_NORM_EPSILON
                     ? n->float_attrs[RLX_ATTR_NORM_EPSILON]
                     : (layer ? 1e-5 : 1e-6);
    if (v.rank == 0)
        return rlxp_fail(e, RLX_ERR_SHAPE, "pjrt: norm '%s' of a scalar. "
                         "Fix: give x at least one dimension", n->name),
               RLXP_NONE;
    uint32_t last = v.rank - 1;
    int64_t ax = last;
    double d = (double)v.dims[last];
    uint32_t c = x;
    if (layer) {
        uint32_t sum = rlxp_reduce(e, x, 1, &ax, "stablehlo.add", 0.0);
        uint32_t mean = rlxp_bin(e, "stablehlo.divide", sum,
                                 rlxp_splat_like(e, sum, d));
        c = rlxp_bin(e, "stablehlo.subtract", x, expand(e, mean, x, last));
    }
    uint32_t sq = rlxp_bin(e, "stablehlo.multiply", c, c);
    uint32_t ssq = rlxp_reduce(e, sq, 1, &ax, "stablehlo.add", 0.0);
    uint32_t var = rlxp_bin(e, "stablehlo.divide", ssq,
                            rlxp_splat_like(e, ssq, d));
    uint32_t inv = rlxp_un(e, "stablehlo.rsqrt",
                           rlxp_bin(e, "stablehlo.add", var,
                                    rlxp_splat_like(e, var, eps)));
    uint32_t y = rlxp_bin(e, "stablehlo.multiply", c, expand(e, inv, c, last));
    y = rlxp_bin(e, "stablehlo.multiply", y, along_last(e, g, y));
    if (layer) {
        uint32_t b = rlxp_in_f32(e, n, 2);
        y = rlxp_bin(e, "stablehlo.add", y, along_last(e, b, y));
    }
    return rlxp_out(e, n, y);
}

uint32_t rlxp_emit_rows(rlxp_emit *e, const rlx_node_view *n)
{
    if (n->op == RLX_OP_SOFTMAX)
        return softmax(e, n);
    return norm(e, n);
}
