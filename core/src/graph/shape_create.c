/*
 * shape_create.c - shape inference for the ops that choose their own
 * result dtype: cast (any dtype to any) and fill (no inputs).
 */
#include <string.h>

#include "shape_internal.h"

rlx_status rlx__shape_cast(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0);
    if (rlx__shape_n_ints(c) <= RLX_ATTR_CAST_DTYPE)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has no target dtype. Fix: set int_attrs[0] "
                                "to an RLX_DTYPE_* value");
    int64_t t = c->attrs->ints[RLX_ATTR_CAST_DTYPE];
    if (t < 1 || t > RLX_DTYPE_LAST || !rlx__dtype_is_known((rlx_dtype)t))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "target dtype %lld is unknown. Fix: use an "
                                "RLX_DTYPE_* value (f32, f16, bf16, f64, "
                                "i32, i64, i8, u8, bool)", (long long)t);
    out->dtype = (rlx_dtype)t;
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    return RLX_OK;
}

rlx_status rlx__shape_fill(const rlx__shape_ctx *c, rlx__node *out)
{
    uint32_t n = rlx__shape_n_ints(c);
    if (n <= RLX_ATTR_FILL_DTYPE)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has no dtype. Fix: set int_attrs[0] to an "
                                "RLX_DTYPE_* value and int_attrs[1..] to "
                                "the shape");
    int64_t t = c->attrs->ints[RLX_ATTR_FILL_DTYPE];
    if (t < 1 || t > RLX_DTYPE_LAST || !rlx__dtype_is_known((rlx_dtype)t))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "dtype %lld is unknown. Fix: use an "
                                "RLX_DTYPE_* value (f32, f16, bf16, f64, "
                                "i32, i64, i8, u8, bool)", (long long)t);
    uint32_t r = n - RLX_ATTR_FILL_SHAPE;
    const int64_t *dims = c->attrs->ints + RLX_ATTR_FILL_SHAPE;
    for (uint32_t d = 0; d < r; d++)
        if (dims[d] < 0)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "dimension %u is negative (%lld). Fix: "
                                    "dimensions are sizes, 0 or more", d,
                                    (long long)dims[d]);
    if (rlx__shape_elements(r, dims) < 0) {
        char s[RLX__SHAPE_BUF];
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "the shape %s overflows. Fix: use smaller "
                                "dimensions", rlx__shape_str(s, sizeof s, r,
                                                             dims));
    }
    out->dtype = (rlx_dtype)t;
    out->rank = r;
    if (r)
        memcpy(out->shape, dims, r * sizeof *dims);
    return RLX_OK;
}
