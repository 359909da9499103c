/*
 * pjrt_emit_index.c - the ABI 1.4 data movement and indexing ops: pad,
 * expand, tile, strided_slice, gather_elements, gather_nd, cumsum,
 * range, one_hot and trilu, any dtype unless the op says otherwise.
 *
 * Index tables known at compile time (pad's edge, reflect and wrap
 * sources, which follow the same rule as cpu-ref, crops and periodic
 * wide pads included) become i64 constants read by one gather per axis
 * (rlxp_take). Indices known only at run time (gather_elements,
 * gather_nd) count from the end when negative and yield a range-check
 * flag, as gather does (pjrt_emit_movement.c): stablehlo.gather would
 * clamp where rlx fails the run.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <rlx/kit_index.h>

#include "pjrt_emit.h"

static uint32_t in(rlxp_emit *e, const rlx_node_view *n, uint32_t i)
{
    return e->node_val[n->inputs[i]];
}

static int64_t iattr(const rlx_node_view *n, uint32_t i, int64_t dflt)
{
    return n->n_int_attrs > i ? n->int_attrs[i] : dflt;
}

/* An i64 [COUNT] constant of V. */
uint32_t rlxp_i64_table(rlxp_emit *e, const int64_t *v, int64_t count)
{
    rlxp_val t = rlxp_val_make(RLX_DTYPE_I64, 1, &count);
    uint32_t id = rlxp_new(e, &t);
    if (id == RLXP_NONE)
        return id;
    rlxp_put(e, "    %%%u = \"stablehlo.constant\"() {value = dense<[", id);
    for (int64_t i = 0; i < count; i++)
        rlxp_put(e, "%s%lld", i ? ", " : "", (long long)v[i]);
    rlxp_put(e, "]> : ");
    rlxp_put_type(e, &t);
    rlxp_put(e, "} : () -> ");
    rlxp_put_type(e, &t);
    rlxp_put(e, "\n");
    return id;
}

/* X's elements V[0..COUNT) along AXIS (a gather of whole slices). */
uint32_t rlxp_take(rlxp_emit *e, uint32_t x, uint32_t axis,
                   const int64_t *v, int64_t count)
{
    if (x == RLXP_NONE)
        return x;
    const rlxp_val xv = *rlxp_type_of(e, x);
    int64_t d2[2] = { count, 1 };
    uint32_t idx = rlxp_reshape(e, rlxp_i64_table(e, v, count), 2, d2);
    /* the indices' batch dim lands at AXIS; the slices' dims keep
     * their places around it */
    int64_t sizes[RLXP_MAX_RANK];
    char attrs[1024] = "dimension_numbers = #stablehlo.gather<";
    uint32_t no = 0;
    for (uint32_t d = 0; d < xv.rank; d++) {
        sizes[d] = d == axis ? 1 : xv.dims[d];
        if (d == axis)
            continue;
        rlxp_cat(attrs, sizeof attrs, "%s%u", no ? ", " : "offset_dims = [",
                 d);
        no++;
    }
    rlxp_cat(attrs, sizeof attrs, "%scollapsed_slice_dims = [%u], "
             "start_index_map = [%u], index_vector_dim = 1>, "
             "indices_are_sorted = false", no ? "], " : "", axis, axis);
    rlxp_cat_array(attrs, sizeof attrs, "slice_sizes", xv.rank, sizes);
    rlxp_val r = xv;
    r.dims[axis] = count;
    uint32_t ops[2] = { x, idx };
    return rlxp_op(e, "stablehlo.gather", 2, ops, &r, attrs);
}

static int64_t pos_mod(int64_t p, int64_t m)
{
    int64_t r = p % m;
    return r < 0 ? r + m : r;
}

/* As cpu-ref: the input coordinate for result coordinate C. */
static int64_t pad_source(int64_t mode, int64_t c, int64_t dim, int64_t b,
                          int64_t end)
{
    int64_t lo = b < 0 ? -b : 0;
    int64_t mid = dim - lo - (end < 0 ? -end : 0);
    int64_t q = c - (b > 0 ? b : 0);
    if (q >= 0 && q < mid)
        return lo + q;
    switch (mode) {
    case RLX_PAD_EDGE: return lo + (q < 0 ? 0 : mid - 1);
    case RLX_PAD_WRAP: return lo + pos_mod(q, mid);
    default: { /* reflect */
        if (mid == 1)
            return lo;
        int64_t m = pos_mod(q, 2 * (mid - 1));
        return lo + (m < mid ? m : 2 * (mid - 1) - m);
    }
    }
}

