/*
 * pjrt_emit_movement.c - data movement (reshape, transpose, concat,
 * slice, gather) and cast, for any dtype.
 *
 * Gather: stablehlo.gather clamps out-of-range indices, but rlx fails
 * the run. So each gather also yields an i1 flag "some index was
 * outside [0, dim)", returned as an extra result the bridge checks
 * after the run. Cast reproduces rlx's rules with selects: float to
 * integer truncates and saturates with NaN as 0, integers narrow with
 * saturation, and to bool is x != 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pjrt_emit.h"

static uint32_t in(rlxp_emit *e, const rlx_node_view *n, uint32_t i)
{
    return e->node_val[n->inputs[i]];
}

static uint32_t transpose(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = in(e, n, 0);
    uint32_t r = rlxp_type_of(e, x)->rank;
    int64_t perm[RLXP_MAX_RANK];
    for (uint32_t i = 0; i < r; i++) {
        int64_t p = n->n_int_attrs == r ? n->int_attrs[i]
                                         : (int64_t)(r - 1 - i);
        perm[i] = p < 0 ? p + r : p;
    }
    return rlxp_transpose(e, x, perm);
}

static uint32_t concat(rlxp_emit *e, const rlx_node_view *n)
{
    int64_t axis = n->n_int_attrs > RLX_ATTR_CONCAT_AXIS
                       ? n->int_attrs[RLX_ATTR_CONCAT_AXIS] : 0;
    if (axis < 0)
        axis += n->rank;
    if (n->n_inputs == 1)
        return in(e, n, 0);
    uint32_t ops[256];
    if (n->n_inputs > 256) {
        rlxp_fail(e, RLX_ERR_UNSUPPORTED, "pjrt: concat '%s' has %u inputs; "
                  "the bridge takes up to 256. Fix: concatenate in steps",
                  n->name, n->n_inputs);
        return RLXP_NONE;
    }
    for (uint32_t i = 0; i < n->n_inputs; i++)
        ops[i] = in(e, n, i);
    rlxp_val r = rlxp_val_of_node(n);
    char attrs[64];
    snprintf(attrs, sizeof attrs, "dimension = %lld : i64", (long long)axis);
    return rlxp_op(e, "stablehlo.concatenate", n->n_inputs, ops, &r, attrs);
}

static void put_array(char *s, size_t size, const char *key, uint32_t n,
                      const int64_t *v)
{
    size_t len = strlen(s);
    snprintf(s + len, size - len, "%s%s = array<i64%s", len ? ", " : "", key,
             n ? ": " : "");
    for (uint32_t i = 0; i < n; i++) {
        len = strlen(s);
        snprintf(s + len, size - len, "%s%lld", i ? ", " : "",
                 (long long)v[i]);
    }
    len = strlen(s);
    snprintf(s + len, size - len, ">");
}

static uint32_t slice(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = in(e, n, 0);
    const rlxp_val v = *rlxp_type_of(e, x);
    if (v.rank == 0)
        return x;
    int64_t start[RLXP_MAX_RANK] = { 0 }, limit[RLXP_MAX_RANK],
            step[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < v.rank; d++) {
        limit[d] = v.dims[d];
        step[d] = 1;
    }
    for (uint32_t t = 0; t + 2 < n->n_int_attrs; t += 3) {
        int64_t ax = n->int_attrs[t];
        if (ax < 0)
            ax += v.rank;
        if (ax < 0 || ax >= (int64_t)v.rank)
            continue;
        int64_t s = n->int_attrs[t + 1], dim = v.dims[ax];
        if (s < 0)
            s += dim;
        s = s < 0 ? 0 : s > dim ? dim : s;
        start[ax] = s;
    }
    for (uint32_t d = 0; d < v.rank; d++) /* the core inferred the sizes */
        limit[d] = start[d] + n->shape[d];
    char attrs[512] = "";
    put_array(attrs, sizeof attrs, "start_indices", v.rank, start);
    put_array(attrs, sizeof attrs, "limit_indices", v.rank, limit);
    put_array(attrs, sizeof attrs, "strides", v.rank, step);
    rlxp_val r = rlxp_val_of_node(n);
    return rlxp_op(e, "stablehlo.slice", 1, &x, &r, attrs);
}

