/*
 * shape_norm.c - shape inference for the ops that normalize or reduce
 * along axes: layer_norm, rms_norm, reduce_sum/mean/max.
 */
#include <string.h>

#include "shape_internal.h"

rlx_status rlx__shape_norm(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF], sp[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    if (x->rank == 0)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "'%s' is a scalar. Fix: %s normalizes over "
                                "the last axis, so it needs rank 1 or more",
                                x->name, rlx_op_name(c->op));
    int64_t last = x->shape[x->rank - 1];
    static const char *const role[] = { "x", "gamma", "beta" };
    for (uint32_t i = 1; i < c->n_inputs; i++) {
        const rlx__node *p = rlx__shape_in(c, i);
        if (p->rank != 1 || p->shape[0] != last)
            return rlx__shape_error(
                c, RLX_ERR_SHAPE,
                "%s '%s' is %s, but '%s' %s has %lld features in its last "
                "axis. Fix: %s must be [%lld]", role[i], p->name,
                rlx__shape_of(sp, sizeof sp, p), x->name,
                rlx__shape_of(sx, sizeof sx, x), (long long)last, role[i],
                (long long)last);
    }
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    return RLX_OK;
}

rlx_status rlx__shape_reduce(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0);
    int64_t keep = rlx__shape_int(c, RLX_ATTR_REDUCE_KEEPDIMS, 0);
    if (keep != 0 && keep != 1)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "keepdims is %lld. Fix: use 0 or 1",
                                (long long)keep);
    unsigned char reduced[RLX_MAX_RANK] = { 0 };
    uint32_t n_ints = rlx__shape_n_ints(c);
    if (n_ints <= RLX_ATTR_REDUCE_AXES) {
        memset(reduced, 1, sizeof reduced); /* no axes: every axis */
    } else {
        for (uint32_t i = RLX_ATTR_REDUCE_AXES; i < n_ints; i++) {
            uint32_t axis;
            rlx_status st = rlx__shape_axis(c, "axis", c->attrs->ints[i],
                                            x->rank, &axis);
            if (st != RLX_OK)
                return st;
            if (reduced[axis])
                return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                        "axis %lld names dimension %u, "
                                        "which is already reduced. Fix: "
                                        "list each axis once",
                                        (long long)c->attrs->ints[i], axis);
            reduced[axis] = 1;
        }
    }
    uint32_t r = 0;
    for (uint32_t d = 0; d < x->rank; d++) {
        if (!reduced[d])
            out->shape[r++] = x->shape[d];
        else if (keep)
            out->shape[r++] = 1;
    }
    out->rank = r;
    return RLX_OK;
}
