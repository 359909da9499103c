/*
 * shape_movement.c - shape inference for the data movement ops, which
 * take any dtype: reshape, transpose, concat, slice, gather.
 */
#include <string.h>

#include "shape_internal.h"

rlx_status rlx__shape_reshape(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF], sn[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t r = rlx__shape_n_ints(c);
    int64_t known[RLX_MAX_RANK];
    int infer = -1;
    for (uint32_t i = 0; i < r; i++) {
        int64_t d = c->attrs->ints[i];
        known[i] = d;
        if (d == -1 && infer < 0) {
            infer = (int)i;
            known[i] = 1;
        } else if (d == -1) {
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "the new shape has -1 at both %d and "
                                    "%u. Fix: at most one dimension may be "
                                    "inferred", infer, i);
        } else if (d < 0) {
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "dimension %u of the new shape is %lld. "
                                    "Fix: use sizes of 0 or more, or -1 for "
                                    "one inferred dimension", i,
                                    (long long)d);
        }
    }
    int64_t have = rlx__shape_elements(x->rank, x->shape);
    int64_t want = rlx__shape_elements(r, known);
    /* "[2,-1]" for messages */
    rlx__shape_str(sn, sizeof sn, r, r ? c->attrs->ints : known);
    if (want < 0)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "the new shape %s overflows. Fix: use "
                                "smaller dimensions", sn);
    if (infer >= 0) {
        if (want == 0)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "cannot infer the -1 in %s for '%s' %s: "
                                    "another dimension is 0, so any size "
                                    "fits. Fix: give every size explicitly",
                                    sn, x->name,
                                    rlx__shape_of(sx, sizeof sx, x));
        if (have % want != 0)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "cannot reshape '%s' %s (%lld elements) "
                                    "to %s: %lld is not a multiple of %lld. "
                                    "Fix: choose sizes whose product divides "
                                    "the element count", x->name,
                                    rlx__shape_of(sx, sizeof sx, x),
                                    (long long)have, sn, (long long)have,
                                    (long long)want);
        known[infer] = have / want;
        want = have;
    }
    if (want != have)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "cannot reshape '%s' %s (%lld elements) to "
                                "%s (%lld elements). Fix: keep the element "
                                "count, or use -1 for one dimension",
                                x->name, rlx__shape_of(sx, sizeof sx, x),
                                (long long)have, sn, (long long)want);
    out->rank = r;
    if (r)
        memcpy(out->shape, known, r * sizeof *known);
    return RLX_OK;
}

rlx_status rlx__shape_transpose(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t n = rlx__shape_n_ints(c);
    if (n == 0) { /* reverse the dims */
        for (uint32_t d = 0; d < x->rank; d++)
            out->shape[d] = x->shape[x->rank - 1 - d];
        out->rank = x->rank;
        return RLX_OK;
    }
    if (n != x->rank)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "the permutation has %u entries but '%s' %s "
                                "has rank %u. Fix: list every axis once, or "
                                "none to reverse them", n, x->name,
                                rlx__shape_of(sx, sizeof sx, x), x->rank);
    unsigned char seen[RLX_MAX_RANK] = { 0 };
    for (uint32_t d = 0; d < n; d++) {
        uint32_t axis;
        rlx_status st = rlx__shape_axis(c, "permutation entry",
                                        c->attrs->ints[d], x->rank, &axis);
        if (st != RLX_OK)
            return st;
        if (seen[axis])
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "the permutation names axis %u twice. "
                                    "Fix: list every axis of '%s' %s "
                                    "exactly once", axis, x->name,
                                    rlx__shape_of(sx, sizeof sx, x));
        seen[axis] = 1;
        out->shape[d] = x->shape[axis];
    }
    out->rank = n;
    return RLX_OK;
}

