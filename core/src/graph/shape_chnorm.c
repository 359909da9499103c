/*
 * shape_chnorm.c - shape inference for the per-channel norms on
 * [N, C, ...] tensors: batch_norm (inference), instance_norm and
 * group_norm. Parameters are one value per channel (or per group).
 */
#include <math.h>
#include <string.h>

#include "shape_internal.h"

rlx_status rlx__shape_chnorm(const rlx__shape_ctx *c, rlx__node *out)
{
    static const char *const bn_role[] = { "x", "scale", "bias", "mean",
                                           "var" };
    char sx[RLX__SHAPE_BUF], sp[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    if (x->rank < 2)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "'%s' is %s. Fix: %s takes [N, C, ...] "
                                "(rank 2 or more)", x->name,
                                rlx__shape_of(sx, sizeof sx, x),
                                rlx_op_name(c->op));
    int64_t ch = x->shape[1], groups = 0;
    if (c->op == RLX_OP_GROUP_NORM) {
        groups = rlx__shape_int(c, RLX_ATTR_GROUP_NORM_GROUPS, 0);
        if (groups < 1 || ch % groups != 0)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "groups is %lld for %lld channels. "
                                    "Fix: give int_attrs[0] groups, a "
                                    "divisor of the channel count",
                                    (long long)groups, (long long)ch);
    }
    double eps = c->attrs && c->attrs->n_floats > RLX_ATTR_NORM_EPSILON
                     ? c->attrs->floats[RLX_ATTR_NORM_EPSILON] : 1e-5;
    if (!(eps >= 0) || isinf(eps))
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "epsilon is %g. Fix: use a finite "
                                "epsilon >= 0", eps);
    for (uint32_t i = 1; i < c->n_inputs; i++) {
        const rlx__node *p = rlx__shape_in(c, i);
        int ok = p->rank == 1 &&
                 (p->shape[0] == ch || (groups && p->shape[0] == groups));
        if (!ok)
            return rlx__shape_error(
                c, RLX_ERR_SHAPE,
                "%s '%s' is %s, but '%s' %s has %lld channels (axis 1). "
                "Fix: %s must be [%lld]%s", bn_role[i], p->name,
                rlx__shape_of(sp, sizeof sp, p), x->name,
                rlx__shape_of(sx, sizeof sx, x), (long long)ch, bn_role[i],
                (long long)ch, groups ? " or [groups]" : "");
    }
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    return RLX_OK;
}
