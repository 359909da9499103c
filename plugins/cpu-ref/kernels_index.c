/*
 * kernels_index.c - the indexing ops of ABI 1.4 (gather_elements,
 * gather_nd, scatter_elements, scatter_nd, one_hot, non_zero), and the
 * compile-time preparation and run dispatch shared by every 1.4 data
 * movement op. Prepare copies the shapes and attributes and checks what
 * the kernels rely on to stay inside their buffers; index values are
 * checked at run time, before anything is written.
 */
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_index.h>

#include "cpu_ref_internal.h"
#include "kernels_value.h"

#define FIX_REPORT " Fix: report this as a bug in the rlx core"
#define R RLX__CPU_REF_IDX_RANK

int rlx__cpu_ref_is_index_op(rlx_op op)
{
    switch (op) {
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ELEMENTS:
    case RLX_OP_SCATTER_ND: case RLX_OP_CUMSUM: case RLX_OP_TOPK:
    case RLX_OP_RANGE: case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
    case RLX_OP_NON_ZERO:
        return 1;
    default:
        return 0;
    }
}

void rlx__cpu_ref_unravel(size_t i, uint32_t rank, const int64_t *dims,
                          int64_t *coord)
{
    for (uint32_t d = rank; d-- > 0;) {
        size_t n = (size_t)dims[d];
        coord[d] = n ? (int64_t)(i % n) : 0;
        i = n ? i / n : 0;
    }
}

size_t rlx__cpu_ref_ravel(uint32_t rank, const int64_t *dims,
                          const int64_t *coord)
{
    size_t i = 0;
    for (uint32_t d = 0; d < rank; d++)
        i = i * (size_t)dims[d] + (size_t)coord[d];
    return i;
}

static size_t prod(uint32_t from, uint32_t to, const int64_t *dims)
{
    size_t n = 1;
    for (uint32_t d = from; d < to; d++)
        n *= (size_t)dims[d];
    return n;
}

static rlx_status bad(const rlx_host *host, const rlx_node_view *v,
                      const char *what)
{
    return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                        "cpu-ref compile: %s '%s': %s." FIX_REPORT,
                        rlx_kit_op_name(v->op), v->name, what);
}

static int is_index_dtype(rlx_dtype t)
{
    return t == RLX_DTYPE_I32 || t == RLX_DTYPE_I64;
}

/* Normalized axis attribute I (default DFLT) for RANK into *AXIS. */
static int axis_attr(const rlx__cpu_ref_index *p, uint32_t i, int64_t dflt,
                     uint32_t rank, uint32_t *axis)
{
    int64_t a = i < p->n_ints ? p->ints[i] : dflt;
    int64_t k;
    if (!rlx_kit_index_wrap(a, (int64_t)rank, &k))
        return 0;
    *axis = (uint32_t)k;
    return 1;
}

