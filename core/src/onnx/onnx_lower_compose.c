/*
 * onnx_lower_compose.c - small ONNX ops that ONNX itself defines as
 * functions of others, composed here from primitives: CastLike (a cast
 * to the second input's type), Hardmax (argmax then one_hot), Shrink
 * (comparisons and where), EyeLike (two ranges compared), LRN (the
 * channel window's sum of squares as an avg_pool) and
 * MeanVarianceNormalization (reduce_mean over the axes).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

static rlx_status add1(rlx__onnx_ctx *c, rlx_op op, rlx_value x,
                       rlx_value *out)
{
    return rlx__onnx_add(c, op, 1, &x, NULL, 0, NULL, 0, out);
}

static rlx_status add2(rlx__onnx_ctx *c, rlx_op op, rlx_value a, rlx_value b,
                       rlx_value *out)
{
    rlx_value v[2] = { a, b };
    return rlx__onnx_add(c, op, 2, v, NULL, 0, NULL, 0, out);
}

static rlx_status reshape(rlx__onnx_ctx *c, rlx_value x, uint32_t rank,
                          const int64_t *dims, rlx_value *out)
{
    return rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &x, dims, rank, NULL, 0, out);
}

static rlx_status cast(rlx__onnx_ctx *c, rlx_value x, rlx_dtype to,
                       rlx_value *out)
{
    int64_t d = to;
    return rlx__onnx_add(c, RLX_OP_CAST, 1, &x, &d, 1, NULL, 0, out);
}

/* OUT passes IN through unchanged. */
static void pass(rlx__onnx_val *out, const rlx__onnx_val *in)
{
    const char *nm = out->name;
    *out = *in;
    out->name = nm;
    out->owned = NULL;
}

/* ---- CastLike ------------------------------------------------------------ */