static uint32_t pad(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = in(e, n, 0);
    const rlxp_val v = *rlxp_type_of(e, x);
    int64_t mode = iattr(n, RLX_ATTR_PAD_MODE, RLX_PAD_CONSTANT);
    int64_t b[RLXP_MAX_RANK], en[RLXP_MAX_RANK], zero[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < v.rank; d++) {
        b[d] = iattr(n, RLX_ATTR_PAD_PADS + d, 0);
        en[d] = iattr(n, RLX_ATTR_PAD_PADS + v.rank + d, 0);
        zero[d] = 0;
    }
    if (mode == RLX_PAD_CONSTANT) {
        double c = n->n_float_attrs > RLX_ATTR_PAD_VALUE
                       ? n->float_attrs[RLX_ATTR_PAD_VALUE] : 0.0;
        rlxp_val sv = rlxp_val_make(v.dt, 0, NULL);
        uint32_t ops[2] = { x, rlxp_splat(e, &sv, c) };
        char attrs[768] = "";
        rlxp_cat_array(attrs, sizeof attrs, "edge_padding_low", v.rank, b);
        rlxp_cat_array(attrs, sizeof attrs, "edge_padding_high", v.rank, en);
        rlxp_cat_array(attrs, sizeof attrs, "interior_padding", v.rank,
                       zero);
        rlxp_val r = rlxp_val_of_node(n);
        return rlxp_op(e, "stablehlo.pad", 2, ops, &r, attrs);
    }
    for (uint32_t d = 0; d < v.rank && x != RLXP_NONE; d++) {
        if (b[d] == 0 && en[d] == 0)
            continue;
        int64_t len = n->shape[d];
        int64_t *t = malloc((size_t)(len ? len : 1) * sizeof *t);
        if (!t) {
            rlxp_fail(e, RLX_ERR_OUT_OF_MEMORY, "pjrt: out of memory. "
                      "Fix: free memory");
            return RLXP_NONE;
        }
        for (int64_t c = 0; c < len; c++)
            t[c] = pad_source(mode, c, v.dims[d], b[d], en[d]);
        x = rlxp_take(e, x, d, t, len);
        free(t);
    }
    return x;
}

static uint32_t tile(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = in(e, n, 0);
    for (uint32_t a = 0; a < n->rank && x != RLXP_NONE; a++) {
        const rlxp_val v = *rlxp_type_of(e, x);
        int64_t r = iattr(n, RLX_ATTR_TILE_REPEATS + a, 1);
        if (r == 1)
            continue;
        /* [.., d, ..] -> [.., r, d, ..] -> [.., r*d, ..] */
        rlxp_val to = v;
        int64_t map[RLXP_MAX_RANK];
        to.rank = v.rank + 1;
        for (uint32_t d = 0, k = 0; d < to.rank; d++) {
            if (d == a) {
                to.dims[d] = r;
                continue;
            }
            to.dims[d] = v.dims[k];
            map[k] = d;
            k++;
        }
        x = rlxp_broadcast(e, x, &to, map);
        rlxp_val out = v;
        out.dims[a] = r * v.dims[a];
        x = rlxp_reshape(e, x, out.rank, out.dims);
    }
    return x;
}

