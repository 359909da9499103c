/*
 * pjrt_emit_scatter.c - scatter_elements and scatter_nd as
 * stablehlo.scatter. Indices count from the end when negative and yield
 * a range-check flag, as the gathers do. With a reduction (add, mul,
 * max, min) the scatter combines with that op. Without one, rlx wants
 * the last write in row-major order of the indices to win, which a
 * plain scatter of duplicates does not promise: so the position of each
 * update is scattered with maximum (the last writer per target, -1
 * where none), and the updates are gathered from those positions.
 * Floats combine in f32 (f16 and bf16 round at the end).
 *
 * non_zero too: its result [rank, n] is static (n columns, -1 past the
 * nonzeros; more nonzeros than n fail the run), so each nonzero's
 * column is its inclusive prefix count less one, and its coordinates
 * are scattered there.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pjrt_emit.h"

static uint32_t in(rlxp_emit *e, const rlx_node_view *n, uint32_t i)
{
    return e->node_val[n->inputs[i]];
}

static void list(char *s, size_t size, const char *key, uint32_t from,
                 uint32_t count)
{
    if (!count)
        return;
    rlxp_cat(s, size, "%s%s = [", s[0] && s[strlen(s) - 1] != '<' ? ", "
                                                                   : "",
             key);
    for (uint32_t i = 0; i < count; i++)
        rlxp_cat(s, size, "%s%u", i ? ", " : "", from + i);
    rlxp_cat(s, size, "]");
}

/* stablehlo.scatter of UPD into DATA at IDX, combined by BODY; the
 * dimension numbers: update_window_dims [WFROM, WFROM + NW), inserted
 * and scattered-to dims [0, NI), index_vector_dim IVD. */
static uint32_t scatter(rlxp_emit *e, uint32_t data, uint32_t idx,
                        uint32_t upd, const char *body, uint32_t wfrom,
                        uint32_t nw, uint32_t ni, uint32_t ivd)
{
    if (data == RLXP_NONE || idx == RLXP_NONE || upd == RLXP_NONE)
        return RLXP_NONE;
    const rlxp_val dv = *rlxp_type_of(e, data);
    rlxp_val scalar = rlxp_val_make(dv.dt, 0, NULL);
    uint32_t id = rlxp_new(e, &dv);
    uint32_t p = rlxp_new(e, &scalar), q = rlxp_new(e, &scalar);
    uint32_t s = rlxp_new(e, &scalar);
    if (s == RLXP_NONE)
        return RLXP_NONE;
    rlxp_put(e, "    %%%u = \"stablehlo.scatter\"(%%%u, %%%u, %%%u) ({\n", id,
             data, idx, upd);
    rlxp_put(e, "    ^bb0(%%%u: ", p);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ", %%%u: ", q);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, "):\n      %%%u = \"%s\"(%%%u, %%%u) : (", s, body, p, q);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ", ");
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ") -> ");
    rlxp_put_type(e, &scalar);
    rlxp_put(e, "\n      \"stablehlo.return\"(%%%u) : (", s);
    rlxp_put_type(e, &scalar);
    char dn[512] = "#stablehlo.scatter<";
    list(dn, sizeof dn, "update_window_dims", wfrom, nw);
    list(dn, sizeof dn, "inserted_window_dims", 0, ni);
    list(dn, sizeof dn, "scatter_dims_to_operand_dims", 0, ni);
    rlxp_cat(dn, sizeof dn, "%sindex_vector_dim = %u>",
             dn[strlen(dn) - 1] == '<' ? "" : ", ", ivd);
    rlxp_put(e, ") -> ()\n    }) {indices_are_sorted = false, "
             "scatter_dimension_numbers = %s, unique_indices = false} : (",
             dn);
    rlxp_put_type(e, &dv);
    rlxp_put(e, ", ");
    rlxp_put_type(e, rlxp_type_of(e, idx));
    rlxp_put(e, ", ");
    rlxp_put_type(e, rlxp_type_of(e, upd));
    rlxp_put(e, ") -> ");
    rlxp_put_type(e, &dv);
    rlxp_put(e, "\n");
    return id;
}

static const char *combiner(int64_t reduction)
{
    switch (reduction) {
    case RLX_REDUCTION_ADD: return "stablehlo.add";
    case RLX_REDUCTION_MUL: return "stablehlo.multiply";
    case RLX_REDUCTION_MAX: return "stablehlo.maximum";
    case RLX_REDUCTION_MIN: return "stablehlo.minimum";
    default: return NULL;
    }
}

/* Row-major positions 0..P-1 of the first R dims of UPD, shaped so. */
static uint32_t positions(rlxp_emit *e, uint32_t upd, uint32_t r)
{
    const rlxp_val *uv = rlxp_type_of(e, upd);
    int64_t p = 1;
    for (uint32_t d = 0; d < r; d++)
        p *= uv->dims[d];
    rlxp_val flat = rlxp_val_make(RLX_DTYPE_I64, 1, &p);
    uint32_t i = rlxp_iota(e, &flat, 0);
    return rlxp_reshape(e, i, r, uv->dims);
}

