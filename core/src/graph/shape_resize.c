/*
 * shape_resize.c - attribute checks and shape inference for resize: the
 * output shape is an attribute (the ONNX importer resolves scales, sizes
 * and keep_aspect_ratio_policy to it); the scales and roi, when given,
 * drive the coordinate transform. And grid_sample's, whose output
 * positions come from the grid.
 */
#include <math.h>
#include <string.h>

#include "shape_internal.h"

rlx_status rlx__shape_resize(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t r = x->rank, n = rlx__shape_n_ints(c);
    uint32_t nf = c->attrs ? c->attrs->n_floats : 0;
    if (r == 0)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "'%s' is a scalar. Fix: resize needs rank "
                                "1 or more", x->name);
    if (n != RLX_ATTR_RESIZE_SHAPE + r)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "%u integer attributes for rank %u. Fix: "
                                "give mode, coordinate transform, nearest "
                                "rounding, exclude_outside, then the %u "
                                "output dims (%u in all)", n, r, r,
                                RLX_ATTR_RESIZE_SHAPE + r);
    int64_t mode = c->attrs->ints[RLX_ATTR_RESIZE_MODE];
    int64_t coord = c->attrs->ints[RLX_ATTR_RESIZE_COORD];
    int64_t near = c->attrs->ints[RLX_ATTR_RESIZE_NEAREST];
    int64_t excl = c->attrs->ints[RLX_ATTR_RESIZE_EXCLUDE_OUTSIDE];
    if (mode < RLX_RESIZE_NEAREST || mode > RLX_RESIZE_CUBIC ||
        coord < RLX_RESIZE_HALF_PIXEL ||
        coord > RLX_RESIZE_TF_CROP_AND_RESIZE ||
        near < RLX_RESIZE_ROUND_PREFER_FLOOR || near > RLX_RESIZE_CEIL ||
        (excl != 0 && excl != 1))
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "mode %lld, coordinate transform %lld, "
                                "nearest rounding %lld, exclude_outside "
                                "%lld. Fix: use mode 0-2, transform 0-5, "
                                "rounding 0-3, exclude_outside 0 or 1 "
                                "(RLX_RESIZE_* in rlx/ops.h)",
                                (long long)mode, (long long)coord,
                                (long long)near, (long long)excl);
    if (mode != RLX_RESIZE_NEAREST && x->dtype != RLX_DTYPE_F32 &&
        x->dtype != RLX_DTYPE_F16 && x->dtype != RLX_DTYPE_BF16)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "'%s' is %s; linear and cubic resize "
                                "interpolate in floating point. Fix: cast "
                                "to f32, f16 or bf16, or use nearest",
                                x->name, rlx_dtype_name(x->dtype));
    if (nf > RLX_ATTR_RESIZE_SCALES && nf != RLX_ATTR_RESIZE_SCALES + r &&
        nf != RLX_ATTR_RESIZE_SCALES + 3 * r)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "%u float attributes for rank %u. Fix: "
                                "give cubic_coeff_a, extrapolation_value, "
                                "then %u scales, then optionally the roi "
                                "(%u starts, %u ends)", nf, r, r, r, r);
    for (uint32_t i = 0; i < nf; i++) {
        double v = c->attrs->floats[i];
        int is_scale = i >= RLX_ATTR_RESIZE_SCALES &&
                       i < RLX_ATTR_RESIZE_SCALES + r;
        if (!isfinite(v) || (is_scale && !(v > 0)))
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "float attribute %u is %g. Fix: use "
                                    "finite values%s", i, v,
                                    is_scale ? "; scales must be > 0" : "");
    }
    out->rank = r;
    for (uint32_t i = 0; i < r; i++) {
        int64_t o = c->attrs->ints[RLX_ATTR_RESIZE_SHAPE + i];
        if (o < 0 || o > ((int64_t)1 << 48) || (o > 0 && x->shape[i] == 0))
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "output dim %u is %lld for '%s' %s. "
                                    "Fix: use a size >= 0, and 0 where the "
                                    "input dim is 0", i, (long long)o,
                                    x->name, rlx__shape_of(sx, sizeof sx, x));
        out->shape[i] = o;
    }
    return RLX_OK;
}

/* grid_sample(x, grid): x [N, C, D1..Ds], grid [N, O1..Os, s] -> [N, C,
 * O1..Os]; both one float dtype (checked with the float ops). */
