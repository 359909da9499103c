/*
 * onnx_lower_index.c - ONNX indexing ops onto rlx's 1.4 primitives:
 * GatherElements, GatherND, Scatter/ScatterElements, ScatterND, CumSum,
 * TopK (indices by topk, values by gather_elements), Range, OneHot,
 * Trilu, ReverseSequence and NonZero (folded on the host when its input
 * is known, as its result size depends on the data). Kept apart from the reshaping ops
 * (onnx_lower_movement.c), which this family would push past a file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

/* Add OP over the ONNX inputs IN[0..N) and set OUT to its result. */
static rlx_status add_op(rlx__onnx_ctx *c, rlx_op op, rlx__onnx_val **in,
                         uint32_t n, const int64_t *ints, uint32_t n_ints,
                         const double *floats, uint32_t n_floats,
                         rlx__onnx_val *out)
{
    rlx_value v[3], r;
    rlx_status st;
    for (uint32_t i = 0; i < n; i++)
        if ((st = rlx__onnx_node_value(c, in[i], &v[i])) != RLX_OK)
            return st;
    if ((st = rlx__onnx_add(c, op, n, v, ints, n_ints, floats, n_floats,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, out);
}

/* A known scalar (or one-element) input of any numeric dtype. */
static int known_num(const rlx__onnx_val *v, double *out)
{
    if (!v || !v->known || rlx__onnx_elements(v->rank, v->dims) != 1)
        return -1;
    switch (v->dtype) {
    case RLX_DTYPE_F32: *out = *(const float *)v->data; return 0;
    case RLX_DTYPE_F64: *out = *(const double *)v->data; return 0;
    case RLX_DTYPE_I32: *out = *(const int32_t *)v->data; return 0;
    case RLX_DTYPE_I64: *out = (double)*(const int64_t *)v->data; return 0;
    case RLX_DTYPE_I8: *out = *(const int8_t *)v->data; return 0;
    case RLX_DTYPE_U8: *out = *(const uint8_t *)v->data; return 0;
    default: return -1;
    }
}

static rlx_status need_known(rlx__onnx_ctx *c, const rlx__onnx_val *v,
                             const char *what)
{
    c->needs_value = 1;
    return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                          "its %s input '%s' is not a known scalar when "
                          "lowering (it depends on input data). Fix: make "
                          "it a constant, or computed only from input "
                          "shapes", what, v && v->name ? v->name : "(missing)");
}

static rlx_status need_index(rlx__onnx_ctx *c, const rlx__onnx_val *v)
{
    if (v->dtype == RLX_DTYPE_I64 || v->dtype == RLX_DTYPE_I32)
        return RLX_OK;
    return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                          "its indices '%s' are %s. Fix: use int32 or "
                          "int64 indices", v->name ? v->name : "?",
                          rlx_dtype_name(v->dtype));
}

static rlx_status lower_gather_elements(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                        uint32_t n_in, rlx__onnx_val *out,
                                        uint32_t n_out)
{
    (void)n_out;
    int64_t axis;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = need_index(c, in[1])) != RLX_OK ||
        (st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis", 0),
                             in[0]->rank, &axis)) != RLX_OK)
        return st;
    return add_op(c, RLX_OP_GATHER_ELEMENTS, in, 2, &axis, 1, NULL, 0,
                  &out[0]);
}

static rlx_status lower_gather_nd(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                  uint32_t n_in, rlx__onnx_val *out,
                                  uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = need_index(c, in[1])) != RLX_OK)
        return st;
    int64_t b = c->row->since >= 12 ? rlx__onnx_attr_int(c, "batch_dims", 0)
                                    : 0;
    return add_op(c, RLX_OP_GATHER_ND, in, 2, &b, 1, NULL, 0, &out[0]);
}