/* The last writer's updates: WIN (the first dims of DATA, i64, -1 for
 * none) picks rows of UPD viewed as [P, tail..]; DATA elsewhere. */
static uint32_t take_last(rlxp_emit *e, uint32_t data, uint32_t upd,
                          uint32_t nlead, uint32_t win)
{
    const rlxp_val dv = *rlxp_type_of(e, data);
    const rlxp_val uv = *rlxp_type_of(e, upd);
    const rlxp_val wv = *rlxp_type_of(e, win);
    int64_t p = 1;
    for (uint32_t d = 0; d < nlead; d++)
        p *= uv.dims[d];
    uint32_t tail = uv.rank - nlead;
    int64_t fd[RLXP_MAX_RANK];
    fd[0] = p;
    for (uint32_t d = 0; d < tail; d++)
        fd[1 + d] = uv.dims[nlead + d];
    uint32_t flat = rlxp_reshape(e, upd, 1 + tail, fd);
    uint32_t zero = rlxp_splat_like(e, win, 0.0);
    uint32_t has = rlxp_compare(e, win, zero, "GE");
    uint32_t at = rlxp_bin(e, "stablehlo.maximum", win, zero);
    char attrs[768] = "dimension_numbers = #stablehlo.gather<";
    for (uint32_t d = 0; d < tail; d++)
        rlxp_cat(attrs, sizeof attrs, "%s%u", d ? ", " : "offset_dims = [",
                 wv.rank + d);
    rlxp_cat(attrs, sizeof attrs, "%scollapsed_slice_dims = [0], "
             "start_index_map = [0], index_vector_dim = %u>, "
             "indices_are_sorted = false", tail ? "], " : "", wv.rank);
    int64_t sizes[RLXP_MAX_RANK];
    sizes[0] = 1;
    for (uint32_t d = 0; d < tail; d++)
        sizes[1 + d] = fd[1 + d];
    rlxp_cat_array(attrs, sizeof attrs, "slice_sizes", 1 + tail, sizes);
    uint32_t ops[2] = { flat, at };
    rlxp_val r = dv;
    r.dt = uv.dt;
    uint32_t g = rlxp_op(e, "stablehlo.gather", 2, ops, &r, attrs);
    int64_t map[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < wv.rank; d++)
        map[d] = d;
    rlxp_val hv = dv;
    hv.dt = RLX_DTYPE_BOOL;
    return rlxp_select(e, rlxp_broadcast(e, has, &hv, map), g, data);
}

uint32_t rlxp_emit_scatter(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t data = rlxp_in_f32(e, n, 0), upd = rlxp_in_f32(e, n, 2);
    uint32_t idx = rlxp_convert(e, in(e, n, 1), RLX_DTYPE_I64);
    if (data == RLXP_NONE || upd == RLXP_NONE || idx == RLXP_NONE)
        return RLXP_NONE;
    const rlxp_val dv = *rlxp_type_of(e, data);
    const rlxp_val iv = *rlxp_type_of(e, idx);
    int elements = n->op == RLX_OP_SCATTER_ELEMENTS;
    uint32_t ra = elements ? RLX_ATTR_SCATTER_ELEMENTS_REDUCTION
                           : RLX_ATTR_SCATTER_ND_REDUCTION;
    int64_t reduction = n->n_int_attrs > ra ? n->int_attrs[ra]
                                            : RLX_REDUCTION_NONE;
    if (rlxp_val_count(rlxp_type_of(e, upd)) == 0)
        return rlxp_out(e, n, data);
    uint32_t coords, ivd, nlead, nw, ni;
    if (elements) {
        int64_t axis = n->n_int_attrs > RLX_ATTR_SCATTER_ELEMENTS_AXIS
                           ? n->int_attrs[RLX_ATTR_SCATTER_ELEMENTS_AXIS]
                           : 0;
        if (axis < 0)
            axis += dv.rank;
        idx = rlxp_wrap_check(e, n, idx,
                              rlxp_splat_like(e, idx,
                                              (double)dv.dims[axis]));
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
        coords = dv.rank == 1 ? parts[0]
                              : rlxp_op(e, "stablehlo.concatenate", dv.rank,
                                        parts, &all, ca);
        ivd = iv.rank;
        nlead = iv.rank;
        nw = 0;
        ni = dv.rank;
    } else {
        uint32_t q = iv.rank;
        int64_t k = iv.dims[q - 1];
        int64_t bounds[RLXP_MAX_RANK], kd[1] = { k }, lastmap[1] = { q - 1 };
        for (int64_t i = 0; i < k; i++)
            bounds[i] = dv.dims[i];
        uint32_t bt = rlxp_reshape(e, rlxp_i64_table(e, bounds, k), 1, kd);
        bt = rlxp_broadcast(e, bt, &iv, lastmap);
        coords = rlxp_wrap_check(e, n, idx, bt);
        ivd = q - 1;
        nlead = q - 1;
        nw = dv.rank - (uint32_t)k;
        ni = (uint32_t)k;
    }
    const char *body = combiner(reduction);
    uint32_t y;
    if (body) {
        y = scatter(e, data, coords, upd, body, nlead, nw, ni, ivd);
    } else {
        /* the last writer of each target row (the first NI dims) */
        rlxp_val head = rlxp_val_make(RLX_DTYPE_I64, ni, dv.dims);
        uint32_t none = rlxp_splat(e, &head, -1.0);
        uint32_t pos = positions(e, upd, nlead);
        uint32_t win = scatter(e, none, coords, pos, "stablehlo.maximum", 0,
                               0, ni, ivd);
        y = take_last(e, data, upd, nlead, win);
    }
    return rlxp_out(e, n, y);
}