rlx_status rlx__shape_grid_sample(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0), *g = rlx__shape_in(c, 1);
    char sx[RLX__SHAPE_BUF], sg[RLX__SHAPE_BUF];
    static const char *const what[3] = { "mode (0 linear, 1 nearest, 2 "
                                         "cubic)",
                                         "padding (0 zeros, 1 border, 2 "
                                         "reflection)",
                                         "align_corners (0 or 1)" };
    static const int64_t top[3] = { 2, 2, 1 };
    for (uint32_t i = 0; i < 3; i++) {
        int64_t v = rlx__shape_int(c, i, 0);
        if (v < 0 || v > top[i])
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "%s is %lld. Fix: use one of the values "
                                    "listed", what[i], (long long)v);
    }
    uint32_t s = x->rank >= 3 ? x->rank - 2 : 0;
    if (s < 1 || s > 3)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "'%s' %s has rank %u. Fix: give [N, C, D1..Ds] "
                                "with 1 to 3 spatial axes", x->name,
                                rlx__shape_of(sx, sizeof sx, x), x->rank);
    int ok = g->rank == s + 2 && g->shape[0] == x->shape[0] &&
             g->shape[s + 1] == (int64_t)s;
    if (!ok)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "the grid '%s' %s does not fit '%s' %s. Fix: "
                                "give the grid [N, O1..Os, %u] with x's N",
                                g->name, rlx__shape_of(sg, sizeof sg, g),
                                x->name, rlx__shape_of(sx, sizeof sx, x), s);
    out->rank = x->rank;
    out->shape[0] = x->shape[0];
    out->shape[1] = x->shape[1];
    for (uint32_t i = 0; i < s; i++)
        out->shape[2 + i] = g->shape[1 + i];
    return RLX_OK;
}

/* roi_align(x, rois, batch_index) -> [R, C, oh, ow]. x and rois share a
 * float dtype (the float ops' rule); the index is i32 or i64. */
rlx_status rlx__shape_roi_align(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0), *r = rlx__shape_in(c, 1);
    const rlx__node *b = rlx__shape_in(c, 2);
    char sx[RLX__SHAPE_BUF], sr[RLX__SHAPE_BUF], sb[RLX__SHAPE_BUF];
    int64_t mode = rlx__shape_int(c, RLX_ATTR_ROI_ALIGN_MODE, 0);
    int64_t oh = rlx__shape_int(c, RLX_ATTR_ROI_ALIGN_HEIGHT, 1);
    int64_t ow = rlx__shape_int(c, RLX_ATTR_ROI_ALIGN_WIDTH, 1);
    int64_t sr_ = rlx__shape_int(c, RLX_ATTR_ROI_ALIGN_SAMPLING_RATIO, 0);
    int64_t hp = rlx__shape_int(c, RLX_ATTR_ROI_ALIGN_HALF_PIXEL, 1);
    double scale = c->attrs && c->attrs->n_floats ? c->attrs->floats[0] : 1;
    if ((mode != 0 && mode != 1) || (hp != 0 && hp != 1) || oh < 1 ||
        ow < 1 || oh > 65536 || ow > 65536 || sr_ < 0 || sr_ > 65536 ||
        !isfinite(scale))
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "mode %lld, output %lld x %lld, "
                                "sampling_ratio %lld, half_pixel %lld, "
                                "spatial_scale %g. Fix: mode and half_pixel "
                                "0 or 1, output sizes 1 to 65536, "
                                "sampling_ratio 0 to 65536, a finite scale",
                                (long long)mode, (long long)oh, (long long)ow,
                                (long long)sr_, (long long)hp, scale);
    int ok = x->rank == 4 && r->rank == 2 && r->shape[1] == 4 &&
             b->rank == 1 && b->shape[0] == r->shape[0] &&
             (b->dtype == RLX_DTYPE_I32 || b->dtype == RLX_DTYPE_I64);
    if (!ok)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "x %s, rois %s, batch_index %s %s. Fix: give "
                                "x [N, C, H, W], rois [R, 4] and an i32 or "
                                "i64 batch_index [R]",
                                rlx__shape_of(sx, sizeof sx, x),
                                rlx__shape_of(sr, sizeof sr, r),
                                rlx_dtype_name(b->dtype),
                                rlx__shape_of(sb, sizeof sb, b));
    out->rank = 4;
    out->shape[0] = r->shape[0];
    out->shape[1] = x->shape[1];
    out->shape[2] = oh;
    out->shape[3] = ow;
    return RLX_OK;
}
