/*
 * kernels_movement.c - the data movement ops, on any dtype, by bytes:
 * reshape (a copy), transpose and slice (strided copies), concat and
 * gather. Compile recomputes every result shape from the attributes and
 * refuses a mismatch, so the copies never leave their buffers.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

#define MAX_RANK 64 /* beyond any rank the core allows */
#define FIX_REPORT " Fix: report this as a bug in the rlx core"

static rlx_status bad_shape(const rlx_host *host, const rlx_node_view *v,
                            const rlx_node_view *in)
{
    char si[96], so[96];
    return rlx_kit_fail(host, RLX_ERR_SHAPE,
                        "cpu-ref compile: %s '%s' cannot turn %s into "
                        "%s with its attributes." FIX_REPORT,
                        rlx_kit_op_name(v->op), v->name,
                        rlx__cpu_ref_shape_str(rlx__cpu_ref_shape_of(in), si,
                                               sizeof si),
                        rlx__cpu_ref_shape_str(rlx__cpu_ref_shape_of(v), so,
                                               sizeof so));
}

static rlx_status no_memory(const rlx_host *host, const char *name)
{
    return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                        "cpu-ref compile: out of memory planning '%s'. "
                        "Fix: free memory", name);
}

/* A strided plan over OUT's dims, with input strides set by the caller. */
static rlx_status strided_alloc(const rlx_host *host, const rlx_node_view *v,
                                rlx__cpu_ref_node *n)
{
    rlx__cpu_ref_strided *p = &n->plan.strided;
    size_t *mem = calloc(v->rank ? v->rank : 1, 3 * sizeof(size_t));
    if (!(n->scratch = mem))
        return no_memory(host, v->name);
    p->rank = v->rank;
    p->dims = mem;
    p->stride = mem + v->rank;
    p->index = mem + 2 * (size_t)v->rank;
    p->base = 0;
    for (uint32_t d = 0; d < v->rank; d++)
        p->dims[d] = (size_t)v->shape[d];
    return RLX_OK;
}

/* Element strides of the input X into STRIDE. */
static void strides_of(const rlx_node_view *x, size_t *stride)
{
    size_t step = 1;
    for (uint32_t d = x->rank; d-- > 0;) {
        stride[d] = step;
        step *= (size_t)x->shape[d]; /* wraps only when empty, never read */
    }
}

static rlx_status prepare_transpose(const rlx_host *host,
                                    const rlx_node_view *v,
                                    const rlx_node_view *x,
                                    const rlx__cpu_ref_attrs *a,
                                    rlx__cpu_ref_node *n)
{
    uint32_t r = x->rank, perm[MAX_RANK];
    unsigned char seen[MAX_RANK] = { 0 };
    if (r > MAX_RANK || v->rank != r || (a->n_ints && a->n_ints != r))
        return bad_shape(host, v, x);
    for (uint32_t d = 0; d < r; d++) {
        int64_t p = a->n_ints ? rlx_kit_norm_axis(a->ints[d], r)
                              : (int64_t)(r - 1 - d);
        if (p < 0 || seen[p] || v->shape[d] != x->shape[p])
            return bad_shape(host, v, x);
        seen[p] = 1;
        perm[d] = (uint32_t)p;
    }
    rlx_status st = strided_alloc(host, v, n);
    if (st != RLX_OK)
        return st;
    size_t in_stride[MAX_RANK];
    strides_of(x, in_stride);
    for (uint32_t d = 0; d < r; d++)
        n->plan.strided.stride[d] = in_stride[perm[d]];
    return RLX_OK;
}

static rlx_status prepare_slice(const rlx_host *host, const rlx_node_view *v,
                                const rlx_node_view *x,
                                const rlx__cpu_ref_attrs *a,
                                rlx__cpu_ref_node *n)
{
    uint32_t r = x->rank;
    int64_t start[MAX_RANK] = { 0 }, len[MAX_RANK];
    unsigned char seen[MAX_RANK] = { 0 };
    if (r > MAX_RANK || v->rank != r || a->n_ints % 3 != 0)
        return bad_shape(host, v, x);
    for (uint32_t d = 0; d < r; d++)
        len[d] = x->shape[d];
    for (uint32_t t = 0; t < a->n_ints; t += 3) {
        int64_t axis = rlx_kit_norm_axis(a->ints[t], r);
        if (axis < 0 || seen[axis])
            return bad_shape(host, v, x);
        seen[axis] = 1;
        int64_t dim = x->shape[axis];
        int64_t se[2] = { a->ints[t + 1], a->ints[t + 2] };
        for (int k = 0; k < 2; k++) {
            if (se[k] < 0)
                se[k] += dim;
            se[k] = se[k] < 0 ? 0 : se[k] > dim ? dim : se[k];
        }
        start[axis] = se[0];
        len[axis] = se[1] > se[0] ? se[1] - se[0] : 0;
    }
    for (uint32_t d = 0; d < r; d++)
        if (v->shape[d] != len[d])
            return bad_shape(host, v, x);
    rlx_status st = strided_alloc(host, v, n);
    if (st != RLX_OK)
        return st;
    strides_of(x, n->plan.strided.stride);
    if (n->count) /* only then are the strides exact */
        for (uint32_t d = 0; d < r; d++)
            n->plan.strided.base += (size_t)start[d] *
                                    n->plan.strided.stride[d];
    return RLX_OK;
}