/* non_zero: the coordinates of X's nonzero elements (NaN counts, -0
 * does not) in row-major order, one per column of [rank, n]. */
uint32_t rlxp_emit_non_zero(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = in(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val xv = *rlxp_type_of(e, x);
    int64_t cols = n->shape[1], count = rlxp_val_count(&xv);
    rlxp_val out = rlxp_val_of_node(n);
    if (count == 0)
        return rlxp_splat(e, &out, -1.0);
    uint32_t flat = rlxp_reshape(e, x, 1, &count);
    uint32_t nz = rlxp_compare(e, flat, rlxp_splat_like(e, flat, 0.0), "NE");
    uint32_t m = rlxp_convert(e, nz, RLX_DTYPE_I64);
    /* the run fails when the nonzeros outnumber the columns */
    int64_t d0 = 0;
    uint32_t total = rlxp_reduce(e, m, 1, &d0, "stablehlo.add", 0.0);
    uint32_t flag = rlxp_compare(e, total,
                                 rlxp_splat_like(e, total, (double)cols),
                                 "GT");
    if (flag != RLXP_NONE) {
        e->check_what[e->n_checks] = n->name;
        e->checks[e->n_checks++] = flag;
    }
    if (xv.rank == 0)
        return rlxp_splat(e, &out, -1.0);
    /* inclusive prefix count: the column is one less; zeros (and any
     * overflow) go to a spare row cut off below */
    int64_t win = count, one = 1, lo = count - 1, hi = 0;
    uint32_t pos = rlxp_reduce_window(e, m, "stablehlo.add", 0.0,
                                      rlxp_type_of(e, m), &win, &one, &one,
                                      &lo, &hi);
    pos = rlxp_bin(e, "stablehlo.subtract", pos, rlxp_splat_like(e, pos, 1.0));
    uint32_t spare = rlxp_splat_like(e, pos, (double)cols);
    pos = rlxp_bin(e, "stablehlo.minimum", pos, spare);
    pos = rlxp_select(e, nz, pos, spare);
    int64_t d2[2] = { count, 1 };
    uint32_t at = rlxp_reshape(e, pos, 2, d2);
    /* the coordinates: [count, rank] */
    uint32_t parts[RLXP_MAX_RANK];
    rlxp_val iv = xv;
    iv.dt = RLX_DTYPE_I64;
    for (uint32_t d = 0; d < xv.rank; d++)
        parts[d] = rlxp_reshape(e, rlxp_iota(e, &iv, d), 2, d2);
    int64_t du[2] = { count, xv.rank };
    rlxp_val uv = rlxp_val_make(RLX_DTYPE_I64, 2, du);
    uint32_t upd = xv.rank == 1
                       ? parts[0]
                       : rlxp_op(e, "stablehlo.concatenate", xv.rank, parts,
                                 &uv, "dimension = 1 : i64");
    int64_t dt[2] = { cols + 1, xv.rank };
    rlxp_val tv = rlxp_val_make(RLX_DTYPE_I64, 2, dt);
    uint32_t y = scatter(e, rlxp_splat(e, &tv, -1.0), at, upd,
                         "stablehlo.maximum", 1, 1, 1, 1);
    char sa[256] = "";
    int64_t s0[2] = { 0, 0 }, l0[2] = { cols, xv.rank }, st[2] = { 1, 1 };
    rlxp_cat_array(sa, sizeof sa, "start_indices", 2, s0);
    rlxp_cat_array(sa, sizeof sa, "limit_indices", 2, l0);
    rlxp_cat_array(sa, sizeof sa, "strides", 2, st);
    rlxp_val cv = rlxp_val_make(RLX_DTYPE_I64, 2, l0);
    y = rlxp_op(e, "stablehlo.slice", 1, &y, &cv, sa);
    int64_t perm[2] = { 1, 0 };
    return rlxp_transpose(e, y, perm);
}
