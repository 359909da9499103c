/*
 * onnx_lower_movement.c - ONNX data movement onto rlx's reshape,
 * transpose, concat, slice, gather and cast: Reshape (0 and -1,
 * allowzero), Squeeze/Unsqueeze/Flatten (all reshapes), Slice (attributes
 * before opset 10, inputs after; steps through strided_slice), Split,
 * Expand, Gather (negative indices wrapped). Shape arguments must be
 * known when lowering: they are folded for the concrete input shapes.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

static rlx_status reshape_to(rlx__onnx_ctx *c, rlx__onnx_val *x,
                             uint32_t rank, const int64_t *dims,
                             rlx__onnx_val *out)
{
    if (rlx__onnx_elements(rank, dims) !=
        rlx__onnx_elements(x->rank, x->dims)) {
        char sa[160], sb[160];
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "cannot reshape %s to %s (element counts "
                              "differ). Fix: check the target shape for "
                              "these input shapes",
                              rlx__shape_str(sa, sizeof sa, x->rank, x->dims),
                              rlx__shape_str(sb, sizeof sb, rank, dims));
    }
    rlx_value v, r;
    rlx_status st = rlx__onnx_node_value(c, x, &v);
    if (st != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &v, dims, rank, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, out);
}

/* A known integer input (shape, axes...), or a clear error. */
static rlx_status known_ints(rlx__onnx_ctx *c, rlx__onnx_val *v,
                             const char *what, int64_t *out, int max,
                             int *n)
{
    *n = v ? rlx__onnx_known_ints(v, out, max) : -1;
    if (*n >= 0)
        return RLX_OK;
    c->needs_value = 1;
    return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                          "its %s input '%s' is not known when lowering "
                          "(it depends on input data, or has more than %d "
                          "entries). Fix: make it a constant, or computed "
                          "only from input shapes", what,
                          v && v->name ? v->name : "(missing)", max);
}

static rlx_status lower_reshape(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                uint32_t n_in, rlx__onnx_val *out,
                                uint32_t n_out)
{
    (void)n_out;
    int64_t d[RLX_MAX_RANK];
    int n;
    rlx_status st;
    if (c->row->since < 5) { /* the shape as an attribute */
        if ((st = rlx__onnx_need_inputs(c, in, n_in, 1)) != RLX_OK)
            return st;
        n = rlx__onnx_attr_ints(c, "shape", d, RLX_MAX_RANK);
        if (n < 0 || n > RLX_MAX_RANK)
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "the shape attribute is missing or has "
                                  "more than %d entries. Fix: check the "
                                  "model", RLX_MAX_RANK);
    } else if ((st = rlx__onnx_need_inputs(c, in, n_in, 2)) != RLX_OK ||
               (st = known_ints(c, in[1], "shape", d, RLX_MAX_RANK, &n)) !=
                   RLX_OK) {
        return st;
    }
    int allowzero = c->row->since >= 14 &&
                    rlx__onnx_attr_int(c, "allowzero", 0) != 0;
    int infer = -1;
    int64_t known = 1;
    for (int i = 0; i < n; i++) {
        if (d[i] == 0 && !allowzero) {
            if ((uint32_t)i >= in[0]->rank)
                return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                      "shape entry %d is 0 (copy) but the "
                                      "input has rank %u. Fix: check the "
                                      "target shape", i, in[0]->rank);
            d[i] = in[0]->dims[i];
        }
        if (d[i] == -1) {
            if (infer >= 0)
                return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                      "the shape has two -1 entries. Fix: "
                                      "infer at most one dimension");
            infer = i;
        } else if (d[i] < 0) {
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "shape entry %d is %lld. Fix: entries "
                                  "are >= -1", i, (long long)d[i]);
        } else {
            known *= d[i];
        }
    }
    if (infer >= 0) {
        int64_t total = rlx__onnx_elements(in[0]->rank, in[0]->dims);
        if (known == 0 || total % known)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "cannot infer the -1 dimension: %lld "
                                  "elements into parts of %lld. Fix: check "
                                  "the target shape for these input shapes",
                                  (long long)total, (long long)known);
        d[infer] = total / known;
    }
    return reshape_to(c, in[0], (uint32_t)n, d, &out[0]);
}