static void put_list(char *s, size_t size, const char *key, uint32_t n,
                     const int64_t *v, int *first)
{
    if (n == 0)
        return;
    size_t len = strlen(s);
    snprintf(s + len, size - len, "%s%s = [", *first ? "" : ", ", key);
    for (uint32_t i = 0; i < n; i++) {
        len = strlen(s);
        snprintf(s + len, size - len, "%s%lld", i ? ", " : "",
                 (long long)v[i]);
    }
    len = strlen(s);
    snprintf(s + len, size - len, "]");
    *first = 0;
}

static uint32_t gather(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t data = in(e, n, 0), idx = in(e, n, 1);
    const rlxp_val dv = *rlxp_type_of(e, data);
    const rlxp_val iv = *rlxp_type_of(e, idx);
    int64_t axis = n->n_int_attrs > RLX_ATTR_GATHER_AXIS
                       ? n->int_attrs[RLX_ATTR_GATHER_AXIS] : 0;
    if (axis < 0)
        axis += dv.rank;
    /* the run-time range check */
    uint32_t i64 = rlxp_convert(e, idx, RLX_DTYPE_I64);
    uint32_t lo = rlxp_compare(e, i64, rlxp_splat_like(e, i64, 0.0), "LT");
    uint32_t hi = rlxp_compare(e, i64, rlxp_splat_like(e, i64,
                                                       (double)dv.dims[axis]),
                               "GE");
    uint32_t bad = rlxp_bin(e, "stablehlo.or", lo, hi);
    int64_t all[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < iv.rank; d++)
        all[d] = d;
    uint32_t flag = rlxp_reduce(e, bad, iv.rank, all, "stablehlo.or", 0.0);
    if (flag != RLXP_NONE) {
        e->check_what[e->n_checks] = n->name;
        e->checks[e->n_checks++] = flag;
    }
    /* data[:axis] + indices + data[axis+1:] */
    int64_t offset[RLXP_MAX_RANK], sizes[RLXP_MAX_RANK];
    uint32_t no = 0;
    for (uint32_t d = 0; d < dv.rank; d++) {
        sizes[d] = (int64_t)d == axis ? 1 : dv.dims[d];
        if ((int64_t)d < axis)
            offset[no++] = d;
        else if ((int64_t)d > axis)
            offset[no++] = d - 1 + iv.rank;
    }
    char attrs[768] = "dimension_numbers = #stablehlo.gather<";
    int first = 1;
    put_list(attrs, sizeof attrs, "offset_dims", no, offset, &first);
    put_list(attrs, sizeof attrs, "collapsed_slice_dims", 1, &axis, &first);
    put_list(attrs, sizeof attrs, "start_index_map", 1, &axis, &first);
    size_t len = strlen(attrs);
    snprintf(attrs + len, sizeof attrs - len,
             ", index_vector_dim = %u>, indices_are_sorted = false",
             iv.rank);
    put_array(attrs, sizeof attrs, "slice_sizes", dv.rank, sizes);
    uint32_t ops[2] = { data, idx };
    rlxp_val r = rlxp_val_of_node(n);
    return rlxp_op(e, "stablehlo.gather", 2, ops, &r, attrs);
}

static int dt_float(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 || t == RLX_DTYPE_BF16 ||
           t == RLX_DTYPE_F64;
}

/* The integer range of T as doubles (HI may round up: 2^63 - 1 and
 * 2^64 - 1 are not doubles), LO..HI inclusive; HI_EXCL the first value
 * above (2^k); LO_TXT and HI_TXT the exact bounds as literals. */