/* The checks each op's kernel relies on; the core made the same ones. */
static const char *check_op(const rlx__cpu_ref_index *p, rlx_op op,
                            rlx_dtype out, size_t elem)
{
    uint32_t axis = 0;
    switch (op) {
    case RLX_OP_GATHER_ELEMENTS: case RLX_OP_SCATTER_ELEMENTS: {
        if (!is_index_dtype(p->dtype[1]))
            return "indices are not i32 or i64";
        if (p->rank[1] != p->rank[0] || !axis_attr(p, 0, 0, p->rank[0],
                                                   &axis))
            return "the indices' rank or the axis does not fit the data";
        for (uint32_t d = 0; d < p->rank[0]; d++)
            if (d != axis && p->dims[1][d] > p->dims[0][d])
                return "the indices are larger than the data";
        if (op == RLX_OP_SCATTER_ELEMENTS &&
            (p->rank[2] != p->rank[1] || p->dtype[2] != out ||
             memcmp(p->dims[1], p->dims[2], p->rank[1] * sizeof(int64_t))))
            return "updates and indices differ in shape";
        return NULL;
    }
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ND: {
        int64_t b = op == RLX_OP_GATHER_ND && p->n_ints ? p->ints[0] : 0;
        if (!is_index_dtype(p->dtype[1]) || p->rank[1] == 0)
            return "indices are not i32 or i64 of rank 1 or more";
        int64_t k = p->dims[1][p->rank[1] - 1];
        if (b < 0 || b >= (int64_t)p->rank[1] || b >= (int64_t)p->rank[0] ||
            k < 1 || k > (int64_t)p->rank[0] - b)
            return "batch_dims or the index tuple length does not fit";
        if (memcmp(p->dims[0], p->dims[1], (size_t)b * sizeof(int64_t)))
            return "the batch dimensions differ";
        if (op == RLX_OP_SCATTER_ND) {
            size_t want = prod(0, p->rank[1] - 1, p->dims[1]) *
                          prod((uint32_t)k, p->rank[0], p->dims[0]);
            if (prod(0, p->rank[2], p->dims[2]) != want ||
                p->dtype[2] != out)
                return "the updates do not match the index tuples";
        }
        return NULL;
    }
    case RLX_OP_ONE_HOT:
        if (!is_index_dtype(p->dtype[0]) || p->rank[1] != 1 ||
            p->dims[1][0] != 2 || p->dtype[1] != out)
            return "indices are not i32/i64 or values are not [2]";
        if (p->n_ints < 1 || p->ints[0] < 0 ||
            !axis_attr(p, 1, -1, p->rank[0] + 1, &axis))
            return "depth or axis is out of range";
        return NULL;
    case RLX_OP_PAD:
        if (p->n_ints > 1 && p->n_ints != 1 + 2 * p->rank[0])
            return "the pads do not match the rank";
        return NULL;
    case RLX_OP_TILE:
        return p->n_ints == p->rank[0] ? NULL : "the repeats miss axes";
    case RLX_OP_STRIDED_SLICE:
        if (p->n_ints % 4)
            return "the attributes are not quadruples";
        for (uint32_t t = 0; t < p->n_ints; t += 4)
            if (!axis_attr(p, t, 0, p->rank[0], &axis) || p->ints[t + 3] == 0)
                return "an axis is out of range or a step is 0";
        return NULL;
    case RLX_OP_TRILU:
        return p->rank[0] >= 2 ? NULL : "the input has rank below 2";
    case RLX_OP_CUMSUM: case RLX_OP_TOPK:
        if (!axis_attr(p, op == RLX_OP_TOPK ? 1 : 0,
                       op == RLX_OP_TOPK ? -1 : 0, p->rank[0], &axis))
            return "the axis is out of range";
        if (op == RLX_OP_TOPK && (p->n_ints < 1 || p->ints[0] < 0 ||
                                  p->ints[0] > p->dims[0][axis]))
            return "k is out of range";
        return NULL;
    case RLX_OP_RANGE:
        return p->out_rank == 1 ? NULL : "the result is not rank 1";
    case RLX_OP_NON_ZERO:
        return p->out_rank == 2 && p->out_dims[0] == (int64_t)p->rank[0] &&
                       elem == 8
                   ? NULL
                   : "the result is not i64 [rank, n]";
    default:
        return NULL;
    }
}

/* The result shape OP gives P's inputs into DIMS, its rank returned;
 * -1 when the attributes do not give one (check_op passed first). */