static rlx_status lower_flatten(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                uint32_t n_in, rlx__onnx_val *out,
                                uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t axis = rlx__onnx_attr_int(c, "axis", 1);
    uint32_t rank = in[0]->rank;
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis > rank)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "axis %lld is out of range for rank %u. Fix: "
                              "use an axis in [-%u, %u]",
                              (long long)rlx__onnx_attr_int(c, "axis", 1),
                              rank, rank, rank);
    int64_t d[2] = { 1, 1 };
    for (uint32_t i = 0; i < rank; i++)
        d[i >= axis] *= in[0]->dims[i];
    return reshape_to(c, in[0], 2, d, &out[0]);
}

/* Squeeze (arg 0) and Unsqueeze (arg 1); axes from the attribute before
 * opset 13, from input 1 after. */
static rlx_status lower_squeeze(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                uint32_t n_in, rlx__onnx_val *out,
                                uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t axes[RLX_MAX_RANK + 1];
    int n = -1;
    if (c->row->since >= 13) {
        if (n_in > 1 && in[1] &&
            (st = known_ints(c, in[1], "axes", axes, RLX_MAX_RANK, &n)) !=
                RLX_OK)
            return st;
    } else {
        n = rlx__onnx_attr_ints(c, "axes", axes, RLX_MAX_RANK);
    }
    uint32_t rank = in[0]->rank;
    int unsq = c->row->arg;
    uint32_t out_rank = unsq ? rank + (uint32_t)(n > 0 ? n : 0) : rank;
    if (unsq && (n <= 0 || out_rank > RLX_MAX_RANK))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "Unsqueeze needs 1 to %u axes for a rank-%u "
                              "input. Fix: check the axes", RLX_MAX_RANK -
                              rank, rank);
    char mark[RLX_MAX_RANK] = { 0 };
    for (int i = 0; i < n; i++) {
        int64_t a;
        if ((st = rlx__onnx_axis(c, axes[i], out_rank, &a)) != RLX_OK)
            return st;
        if (mark[a])
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "axis %lld is named twice. Fix: name each "
                                  "axis once", (long long)axes[i]);
        if (!unsq && in[0]->dims[a] != 1)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "axis %lld has size %lld, not 1. Fix: "
                                  "squeeze only dimensions of size 1",
                                  (long long)a, (long long)in[0]->dims[a]);
        mark[a] = 1;
    }
    int64_t d[RLX_MAX_RANK];
    uint32_t k = 0, src = 0;
    if (unsq) {
        for (uint32_t i = 0; i < out_rank; i++)
            d[k++] = mark[i] ? 1 : in[0]->dims[src++];
    } else {
        for (uint32_t i = 0; i < rank; i++)
            if (!(n > 0 ? mark[i] : in[0]->dims[i] == 1))
                d[k++] = in[0]->dims[i];
    }
    return reshape_to(c, in[0], k, d, &out[0]);
}

