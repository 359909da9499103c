/*
 * shape_layout.c - shape inference for the ops that rearrange a tensor
 * without looking at its values: pad, expand, tile, strided_slice and
 * trilu. Every dtype is accepted; the result keeps the input's dtype.
 * Sizes are checked for int64 overflow here, so kernels can trust them.
 */
#include <string.h>

#include <rlx/kit_index.h>

#include "shape_internal.h"

/* A + B into *OUT; 0 when it leaves int64. */
static int add_ok(int64_t a, int64_t b, int64_t *out)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return 0;
    *out = a + b;
    return 1;
}

rlx_status rlx__shape_pad(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    int64_t mode = rlx__shape_int(c, RLX_ATTR_PAD_MODE, RLX_PAD_CONSTANT);
    uint32_t n = rlx__shape_n_ints(c);
    uint32_t n_pads = n > RLX_ATTR_PAD_PADS ? n - RLX_ATTR_PAD_PADS : 0;
    if (mode < RLX_PAD_CONSTANT || mode > RLX_PAD_WRAP)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "mode %lld is unknown. Fix: use 0 (constant), "
                                "1 (reflect), 2 (edge) or 3 (wrap)",
                                (long long)mode);
    if (n_pads != 0 && n_pads != 2 * x->rank)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has %u pads but '%s' %s has rank %u. Fix: "
                                "give %u begins then %u ends (or none)",
                                n_pads, x->name,
                                rlx__shape_of(sx, sizeof sx, x), x->rank,
                                x->rank, x->rank);
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    for (uint32_t d = 0; n_pads && d < x->rank; d++) {
        int64_t b = c->attrs->ints[RLX_ATTR_PAD_PADS + d];
        int64_t e = c->attrs->ints[RLX_ATTR_PAD_PADS + x->rank + d];
        int64_t mid, dim;
        /* the crop (negative pads) comes first, then the padding */
        int64_t crop = (b < 0 ? b : 0), crop_e = (e < 0 ? e : 0);
        if (!add_ok(x->shape[d], crop, &mid) || !add_ok(mid, crop_e, &mid) ||
            mid < 0)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "pads %lld, %lld crop more than axis %u "
                                    "of '%s' %s holds. Fix: crop at most "
                                    "the axis's size", (long long)b,
                                    (long long)e, d, x->name,
                                    rlx__shape_of(sx, sizeof sx, x));
        if (!add_ok(mid, b > 0 ? b : 0, &dim) ||
            !add_ok(dim, e > 0 ? e : 0, &dim))
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "pads %lld, %lld overflow axis %u. Fix: "
                                    "use smaller pads", (long long)b,
                                    (long long)e, d);
        if (mode != RLX_PAD_CONSTANT && mid == 0 && dim > 0)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "%s padding of axis %u, which is empty "
                                    "(after cropping), has nothing to copy. "
                                    "Fix: use constant mode, or pad a "
                                    "non-empty axis",
                                    mode == RLX_PAD_REFLECT ? "reflect"
                                    : mode == RLX_PAD_EDGE  ? "edge"
                                                            : "wrap", d);
        out->shape[d] = dim;
    }
    return RLX_OK;
}

rlx_status rlx__shape_expand(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF], ss[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t n = rlx__shape_n_ints(c);
    const int64_t *s = n ? c->attrs->ints + RLX_ATTR_EXPAND_SHAPE : NULL;
    uint32_t rank = n > x->rank ? n : x->rank;
    if (rank > RLX_MAX_RANK)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "the result has rank %u, above the limit of "
                                "%d. Fix: expand to fewer dimensions", rank,
                                RLX_MAX_RANK);
    for (uint32_t i = 0; i < rank; i++) {
        /* align from the right, as broadcasting does */
        int64_t dx = i < x->rank ? x->shape[x->rank - 1 - i] : 1;
        int64_t ds = i < n ? s[n - 1 - i] : 1;
        if (ds < 0)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "the shape %s has a negative size. Fix: "
                                    "sizes are 0 or more",
                                    rlx__shape_str(ss, sizeof ss, n, s));
        if (dx != ds && dx != 1 && ds != 1)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "'%s' %s does not broadcast to %s: "
                                    "dimension %lld vs %lld. Fix: make the "
                                    "sizes equal, or 1 on one side",
                                    x->name, rlx__shape_of(sx, sizeof sx, x),
                                    rlx__shape_str(ss, sizeof ss, n, s),
                                    (long long)dx, (long long)ds);
        out->shape[rank - 1 - i] = dx == 1 ? ds : dx;
    }
    out->rank = rank;
    return RLX_OK;
}

rlx_status rlx__shape_tile(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t n = rlx__shape_n_ints(c);
    if (n != x->rank)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has %u repeats but '%s' %s has rank %u. "
                                "Fix: give one repeat count per axis", n,
                                x->name, rlx__shape_of(sx, sizeof sx, x),
                                x->rank);
    out->rank = x->rank;
    for (uint32_t d = 0; d < n; d++) {
        int64_t r = c->attrs->ints[RLX_ATTR_TILE_REPEATS + d];
        if (r < 0)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "repeat %u is %lld. Fix: repeats are 0 "
                                    "or more", d, (long long)r);
        if (r && x->shape[d] > INT64_MAX / r)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "tiling axis %u %lld times overflows. "
                                    "Fix: use fewer repeats", d,
                                    (long long)r);
        out->shape[d] = x->shape[d] * r;
    }
    return RLX_OK;
}

rlx_status rlx__shape_strided_slice(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t n = rlx__shape_n_ints(c);
    if (n % 4 != 0)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has %u integer attributes. Fix: give "
                                "(axis, start, end, step) quadruples", n);
    unsigned char seen[RLX_MAX_RANK] = { 0 };
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    for (uint32_t t = 0; t < n; t += 4) {
        const int64_t *q = c->attrs->ints + t;
        uint32_t axis;
        rlx_status st = rlx__shape_axis(c, "slice axis", q[0], x->rank,
                                        &axis);
        if (st != RLX_OK)
            return st;
        if (seen[axis])
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "axis %u of '%s' %s is sliced twice. "
                                    "Fix: give one quadruple per axis", axis,
                                    x->name, rlx__shape_of(sx, sizeof sx, x));
        seen[axis] = 1;
        if (q[3] == 0)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "the step for axis %u is 0. Fix: use a "
                                    "positive step, or a negative one to "
                                    "walk backwards", axis);
        int64_t first;
        rlx_kit_slice_bounds(x->shape[axis], q[1], q[2], q[3], &first,
                            &out->shape[axis]);
    }
    return RLX_OK;
}

rlx_status rlx__shape_trilu(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    int64_t upper = rlx__shape_int(c, RLX_ATTR_TRILU_UPPER, 1);
    if (upper != 0 && upper != 1)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "upper is %lld. Fix: use 1 (keep the upper "
                                "triangle) or 0 (the lower)",
                                (long long)upper);
    if (x->rank < 2)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "'%s' %s has rank %u. Fix: trilu needs rank "
                                "2 or more (it keeps a triangle of the last "
                                "two dimensions)", x->name,
                                rlx__shape_of(sx, sizeof sx, x), x->rank);
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    return RLX_OK;
}