static int expect_out(const rlx__cpu_ref_index *p, rlx_op op, int64_t *dims)
{
    uint32_t r = p->rank[0], axis = 0;
    memcpy(dims, p->dims[0], sizeof p->dims[0]);
    switch (op) {
    case RLX_OP_PAD:
        for (uint32_t d = 0; p->n_ints > 1 && d < r; d++) {
            int64_t b = p->ints[1 + d], e = p->ints[1 + r + d];
            /* pads may be huge: the core refused sums that overflow */
            if (b > INT64_MAX / 4 || e > INT64_MAX / 4 ||
                b < INT64_MIN / 4 || e < INT64_MIN / 4)
                return -1;
            dims[d] += b + e;
            int64_t mid = p->dims[0][d] + (b < 0 ? b : 0) + (e < 0 ? e : 0);
            if (mid < 0 || (p->ints[0] != RLX_PAD_CONSTANT && mid == 0 &&
                            dims[d] > 0))
                return -1;
        }
        return (int)r;
    case RLX_OP_EXPAND: {
        uint32_t n = p->n_ints, out = n > r ? n : r;
        for (uint32_t i = 0; i < out; i++) {
            int64_t dx = i < r ? p->dims[0][r - 1 - i] : 1;
            int64_t ds = i < n ? p->ints[n - 1 - i] : 1;
            if (ds < 0 || (dx != ds && dx != 1 && ds != 1))
                return -1;
            dims[out - 1 - i] = dx == 1 ? ds : dx;
        }
        return out <= R ? (int)out : -1;
    }
    case RLX_OP_TILE:
        for (uint32_t d = 0; d < r; d++) {
            if (p->ints[d] < 0 || (p->ints[d] &&
                                   dims[d] > INT64_MAX / p->ints[d]))
                return -1;
            dims[d] *= p->ints[d];
        }
        return (int)r;
    case RLX_OP_STRIDED_SLICE:
        for (uint32_t t = 0; t < p->n_ints; t += 4) {
            int64_t first;
            axis_attr(p, t, 0, r, &axis);
            rlx_kit_slice_bounds(p->dims[0][axis], p->ints[t + 1],
                                 p->ints[t + 2], p->ints[t + 3], &first,
                                 &dims[axis]);
        }
        return (int)r;
    case RLX_OP_GATHER_ELEMENTS:
        memcpy(dims, p->dims[1], sizeof p->dims[1]);
        return (int)p->rank[1];
    case RLX_OP_GATHER_ND: {
        uint32_t b = (uint32_t)(p->n_ints ? p->ints[0] : 0), o = 0;
        uint32_t k = (uint32_t)p->dims[1][p->rank[1] - 1];
        for (uint32_t d = 0; d + 1 < p->rank[1]; d++)
            dims[o++] = p->dims[1][d];
        for (uint32_t d = b + k; d < r && o < R; d++)
            dims[o++] = p->dims[0][d];
        return o;
    }
    case RLX_OP_TOPK:
        axis_attr(p, 1, -1, r, &axis);
        dims[axis] = p->ints[0];
        return (int)r;
    case RLX_OP_ONE_HOT:
        axis_attr(p, 1, -1, r + 1, &axis);
        for (uint32_t d = 0; d <= r; d++)
            dims[d] = d == axis ? p->ints[0]
                                : p->dims[0][d < axis ? d : d - 1];
        return (int)r + 1;
    case RLX_OP_RANGE: case RLX_OP_NON_ZERO:
        memcpy(dims, p->out_dims, sizeof p->out_dims);
        return (int)p->out_rank; /* checked by check_op */
    default: /* scatters, cumsum, trilu: the data's shape */
        return (int)r;
    }
}

rlx_status rlx__cpu_ref_index_prepare(const rlx_host *host,
                                      const rlx_graph_view *g,
                                      const rlx_node_view *v,
                                      const rlx__cpu_ref_attrs *a,
                                      rlx__cpu_ref_node *n)
{
    rlx__cpu_ref_index *p = &n->plan.index;
    memset(p, 0, sizeof *p);
    if (v->rank > R)
        return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                            "cpu-ref compile: %s '%s' has rank %u; cpu-ref "
                            "runs it up to rank %d. Fix: reshape to fewer "
                            "dimensions", rlx_kit_op_name(v->op), v->name,
                            (unsigned)v->rank, R);
    for (uint32_t i = 0; i < v->n_inputs && i < 3; i++) {
        const rlx_node_view *in = g->nodes[v->inputs[i]];
        if (in->rank > R)
            return rlx_kit_fail(host, RLX_ERR_UNSUPPORTED,
                                "cpu-ref compile: %s '%s' reads rank %u; "
                                "cpu-ref runs it up to rank %d. Fix: "
                                "reshape to fewer dimensions",
                                rlx_kit_op_name(v->op), v->name,
                                (unsigned)in->rank, R);
        p->rank[i] = in->rank;
        p->dtype[i] = in->dtype;
        if (in->rank)
            memcpy(p->dims[i], in->shape, in->rank * sizeof(int64_t));
    }
    p->out_rank = v->rank;
    if (v->rank)
        memcpy(p->out_dims, v->shape, v->rank * sizeof(int64_t));
    if (a->n_ints > RLX__CPU_REF_IDX_INTS + 1)
        return bad(host, v, "too many integer attributes");
    p->n_ints = a->n_ints;
    if (a->n_ints)
        memcpy(p->ints, a->ints, a->n_ints * sizeof(int64_t));
    for (uint32_t i = 0; i < a->n_floats && i < 2; i++)
        p->f[i] = a->floats[i];
    p->n_floats = a->n_floats < 2 ? a->n_floats : 2;
    const char *why = check_op(p, v->op, v->dtype, n->elem);
    if (why)
        return bad(host, v, why);
    int64_t want[R + 1];
    int wr = expect_out(p, v->op, want);
    if (wr < 0 || (uint32_t)wr != p->out_rank ||
        (wr && memcmp(want, p->out_dims, (size_t)wr * sizeof(int64_t))))
        return bad(host, v, "the result's shape does not follow from the "
                            "inputs and attributes");
    if (v->op == RLX_OP_TOPK) { /* merge sort: the order and a buffer */
        uint32_t axis = 0;
        axis_attr(p, 1, -1, p->rank[0], &axis);
        size_t dim = (size_t)p->dims[0][axis];
        if (!(n->scratch = malloc((dim ? 2 * dim : 1) * sizeof(size_t))))
            return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                                "cpu-ref compile: out of memory planning "
                                "'%s'. Fix: free memory", v->name);
    }
    return RLX_OK;
}