static rlx_status lower_transpose(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                  uint32_t n_in, rlx__onnx_val *out,
                                  uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t perm[RLX_MAX_RANK + 1];
    uint32_t rank = in[0]->rank;
    int n = rlx__onnx_attr_ints(c, "perm", perm, RLX_MAX_RANK + 1);
    if (n < 0) {
        for (uint32_t i = 0; i < rank; i++)
            perm[i] = rank - 1 - i;
        n = (int)rank;
    }
    if (n != (int)rank)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "perm has %d entries for a rank-%u input. "
                              "Fix: give one entry per dimension", n, rank);
    for (int i = 0; i < n; i++)
        if ((st = rlx__onnx_axis(c, perm[i], rank, &perm[i])) != RLX_OK)
            return st;
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &x, perm, rank, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_concat(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t axis;
    if (!rlx__onnx_attr(c, "axis"))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "the axis attribute is required. Fix: the "
                              "model is damaged; re-export it");
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis", 0),
                             in[0]->rank, &axis)) != RLX_OK)
        return st;
    rlx_value *v = calloc(n_in, sizeof *v), r;
    if (!v)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    uint32_t k = 0;
    for (uint32_t i = 0; i < n_in && st == RLX_OK; i++)
        if (in[i])
            st = rlx__onnx_node_value(c, in[i], &v[k++]);
    if (st == RLX_OK)
        st = rlx__onnx_add(c, RLX_OP_CONCAT, k, v, &axis, 1, NULL, 0, &r);
    free(v);
    if (st != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* Slice one axis range of X into OUT. */
static rlx_status slice(rlx__onnx_ctx *c, rlx__onnx_val *x, uint32_t n,
                        const int64_t *triples, rlx__onnx_val *out)
{
    rlx_value v, r;
    rlx_status st = rlx__onnx_node_value(c, x, &v);
    if (st != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_SLICE, 1, &v, triples, 3 * n, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, out);
}

static int64_t clamp(int64_t v, int64_t dim)
{
    if (v < 0)
        v = v < -dim ? 0 : v + dim;
    return v > dim ? dim : v;
}

static rlx_status lower_slice(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, rlx__onnx_val *out,
                              uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in,
                                          c->row->since >= 10 ? 3 : 1);
    if (st != RLX_OK)
        return st;
    uint32_t rank = in[0]->rank;
    int64_t starts[RLX_MAX_RANK], ends[RLX_MAX_RANK], axes[RLX_MAX_RANK],
            steps[RLX_MAX_RANK];
    int ns, ne, na = -1, nst = -1;
    if (c->row->since >= 10) {
        if ((st = known_ints(c, in[1], "starts", starts, RLX_MAX_RANK,
                             &ns)) != RLX_OK ||
            (st = known_ints(c, in[2], "ends", ends, RLX_MAX_RANK, &ne)) !=
                RLX_OK)
            return st;
        if (n_in > 3 && in[3] &&
            (st = known_ints(c, in[3], "axes", axes, RLX_MAX_RANK, &na)) !=
                RLX_OK)
            return st;
        if (n_in > 4 && in[4] &&
            (st = known_ints(c, in[4], "steps", steps, RLX_MAX_RANK,
                             &nst)) != RLX_OK)
            return st;
    } else {
        ns = rlx__onnx_attr_ints(c, "starts", starts, RLX_MAX_RANK);
        ne = rlx__onnx_attr_ints(c, "ends", ends, RLX_MAX_RANK);
        na = rlx__onnx_attr_ints(c, "axes", axes, RLX_MAX_RANK);
    }
    if (ns < 0 || ns != ne || (na >= 0 && na != ns) ||
        (nst >= 0 && nst != ns) || ns > (int)rank)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "starts, ends, axes and steps disagree in "
                              "length (%d, %d, %d, %d) for rank %u. Fix: "
                              "give one entry per sliced axis", ns, ne, na,
                              nst, rank);
    int64_t t[4 * RLX_MAX_RANK];
    int strided = 0;
    for (int i = 0; i < nst; i++) {
        if (steps[i] == 0)
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "step %d is 0. Fix: give nonzero steps",
                                  i);
        strided |= steps[i] != 1;
    }
    if (strided) { /* strided_slice clamps as ONNX does */
        for (int i = 0; i < ns; i++) {
            int64_t a = na >= 0 ? axes[i] : i;
            if ((st = rlx__onnx_axis(c, a, rank, &a)) != RLX_OK)
                return st;
            t[4 * i] = a;
            t[4 * i + 1] = starts[i];
            t[4 * i + 2] = ends[i];
            t[4 * i + 3] = steps[i];
        }
        rlx_value v, r;
        if ((st = rlx__onnx_node_value(c, in[0], &v)) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_STRIDED_SLICE, 1, &v, t,
                                4 * (uint32_t)ns, NULL, 0, &r)) != RLX_OK)
            return st;
        return rlx__onnx_set_out(c, r, &out[0]);
    }
    for (int i = 0; i < ns; i++) {
        int64_t a = na >= 0 ? axes[i] : i;
        if ((st = rlx__onnx_axis(c, a, rank, &a)) != RLX_OK)
            return st;
        int64_t dim = in[0]->dims[a];
        int64_t s = clamp(starts[i], dim), e = clamp(ends[i], dim);
        t[3 * i] = a;
        t[3 * i + 1] = s;
        t[3 * i + 2] = e < s ? s : e;
    }
    return slice(c, in[0], (uint32_t)ns, t, &out[0]);
}