static uint32_t strided_slice(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = in(e, n, 0);
    const rlxp_val v = *rlxp_type_of(e, x);
    int64_t start[RLXP_MAX_RANK] = { 0 }, lim[RLXP_MAX_RANK],
            step[RLXP_MAX_RANK];
    int64_t rev[RLXP_MAX_RANK];
    uint32_t nrev = 0;
    for (uint32_t d = 0; d < v.rank; d++) {
        lim[d] = v.dims[d];
        step[d] = 1;
    }
    for (uint32_t q = 0; q + 3 < n->n_int_attrs; q += 4) {
        int64_t ax = n->int_attrs[q];
        if (ax < 0)
            ax += v.rank;
        if (ax < 0 || ax >= (int64_t)v.rank)
            continue;
        int64_t first, count, st = n->int_attrs[q + 3];
        int64_t dim = v.dims[ax];
        rlx_kit_slice_bounds(dim, n->int_attrs[q + 1], n->int_attrs[q + 2],
                             st, &first, &count);
        if (count == 0) {
            start[ax] = lim[ax] = 0;
            continue;
        }
        if (st < 0) { /* in the reversed axis: first -> dim - 1 - first */
            rev[nrev++] = ax;
            first = dim - 1 - first;
            st = st == INT64_MIN ? INT64_MAX : -st;
        }
        if (st > dim)
            st = dim; /* one element either way; keeps the sums small */
        start[ax] = first;
        step[ax] = st;
        lim[ax] = first + (count - 1) * st + 1;
    }
    if (nrev) {
        char ra[256] = "";
        rlxp_cat_array(ra, sizeof ra, "dimensions", nrev, rev);
        rlxp_val r = v;
        x = rlxp_op(e, "stablehlo.reverse", 1, &x, &r, ra);
    }
    char attrs[768] = "";
    rlxp_cat_array(attrs, sizeof attrs, "start_indices", v.rank, start);
    rlxp_cat_array(attrs, sizeof attrs, "limit_indices", v.rank, lim);
    rlxp_cat_array(attrs, sizeof attrs, "strides", v.rank, step);
    rlxp_val r = rlxp_val_of_node(n);
    return rlxp_op(e, "stablehlo.slice", 1, &x, &r, attrs);
}

/* IDX (i64) with negatives moved up by DIMS (broadcast like IDX); adds
 * the "some index outside [0, dim)" flag for node N. */
uint32_t rlxp_wrap_check(rlxp_emit *e, const rlx_node_view *n, uint32_t idx,
                         uint32_t dims)
{
    uint32_t zero = rlxp_splat_like(e, idx, 0.0);
    uint32_t neg = rlxp_compare(e, idx, zero, "LT");
    idx = rlxp_select(e, neg, rlxp_bin(e, "stablehlo.add", idx, dims), idx);
    uint32_t bad = rlxp_bin(e, "stablehlo.or",
                            rlxp_compare(e, idx, zero, "LT"),
                            rlxp_compare(e, idx, dims, "GE"));
    const rlxp_val *bv = rlxp_type_of(e, bad);
    int64_t all[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < bv->rank; d++)
        all[d] = d;
    uint32_t flag = rlxp_reduce(e, bad, bv->rank, all, "stablehlo.or", 0.0);
    if (flag != RLXP_NONE) {
        e->check_what[e->n_checks] = n->name;
        e->checks[e->n_checks++] = flag;
    }
    return idx;
}

static uint32_t gather_elements(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t data = in(e, n, 0);
    uint32_t idx = rlxp_convert(e, in(e, n, 1), RLX_DTYPE_I64);
    const rlxp_val dv = *rlxp_type_of(e, data);
    const rlxp_val iv = *rlxp_type_of(e, idx);
    int64_t axis = iattr(n, RLX_ATTR_GATHER_ELEMENTS_AXIS, 0);
    if (axis < 0)
        axis += dv.rank;
    idx = rlxp_wrap_check(e, n, idx,
                         rlxp_splat_like(e, idx, (double)dv.dims[axis]));
    /* full coordinates [..., rank]: iotas, the index at AXIS */
    rlxp_val cv = iv;
    cv.rank = iv.rank + 1;
    cv.dims[iv.rank] = 1;
    uint32_t parts[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < dv.rank; d++) {
        uint32_t p = (int64_t)d == axis ? idx : rlxp_iota(e, &iv, d);
        parts[d] = rlxp_reshape(e, p, cv.rank, cv.dims);
    }
    rlxp_val all = cv;
    all.dims[iv.rank] = dv.rank;
    char ca[64];
    snprintf(ca, sizeof ca, "dimension = %u : i64", iv.rank);
    uint32_t coords = dv.rank == 1 ? parts[0]
                                   : rlxp_op(e, "stablehlo.concatenate",
                                             dv.rank, parts, &all, ca);
    char attrs[1024] = "dimension_numbers = #stablehlo.gather<"
                       "collapsed_slice_dims = [";
    for (uint32_t d = 0; d < dv.rank; d++)
        rlxp_cat(attrs, sizeof attrs, "%s%u", d ? ", " : "", d);
    rlxp_cat(attrs, sizeof attrs, "], start_index_map = [");
    for (uint32_t d = 0; d < dv.rank; d++)
        rlxp_cat(attrs, sizeof attrs, "%s%u", d ? ", " : "", d);
    rlxp_cat(attrs, sizeof attrs, "], index_vector_dim = %u>, "
             "indices_are_sorted = false", iv.rank);
    int64_t ones[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < dv.rank; d++)
        ones[d] = 1;
    rlxp_cat_array(attrs, sizeof attrs, "slice_sizes", dv.rank, ones);
    rlxp_val r = rlxp_val_of_node(n);
    uint32_t ops[2] = { data, coords };
    return rlxp_op(e, "stablehlo.gather", 2, ops, &r, attrs);
}

