/*
 * pjrt_emit_norm.c - batch_norm (inference), instance_norm and
 * group_norm on [N, C, ...], composed in f32: per-channel parameters
 * broadcast along axis 1; the statistics of instance and group norm are
 * two reductions (mean, then the mean of squared deviations, so the
 * variance is never negative and a constant group gives the bias).
 * Group norm views x as [N, G, C/G * spatial]; per-group scale and bias
 * ([G]) are widened to per channel first.
 */
#include <math.h>

#include "pjrt_emit.h"

static double eps_of(const rlx_node_view *n)
{
    return n->n_float_attrs > RLX_ATTR_NORM_EPSILON
               ? n->float_attrs[RLX_ATTR_NORM_EPSILON] : 1e-5;
}

/* A [C] vector along axis 1 of X's shape. */
static uint32_t per_channel(rlxp_emit *e, uint32_t c, uint32_t x)
{
    int64_t map[1] = { 1 };
    return rlxp_broadcast(e, c, rlxp_type_of(e, x), map);
}

static uint32_t batch_norm(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    uint32_t scale = rlxp_in_f32(e, n, 1), bias = rlxp_in_f32(e, n, 2);
    uint32_t mean = rlxp_in_f32(e, n, 3), var = rlxp_in_f32(e, n, 4);
    /* a = scale / sqrt(var + eps) per channel, then (x - mean) a + bias */
    uint32_t a = rlxp_bin(e, "stablehlo.multiply", scale,
                          rlxp_un(e, "stablehlo.rsqrt",
                                  rlxp_bin(e, "stablehlo.add", var,
                                           rlxp_splat_like(e, var,
                                                           eps_of(n)))));
    uint32_t y = rlxp_bin(e, "stablehlo.subtract", x, per_channel(e, mean, x));
    y = rlxp_bin(e, "stablehlo.multiply", y, per_channel(e, a, y));
    return rlxp_bin(e, "stablehlo.add", y, per_channel(e, bias, y));
}

/* (x - mean) / sqrt(var + eps) over axes 2.. of X (rank >= 3). */
static uint32_t standardize(rlxp_emit *e, uint32_t x, double eps)
{
    const rlxp_val v = *rlxp_type_of(e, x);
    int64_t axes[RLXP_MAX_RANK];
    double count = 1.0;
    uint32_t na = 0;
    for (uint32_t d = 2; d < v.rank; d++) {
        axes[na++] = d;
        count *= (double)v.dims[d];
    }
    uint32_t s = rlxp_reduce(e, x, na, axes, "stablehlo.add", 0.0);
    uint32_t mean = rlxp_bin(e, "stablehlo.divide", s,
                             rlxp_splat_like(e, s, count));
    uint32_t c = rlxp_bin(e, "stablehlo.subtract", x,
                          rlxp_unreduce(e, mean, x, na, axes));
    uint32_t ss = rlxp_reduce(e, rlxp_bin(e, "stablehlo.multiply", c, c), na,
                              axes, "stablehlo.add", 0.0);
    uint32_t var = rlxp_bin(e, "stablehlo.divide", ss,
                            rlxp_splat_like(e, ss, count));
    uint32_t inv = rlxp_un(e, "stablehlo.rsqrt",
                           rlxp_bin(e, "stablehlo.add", var,
                                    rlxp_splat_like(e, var, eps)));
    return rlxp_bin(e, "stablehlo.multiply", c,
                    rlxp_unreduce(e, inv, c, na, axes));
}

static uint32_t group_norm(rlxp_emit *e, const rlx_node_view *n, uint32_t x)
{
    const rlxp_val v = *rlxp_type_of(e, x);
    int64_t groups = n->n_int_attrs > RLX_ATTR_GROUP_NORM_GROUPS
                         ? n->int_attrs[RLX_ATTR_GROUP_NORM_GROUPS] : 1;
    if (n->op == RLX_OP_INSTANCE_NORM)
        groups = v.dims[1];
    int64_t rest = rlxp_val_count(&v) / (v.dims[0] ? v.dims[0] : 1) /
                   (groups ? groups : 1);
    if (v.dims[0] == 0 || groups == 0)
        rest = 0;
    int64_t d3[3] = { v.dims[0], groups, rest };
    uint32_t y = standardize(e, rlxp_reshape(e, x, 3, d3), eps_of(n));
    return rlxp_reshape(e, y, v.rank, v.dims);
}

/* A [G] parameter widened to [C] (each group's value on its channels). */
static uint32_t widen(rlxp_emit *e, uint32_t p, int64_t c)
{
    const rlxp_val *pv = rlxp_type_of(e, p);
    if (pv->dims[0] == c || pv->dims[0] == 0)
        return p;
    int64_t g = pv->dims[0];
    int64_t d2[2] = { g, c / g };
    rlxp_val to = rlxp_val_make(pv->dt, 2, d2);
    int64_t map[1] = { 0 };
    uint32_t b = rlxp_broadcast(e, p, &to, map);
    int64_t d1[1] = { c };
    return rlxp_reshape(e, b, 1, d1);
}

uint32_t rlxp_emit_norm(rlxp_emit *e, const rlx_node_view *n)
{
    if (n->op == RLX_OP_BATCH_NORM)
        return rlxp_out(e, n, batch_norm(e, n));
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    int64_t c = rlxp_type_of(e, x)->dims[1];
    uint32_t y = group_norm(e, n, x);
    uint32_t scale = widen(e, rlxp_in_f32(e, n, 1), c);
    uint32_t bias = widen(e, rlxp_in_f32(e, n, 2), c);
    y = rlxp_bin(e, "stablehlo.multiply", y, per_channel(e, scale, y));
    return rlxp_out(e, n, rlxp_bin(e, "stablehlo.add", y,
                                   per_channel(e, bias, y)));
}