static rlx_status lower_split(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, rlx__onnx_val *out,
                              uint32_t n_out)
{
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t axis;
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis", 0),
                             in[0]->rank, &axis)) != RLX_OK)
        return st;
    int64_t dim = in[0]->dims[axis];
    int64_t *sizes = calloc(n_out ? n_out : 1, sizeof *sizes);
    if (!sizes)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    int n = -1;
    if (c->row->since >= 13) {
        if (n_in > 1 && in[1])
            n = rlx__onnx_known_ints(in[1], sizes, (int)n_out);
        if (n_in > 1 && in[1] && n < 0) {
            free(sizes);
            c->needs_value = 1;
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "its split input is not known or does "
                                  "not match the %u outputs. Fix: make it "
                                  "a constant", n_out);
        }
    } else {
        n = rlx__onnx_attr_ints(c, "split", sizes, (int)n_out);
    }
    if (n < 0) { /* equal parts; the last one smaller (opset 18) */
        int64_t part = (dim + n_out - 1) / (n_out ? n_out : 1);
        for (uint32_t i = 0; i < n_out; i++) {
            int64_t left = dim - part * i;
            sizes[i] = left < 0 ? 0 : left < part ? left : part;
        }
        n = (int)n_out;
    }
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += sizes[i];
    if (n != (int)n_out || sum != dim) {
        free(sizes);
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the split sizes do not add up to axis %lld's "
                              "%lld for %u outputs. Fix: check split",
                              (long long)axis, (long long)dim, n_out);
    }
    int64_t at = 0;
    for (uint32_t i = 0; i < n_out && st == RLX_OK; i++) {
        int64_t t[3] = { axis, at, at + sizes[i] };
        at += sizes[i];
        if (c->node->output[i] && *c->node->output[i])
            st = slice(c, in[0], 1, t, &out[i]);
    }
    free(sizes);
    return st;
}