static uint32_t gather_nd(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t data = in(e, n, 0);
    uint32_t idx = rlxp_convert(e, in(e, n, 1), RLX_DTYPE_I64);
    const rlxp_val dv = *rlxp_type_of(e, data);
    const rlxp_val iv = *rlxp_type_of(e, idx);
    uint32_t b = (uint32_t)iattr(n, RLX_ATTR_GATHER_ND_BATCH_DIMS, 0);
    uint32_t q = iv.rank;
    int64_t k = iv.dims[q - 1];
    /* each component's own bound: dims[b..b+k) along the last axis */
    int64_t kd[1] = { k };
    int64_t bounds[RLXP_MAX_RANK];
    for (int64_t i = 0; i < k; i++)
        bounds[i] = dv.dims[b + i];
    int64_t lastmap[1] = { q - 1 };
    uint32_t bt = rlxp_reshape(e, rlxp_i64_table(e, bounds, k), 1, kd);
    bt = rlxp_broadcast(e, bt, &iv, lastmap);
    idx = rlxp_wrap_check(e, n, idx, bt);
    /* batch dims become leading coordinates from iotas */
    uint32_t coords = idx;
    if (b > 0) {
        rlxp_val one = iv;
        one.dims[q - 1] = 1;
        uint32_t parts[RLXP_MAX_RANK + 1];
        for (uint32_t d = 0; d < b; d++)
            parts[d] = rlxp_iota(e, &one, d);
        parts[b] = idx;
        rlxp_val all = iv;
        all.dims[q - 1] = b + k;
        char ca[64];
        snprintf(ca, sizeof ca, "dimension = %u : i64", q - 1);
        coords = rlxp_op(e, "stablehlo.concatenate", b + 1, parts, &all, ca);
    }
    int64_t kk = b + k;
    char attrs[1024] = "dimension_numbers = #stablehlo.gather<";
    uint32_t no = dv.rank - (uint32_t)kk;
    if (no) {
        rlxp_cat(attrs, sizeof attrs, "offset_dims = [");
        for (uint32_t i = 0; i < no; i++)
            rlxp_cat(attrs, sizeof attrs, "%s%u", i ? ", " : "", q - 1 + i);
        rlxp_cat(attrs, sizeof attrs, "], ");
    }
    if (kk) {
        rlxp_cat(attrs, sizeof attrs, "collapsed_slice_dims = [");
        for (int64_t i = 0; i < kk; i++)
            rlxp_cat(attrs, sizeof attrs, "%s%lld", i ? ", " : "",
                     (long long)i);
        rlxp_cat(attrs, sizeof attrs, "], start_index_map = [");
        for (int64_t i = 0; i < kk; i++)
            rlxp_cat(attrs, sizeof attrs, "%s%lld", i ? ", " : "",
                     (long long)i);
        rlxp_cat(attrs, sizeof attrs, "], ");
    }
    rlxp_cat(attrs, sizeof attrs, "index_vector_dim = %u>, "
             "indices_are_sorted = false", q - 1);
    int64_t sizes[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < dv.rank; d++)
        sizes[d] = (int64_t)d < kk ? 1 : dv.dims[d];
    rlxp_cat_array(attrs, sizeof attrs, "slice_sizes", dv.rank, sizes);
    rlxp_val r = rlxp_val_of_node(n);
    uint32_t ops[2] = { data, coords };
    return rlxp_op(e, "stablehlo.gather", 2, ops, &r, attrs);
}

/* Inclusive prefix sums along AXIS: a reduce_window as long as the axis,
 * padded by its length - 1 in front. */