static void int_range(rlx_dtype t, double *lo, double *hi, double *hi_excl,
                      const char **lo_txt, const char **hi_txt)
{
    switch (t) {
    case RLX_DTYPE_I8: *lo_txt = "-128"; *hi_txt = "127"; break;
    case RLX_DTYPE_U8: *lo_txt = "0"; *hi_txt = "255"; break;
    case RLX_DTYPE_I16: *lo_txt = "-32768"; *hi_txt = "32767"; break;
    case RLX_DTYPE_U16: *lo_txt = "0"; *hi_txt = "65535"; break;
    case RLX_DTYPE_I32: *lo_txt = "-2147483648"; *hi_txt = "2147483647"; break;
    case RLX_DTYPE_U32: *lo_txt = "0"; *hi_txt = "4294967295"; break;
    case RLX_DTYPE_U64: *lo_txt = "0"; *hi_txt = "18446744073709551615"; break;
    case RLX_DTYPE_BOOL: *lo_txt = "0"; *hi_txt = "1"; break;
    default:
        *lo_txt = "-9223372036854775808";
        *hi_txt = "9223372036854775807";
        break;
    }
    *lo = strtod(*lo_txt, NULL);
    *hi = strtod(*hi_txt, NULL);
    *hi_excl = t == RLX_DTYPE_I64 || t == RLX_DTYPE_U64 ? *hi : *hi + 1;
}

static uint32_t cast(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = in(e, n, 0);
    rlx_dtype from = rlxp_type_of(e, x)->dt, to = n->dtype;
    if (from == to)
        return x;
    if (to == RLX_DTYPE_BOOL)
        return rlxp_compare(e, x, rlxp_splat_like(e, x, 0.0), "NE");
    if (dt_float(to) || from == RLX_DTYPE_BOOL)
        return rlxp_convert(e, x, to);
    double lo, hi, top;
    const char *lo_txt, *hi_txt;
    int_range(to, &lo, &hi, &top, &lo_txt, &hi_txt);
    if (!dt_float(from)) {
        /* integer narrowing saturates: clamp in the source type first,
         * with exact literals (2^63 - 1 is no double) */
        double slo, shi, stop;
        const char *slo_txt, *shi_txt;
        int_range(from, &slo, &shi, &stop, &slo_txt, &shi_txt);
        rlxp_val xv = *rlxp_type_of(e, x);
        if (lo > slo)
            x = rlxp_bin(e, "stablehlo.maximum", x,
                         rlxp_splat_text(e, &xv, lo_txt));
        if (hi < shi)
            x = rlxp_bin(e, "stablehlo.minimum", x,
                         rlxp_splat_text(e, &xv, hi_txt));
        return rlxp_convert(e, x, to);
    }
    /* float: convert (truncates), then patch NaN and the out-of-range */
    uint32_t y = rlxp_convert(e, x, to);
    uint32_t over = rlxp_compare(e, x, rlxp_splat_like(e, x, top), "GE");
    y = rlxp_select(e, over, rlxp_splat_like(e, y, hi), y);
    uint32_t under = rlxp_compare(e, x, rlxp_splat_like(e, x, lo), "LE");
    y = rlxp_select(e, under, rlxp_splat_like(e, y, lo), y);
    uint32_t nan = rlxp_compare(e, x, x, "NE");
    return rlxp_select(e, nan, rlxp_splat_like(e, y, 0.0), y);
}

uint32_t rlxp_emit_movement(rlxp_emit *e, const rlx_node_view *n)
{
    switch (n->op) {
    case RLX_OP_RESHAPE:
        return rlxp_reshape(e, in(e, n, 0), n->rank, n->shape);
    case RLX_OP_TRANSPOSE: return transpose(e, n);
    case RLX_OP_CONCAT: return concat(e, n);
    case RLX_OP_SLICE: return slice(e, n);
    case RLX_OP_GATHER: return gather(e, n);
    default: return cast(e, n);
    }
}