static rlx_status prepare_concat(const rlx_host *host,
                                 const rlx_graph_view *g,
                                 const rlx_node_view *v,
                                 const rlx__cpu_ref_attrs *a,
                                 rlx__cpu_ref_node *n)
{
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    int64_t axis = rlx_kit_norm_axis(
        a->n_ints ? a->ints[RLX_ATTR_CONCAT_AXIS] : 0, x->rank);
    if (axis < 0 || v->rank != x->rank)
        return bad_shape(host, v, x);
    int64_t total = 0;
    for (uint32_t i = 0; i < v->n_inputs; i++) {
        const rlx_node_view *b = g->nodes[v->inputs[i]];
        if (b->rank != x->rank)
            return bad_shape(host, v, b);
        for (uint32_t d = 0; d < x->rank; d++)
            if ((int64_t)d != axis && b->shape[d] != v->shape[d])
                return bad_shape(host, v, b);
        if (b->shape[axis] > v->shape[axis] - total)
            return bad_shape(host, v, b);
        total += b->shape[axis];
    }
    if (total != v->shape[axis])
        return bad_shape(host, v, x);
    size_t *chunk = calloc(v->n_inputs, sizeof *chunk);
    if (!(n->scratch = chunk))
        return no_memory(host, v->name);
    n->plan.concat.chunk = chunk;
    n->plan.concat.outer =
        (size_t)rlx_kit_dims_product(v->shape, 0, (uint32_t)axis);
    size_t inner = (size_t)rlx_kit_dims_product(v->shape, (uint32_t)axis + 1,
                                                v->rank) * n->elem;
    for (uint32_t i = 0; i < v->n_inputs && n->count; i++)
        chunk[i] = (size_t)g->nodes[v->inputs[i]]->shape[axis] * inner;
    return RLX_OK;
}

static rlx_status prepare_gather(const rlx_host *host,
                                 const rlx_graph_view *g,
                                 const rlx_node_view *v,
                                 const rlx__cpu_ref_attrs *a,
                                 rlx__cpu_ref_node *n)
{
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    const rlx_node_view *idx = g->nodes[v->inputs[1]];
    int64_t axis = rlx_kit_norm_axis(
        a->n_ints ? a->ints[RLX_ATTR_GATHER_AXIS] : 0, x->rank);
    if (idx->dtype != RLX_DTYPE_I32 && idx->dtype != RLX_DTYPE_I64)
        return rlx_kit_fail(host, RLX_ERR_DTYPE,
                            "cpu-ref compile: gather '%s' has indices "
                            "of dtype %d." FIX_REPORT, v->name,
                            (int)idx->dtype);
    if (axis < 0 || x->rank - 1 + idx->rank > MAX_RANK ||
        v->rank != x->rank - 1 + idx->rank)
        return bad_shape(host, v, x);
    /* the result is x[:axis] + indices + x[axis+1:] */
    uint32_t ax = (uint32_t)axis, o = 0;
    int64_t want[MAX_RANK];
    for (uint32_t d = 0; d < ax; d++)
        want[o++] = x->shape[d];
    for (uint32_t d = 0; d < idx->rank; d++)
        want[o++] = idx->shape[d];
    for (uint32_t d = ax + 1; d < x->rank; d++)
        want[o++] = x->shape[d];
    for (uint32_t d = 0; d < v->rank; d++)
        if (v->shape[d] != want[d])
            return bad_shape(host, v, x);
    rlx__cpu_ref_gather *p = &n->plan.gather;
    size_t n_idx = 0;
    if (rlx__cpu_ref_shape_count(rlx__cpu_ref_shape_of(idx), 8, &n_idx) != 1)
        return bad_shape(host, v, idx);
    p->n_idx = n_idx;
    p->outer = (size_t)rlx_kit_dims_product(x->shape, 0, ax);
    p->dim = (size_t)x->shape[ax];
    p->inner = (size_t)rlx_kit_dims_product(x->shape, ax + 1, x->rank);
    p->index_dtype = idx->dtype;
    return RLX_OK;
}

