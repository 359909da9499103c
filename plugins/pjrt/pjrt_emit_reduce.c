/*
 * pjrt_emit_reduce.c - reduce_sum, reduce_mean and reduce_max over a set
 * of axes (none: all), with keepdims as a reshape. Mean divides the sum
 * by the element count, so an empty axis gives 0/0 = NaN as rlx wants;
 * max starts from -inf and stablehlo.maximum propagates NaN.
 */
#include <math.h>

#include "pjrt_emit.h"

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
    int is_max = n->op == RLX_OP_REDUCE_MAX;
    uint32_t y = rlxp_reduce(e, x, na, axes,
                             is_max ? "stablehlo.maximum" : "stablehlo.add",
                             is_max ? -INFINITY : 0.0);
    if (n->op == RLX_OP_REDUCE_MEAN && y != RLXP_NONE)
        y = rlxp_bin(e, "stablehlo.divide", y, rlxp_splat_like(e, y, count));
    (void)keep; /* the node's shape already says whether dims were kept */
    y = rlxp_reshape(e, y, n->rank, n->shape);
    return rlxp_out(e, n, y);
}