/* ---- index checks ------------------------------------------------------ */

static rlx_status index_error(const rlx_host *host, const rlx__cpu_ref_node *n,
                              int64_t k, size_t at, int64_t dim)
{
    return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                        "%s '%s': index %lld (element %zu of the indices) is "
                        "outside [-%lld, %lld), the size of the indexed "
                        "axis. Fix: keep every index in range (negative "
                        "ones count from the end)", rlx_kit_op_name(n->op),
                        n->name, (long long)k, at, (long long)dim,
                        (long long)dim);
}

/* Element I of the indices, wrapped into [0, DIM); fails the run when
 * out of range. */
static rlx_status index_at(const rlx_host *host, const rlx__cpu_ref_node *n,
                           rlx_dtype t, const unsigned char *idx, size_t i,
                           int64_t dim, int64_t *out)
{
    int64_t k = rlx__cpu_ref_load_i(t, idx, i);
    if (!rlx_kit_index_wrap(k, dim, out))
        return index_error(host, n, k, i, dim);
    return RLX_OK;
}

/* ---- reductions of the scatters ----------------------------------------- */

/* Element I of Y combined with element J of U by reduction RED. */
static void combine(rlx_dtype t, size_t elem, int64_t red, unsigned char *y,
                    size_t i, const unsigned char *u, size_t j)
{
    if (red == RLX_REDUCTION_NONE) {
        memcpy(y + i * elem, u + j * elem, elem);
        return;
    }
    if (rlx__cpu_ref_is_float(t)) {
        double a = rlx__cpu_ref_load_f(t, y, i);
        double b = rlx__cpu_ref_load_f(t, u, j);
        double r = red == RLX_REDUCTION_ADD ? a + b
                   : red == RLX_REDUCTION_MUL ? a * b
                   : a != a || b != b          ? a + b /* NaN propagates */
                   : red == RLX_REDUCTION_MAX  ? (b > a ? b : a)
                                               : (b < a ? b : a);
        rlx__cpu_ref_store_f(t, y, i, r);
        return;
    }
    int64_t a = rlx__cpu_ref_load_i(t, y, i);
    int64_t b = rlx__cpu_ref_load_i(t, u, j);
    /* u64 orders its bits unsigned */
    int more = t == RLX_DTYPE_U64 ? (uint64_t)b > (uint64_t)a : b > a;
    int less = t == RLX_DTYPE_U64 ? (uint64_t)b < (uint64_t)a : b < a;
    int64_t r = red == RLX_REDUCTION_ADD   ? rlx__cpu_ref_wrap_add(a, b)
                : red == RLX_REDUCTION_MUL ? rlx__cpu_ref_wrap_mul(a, b)
                : red == RLX_REDUCTION_MAX ? (more ? b : a)
                                           : (less ? b : a);
    rlx__cpu_ref_store_i(t, y, i, r);
}

/* ---- gather_elements, scatter_elements ---------------------------------- */

/* The data element index that element I of the indices names, into
 * *AT; the axis coordinate is K. */
