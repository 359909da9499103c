/*
 * pjrt_emit_arg.c - argmax and argmin as two single-result reductions:
 * the extreme (maximum and minimum propagate NaN, so a NaN is the
 * extreme when there is one), then the least (or, with
 * select_last_index, the greatest) index whose element equals it, NaN
 * matching NaN and -0 matching +0. No variadic reduce: any StableHLO
 * consumer, and the text checker, take this form.
 */
#include <math.h>

#include "pjrt_emit.h"

uint32_t rlxp_emit_arg(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val v = *rlxp_type_of(e, x);
    int64_t axis = n->n_int_attrs > RLX_ATTR_ARG_AXIS
                       ? n->int_attrs[RLX_ATTR_ARG_AXIS] : 0;
    if (axis < 0)
        axis += v.rank;
    int last = n->n_int_attrs > RLX_ATTR_ARG_SELECT_LAST_INDEX &&
               n->int_attrs[RLX_ATTR_ARG_SELECT_LAST_INDEX] != 0;
    int is_max = n->op == RLX_OP_ARGMAX;
    if (v.rank == 0) /* one element: index 0 */
        return rlxp_splat(e, &(rlxp_val){ RLX_DTYPE_I64, 0, { 0 } }, 0.0);
    uint32_t m = rlxp_reduce(e, x, 1, &axis,
                             is_max ? "stablehlo.maximum"
                                    : "stablehlo.minimum",
                             is_max ? -INFINITY : INFINITY);
    uint32_t mb = rlxp_unreduce(e, m, x, 1, &axis);
    uint32_t hit = rlxp_compare(e, x, mb, "EQ");
    if (v.dt == RLX_DTYPE_F32 || v.dt == RLX_DTYPE_F64) {
        uint32_t both_nan = rlxp_bin(e, "stablehlo.and",
                                     rlxp_compare(e, x, x, "NE"),
                                     rlxp_compare(e, mb, mb, "NE"));
        hit = rlxp_bin(e, "stablehlo.or", hit, both_nan);
    }
    rlxp_val iv = v;
    iv.dt = RLX_DTYPE_I64;
    uint32_t idx = rlxp_iota(e, &iv, (uint32_t)axis);
    /* a miss is an index that never wins: past the end, or -1 */
    double miss = last ? -1.0 : (double)v.dims[axis];
    idx = rlxp_select(e, hit, idx, rlxp_splat_like(e, idx, miss));
    uint32_t y = rlxp_reduce(e, idx, 1, &axis,
                             last ? "stablehlo.maximum" : "stablehlo.minimum",
                             miss);
    return rlxp_reshape(e, y, n->rank, n->shape);
}