/* The reduction attribute of ScatterElements/ScatterND (16 on). */
static rlx_status reduction(rlx__onnx_ctx *c, int64_t *out)
{
    static const char *const names[] = { "none", "add", "mul", "max",
                                         "min" };
    const char *r = c->row->since >= 16
                        ? rlx__onnx_attr_string(c, "reduction", "none")
                        : "none";
    for (int64_t i = 0; i < 5; i++)
        if (!strcmp(r, names[i])) {
            *out = i; /* the RLX_REDUCTION_* order */
            return RLX_OK;
        }
    return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                          "reduction '%s' is unknown. Fix: use none, add, "
                          "mul, max or min", r);
}

/* Scatter (old) and ScatterElements (ARG 0), ScatterND (ARG 1). */
static rlx_status lower_scatter(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                uint32_t n_in, rlx__onnx_val *out,
                                uint32_t n_out)
{
    (void)n_out;
    int64_t a[2];
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 3);
    if (st != RLX_OK || (st = need_index(c, in[1])) != RLX_OK)
        return st;
    if (in[2]->dtype != in[0]->dtype)
        return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                              "updates are %s but data is %s. Fix: give "
                              "both one dtype",
                              rlx_dtype_name(in[2]->dtype),
                              rlx_dtype_name(in[0]->dtype));
    if (c->row->arg == 1) {
        if ((st = reduction(c, &a[0])) != RLX_OK)
            return st;
        return add_op(c, RLX_OP_SCATTER_ND, in, 3, a, 1, NULL, 0, &out[0]);
    }
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis", 0),
                             in[0]->rank, &a[0])) != RLX_OK ||
        (st = reduction(c, &a[1])) != RLX_OK)
        return st;
    return add_op(c, RLX_OP_SCATTER_ELEMENTS, in, 3, a, 2, NULL, 0,
                  &out[0]);
}

static rlx_status lower_cumsum(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    double ax;
    int64_t a[3];
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK)
        return st;
    if (known_num(in[1], &ax) != 0)
        return need_known(c, in[1], "axis");
    if ((st = rlx__onnx_axis(c, (int64_t)ax, in[0]->rank, &a[0])) != RLX_OK)
        return st;
    a[1] = rlx__onnx_attr_int(c, "exclusive", 0) != 0;
    a[2] = rlx__onnx_attr_int(c, "reverse", 0) != 0;
    return add_op(c, RLX_OP_CUMSUM, in, 1, a, 3, NULL, 0, &out[0]);
}

/* TopK: k an attribute before opset 10, input 1 after; largest and
 * sorted from 11. Indices by topk, values gathered with them. */
static rlx_status lower_topk(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    int64_t a[4];
    double k;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in,
                                          c->row->since >= 10 ? 2 : 1);
    if (st != RLX_OK)
        return st;
    if (c->row->since >= 10) {
        if (known_num(in[1], &k) != 0)
            return need_known(c, in[1], "K");
    } else {
        k = (double)rlx__onnx_attr_int(c, "k", -1);
    }
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis", -1),
                             in[0]->rank, &a[1])) != RLX_OK)
        return st;
    if (k < 0 || k > (double)in[0]->dims[a[1]])
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "k = %g is outside [0, %lld] for axis %lld. "
                              "Fix: give a k no larger than the axis",
                              k, (long long)in[0]->dims[a[1]],
                              (long long)a[1]);
    a[0] = (int64_t)k;
    a[2] = c->row->since >= 11 ? rlx__onnx_attr_int(c, "largest", 1) != 0
                               : 1;
    a[3] = c->row->since >= 11 ? rlx__onnx_attr_int(c, "sorted", 1) != 0
                               : 1;
    rlx_value x[2], vals;
    if ((st = rlx__onnx_node_value(c, in[0], &x[0])) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_TOPK, 1, x, a, 4, NULL, 0, &x[1])) !=
            RLX_OK)
        return st;
    if (n_out > 0 &&
        ((st = rlx__onnx_add(c, RLX_OP_GATHER_ELEMENTS, 2, x, &a[1], 1, NULL,
                             0, &vals)) != RLX_OK ||
         (st = rlx__onnx_set_out(c, vals, &out[0])) != RLX_OK))
        return st;
    if (n_out > 1)
        return rlx__onnx_set_out(c, x[1], &out[1]);
    return RLX_OK;
}

