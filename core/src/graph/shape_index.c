/*
 * shape_index.c - shape inference for the indexing ops of ABI 1.4:
 * gather_elements, gather_nd, scatter_elements, scatter_nd, one_hot and
 * non_zero (index tensors in, or out), and the scans: cumsum, topk and
 * range. Index values themselves are only known at run time; a backend
 * fails the run on one out of range.
 */
#include <string.h>

#include "shape_internal.h"

static int is_index_dtype(rlx_dtype t)
{
    return t == RLX_DTYPE_I32 || t == RLX_DTYPE_I64;
}

static rlx_status check_indices(const rlx__shape_ctx *c, const rlx__node *i)
{
    if (!is_index_dtype(i->dtype))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "indices '%s' are %s. Fix: use i32 or i64 "
                                "indices (cast them)", i->name,
                                rlx_dtype_name(i->dtype));
    return RLX_OK;
}

/* Numeric dtypes: every one but bool. */
static rlx_status check_numeric(const rlx__shape_ctx *c, const rlx__node *x)
{
    if (x->dtype == RLX_DTYPE_BOOL)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "'%s' is bool, which %s does not order or "
                                "add. Fix: cast it to u8 or i32 first",
                                x->name, rlx_op_name(c->op));
    return RLX_OK;
}

static rlx_status check_reduction(const rlx__shape_ctx *c, int64_t r,
                                  const rlx__node *data)
{
    if (r < RLX_REDUCTION_NONE || r > RLX_REDUCTION_MIN)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "reduction %lld is unknown. Fix: use 0 "
                                "(none), 1 (add), 2 (mul), 3 (max) or 4 "
                                "(min)", (long long)r);
    if (r != RLX_REDUCTION_NONE && data->dtype == RLX_DTYPE_BOOL)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "'%s' is bool, which a reduction cannot "
                                "combine. Fix: use reduction 0 (none), or "
                                "cast the data to u8", data->name);
    return RLX_OK;
}

static int same_shape(const rlx__node *a, const rlx__node *b)
{
    if (a->rank != b->rank)
        return 0;
    for (uint32_t d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d])
            return 0;
    return 1;
}

/* Inputs A and B must have the same dtype (data and updates). */
static rlx_status check_same_dtype(const rlx__shape_ctx *c,
                                   const rlx__node *a, const rlx__node *b)
{
    if (a->dtype != b->dtype)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "dtypes differ: '%s' is %s, '%s' is %s. "
                                "Fix: cast the updates to the data's dtype",
                                a->name, rlx_dtype_name(a->dtype), b->name,
                                rlx_dtype_name(b->dtype));
    return RLX_OK;
}

/* gather_elements and scatter_elements: data and indices have one rank,
 * and the indices fit inside data on every axis but AXIS. */
static rlx_status check_elements(const rlx__shape_ctx *c, const rlx__node *x,
                                 const rlx__node *idx, int64_t axis_attr,
                                 uint32_t *axis)
{
    char sx[RLX__SHAPE_BUF], si[RLX__SHAPE_BUF];
    rlx_status st = check_indices(c, idx);
    if (st == RLX_OK)
        st = rlx__shape_axis(c, "axis", axis_attr, x->rank, axis);
    if (st != RLX_OK)
        return st;
    int fits = idx->rank == x->rank;
    for (uint32_t d = 0; fits && d < x->rank; d++)
        fits = d == *axis || idx->shape[d] <= x->shape[d];
    if (!fits)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "indices '%s' %s do not fit data '%s' %s. "
                                "Fix: give the indices the data's rank and "
                                "at most its size on every axis but %u",
                                idx->name, rlx__shape_of(si, sizeof si, idx),
                                x->name, rlx__shape_of(sx, sizeof sx, x),
                                *axis);
    return RLX_OK;
}

rlx_status rlx__shape_gather_elements(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0), *idx = rlx__shape_in(c, 1);
    uint32_t axis;
    rlx_status st = check_elements(
        c, x, idx, rlx__shape_int(c, RLX_ATTR_GATHER_ELEMENTS_AXIS, 0),
        &axis);
    if (st != RLX_OK)
        return st;
    out->rank = idx->rank;
    memcpy(out->shape, idx->shape, sizeof out->shape);
    out->dtype = x->dtype;
    return RLX_OK;
}

