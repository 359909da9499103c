/*
 * shape_ew.c - shapes and attribute checks of the elementwise, select and
 * index-of-extreme ops of ABI 1.4 (values 100-149): comparisons, logical
 * and bitwise ops, bit_shift, where, clip, isinf, mod, the activations with
 * parameters, the added reductions and argmax/argmin. Dtypes are checked
 * before this, in shape_dtype.c.
 */
#include <math.h>
#include <string.h>

#include "shape_internal.h"

static double float_attr(const rlx__shape_ctx *c, uint32_t i, double dflt)
{
    return c->attrs && i < c->attrs->n_floats ? c->attrs->floats[i] : dflt;
}

static rlx_status check_flag(const rlx__shape_ctx *c, uint32_t i,
                             int64_t dflt, const char *what)
{
    int64_t v = rlx__shape_int(c, i, dflt);
    if (v != 0 && v != 1)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "%s is %lld. Fix: use 0 or 1", what,
                                (long long)v);
    return RLX_OK;
}

static rlx_status infer_where(const rlx__shape_ctx *c, rlx__node *out)
{
    rlx__node ab = *rlx__shape_in(c, 1);
    rlx_status st = rlx__shape_broadcast(c, rlx__shape_in(c, 1),
                                         rlx__shape_in(c, 2), &ab);
    if (st != RLX_OK)
        return st;
    ab.name = (char *)"a and b broadcast";
    return rlx__shape_broadcast(c, rlx__shape_in(c, 0), &ab, out);
}

static rlx_status infer_clip(const rlx__shape_ctx *c)
{
    double lo = float_attr(c, RLX_ATTR_CLIP_MIN, -INFINITY);
    double hi = float_attr(c, RLX_ATTR_CLIP_MAX, INFINITY);
    if (isnan(lo) || isnan(hi))
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "the %s bound is NaN. Fix: give a number, "
                                "or -inf/+inf for no bound",
                                isnan(lo) ? "min" : "max");
    return RLX_OK;
}

static rlx_status infer_mod(const rlx__shape_ctx *c, rlx__node *out)
{
    rlx_status st = check_flag(c, RLX_ATTR_MOD_FMOD, 0, "fmod");
    if (st != RLX_OK)
        return st;
    rlx_dtype t = rlx__shape_in(c, 0)->dtype;
    int is_float = t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 ||
                   t == RLX_DTYPE_BF16 || t == RLX_DTYPE_F64;
    if (is_float && rlx__shape_int(c, RLX_ATTR_MOD_FMOD, 0) == 0)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "fmod is 0 (integer mod) but the operands "
                                "are %s. Fix: set fmod to 1 for floating "
                                "point operands", rlx_dtype_name(t));
    return rlx__shape_broadcast(c, rlx__shape_in(c, 0),
                                rlx__shape_in(c, 1), out);
}

static rlx_status infer_arg(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t axis;
    rlx_status st = rlx__shape_axis(
        c, "axis", rlx__shape_int(c, RLX_ATTR_ARG_AXIS, 0), x->rank, &axis);
    if (st == RLX_OK)
        st = check_flag(c, RLX_ATTR_ARG_KEEPDIMS, 1, "keepdims");
    if (st == RLX_OK)
        st = check_flag(c, RLX_ATTR_ARG_SELECT_LAST_INDEX, 0,
                        "select_last_index");
    if (st != RLX_OK)
        return st;
    if (x->shape[axis] == 0) {
        char sx[RLX__SHAPE_BUF];
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "axis %u of '%s' %s is empty, so there is "
                                "no extreme to index. Fix: reduce along a "
                                "non-empty axis", axis, x->name,
                                rlx__shape_of(sx, sizeof sx, x));
    }
    int keep = rlx__shape_int(c, RLX_ATTR_ARG_KEEPDIMS, 1) != 0;
    uint32_t r = 0;
    for (uint32_t d = 0; d < x->rank; d++)
        if (d != axis || keep)
            out->shape[r++] = d == axis ? 1 : x->shape[d];
    out->rank = r;
    return RLX_OK;
}

rlx_status rlx__shape_ew14(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *a = rlx__shape_in(c, 0);
    rlx_status st = RLX_OK;
    switch (c->op) {
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL:
    case RLX_OP_LOGICAL_AND: case RLX_OP_LOGICAL_OR:
    case RLX_OP_LOGICAL_XOR: case RLX_OP_BITWISE_AND:
    case RLX_OP_BITWISE_OR: case RLX_OP_BITWISE_XOR: case RLX_OP_PRELU:
        return rlx__shape_broadcast(c, a, rlx__shape_in(c, 1), out);
    case RLX_OP_BIT_SHIFT:
        st = check_flag(c, RLX_ATTR_BIT_SHIFT_DIRECTION, RLX_BIT_SHIFT_LEFT,
                        "direction (0 left, 1 right)");
        if (st != RLX_OK)
            return st;
        return rlx__shape_broadcast(c, a, rlx__shape_in(c, 1), out);
    case RLX_OP_WHERE: return infer_where(c, out);
    case RLX_OP_MOD: return infer_mod(c, out);
    case RLX_OP_REDUCE_MIN: case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_REDUCE_SUM_SQUARE:
        return rlx__shape_reduce(c, out);
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN: return infer_arg(c, out);
    case RLX_OP_CLIP: st = infer_clip(c); break;
    case RLX_OP_ISINF:
        st = check_flag(c, RLX_ATTR_ISINF_DETECT_POSITIVE, 1,
                        "detect_positive");
        if (st == RLX_OK)
            st = check_flag(c, RLX_ATTR_ISINF_DETECT_NEGATIVE, 1,
                            "detect_negative");
        break;
    default: break; /* unary: same shape */
    }
    if (st != RLX_OK)
        return st;
    out->rank = a->rank;
    memcpy(out->shape, a->shape, sizeof out->shape);
    return RLX_OK;
}