rlx_status rlx__shape_concat(const rlx__shape_ctx *c, rlx__node *out)
{
    char sa[RLX__SHAPE_BUF], sb[RLX__SHAPE_BUF];
    const rlx__node *a = rlx__shape_in(c, 0);
    uint32_t axis;
    rlx_status st = rlx__shape_axis(
        c, "axis", rlx__shape_int(c, RLX_ATTR_CONCAT_AXIS, 0), a->rank,
        &axis);
    if (st != RLX_OK)
        return st;
    int64_t total = 0;
    for (uint32_t i = 0; i < c->n_inputs; i++) {
        const rlx__node *b = rlx__shape_in(c, i);
        if (b->dtype != a->dtype)
            return rlx__shape_error(c, RLX_ERR_DTYPE,
                                    "dtypes differ: '%s' is %s, '%s' (input "
                                    "%u) is %s. Fix: cast the inputs to one "
                                    "dtype", a->name,
                                    rlx_dtype_name(a->dtype), b->name, i,
                                    rlx_dtype_name(b->dtype));
        int same = b->rank == a->rank;
        for (uint32_t d = 0; same && d < a->rank; d++)
            same = d == axis || b->shape[d] == a->shape[d];
        if (!same)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "'%s' %s and '%s' %s (input %u) differ "
                                    "outside axis %u. Fix: every input must "
                                    "have the same rank and the same sizes "
                                    "except along the concat axis",
                                    a->name, rlx__shape_of(sa, sizeof sa, a),
                                    b->name, rlx__shape_of(sb, sizeof sb, b),
                                    i, axis);
        if (b->shape[axis] > INT64_MAX - total)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "the concatenated axis overflows. Fix: "
                                    "use smaller inputs");
        total += b->shape[axis];
    }
    out->rank = a->rank;
    memcpy(out->shape, a->shape, sizeof out->shape);
    out->shape[axis] = total;
    return RLX_OK;
}

rlx_status rlx__shape_slice(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0);
    uint32_t n = rlx__shape_n_ints(c);
    if (n % 3 != 0)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "has %u integer attributes. Fix: give "
                                "(axis, start, end) triples", n);
    unsigned char seen[RLX_MAX_RANK] = { 0 };
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    for (uint32_t t = 0; t < n; t += 3) {
        uint32_t axis;
        rlx_status st = rlx__shape_axis(c, "slice axis", c->attrs->ints[t],
                                        x->rank, &axis);
        if (st != RLX_OK)
            return st;
        if (seen[axis])
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "axis %u of '%s' %s is sliced twice. "
                                    "Fix: give one triple per axis", axis,
                                    x->name, rlx__shape_of(sx, sizeof sx, x));
        seen[axis] = 1;
        int64_t dim = x->shape[axis];
        int64_t se[2] = { c->attrs->ints[t + 1], c->attrs->ints[t + 2] };
        for (int k = 0; k < 2; k++) {
            if (se[k] < 0)
                se[k] += dim; /* no overflow: dim >= 0 */
            se[k] = se[k] < 0 ? 0 : se[k] > dim ? dim : se[k];
        }
        out->shape[axis] = se[1] > se[0] ? se[1] - se[0] : 0;
    }
    return RLX_OK;
}

rlx_status rlx__shape_gather(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF], si[RLX__SHAPE_BUF];
    const rlx__node *x = rlx__shape_in(c, 0), *idx = rlx__shape_in(c, 1);
    if (idx->dtype != RLX_DTYPE_I32 && idx->dtype != RLX_DTYPE_I64)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "indices '%s' are %s. Fix: use i32 or i64 "
                                "indices (cast them)", idx->name,
                                rlx_dtype_name(idx->dtype));
    uint32_t axis;
    rlx_status st = rlx__shape_axis(
        c, "axis", rlx__shape_int(c, RLX_ATTR_GATHER_AXIS, 0), x->rank,
        &axis);
    if (st != RLX_OK)
        return st;
    uint32_t r = x->rank - 1 + idx->rank;
    if (r > RLX_MAX_RANK)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "gathering '%s' %s with indices '%s' %s "
                                "gives rank %u, above the limit of %d. Fix: "
                                "reshape the indices to fewer dimensions",
                                x->name, rlx__shape_of(sx, sizeof sx, x),
                                idx->name, rlx__shape_of(si, sizeof si, idx),
                                r, RLX_MAX_RANK);
    uint32_t o = 0;
    for (uint32_t d = 0; d < axis; d++)
        out->shape[o++] = x->shape[d];
    for (uint32_t d = 0; d < idx->rank; d++)
        out->shape[o++] = idx->shape[d];
    for (uint32_t d = axis + 1; d < x->rank; d++)
        out->shape[o++] = x->shape[d];
    out->rank = r;
    out->dtype = x->dtype;
    return RLX_OK;
}