rlx_status rlx__shape_scatter_elements(const rlx__shape_ctx *c,
                                       rlx__node *out)
{
    char si[RLX__SHAPE_BUF], su[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0), *idx = rlx__shape_in(c, 1);
    const rlx__node *upd = rlx__shape_in(c, 2);
    uint32_t axis;
    rlx_status st = check_elements(
        c, x, idx, rlx__shape_int(c, RLX_ATTR_SCATTER_ELEMENTS_AXIS, 0),
        &axis);
    if (st == RLX_OK)
        st = check_same_dtype(c, x, upd);
    if (st == RLX_OK)
        st = check_reduction(
            c, rlx__shape_int(c, RLX_ATTR_SCATTER_ELEMENTS_REDUCTION, 0), x);
    if (st != RLX_OK)
        return st;
    if (!same_shape(idx, upd))
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "updates '%s' %s and indices '%s' %s differ. "
                                "Fix: give one update per index",
                                upd->name, rlx__shape_of(su, sizeof su, upd),
                                idx->name, rlx__shape_of(si, sizeof si, idx));
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    return RLX_OK;
}

/* gather_nd and scatter_nd: the index tuples are the last axis of the
 * indices, of length 1 .. rank(data) - BATCH. */
static rlx_status check_nd(const rlx__shape_ctx *c, const rlx__node *x,
                           const rlx__node *idx, int64_t batch,
                           uint32_t *last)
{
    char sx[RLX__SHAPE_BUF], si[RLX__SHAPE_BUF];
    rlx_status st = check_indices(c, idx);
    if (st != RLX_OK)
        return st;
    uint32_t lim = x->rank < idx->rank ? x->rank : idx->rank;
    if (batch < 0 || (uint64_t)batch >= lim)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "batch_dims is %lld for data '%s' %s and "
                                "indices '%s' %s. Fix: use 0 up to one less "
                                "than the smaller rank", (long long)batch,
                                x->name, rlx__shape_of(sx, sizeof sx, x),
                                idx->name, rlx__shape_of(si, sizeof si, idx));
    for (uint32_t d = 0; d < (uint32_t)batch; d++)
        if (x->shape[d] != idx->shape[d])
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "batch dimension %u differs: data '%s' "
                                    "%s, indices '%s' %s. Fix: give data "
                                    "and indices the same leading %lld "
                                    "dimensions", d, x->name,
                                    rlx__shape_of(sx, sizeof sx, x),
                                    idx->name,
                                    rlx__shape_of(si, sizeof si, idx),
                                    (long long)batch);
    int64_t k = idx->shape[idx->rank - 1];
    if (k < 1 || k > (int64_t)x->rank - batch)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "index tuples of indices '%s' %s have %lld "
                                "entries, but data '%s' %s has %lld axes "
                                "to index. Fix: make the last dimension of "
                                "the indices 1 to %lld", idx->name,
                                rlx__shape_of(si, sizeof si, idx),
                                (long long)k, x->name,
                                rlx__shape_of(sx, sizeof sx, x),
                                (long long)((int64_t)x->rank - batch),
                                (long long)((int64_t)x->rank - batch));
    *last = (uint32_t)k;
    return RLX_OK;
}

/* indices.shape[:-1] + data.shape[FROM:] into OUT. */
static void nd_shape(const rlx__node *x, const rlx__node *idx, uint32_t from,
                     rlx__node *out)
{
    uint32_t r = 0;
    for (uint32_t d = 0; d + 1 < idx->rank; d++)
        out->shape[r++] = idx->shape[d];
    for (uint32_t d = from; d < x->rank; d++)
        out->shape[r++] = x->shape[d];
    out->rank = r;
}

rlx_status rlx__shape_gather_nd(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0), *idx = rlx__shape_in(c, 1);
    int64_t batch = rlx__shape_int(c, RLX_ATTR_GATHER_ND_BATCH_DIMS, 0);
    uint32_t k = 0;
    rlx_status st = check_nd(c, x, idx, batch, &k);
    if (st != RLX_OK)
        return st;
    /* rank q - 1 + r - b - k <= q - 1 + r - b - 1 < 2 * RLX_MAX_RANK */
    if (idx->rank - 1 + x->rank - (uint32_t)batch - k > RLX_MAX_RANK)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "the result's rank is above the limit of "
                                "%d. Fix: index with fewer dimensions",
                                RLX_MAX_RANK);
    nd_shape(x, idx, (uint32_t)batch + k, out);
    out->dtype = x->dtype;
    return RLX_OK;
}