static uint32_t prefix_sum(rlxp_emit *e, uint32_t x, uint32_t axis)
{
    const rlxp_val v = *rlxp_type_of(e, x);
    int64_t win[RLXP_MAX_RANK], one[RLXP_MAX_RANK], lo[RLXP_MAX_RANK],
            hi[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < v.rank; d++) {
        win[d] = d == axis ? v.dims[d] : 1;
        one[d] = 1;
        lo[d] = d == axis && v.dims[d] ? v.dims[d] - 1 : 0;
        hi[d] = 0;
    }
    if (v.dims[axis] == 0)
        return x;
    return rlxp_reduce_window(e, x, "stablehlo.add", 0.0, &v, win, one,
                              one, lo, hi);
}

static uint32_t cumsum(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val v = *rlxp_type_of(e, x);
    if (v.rank == 0)
        return rlxp_out(e, n, x);
    int64_t axis = iattr(n, RLX_ATTR_CUMSUM_AXIS, 0);
    if (axis < 0)
        axis += v.rank;
    int excl = iattr(n, RLX_ATTR_CUMSUM_EXCLUSIVE, 0) != 0;
    int rev = iattr(n, RLX_ATTR_CUMSUM_REVERSE, 0) != 0;
    char ra[96] = "";
    rlxp_cat_array(ra, sizeof ra, "dimensions", 1, &axis);
    if (rev)
        x = rlxp_op(e, "stablehlo.reverse", 1, &x, &v, ra);
    if (excl && v.dims[axis] > 0) {
        /* shift by one: a 0 in front, the last element dropped */
        int64_t lo[RLXP_MAX_RANK] = { 0 }, hi[RLXP_MAX_RANK] = { 0 },
                z[RLXP_MAX_RANK] = { 0 };
        lo[axis] = 1;
        hi[axis] = -1;
        char pa[768] = "";
        rlxp_cat_array(pa, sizeof pa, "edge_padding_low", v.rank, lo);
        rlxp_cat_array(pa, sizeof pa, "edge_padding_high", v.rank, hi);
        rlxp_cat_array(pa, sizeof pa, "interior_padding", v.rank, z);
        rlxp_val sv = rlxp_val_make(v.dt, 0, NULL);
        uint32_t ops[2] = { x, rlxp_splat(e, &sv, 0.0) };
        x = rlxp_op(e, "stablehlo.pad", 2, ops, &v, pa);
    }
    x = prefix_sum(e, x, (uint32_t)axis);
    if (rev)
        x = rlxp_op(e, "stablehlo.reverse", 1, &x, &v, ra);
    return rlxp_out(e, n, x);
}

static uint32_t range(rlxp_emit *e, const rlx_node_view *n)
{
    rlxp_val v = rlxp_val_of_node(n);
    int fl = n->dtype == RLX_DTYPE_F32 || n->dtype == RLX_DTYPE_F16 ||
             n->dtype == RLX_DTYPE_BF16;
    rlxp_val c = v;
    c.dt = fl ? RLX_DTYPE_F32 : RLX_DTYPE_I64;
    uint32_t i = rlxp_iota(e, &c, 0);
    double start, delta;
    if (fl) {
        start = n->n_float_attrs > RLX_ATTR_RANGE_START
                    ? n->float_attrs[RLX_ATTR_RANGE_START] : 0.0;
        delta = n->n_float_attrs > RLX_ATTR_RANGE_DELTA
                    ? n->float_attrs[RLX_ATTR_RANGE_DELTA] : 1.0;
        uint32_t y = rlxp_bin(e, "stablehlo.add",
                              rlxp_bin(e, "stablehlo.multiply", i,
                                       rlxp_splat_like(e, i, delta)),
                              rlxp_splat_like(e, i, start));
        return rlxp_convert(e, y, n->dtype);
    }
    /* integers wrap: i64 arithmetic, then convert keeps the low bits.
     * The literals are exact decimal i64 (not through a double). */
    int64_t s = iattr(n, RLX_ATTR_RANGE_INT_START, 0);
    int64_t d = iattr(n, RLX_ATTR_RANGE_INT_DELTA, 1);
    uint32_t sv = rlxp_i64_table(e, &s, 1), dv = rlxp_i64_table(e, &d, 1);
    int64_t map[1] = { 0 };
    uint32_t y = rlxp_bin(e, "stablehlo.add",
                          rlxp_bin(e, "stablehlo.multiply", i,
                                   rlxp_broadcast(e, dv, &c, map)),
                          rlxp_broadcast(e, sv, &c, map));
    return rlxp_convert(e, y, n->dtype);
}