static rlx_status lower_range(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, rlx__onnx_val *out,
                              uint32_t n_out)
{
    (void)n_out;
    double s, l, d;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 3);
    if (st != RLX_OK)
        return st;
    if (known_num(in[0], &s) != 0)
        return need_known(c, in[0], "start");
    if (known_num(in[1], &l) != 0)
        return need_known(c, in[1], "limit");
    if (known_num(in[2], &d) != 0)
        return need_known(c, in[2], "delta");
    if (d == 0 || isnan(s) || isnan(l) || isnan(d))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "delta is 0 or an input is NaN. Fix: give a "
                              "nonzero delta and finite bounds");
    double n = ceil((l - s) / d);
    if (n < 0)
        n = 0;
    if (isnan(n) || n > (double)RLX__ONNX_MAX_ELEMENTS)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "the range has %g elements. Fix: check "
                              "start, limit and delta", n);
    rlx_dtype t = in[0]->dtype;
    /* start and delta as integers only for integer ranges: a float's may
     * not fit an int64 */
    int fl = rlx__onnx_is_float(t) || t == RLX_DTYPE_F64;
    if (!fl && !(fabs(s) < 9.2e18 && fabs(d) < 9.2e18))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "start or delta does not fit the range's "
                              "integer dtype. Fix: give inputs of one "
                              "dtype, as ONNX requires");
    int64_t a[4] = { t, (int64_t)n, fl ? 0 : (int64_t)s, fl ? 0 : (int64_t)d };
    double f[2] = { s, d };
    rlx_value r;
    if (fl)
        st = rlx__onnx_add(c, RLX_OP_RANGE, 0, NULL, a, 2, f, 2, &r);
    else
        st = rlx__onnx_add(c, RLX_OP_RANGE, 0, NULL, a, 4, NULL, 0, &r);
    if (st != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_one_hot(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                uint32_t n_in, rlx__onnx_val *out,
                                uint32_t n_out)
{
    (void)n_out;
    double depth;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 3);
    if (st != RLX_OK)
        return st;
    if (known_num(in[1], &depth) != 0)
        return need_known(c, in[1], "depth");
    if (depth < 1 || depth > (double)RLX__ONNX_MAX_ELEMENTS)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "depth %g is not positive. Fix: give a depth "
                              ">= 1", depth);
    if (rlx__onnx_elements(in[2]->rank, in[2]->dims) != 2)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "values must hold 2 elements (off, on). Fix: "
                              "check the values input");
    int64_t a[2] = { (int64_t)depth, rlx__onnx_attr_int(c, "axis", -1) };
    if (a[1] < -(int64_t)in[0]->rank - 1 || a[1] > (int64_t)in[0]->rank)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "axis %lld is out of range for a result of "
                              "rank %u. Fix: check the axis",
                              (long long)a[1], in[0]->rank + 1);
    rlx_value v[2], r;
    if ((st = rlx__onnx_node_value(c, in[0], &v[0])) != RLX_OK)
        return st;
    if (in[0]->dtype != RLX_DTYPE_I64 && in[0]->dtype != RLX_DTYPE_I32) {
        /* ONNX allows any numeric indices: cast (truncating) to i64 */
        int64_t to = RLX_DTYPE_I64;
        if ((st = rlx__onnx_add(c, RLX_OP_CAST, 1, &v[0], &to, 1, NULL, 0,
                                &v[0])) != RLX_OK)
            return st;
    }
    if ((st = rlx__onnx_node_value(c, in[2], &v[1])) != RLX_OK)
        return st;
    if (in[2]->rank != 1) {
        int64_t two = 2;
        if ((st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &v[1], &two, 1, NULL,
                                0, &v[1])) != RLX_OK)
            return st;
    }
    if ((st = rlx__onnx_add(c, RLX_OP_ONE_HOT, 2, v, a, 2, NULL, 0, &r)) !=
        RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_trilu(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, rlx__onnx_val *out,
                              uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    double k = 0;
    if (n_in > 1 && in[1] && known_num(in[1], &k) != 0)
        return need_known(c, in[1], "k");
    if (in[0]->rank < 2)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the input has rank %u. Fix: Trilu needs rank "
                              ">= 2", in[0]->rank);
    int64_t a[2] = { rlx__onnx_attr_int(c, "upper", 1) != 0, (int64_t)k };
    return add_op(c, RLX_OP_TRILU, in, 1, a, 2, NULL, 0, &out[0]);
}