rlx_status rlx__shape_scatter_nd(const rlx__shape_ctx *c, rlx__node *out)
{
    char su[RLX__SHAPE_BUF], sw[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0), *idx = rlx__shape_in(c, 1);
    const rlx__node *upd = rlx__shape_in(c, 2);
    uint32_t k = 0;
    rlx_status st = check_nd(c, x, idx, 0, &k);
    if (st == RLX_OK)
        st = check_same_dtype(c, x, upd);
    if (st == RLX_OK)
        st = check_reduction(
            c, rlx__shape_int(c, RLX_ATTR_SCATTER_ND_REDUCTION, 0), x);
    if (st != RLX_OK)
        return st;
    rlx__node want;
    if (idx->rank - 1 + x->rank - k > RLX_MAX_RANK)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "the updates' rank would be above the limit "
                                "of %d. Fix: index with fewer dimensions",
                                RLX_MAX_RANK);
    nd_shape(x, idx, k, &want);
    if (!same_shape(&want, upd))
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "updates '%s' are %s, expected %s "
                                "(indices.shape[:-1] + data.shape[%u:]). "
                                "Fix: give one update slice per index tuple",
                                upd->name, rlx__shape_of(su, sizeof su, upd),
                                rlx__shape_str(sw, sizeof sw, want.rank,
                                               want.shape), k);
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    return RLX_OK;
}

rlx_status rlx__shape_cumsum(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t axis;
    rlx_status st = check_numeric(c, x);
    if (st == RLX_OK)
        st = rlx__shape_axis(c, "axis",
                             rlx__shape_int(c, RLX_ATTR_CUMSUM_AXIS, 0),
                             x->rank, &axis);
    if (st != RLX_OK)
        return st;
    for (uint32_t i = RLX_ATTR_CUMSUM_EXCLUSIVE;
         i <= RLX_ATTR_CUMSUM_REVERSE; i++) {
        int64_t f = rlx__shape_int(c, i, 0);
        if (f != 0 && f != 1)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "%s is %lld. Fix: use 0 or 1",
                                    i == RLX_ATTR_CUMSUM_EXCLUSIVE
                                        ? "exclusive"
                                        : "reverse", (long long)f);
    }
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    return RLX_OK;
}

rlx_status rlx__shape_topk(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t axis;
    rlx_status st = check_numeric(c, x);
    if (st == RLX_OK)
        st = rlx__shape_axis(c, "axis",
                             rlx__shape_int(c, RLX_ATTR_TOPK_AXIS, -1),
                             x->rank, &axis);
    if (st != RLX_OK)
        return st;
    if (rlx__shape_n_ints(c) <= RLX_ATTR_TOPK_K)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has no k. Fix: set int_attrs[0] to the "
                                "number of elements to keep");
    int64_t k = c->attrs->ints[RLX_ATTR_TOPK_K];
    if (k < 0 || k > x->shape[axis])
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "k is %lld but axis %u of '%s' %s has %lld "
                                "elements. Fix: use k from 0 to the axis's "
                                "size", (long long)k, axis, x->name,
                                rlx__shape_of(sx, sizeof sx, x),
                                (long long)x->shape[axis]);
    for (uint32_t i = RLX_ATTR_TOPK_LARGEST; i <= RLX_ATTR_TOPK_SORTED; i++) {
        int64_t f = rlx__shape_int(c, i, 1);
        if (f != 0 && f != 1)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "%s is %lld. Fix: use 0 or 1",
                                    i == RLX_ATTR_TOPK_LARGEST ? "largest"
                                                               : "sorted",
                                    (long long)f);
    }
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    out->shape[axis] = k;
    out->dtype = RLX_DTYPE_I64;
    return RLX_OK;
}

/* The range of integer dtype T. */
static void int_limits(rlx_dtype t, int64_t *lo, int64_t *hi)
{
    switch (t) {
    case RLX_DTYPE_I8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case RLX_DTYPE_U8: *lo = 0; *hi = UINT8_MAX; break;
    case RLX_DTYPE_I32: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case RLX_DTYPE_I16: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case RLX_DTYPE_U16: *lo = 0; *hi = UINT16_MAX; break;
    case RLX_DTYPE_U32: *lo = 0; *hi = UINT32_MAX; break;
    case RLX_DTYPE_U64: *lo = 0; *hi = INT64_MAX; break; /* as int64 */
    default: *lo = INT64_MIN; *hi = INT64_MAX; break;
    }
}