static rlx_status lower_gather(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK)
        return st;
    int64_t axis;
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis", 0),
                             in[0]->rank, &axis)) != RLX_OK)
        return st;
    rlx_value v[2], r;
    if ((st = rlx__onnx_node_value(c, in[0], &v[0])) != RLX_OK)
        return st;
    rlx__onnx_val *ix = in[1];
    int64_t n = rlx__onnx_elements(ix->rank, ix->dims);
    if (ix->known && (ix->dtype == RLX_DTYPE_I64 ||
                      ix->dtype == RLX_DTYPE_I32)) {
        /* negative indices count from the end: fixed up here */
        int64_t dim = in[0]->dims[axis];
        int64_t *fix = malloc((size_t)(n ? n : 1) * sizeof *fix);
        if (!fix)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        for (int64_t i = 0; i < n; i++) {
            int64_t k = ix->dtype == RLX_DTYPE_I64
                            ? ((const int64_t *)ix->data)[i]
                            : ((const int32_t *)ix->data)[i];
            if (k < -dim || k >= dim) {
                free(fix);
                return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                      "index %lld is out of range for axis "
                                      "%lld of size %lld. Fix: check the "
                                      "indices", (long long)k,
                                      (long long)axis, (long long)dim);
            }
            fix[i] = k < 0 ? k + dim : k;
        }
        char *nm = rlx__printf_alloc("%s#indices", out[0].name);
        st = nm ? rlx_graph_constant(c->g, nm, RLX_DTYPE_I64, ix->rank,
                                     ix->dims, fix, &v[1])
                : RLX_ERR_OUT_OF_MEMORY;
        free(nm);
        free(fix);
    } else if ((st = rlx__onnx_node_value(c, ix, &v[1])) == RLX_OK &&
               (ix->dtype == RLX_DTYPE_I64 || ix->dtype == RLX_DTYPE_I32)) {
        /* indices fed at run time: wrap negative ones,
         * where(i < 0, i + dim, i) */
        rlx_value zero, dim, t[3];
        if ((st = rlx__onnx_scalar(c, ix->dtype, 0, &zero)) != RLX_OK ||
            (st = rlx__onnx_scalar(c, ix->dtype, (double)in[0]->dims[axis],
                                   &dim)) != RLX_OK)
            return st;
        rlx_value lt[2] = { v[1], zero }, ad[2] = { v[1], dim };
        if ((st = rlx__onnx_add(c, RLX_OP_LESS, 2, lt, NULL, 0, NULL, 0,
                                &t[0])) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_ADD, 2, ad, NULL, 0, NULL, 0,
                                &t[1])) != RLX_OK)
            return st;
        t[2] = v[1];
        st = rlx__onnx_add(c, RLX_OP_WHERE, 3, t, NULL, 0, NULL, 0, &v[1]);
    }
    if (st != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_GATHER, 2, v, &axis, 1, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_cast(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t to = rlx__onnx_attr_int(c, "to", 0);
    rlx_dtype dt = rlx__onnx_dtype((int32_t)to);
    if (dt == RLX_DTYPE_INVALID)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "cast to %s, which rlx does not have. Fix: "
                              "cast to a float type, an integer type of 8 "
                              "to 64 bits or bool", rlx__onnx_type_name(
                                  (int32_t)to));
    if (dt == in[0]->dtype) {
        const char *nm = out[0].name;
        out[0] = *in[0];
        out[0].name = nm;
        out[0].owned = NULL;
        return RLX_OK;
    }
    rlx_value x, r;
    int64_t d = dt;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_CAST, 1, &x, &d, 1, NULL, 0, &r)) !=
            RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* Expand: unidirectional broadcast to the shape input, by concatenating
 * copies along each stretched axis (any dtype). */
static rlx_status lower_expand(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    int64_t shape[RLX_MAX_RANK];
    int n;
    if (st != RLX_OK ||
        (st = known_ints(c, in[1], "shape", shape, RLX_MAX_RANK, &n)) !=
            RLX_OK)
        return st;
    uint32_t rank = in[0]->rank > (uint32_t)n ? in[0]->rank : (uint32_t)n;
    int64_t xd[RLX_MAX_RANK], od[RLX_MAX_RANK];
    for (uint32_t i = 0; i < rank; i++) {
        int64_t a = i + in[0]->rank >= rank ? in[0]->dims[i + in[0]->rank -
                                                          rank] : 1;
        int64_t b = i + (uint32_t)n >= rank ? shape[i + n - rank] : 1;
        if (a != b && a != 1 && b != 1)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "dimension %u: %lld cannot broadcast to "
                                  "%lld. Fix: check the target shape", i,
                                  (long long)a, (long long)b);
        xd[i] = a;
        od[i] = a == 1 ? b : a;
    }
    rlx_value x;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    if (rank != in[0]->rank &&
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &x, xd, rank, NULL, 0,
                            &x)) != RLX_OK)
        return st;
    for (uint32_t i = 0; i < rank; i++) {
        if (xd[i] == od[i])
            continue;
        if (od[i] == 0) {
            int64_t t[3] = { i, 0, 0 };
            st = rlx__onnx_add(c, RLX_OP_SLICE, 1, &x, t, 3, NULL, 0, &x);
        } else if (od[i] > 4096) {
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "expanding axis %u to %lld copies is not "
                                  "lowered yet. Fix: broadcast through an "
                                  "elementwise op instead", i,
                                  (long long)od[i]);
        } else {
            rlx_value *copies = malloc((size_t)od[i] * sizeof *copies);
            if (!copies)
                return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            for (int64_t k = 0; k < od[i]; k++)
                copies[k] = x;
            int64_t ax = i;
            st = rlx__onnx_add(c, RLX_OP_CONCAT, (uint32_t)od[i], copies,
                               &ax, 1, NULL, 0, &x);
            free(copies);
        }
        if (st != RLX_OK)
            return st;
    }
    if (!c->lowered) { /* nothing to do: the input itself */
        const char *nm = out[0].name;
        out[0] = *in[0];
        out[0].name = nm;
        out[0].owned = NULL;
        return RLX_OK;
    }
    return rlx__onnx_set_out(c, x, &out[0]);
}