static rlx_status lower_cast_like(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                  uint32_t n_in, rlx__onnx_val *out,
                                  uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK)
        return st;
    if (in[1]->dtype == in[0]->dtype) {
        pass(&out[0], in[0]);
        return RLX_OK;
    }
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = cast(c, x, in[1]->dtype, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- Hardmax ------------------------------------------------------------- */

/* A [2] constant (OFF, ON) of DTYPE, for one_hot's values. */
static rlx_status off_on(rlx__onnx_ctx *c, rlx_dtype dt, rlx_value *out)
{
    float v[2] = { 0.0f, 1.0f };
    int64_t two = 2;
    rlx_status st = rlx__onnx_constant(c, RLX_DTYPE_F32, 1, &two, v, out);
    if (st == RLX_OK && dt != RLX_DTYPE_F32)
        st = cast(c, *out, dt, out);
    return st;
}

static rlx_status lower_hardmax(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                uint32_t n_in, rlx__onnx_val *out,
                                uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int coerce = c->row->since < 13;
    uint32_t rank = in[0]->rank;
    int64_t axis;
    if (rank == 0)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the input is a scalar. Fix: give it at "
                              "least one axis");
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis",
                                                   coerce ? 1 : -1),
                             rank, &axis)) != RLX_OK)
        return st;
    rlx_value x, vals, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    /* opset < 13: over [prod(dims[:axis]), prod(dims[axis:])], which
     * is the plain form when the axis is the last */
    int flat = coerce && axis != (int64_t)rank - 1;
    const int64_t *dims = in[0]->dims;
    int64_t depth = dims[axis];
    if (flat) {
        int64_t two[2] = { 1, 1 };
        for (uint32_t i = 0; i < rank; i++)
            two[i >= axis] *= dims[i];
        if ((st = reshape(c, x, 2, two, &x)) != RLX_OK)
            return st;
        depth = two[1];
        axis = 1;
    }
    int64_t arg[3] = { axis, 0, 0 }, oh[2] = { depth, axis };
    rlx_value v[2];
    if ((st = rlx__onnx_add(c, RLX_OP_ARGMAX, 1, &x, arg, 3, NULL, 0,
                            &v[0])) != RLX_OK ||
        (st = off_on(c, in[0]->dtype, &vals)) != RLX_OK)
        return st;
    v[1] = vals;
    if ((st = rlx__onnx_add(c, RLX_OP_ONE_HOT, 2, v, oh, 2, NULL, 0, &r)) !=
        RLX_OK)
        return st;
    if (flat && (st = reshape(c, r, rank, dims, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- Shrink -------------------------------------------------------------- */

/* The integer range of DT, for Shrink's thresholds. */
static int int_range(rlx_dtype dt, double *lo, double *hi)
{
    switch (dt) {
    case RLX_DTYPE_I8: *lo = INT8_MIN; *hi = INT8_MAX; return 1;
    case RLX_DTYPE_U8: *lo = 0; *hi = UINT8_MAX; return 1;
    case RLX_DTYPE_I32: *lo = INT32_MIN; *hi = INT32_MAX; return 1;
    case RLX_DTYPE_I64: *lo = -9007199254740992.0; *hi = 9007199254740992.0;
        return 1;
    default: return 0;
    }
}

/* y = x < -lambd ? x + bias : x > lambd ? x - bias : 0 */
static rlx_status lower_shrink(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    rlx_dtype dt = in[0]->dtype;
    double lambd = rlx__onnx_attr_float(c, "lambd", 0.5);
    double bias = rlx__onnx_attr_float(c, "bias", 0.0);
    double below = -lambd, above = lambd, lo, hi;
    if (int_range(dt, &lo, &hi)) {
        /* for integer x: x < a is x < ceil(a), x > a is x > floor(a) */
        below = ceil(below);
        above = floor(above);
        if (!(bias == floor(bias) && bias >= lo && bias <= hi &&
              below >= lo && below <= hi && above >= lo && above <= hi))
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "on %s input, lambd %g and bias %g must "
                                  "be whole numbers in the type's range. "
                                  "Fix: cast the input to float",
                                  rlx_dtype_name(dt), lambd, bias);
    } else if (!rlx__onnx_is_float(dt)) {
        if ((st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
            return st;
    }
    rlx_value x, kb, ka, kbias, k0, lt, gt, xp, xm, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, below, &kb)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, above, &ka)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, bias, &kbias)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, 0, &k0)) != RLX_OK ||
        (st = add2(c, RLX_OP_LESS, x, kb, &lt)) != RLX_OK ||
        (st = add2(c, RLX_OP_GREATER, x, ka, &gt)) != RLX_OK ||
        (st = add2(c, RLX_OP_ADD, x, kbias, &xp)) != RLX_OK ||
        (st = add2(c, RLX_OP_SUB, x, kbias, &xm)) != RLX_OK)
        return st;
    rlx_value w1[3] = { gt, xm, k0 };
    if ((st = rlx__onnx_add(c, RLX_OP_WHERE, 3, w1, NULL, 0, NULL, 0, &r)) !=
        RLX_OK)
        return st;
    rlx_value w2[3] = { lt, xp, r };
    if ((st = rlx__onnx_add(c, RLX_OP_WHERE, 3, w2, NULL, 0, NULL, 0, &r)) !=
        RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- EyeLike ------------------------------------------------------------- */

/* y[i, j] = (j == i + k), of the dtype attribute or the input's. */
static rlx_status lower_eye_like(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                 uint32_t n_in, rlx__onnx_val *out,
                                 uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    if (in[0]->rank != 2)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the input is %u-D; EyeLike takes a 2-D "
                              "tensor. Fix: give a matrix", in[0]->rank);
    rlx_dtype dt = in[0]->dtype;
    const Onnx__AttributeProto *a = rlx__onnx_attr(c, "dtype");
    if (a && a->has_i) {
        dt = rlx__onnx_dtype((int32_t)a->i);
        if (dt == RLX_DTYPE_INVALID)
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "dtype %s is not one rlx has. Fix: use a "
                                  "float, int32, int64, int8, uint8 or bool "
                                  "type", rlx__onnx_type_name((int32_t)a->i));
    }
    int64_t k = rlx__onnx_attr_int(c, "k", 0);
    int64_t rows = in[0]->dims[0], cols = in[0]->dims[1];
    /* k beyond the matrix: no diagonal, still a valid (zero) result */
    if (k > cols)
        k = cols;
    if (k < -rows)
        k = -rows;
    int64_t ri[4] = { RLX_DTYPE_I64, rows, k, 1 };
    int64_t ci[4] = { RLX_DTYPE_I64, cols, 0, 1 };
    int64_t rd[2] = { rows, 1 }, cd[2] = { 1, cols };
    rlx_value rv, cv, eq, r;
    if ((st = rlx__onnx_add(c, RLX_OP_RANGE, 0, NULL, ri, 4, NULL, 0,
                            &rv)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RANGE, 0, NULL, ci, 4, NULL, 0,
                            &cv)) != RLX_OK ||
        (st = reshape(c, rv, 2, rd, &rv)) != RLX_OK ||
        (st = reshape(c, cv, 2, cd, &cv)) != RLX_OK ||
        (st = add2(c, RLX_OP_EQUAL, rv, cv, &eq)) != RLX_OK)
        return st;
    if (dt == RLX_DTYPE_BOOL)
        r = eq;
    else if ((st = cast(c, eq, dt, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- LRN ----------------------------------------------------------------- */

/* y = x / (bias + alpha / size * sum of x^2 over the channel window)^beta;
 * the window sum is an avg_pool (padding counted) over [N, 1, C, rest]. */
static rlx_status lower_lrn(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    const rlx__onnx_val *xv = in[0];
    if (xv->rank < 2)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "X is %u-D; LRN takes [N, C, ...]. Fix: give "
                              "the channels as axis 1", xv->rank);
    int64_t size = rlx__onnx_attr_int(c, "size", 0);
    if (size < 1 || size > 4096)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "size %lld is missing or not in [1, 4096]. "
                              "Fix: give the window size across channels",
                              (long long)size);
    double alpha = rlx__onnx_attr_float(c, "alpha", 1e-4);
    double beta = rlx__onnx_attr_float(c, "beta", 0.75);
    double bias = rlx__onnx_attr_float(c, "bias", 1.0);
    int64_t rest = 1;
    for (uint32_t i = 2; i < xv->rank; i++)
        rest *= xv->dims[i];
    int64_t d4[4] = { xv->dims[0], 1, xv->dims[1], rest };
    int64_t pool[13] = { 0, 1, 2, size, 1, 1, 1, 1, 1,
                         (size - 1) / 2, 0, size / 2, 0 };
    rlx_dtype dt = xv->dtype;
    rlx_value x, sq, avg, k, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = add2(c, RLX_OP_MUL, x, x, &sq)) != RLX_OK ||
        (st = reshape(c, sq, 4, d4, &sq)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_AVG_POOL, 1, &sq, pool, 13, NULL, 0,
                            &avg)) != RLX_OK ||
        (st = reshape(c, avg, xv->rank, xv->dims, &avg)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, alpha, &k)) != RLX_OK ||
        (st = add2(c, RLX_OP_MUL, avg, k, &avg)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, bias, &k)) != RLX_OK ||
        (st = add2(c, RLX_OP_ADD, avg, k, &avg)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, beta, &k)) != RLX_OK ||
        (st = add2(c, RLX_OP_POW, avg, k, &avg)) != RLX_OK ||
        (st = add2(c, RLX_OP_DIV, x, avg, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- MeanVarianceNormalization ------------------------------------------- */

/* y = (x - mean) / (sqrt(var) + 1e-9) over the axes (default 0, 2, 3). */
static rlx_status lower_mvn(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    int64_t raw[RLX_MAX_RANK + 1], ints[1 + RLX_MAX_RANK];
    int n = rlx__onnx_attr_ints(c, "axes", raw, RLX_MAX_RANK + 1);
    if (n < 0) {
        raw[0] = 0;
        raw[1] = 2;
        raw[2] = 3;
        n = 3;
    }
    if (n > (int)in[0]->rank)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it names %d axes of a rank-%u input. Fix: "
                              "name each axis once (the default 0, 2, 3 "
                              "needs rank 4)", n, in[0]->rank);
    ints[0] = 1; /* keepdims */
    for (int i = 0; i < n; i++) {
        if ((st = rlx__onnx_axis(c, raw[i], in[0]->rank, &ints[1 + i])) !=
            RLX_OK)
            return st;
        for (int j = 0; j < i; j++)
            if (ints[1 + j] == ints[1 + i])
                return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                      "axis %lld is named twice. Fix: name "
                                      "each axis once",
                                      (long long)ints[1 + i]);
    }
    rlx_value x, mean, d, var, k, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_REDUCE_MEAN, 1, &x, ints,
                            1 + (uint32_t)n, NULL, 0, &mean)) != RLX_OK ||
        (st = add2(c, RLX_OP_SUB, x, mean, &d)) != RLX_OK ||
        (st = add2(c, RLX_OP_MUL, d, d, &var)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_REDUCE_MEAN, 1, &var, ints,
                            1 + (uint32_t)n, NULL, 0, &var)) != RLX_OK ||
        (st = add1(c, RLX_OP_SQRT, var, &var)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, in[0]->dtype, 1e-9, &k)) != RLX_OK ||
        (st = add2(c, RLX_OP_ADD, var, k, &var)) != RLX_OK ||
        (st = add2(c, RLX_OP_DIV, d, var, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

const rlx__onnx_op rlx__onnx_ops_compose[] = {
    { "CastLike", 15, lower_cast_like, 0 },
    { "CastLike", 19, lower_cast_like, 0 },
    { "CastLike", 21, lower_cast_like, 0 },
    { "Hardmax", 1, lower_hardmax, 0 },
    { "Hardmax", 11, lower_hardmax, 0 },
    { "Hardmax", 13, lower_hardmax, 0 },
    { "Shrink", 9, lower_shrink, 0 },
    { "EyeLike", 9, lower_eye_like, 0 },
    { "LRN", 1, lower_lrn, 0 },
    { "LRN", 13, lower_lrn, 0 },
    { "MeanVarianceNormalization", 9, lower_mvn, 0 },
    { "MeanVarianceNormalization", 13, lower_mvn, 0 },
    { NULL, 0, NULL, 0 }
};