rlx_status rlx__shape_range(const rlx__shape_ctx *c, rlx__node *out)
{
    uint32_t n = rlx__shape_n_ints(c);
    if (n <= RLX_ATTR_RANGE_COUNT)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has %u integer attributes. Fix: set "
                                "int_attrs[0] to an RLX_DTYPE_* value and "
                                "[1] to the element count", n);
    int64_t t = c->attrs->ints[RLX_ATTR_RANGE_DTYPE];
    int64_t count = c->attrs->ints[RLX_ATTR_RANGE_COUNT];
    if (t < 1 || t > RLX_DTYPE_LAST || !rlx__dtype_is_known((rlx_dtype)t) ||
        t == RLX_DTYPE_BOOL)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "dtype %lld is not a numeric dtype. Fix: use "
                                "an RLX_DTYPE_* value other than bool (f32, "
                                "f16, bf16, f64 or an integer dtype)",
                                (long long)t);
    if (count < 0)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "count is %lld. Fix: use 0 or more (ONNX "
                                "Range gives max(ceil((limit - start) / "
                                "delta), 0))", (long long)count);
    int is_int = t != RLX_DTYPE_F32 && t != RLX_DTYPE_F16 &&
                 t != RLX_DTYPE_BF16 && t != RLX_DTYPE_F64;
    if (is_int && count > 0) {
        /* every value start + i * delta must fit the dtype */
        int64_t lo, hi;
        int_limits((rlx_dtype)t, &lo, &hi);
        int64_t s = rlx__shape_int(c, RLX_ATTR_RANGE_INT_START, 0);
        int64_t d = rlx__shape_int(c, RLX_ATTR_RANGE_INT_DELTA, 1);
        int64_t m = count - 1;
        int fits = s >= lo && s <= hi;
        if (fits && m > 0 && d != 0) {
            /* |d| * m within int64, then start + d * m within the dtype */
            uint64_t mag = d > 0 ? (uint64_t)d : (uint64_t)(-(d + 1)) + 1u;
            fits = mag <= (uint64_t)INT64_MAX / (uint64_t)m;
            if (fits) {
                int64_t step = d * m;
                fits = step > 0 ? s <= hi - step : s >= lo - step;
            }
        }
        if (!fits)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "start %lld, delta %lld over %lld "
                                    "elements leave %s's range. Fix: use "
                                    "fewer elements or a wider dtype",
                                    (long long)s, (long long)d,
                                    (long long)count,
                                    rlx_dtype_name((rlx_dtype)t));
    }
    out->dtype = (rlx_dtype)t;
    out->rank = 1;
    out->shape[0] = count;
    return RLX_OK;
}

rlx_status rlx__shape_one_hot(const rlx__shape_ctx *c, rlx__node *out)
{
    char sv[RLX__SHAPE_BUF];
    const rlx__node *idx = rlx__shape_in(c, 0), *val = rlx__shape_in(c, 1);
    rlx_status st = check_indices(c, idx);
    if (st != RLX_OK)
        return st;
    if (val->rank != 1 || val->shape[0] != 2)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "values '%s' are %s. Fix: give values as "
                                "[2] = (off, on)", val->name,
                                rlx__shape_of(sv, sizeof sv, val));
    if (rlx__shape_n_ints(c) <= RLX_ATTR_ONE_HOT_DEPTH)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has no depth. Fix: set int_attrs[0] to the "
                                "number of classes");
    int64_t depth = c->attrs->ints[RLX_ATTR_ONE_HOT_DEPTH];
    if (depth < 0)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "depth is %lld. Fix: use 0 or more",
                                (long long)depth);
    if (idx->rank + 1 > RLX_MAX_RANK)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "the result's rank is above the limit of "
                                "%d. Fix: use indices of lower rank",
                                RLX_MAX_RANK);
    uint32_t axis;
    st = rlx__shape_axis(c, "axis",
                         rlx__shape_int(c, RLX_ATTR_ONE_HOT_AXIS, -1),
                         idx->rank + 1, &axis);
    if (st != RLX_OK)
        return st;
    uint32_t r = 0;
    for (uint32_t d = 0; d <= idx->rank; d++)
        out->shape[r++] = d == axis ? depth
                                    : idx->shape[d < axis ? d : d - 1];
    out->rank = r;
    out->dtype = val->dtype;
    return RLX_OK;
}

rlx_status rlx__shape_non_zero(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0);
    int64_t numel = rlx__shape_elements(x->rank, x->shape);
    int64_t n = rlx__shape_int(c, RLX_ATTR_NON_ZERO_COLUMNS, -1);
    if (n < -1)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "the column count is %lld. Fix: use -1 (one "
                                "column per element) or the number of "
                                "nonzero elements expected", (long long)n);
    out->rank = 2;
    out->shape[0] = x->rank;
    out->shape[1] = n < 0 ? numel : n;
    out->dtype = RLX_DTYPE_I64;
    return RLX_OK;
}