/* Element I of known data X is nonzero (-0.0 is zero, NaN is not). */
static int is_nonzero(const rlx__onnx_val *x, int64_t i)
{
    switch (x->dtype) {
    case RLX_DTYPE_F32: return ((const float *)x->data)[i] != 0;
    case RLX_DTYPE_F64: return ((const double *)x->data)[i] != 0;
    case RLX_DTYPE_I32: return ((const int32_t *)x->data)[i] != 0;
    case RLX_DTYPE_I64: return ((const int64_t *)x->data)[i] != 0;
    case RLX_DTYPE_I8: return ((const int8_t *)x->data)[i] != 0;
    default: return ((const uint8_t *)x->data)[i] != 0; /* u8, bool */
    }
}

/* NonZero: its result size depends on the data, so it is computed here
 * when the input is known and refused otherwise (docs/ops.md). */
static rlx_status lower_non_zero(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                 uint32_t n_in, rlx__onnx_val *out,
                                 uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    rlx__onnx_val *x = in[0];
    rlx_dtype t = x->dtype;
    if (!x->known || (t != RLX_DTYPE_F32 && t != RLX_DTYPE_F64 &&
                      t != RLX_DTYPE_I32 && t != RLX_DTYPE_I64 &&
                      t != RLX_DTYPE_I8 && t != RLX_DTYPE_U8 &&
                      t != RLX_DTYPE_BOOL)) {
        c->needs_value = x->known == 0;
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "NonZero of '%s' is lowered only when its "
                              "input is known (%s data), since its result "
                              "size depends on the data. Fix: fix the input "
                              "(rlx_model_set_input_value), or compute the "
                              "indices outside the model",
                              x->name ? x->name : "?", rlx_dtype_name(t));
    }
    int64_t n = rlx__onnx_elements(x->rank, x->dims), nz = 0;
    for (int64_t i = 0; i < n; i++)
        nz += is_nonzero(x, i);
    uint32_t rank = x->rank ? x->rank : 1;
    int64_t cells = (int64_t)rank * nz;
    int64_t *r = malloc((size_t)(cells ? cells : 1) * sizeof *r);
    if (!r)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (int64_t i = 0, col = 0; i < n; i++) {
        if (!is_nonzero(x, i))
            continue;
        int64_t rest = i;
        for (uint32_t d = x->rank; d-- > 0;) {
            r[d * nz + col] = rest % x->dims[d];
            rest /= x->dims[d];
        }
        if (!x->rank)
            r[col] = 0;
        col++;
    }
    int64_t dims[2] = { rank, nz };
    rlx__onnx_set_known(&out[0], RLX_DTYPE_I64, 2, dims, r);
    return RLX_OK;
}

/* ReverseSequence: gather_elements along the time axis with indices
 * where(t < len[b], len[b] - 1 - t, t), built from a range and the
 * lengths (which may be fed at run time). */