/* X repeated COUNT times along AXIS (concat of copies; any dtype). */
static rlx_status repeat(rlx__onnx_ctx *c, rlx_value x, int64_t axis,
                         int64_t count, rlx_value *out)
{
    if (count > 4096)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "repeating axis %lld %lld times is not "
                              "lowered yet. Fix: repeat at most 4096 times",
                              (long long)axis, (long long)count);
    rlx_value *copies = malloc((size_t)count * sizeof *copies);
    if (!copies)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (int64_t k = 0; k < count; k++)
        copies[k] = x;
    rlx_status st = rlx__onnx_add(c, RLX_OP_CONCAT, (uint32_t)count, copies,
                                  &axis, 1, NULL, 0, out);
    free(copies);
    return st;
}

static rlx_status lower_tile(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    int64_t rep[RLX_MAX_RANK];
    int n;
    if (st != RLX_OK ||
        (st = known_ints(c, in[1], "repeats", rep, RLX_MAX_RANK, &n)) !=
            RLX_OK)
        return st;
    if (n != (int)in[0]->rank)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "repeats has %d entries for rank %u. Fix: give "
                              "one per dimension", n, in[0]->rank);
    rlx_value x;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    for (int i = 0; i < n; i++) {
        if (rep[i] < 0)
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "repeats[%d] is %lld. Fix: repeats are "
                                  ">= 0", i, (long long)rep[i]);
        if (rep[i] == 1)
            continue;
        int64_t t[3] = { i, 0, 0 };
        st = rep[i] == 0 ? rlx__onnx_add(c, RLX_OP_SLICE, 1, &x, t, 3, NULL,
                                         0, &x)
                         : repeat(c, x, i, rep[i], &x);
        if (st != RLX_OK)
            return st;
    }
    if (!c->lowered) {
        const char *nm = out[0].name;
        out[0] = *in[0];
        out[0].name = nm;
        out[0].owned = NULL;
        return RLX_OK;
    }
    return rlx__onnx_set_out(c, x, &out[0]);
}

/* DepthToSpace (arg 0) and SpaceToDepth (arg 1): reshape, transpose,
 * reshape. */
static rlx_status lower_depth_space(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                    uint32_t n_in, rlx__onnx_val *out,
                                    uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t b = rlx__onnx_attr_int(c, "blocksize", 0);
    const int64_t *d = in[0]->dims;
    if (in[0]->rank != 4 || b <= 0)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it needs a rank-4 input and blocksize > 0 "
                              "(rank %u, blocksize %lld). Fix: check the "
                              "model", in[0]->rank, (long long)b);
    int64_t n = d[0], ch = d[1], h = d[2], w = d[3];
    int64_t s6[6], perm[6], s4[4];
    if (c->row->arg == 0) {
        if (ch % (b * b))
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "%lld channels do not divide by "
                                  "blocksize^2 = %lld. Fix: check the model",
                                  (long long)ch, (long long)(b * b));
        int crd = !strcmp(rlx__onnx_attr_string(c, "mode", "DCR"), "CRD");
        int64_t cb = ch / (b * b);
        int64_t dcr[6] = { n, b, b, cb, h, w }, crd6[6] = { n, cb, b, b, h,
                                                           w };
        int64_t pd[6] = { 0, 3, 4, 1, 5, 2 }, pc[6] = { 0, 1, 4, 2, 5, 3 };
        memcpy(s6, crd ? crd6 : dcr, sizeof s6);
        memcpy(perm, crd ? pc : pd, sizeof perm);
        int64_t o[4] = { n, cb, h * b, w * b };
        memcpy(s4, o, sizeof s4);
    } else {
        if (h % b || w % b)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "%lldx%lld does not divide by blocksize "
                                  "%lld. Fix: check the model", (long long)h,
                                  (long long)w, (long long)b);
        int64_t a6[6] = { n, ch, h / b, b, w / b, b },
                p6[6] = { 0, 3, 5, 1, 2, 4 },
                o[4] = { n, ch * b * b, h / b, w / b };
        memcpy(s6, a6, sizeof s6);
        memcpy(perm, p6, sizeof perm);
        memcpy(s4, o, sizeof s4);
    }
    rlx_value x;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &x, s6, 6, NULL, 0, &x)) !=
            RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &x, perm, 6, NULL, 0,
                            &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &x, s4, 4, NULL, 0, &x)) !=
            RLX_OK)
        return st;
    return rlx__onnx_set_out(c, x, &out[0]);
}