static uint32_t trilu(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = in(e, n, 0);
    const rlxp_val v = *rlxp_type_of(e, x);
    int upper = iattr(n, RLX_ATTR_TRILU_UPPER, 1) != 0;
    int64_t k = iattr(n, RLX_ATTR_TRILU_K, 0);
    int64_t rows = v.dims[v.rank - 2], cols = v.dims[v.rank - 1];
    int64_t lim = rows + cols + 1; /* beyond it every k means the same */
    k = k > lim ? lim : k < -lim ? -lim : k;
    rlxp_val iv = v;
    iv.dt = RLX_DTYPE_I64;
    uint32_t i = rlxp_iota(e, &iv, v.rank - 2);
    uint32_t j = rlxp_iota(e, &iv, v.rank - 1);
    uint32_t ik = rlxp_bin(e, "stablehlo.add", i,
                           rlxp_splat_like(e, i, (double)k));
    uint32_t keep = rlxp_compare(e, j, ik, upper ? "GE" : "LE");
    return rlxp_select(e, keep, x, rlxp_splat_like(e, x, 0.0));
}

static uint32_t one_hot(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t idx = rlxp_convert(e, in(e, n, 0), RLX_DTYPE_I64);
    uint32_t vals = in(e, n, 1);
    int64_t depth = iattr(n, RLX_ATTR_ONE_HOT_DEPTH, 0);
    int64_t axis = iattr(n, RLX_ATTR_ONE_HOT_AXIS, -1);
    if (axis < 0)
        axis += n->rank;
    uint32_t neg = rlxp_compare(e, idx, rlxp_splat_like(e, idx, 0.0), "LT");
    idx = rlxp_select(e, neg, rlxp_bin(e, "stablehlo.add", idx,
                                       rlxp_splat_like(e, idx,
                                                       (double)depth)),
                      idx);
    rlxp_val r = rlxp_val_of_node(n);
    rlxp_val ri = r;
    ri.dt = RLX_DTYPE_I64;
    int64_t map[RLXP_MAX_RANK];
    for (uint32_t d = 0, k = 0; d < r.rank; d++)
        if ((int64_t)d != axis)
            map[k++] = d;
    uint32_t hit = rlxp_compare(e, rlxp_iota(e, &ri, (uint32_t)axis),
                                rlxp_broadcast(e, idx, &ri, map), "EQ");
    /* off and on: values[0] and values[1] as scalars, broadcast */
    uint32_t sel[2];
    for (int s = 0; s < 2; s++) {
        int64_t st[1] = { s }, li[1] = { s + 1 }, one[1] = { 1 };
        char a[256] = "";
        rlxp_cat_array(a, sizeof a, "start_indices", 1, st);
        rlxp_cat_array(a, sizeof a, "limit_indices", 1, li);
        rlxp_cat_array(a, sizeof a, "strides", 1, one);
        rlxp_val sv = rlxp_val_make(n->dtype, 1, one);
        uint32_t p = rlxp_op(e, "stablehlo.slice", 1, &vals, &sv, a);
        p = rlxp_reshape(e, p, 0, NULL);
        sel[s] = rlxp_broadcast(e, p, &r, NULL);
    }
    return rlxp_select(e, hit, sel[1], sel[0]);
}

uint32_t rlxp_emit_index(rlxp_emit *e, const rlx_node_view *n)
{
    switch (n->op) {
    case RLX_OP_PAD: return pad(e, n);
    case RLX_OP_EXPAND: {
        rlxp_val to = rlxp_val_of_node(n);
        return rlxp_broadcast_to(e, in(e, n, 0), &to);
    }
    case RLX_OP_TILE: return tile(e, n);
    case RLX_OP_STRIDED_SLICE: return strided_slice(e, n);
    case RLX_OP_GATHER_ELEMENTS: return gather_elements(e, n);
    case RLX_OP_GATHER_ND: return gather_nd(e, n);
    case RLX_OP_CUMSUM: return cumsum(e, n);
    case RLX_OP_RANGE: return range(e, n);
    case RLX_OP_TRILU: return trilu(e, n);
    default: return one_hot(e, n);
    }
}