static rlx_status lower_reverse_sequence(rlx__onnx_ctx *c,
                                         rlx__onnx_val **in, uint32_t n_in,
                                         rlx__onnx_val *out, uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK)
        return st;
    uint32_t rank = in[0]->rank;
    int64_t ta, ba;
    if (rank < 2)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the input has rank %u. Fix: ReverseSequence "
                              "needs rank >= 2", rank);
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "time_axis", 0), rank,
                             &ta)) != RLX_OK ||
        (st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "batch_axis", 1), rank,
                             &ba)) != RLX_OK)
        return st;
    if (ta == ba || ta > 1 || ba > 1)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "time_axis %lld and batch_axis %lld must be 0 "
                              "and 1 in some order. Fix: check the "
                              "attributes", (long long)ta, (long long)ba);
    if (in[1]->dtype != RLX_DTYPE_I64 || in[1]->rank != 1 ||
        in[1]->dims[0] != in[0]->dims[ba])
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "sequence_lens must be int64 of shape [%lld]. "
                              "Fix: give one length per batch entry",
                              (long long)in[0]->dims[ba]);
    /* t along the time axis, len along the batch axis, 1 elsewhere */
    int64_t td[RLX_MAX_RANK], ld[RLX_MAX_RANK];
    for (uint32_t i = 0; i < rank; i++)
        td[i] = ld[i] = 1;
    td[ta] = in[0]->dims[ta];
    ld[ba] = in[0]->dims[ba];
    int64_t ra[4] = { RLX_DTYPE_I64, td[ta], 0, 1 };
    rlx_value t, len, one, x[3], idx, v[2], r;
    if ((st = rlx__onnx_add(c, RLX_OP_RANGE, 0, NULL, ra, 4, NULL, 0, &t)) !=
            RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &t, td, rank, NULL, 0,
                            &t)) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &len)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &len, ld, rank, NULL, 0,
                            &len)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, RLX_DTYPE_I64, 1, &one)) != RLX_OK)
        return st;
    rlx_value lt[2] = { t, len }, l1[2] = { len, one };
    if ((st = rlx__onnx_add(c, RLX_OP_LESS, 2, lt, NULL, 0, NULL, 0,
                            &x[0])) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_SUB, 2, l1, NULL, 0, NULL, 0,
                            &x[1])) != RLX_OK)
        return st;
    rlx_value rv[2] = { x[1], t };
    if ((st = rlx__onnx_add(c, RLX_OP_SUB, 2, rv, NULL, 0, NULL, 0,
                            &x[1])) != RLX_OK)
        return st;
    x[2] = t;
    if ((st = rlx__onnx_add(c, RLX_OP_WHERE, 3, x, NULL, 0, NULL, 0,
                            &idx)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_EXPAND, 1, &idx, in[0]->dims, rank,
                            NULL, 0, &v[1])) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[0], &v[0])) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_GATHER_ELEMENTS, 2, v, &ta, 1, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

const rlx__onnx_op rlx__onnx_ops_index[] = {
    { "GatherElements", 11, lower_gather_elements, 0 },
    { "GatherElements", 13, lower_gather_elements, 0 },
    { "GatherND", 11, lower_gather_nd, 0 },
    { "GatherND", 12, lower_gather_nd, 0 },
    { "GatherND", 13, lower_gather_nd, 0 },
    { "Scatter", 9, lower_scatter, 0 },
    { "Scatter", 11, lower_scatter, 0 },
    { "ScatterElements", 11, lower_scatter, 0 },
    { "ScatterElements", 13, lower_scatter, 0 },
    { "ScatterElements", 16, lower_scatter, 0 },
    { "ScatterElements", 18, lower_scatter, 0 },
    { "ScatterND", 11, lower_scatter, 1 },
    { "ScatterND", 13, lower_scatter, 1 },
    { "ScatterND", 16, lower_scatter, 1 },
    { "ScatterND", 18, lower_scatter, 1 },
    { "CumSum", 11, lower_cumsum, 0 },
    { "CumSum", 14, lower_cumsum, 0 },
    { "TopK", 1, lower_topk, 0 },
    { "TopK", 10, lower_topk, 0 },
    { "TopK", 11, lower_topk, 0 },
    { "Range", 11, lower_range, 0 },
    { "OneHot", 9, lower_one_hot, 0 },
    { "OneHot", 11, lower_one_hot, 0 },
    { "Trilu", 14, lower_trilu, 0 },
    { "NonZero", 9, lower_non_zero, 0 },
    { "NonZero", 13, lower_non_zero, 0 },
    { "ReverseSequence", 10, lower_reverse_sequence, 0 },
    { NULL, 0, NULL, 0 }
};