rlx_status rlx__cpu_ref_movement_prepare(const rlx_host *host,
                                         const rlx_graph_view *g,
                                         const rlx_node_view *v,
                                         const rlx__cpu_ref_attrs *a,
                                         rlx__cpu_ref_node *n)
{
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    switch (v->op) {
    case RLX_OP_RESHAPE: {
        size_t have = 0;
        if (rlx__cpu_ref_shape_count(rlx__cpu_ref_shape_of(x), n->elem,
                                     &have) != 1 ||
            have != n->count)
            return bad_shape(host, v, x);
        return RLX_OK;
    }
    case RLX_OP_TRANSPOSE: return prepare_transpose(host, v, x, a, n);
    case RLX_OP_SLICE: return prepare_slice(host, v, x, a, n);
    case RLX_OP_CONCAT: return prepare_concat(host, g, v, a, n);
    case RLX_OP_GATHER: return prepare_gather(host, g, v, a, n);
    default:
        return rlx_kit_fail(host, RLX_ERR_INTERNAL,
                            "cpu-ref compile: '%s' is not a movement "
                            "op." FIX_REPORT, v->name);
    }
}

static void strided_run(rlx__cpu_ref_node *n, const unsigned char *src)
{
    rlx__cpu_ref_strided *p = &n->plan.strided;
    size_t elem = n->elem, off = p->base;
    uint32_t r = p->rank;
    if (n->count == 0)
        return;
    if (r)
        memset(p->index, 0, r * sizeof *p->index);
    for (size_t i = 0; i < n->count; i++) {
        memcpy(n->data + i * elem, src + off * elem, elem);
        for (uint32_t d = r; d-- > 0;) {
            off += p->stride[d];
            if (++p->index[d] < p->dims[d])
                break;
            off -= p->stride[d] * p->dims[d];
            p->index[d] = 0;
        }
    }
}

static int64_t index_at(rlx_dtype t, const unsigned char *base, size_t i)
{
    if (t == RLX_DTYPE_I32) {
        int32_t v;
        memcpy(&v, base + 4 * i, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, base + 8 * i, 8);
    return v;
}

static rlx_status gather_run(const rlx_host *host, rlx__cpu_ref_node *n,
                             const unsigned char *data,
                             const unsigned char *indices)
{
    const rlx__cpu_ref_gather *p = &n->plan.gather;
    /* every index is checked before anything is copied */
    for (size_t j = 0; j < p->n_idx; j++) {
        int64_t k = index_at(p->index_dtype, indices, j);
        if (k < 0 || (uint64_t)k >= p->dim)
            return rlx_kit_fail(
                host, RLX_ERR_INVALID_ARGUMENT,
                "gather '%s': index %lld (element %zu of the indices) is "
                "outside [0, %zu), the size of the gathered axis. Fix: keep "
                "every index in [0, %zu); negative indices do not count "
                "from the end", n->name, (long long)k, j, p->dim, p->dim);
    }
    size_t row = p->inner * n->elem;
    if (row == 0)
        return RLX_OK;
    unsigned char *out = n->data;
    for (size_t o = 0; o < p->outer; o++)
        for (size_t j = 0; j < p->n_idx; j++) {
            size_t k = (size_t)index_at(p->index_dtype, indices, j);
            memcpy(out, data + (o * p->dim + k) * row, row);
            out += row;
        }
    return RLX_OK;
}

rlx_status rlx__cpu_ref_movement_run(const rlx_host *host,
                                     const rlx_executable *exe,
                                     rlx__cpu_ref_node *n)
{
    const unsigned char *x = exe->nodes[n->inputs[0]].data;
    switch (n->op) {
    case RLX_OP_RESHAPE:
        if (n->count)
            memcpy(n->data, x, n->count * n->elem);
        return RLX_OK;
    case RLX_OP_TRANSPOSE: case RLX_OP_SLICE:
        strided_run(n, x);
        return RLX_OK;
    case RLX_OP_CONCAT: {
        unsigned char *out = n->data;
        if (n->count == 0)
            return RLX_OK;
        for (size_t o = 0; o < n->plan.concat.outer; o++)
            for (uint32_t i = 0; i < n->n_inputs; i++) {
                size_t c = n->plan.concat.chunk[i];
                if (c)
                    memcpy(out, exe->nodes[n->inputs[i]].data + o * c, c);
                out += c;
            }
        return RLX_OK;
    }
    case RLX_OP_GATHER:
        return gather_run(host, n, x, exe->nodes[n->inputs[1]].data);
    default:
        return RLX_OK; /* compile admits no other op here */
    }
}