static size_t elements_target(const rlx__cpu_ref_index *p, uint32_t axis,
                              size_t i, int64_t k)
{
    int64_t c[R];
    rlx__cpu_ref_unravel(i, p->rank[1], p->dims[1], c);
    c[axis] = k;
    return rlx__cpu_ref_ravel(p->rank[0], p->dims[0], c);
}

static rlx_status elements_run(const rlx_host *host, rlx__cpu_ref_node *n,
                               const unsigned char *x,
                               const unsigned char *idx,
                               const unsigned char *upd)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    uint32_t axis = 0;
    axis_attr(p, 0, 0, p->rank[0], &axis);
    size_t n_idx = prod(0, p->rank[1], p->dims[1]);
    int64_t dim = p->dims[0][axis], k;
    /* every index is checked before anything is written */
    for (size_t i = 0; i < n_idx; i++) {
        rlx_status st = index_at(host, n, p->dtype[1], idx, i, dim, &k);
        if (st != RLX_OK)
            return st;
    }
    if (n->op == RLX_OP_GATHER_ELEMENTS) {
        for (size_t i = 0; i < n_idx; i++) {
            index_at(host, n, p->dtype[1], idx, i, dim, &k);
            memcpy(n->data + i * n->elem,
                   x + elements_target(p, axis, i, k) * n->elem, n->elem);
        }
        return RLX_OK;
    }
    if (n->count)
        memcpy(n->data, x, n->count * n->elem);
    int64_t red = p->n_ints > 1 ? p->ints[1] : RLX_REDUCTION_NONE;
    for (size_t i = 0; i < n_idx; i++) { /* row-major: the last write wins */
        index_at(host, n, p->dtype[1], idx, i, dim, &k);
        combine(n->dtype, n->elem, red, n->data, elements_target(p, axis, i, k),
                upd, i);
    }
    return RLX_OK;
}

/* ---- gather_nd, scatter_nd ---------------------------------------------- */

/* The first data element of tuple T's slice, into *OFF (B batch dims, K
 * entries per tuple); fails on an index out of range. */
static rlx_status nd_offset(const rlx_host *host, const rlx__cpu_ref_node *n,
                            const unsigned char *idx, uint32_t b, uint32_t k,
                            size_t t, size_t *off)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    int64_t c[R] = { 0 }, tc[R];
    /* the batch coordinates are the tuple's own leading coordinates */
    rlx__cpu_ref_unravel(t, p->rank[1] - 1, p->dims[1], tc);
    for (uint32_t d = 0; d < b; d++)
        c[d] = tc[d];
    for (uint32_t j = 0; j < k; j++) {
        rlx_status st = index_at(host, n, p->dtype[1], idx, t * k + j,
                                 p->dims[0][b + j], &c[b + j]);
        if (st != RLX_OK)
            return st;
    }
    *off = rlx__cpu_ref_ravel(b + k, p->dims[0], c) *
           prod(b + k, p->rank[0], p->dims[0]);
    return RLX_OK;
}

static rlx_status nd_run(const rlx_host *host, rlx__cpu_ref_node *n,
                         const unsigned char *x, const unsigned char *idx,
                         const unsigned char *upd)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    int gather = n->op == RLX_OP_GATHER_ND;
    uint32_t b = gather && p->n_ints ? (uint32_t)p->ints[0] : 0;
    uint32_t k = (uint32_t)p->dims[1][p->rank[1] - 1];
    size_t tuples = prod(0, p->rank[1] - 1, p->dims[1]);
    size_t slice = prod(b + k, p->rank[0], p->dims[0]), off;
    for (size_t t = 0; t < tuples; t++) {
        rlx_status st = nd_offset(host, n, idx, b, k, t, &off);
        if (st != RLX_OK)
            return st;
    }
    if (gather) {
        for (size_t t = 0; t < tuples && slice; t++) {
            nd_offset(host, n, idx, b, k, t, &off);
            memcpy(n->data + t * slice * n->elem, x + off * n->elem,
                   slice * n->elem);
        }
        return RLX_OK;
    }
    if (n->count)
        memcpy(n->data, x, n->count * n->elem);
    int64_t red = p->n_ints ? p->ints[0] : RLX_REDUCTION_NONE;
    for (size_t t = 0; t < tuples; t++) {
        nd_offset(host, n, idx, b, k, t, &off);
        for (size_t s = 0; s < slice; s++)
            combine(n->dtype, n->elem, red, n->data, off + s, upd,
                    t * slice + s);
    }
    return RLX_OK;
}