const rlx__onnx_op rlx__onnx_ops_movement[] = {
    { "Tile", 6, lower_tile, 0 },
    { "Tile", 13, lower_tile, 0 },
    { "DepthToSpace", 1, lower_depth_space, 0 },
    { "DepthToSpace", 11, lower_depth_space, 0 },
    { "DepthToSpace", 13, lower_depth_space, 0 },
    { "SpaceToDepth", 1, lower_depth_space, 1 },
    { "SpaceToDepth", 13, lower_depth_space, 1 },
    { "Reshape", 1, lower_reshape, 0 },
    { "Reshape", 5, lower_reshape, 0 },
    { "Reshape", 13, lower_reshape, 0 },
    { "Reshape", 14, lower_reshape, 0 },
    { "Reshape", 19, lower_reshape, 0 },
    { "Reshape", 21, lower_reshape, 0 },
    { "Flatten", 1, lower_flatten, 0 },
    { "Flatten", 9, lower_flatten, 0 },
    { "Flatten", 11, lower_flatten, 0 },
    { "Flatten", 13, lower_flatten, 0 },
    { "Flatten", 21, lower_flatten, 0 },
    { "Squeeze", 1, lower_squeeze, 0 },
    { "Squeeze", 11, lower_squeeze, 0 },
    { "Squeeze", 13, lower_squeeze, 0 },
    { "Squeeze", 21, lower_squeeze, 0 },
    { "Unsqueeze", 1, lower_squeeze, 1 },
    { "Unsqueeze", 11, lower_squeeze, 1 },
    { "Unsqueeze", 13, lower_squeeze, 1 },
    { "Unsqueeze", 21, lower_squeeze, 1 },
    { "Transpose", 1, lower_transpose, 0 },
    { "Transpose", 13, lower_transpose, 0 },
    { "Transpose", 21, lower_transpose, 0 },
    { "Concat", 4, lower_concat, 0 },
    { "Concat", 11, lower_concat, 0 },
    { "Concat", 13, lower_concat, 0 },
    { "Slice", 1, lower_slice, 0 },
    { "Slice", 10, lower_slice, 0 },
    { "Slice", 11, lower_slice, 0 },
    { "Slice", 13, lower_slice, 0 },
    { "Split", 2, lower_split, 0 },
    { "Split", 11, lower_split, 0 },
    { "Split", 13, lower_split, 0 },
    { "Split", 18, lower_split, 0 },
    { "Gather", 1, lower_gather, 0 },
    { "Gather", 11, lower_gather, 0 },
    { "Gather", 13, lower_gather, 0 },
    { "Cast", 6, lower_cast, 0 },
    { "Cast", 9, lower_cast, 0 },
    { "Cast", 13, lower_cast, 0 },
    { "Cast", 19, lower_cast, 0 },
    { "Cast", 21, lower_cast, 0 },
    { "Expand", 8, lower_expand, 0 },
    { "Expand", 13, lower_expand, 0 },
    { NULL, 0, NULL, 0 }
};