/* ---- one_hot, non_zero --------------------------------------------------- */

static void one_hot_run(rlx__cpu_ref_node *n, const unsigned char *idx,
                        const unsigned char *values)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    uint32_t axis = 0;
    axis_attr(p, 1, -1, p->rank[0] + 1, &axis);
    int64_t depth = p->ints[0], c[R + 1], ic[R + 1];
    for (size_t o = 0; o < n->count; o++) {
        rlx__cpu_ref_unravel(o, p->out_rank, p->out_dims, c);
        for (uint32_t d = 0, j = 0; d < p->out_rank; d++)
            if (d != axis)
                ic[j++] = c[d];
        int64_t k = rlx__cpu_ref_load_i(
            p->dtype[0], idx, rlx__cpu_ref_ravel(p->rank[0], p->dims[0], ic));
        int64_t at;
        /* out of [-depth, depth): every entry off, as ONNX says */
        int on = rlx_kit_index_wrap(k, depth, &at) && at == c[axis];
        memcpy(n->data + o * n->elem, values + (on ? n->elem : 0), n->elem);
    }
}

static int is_nonzero(rlx_dtype t, const unsigned char *x, size_t i)
{
    if (rlx__cpu_ref_is_float(t))
        return rlx__cpu_ref_load_f(t, x, i) != 0.0; /* NaN counts, -0 not */
    return rlx__cpu_ref_load_i(t, x, i) != 0;
}

static rlx_status non_zero_run(const rlx_host *host, rlx__cpu_ref_node *n,
                               const unsigned char *x)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    size_t numel = prod(0, p->rank[0], p->dims[0]), found = 0;
    size_t cols = (size_t)p->out_dims[1];
    for (size_t i = 0; i < numel; i++)
        found += (size_t)is_nonzero(p->dtype[0], x, i);
    if (found > cols)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "non_zero '%s': the input has %zu nonzero "
                            "elements but the result has %zu columns. Fix: "
                            "compile with int_attrs[0] = -1 (one column per "
                            "element) or the count this input has",
                            n->name, found, cols);
    for (size_t o = 0; o < n->count; o++)
        rlx__cpu_ref_store_i(RLX_DTYPE_I64, n->data, o, -1);
    int64_t c[R];
    size_t col = 0;
    for (size_t i = 0; i < numel; i++) {
        if (!is_nonzero(p->dtype[0], x, i))
            continue;
        rlx__cpu_ref_unravel(i, p->rank[0], p->dims[0], c);
        for (uint32_t d = 0; d < p->rank[0]; d++)
            rlx__cpu_ref_store_i(RLX_DTYPE_I64, n->data, d * cols + col,
                                 c[d]);
        col++;
    }
    return RLX_OK;
}

rlx_status rlx__cpu_ref_index_run(const rlx_host *host,
                                  const rlx_executable *exe,
                                  rlx__cpu_ref_node *n)
{
    const unsigned char *in[3] = { NULL, NULL, NULL };
    for (uint32_t i = 0; i < n->n_inputs && i < 3; i++)
        in[i] = exe->nodes[n->inputs[i]].data;
    switch (n->op) {
    case RLX_OP_GATHER_ELEMENTS: case RLX_OP_SCATTER_ELEMENTS:
        return elements_run(host, n, in[0], in[1], in[2]);
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ND:
        return nd_run(host, n, in[0], in[1], in[2]);
    case RLX_OP_ONE_HOT:
        one_hot_run(n, in[0], in[1]);
        return RLX_OK;
    case RLX_OP_NON_ZERO:
        return non_zero_run(host, n, in[0]);
    case RLX_OP_CUMSUM: case RLX_OP_TOPK: case RLX_OP_RANGE:
        rlx__cpu_ref_scan_run(n, in[0]);
        return RLX_OK;
    default:
        rlx__cpu_ref_layout_run(n, in[0]);
        return RLX_OK;
    }
}
