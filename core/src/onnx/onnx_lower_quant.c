/*
 * onnx_lower_quant.c - ONNX's quantized operators onto rlx's quantization
 * primitives: QuantizeLinear and DequantizeLinear (opsets 10, 13, 19,
 * 21: per tensor, per axis, blocked), MatMulInteger and ConvInteger
 * directly; DynamicQuantizeLinear from reductions and quantize_linear;
 * QLinearMatMul and QLinearConv as the integer op (i32), then the
 * requantization ONNX specifies: i32 * (a_scale * b_scale / y_scale),
 * rounded half to even, + y_zero_point, saturated (quantize_linear with
 * scale 1 does the last three exactly). The QDQ form of a conv or a
 * matmul (onnx_qdq.c) lowers through the same two functions.
 */
#include <string.h>

#include "onnx.h"

#define MAX_S (RLX_MAX_RANK - 2)

static int is_byte(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8;
}

static int64_t numel(const rlx__onnx_val *v)
{
    return rlx__onnx_elements(v->rank, v->dims);
}

static rlx_status add1(rlx__onnx_ctx *c, rlx_op op, rlx_value a,
                       const int64_t *ints, uint32_t n_ints, rlx_value *out)
{
    return rlx__onnx_add(c, op, 1, &a, ints, n_ints, NULL, 0, out);
}

static rlx_status add2(rlx__onnx_ctx *c, rlx_op op, rlx_value a, rlx_value b,
                       rlx_value *out)
{
    rlx_value in[2] = { a, b };
    return rlx__onnx_add(c, op, 2, in, NULL, 0, NULL, 0, out);
}

/* V reshaped to RANK dims DIMS. */
static rlx_status reshape(rlx__onnx_ctx *c, rlx_value v, uint32_t rank,
                          const int64_t *dims, rlx_value *out)
{
    return add1(c, RLX_OP_RESHAPE, v, dims, rank, out);
}

/* Zeros of DTYPE and shape RANK/DIMS: an absent zero point. */
static rlx_status zeros(rlx__onnx_ctx *c, rlx_dtype dtype, uint32_t rank,
                        const int64_t *dims, rlx_value *out)
{
    int64_t a[1 + RLX_MAX_RANK];
    a[0] = dtype;
    if (rank)
        memcpy(a + 1, dims, rank * sizeof *dims);
    return rlx__onnx_add(c, RLX_OP_FILL, 0, NULL, a, 1 + rank, NULL, 0, out);
}

/* V as f32 (scales may be f16 or bf16 from opset 19 on). */
static rlx_status as_f32(rlx__onnx_ctx *c, rlx__onnx_val *v, rlx_value *out)
{
    rlx_status st = rlx__onnx_node_value(c, v, out);
    if (st != RLX_OK || v->dtype == RLX_DTYPE_F32)
        return st;
    int64_t dt = RLX_DTYPE_F32;
    return add1(c, RLX_OP_CAST, *out, &dt, 1, out);
}

/* The zero point ZP (may be NULL: zeros of DTYPE) given the scale's
 * shape, as a graph value of the scale's shape when both are scalars. */
static rlx_status zero_point(rlx__onnx_ctx *c, rlx__onnx_val *zp,
                             rlx_dtype dtype, const rlx__onnx_val *scale,
                             rlx_value *out)
{
    if (!zp)
        return zeros(c, dtype, scale->rank, scale->dims, out);
    rlx_status st = rlx__onnx_node_value(c, zp, out);
    if (st != RLX_OK)
        return st;
    if (zp->rank != scale->rank && numel(zp) == 1 && numel(scale) == 1)
        return reshape(c, *out, scale->rank, scale->dims, out);
    return RLX_OK;
}

static rlx_status need_byte_zp(rlx__onnx_ctx *c, const rlx__onnx_val *zp,
                               const char *what)
{
    if (!zp || is_byte(zp->dtype))
        return RLX_OK;
    return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                          "%s '%s' is %s; rlx quantizes to int8 and uint8 "
                          "only. Fix: quantize the model to int8 or uint8",
                          what, zp->name ? zp->name : "?",
                          rlx_dtype_name(zp->dtype));
}

/* axis and block_size, as this opset defines them */
static void quant_attrs(rlx__onnx_ctx *c, int64_t *a)
{
    a[0] = c->opset >= 13 ? rlx__onnx_attr_int(c, "axis", 1) : 1;
    a[1] = c->opset >= 21 ? rlx__onnx_attr_int(c, "block_size", 0) : 0;
}

static rlx_status lower_quantize(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                 uint32_t n_in, rlx__onnx_val *out,
                                 uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK)
        return st;
    rlx__onnx_val *zp = n_in > 2 ? in[2] : NULL;
    if ((st = need_byte_zp(c, zp, "y_zero_point")) != RLX_OK)
        return st;
    rlx_dtype to = zp ? zp->dtype : RLX_DTYPE_U8;
    int64_t odt = c->opset >= 21 ? rlx__onnx_attr_int(c, "output_dtype", 0)
                                 : 0;
    if (!zp && odt != 0) {
        to = rlx__onnx_dtype((int32_t)odt);
        if (!is_byte(to))
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "output_dtype is %s; rlx quantizes to "
                                  "int8 and uint8 only. Fix: quantize the "
                                  "model to int8 or uint8",
                                  rlx__onnx_type_name((int32_t)odt));
    }
    rlx_value v[3];
    if ((st = rlx__onnx_node_value(c, in[0], &v[0])) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &v[1])) != RLX_OK)
        return st;
    rlx_dtype xt = in[0]->dtype;
    if (!rlx__onnx_is_float(xt)) { /* opset 10's int32 x: through f32 */
        int64_t dt = RLX_DTYPE_F32;
        if ((st = add1(c, RLX_OP_CAST, v[0], &dt, 1, &v[0])) != RLX_OK)
            return st;
        xt = RLX_DTYPE_F32;
    }
    if (in[1]->dtype != xt) {
        int64_t dt = xt;
        if ((st = add1(c, RLX_OP_CAST, v[1], &dt, 1, &v[1])) != RLX_OK)
            return st;
    }
    if ((st = zero_point(c, zp, to, in[1], &v[2])) != RLX_OK)
        return st;
    int64_t a[2];
    quant_attrs(c, a);
    rlx_value r;
    if ((st = rlx__onnx_add(c, RLX_OP_QUANTIZE_LINEAR, 3, v, a, 2, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_dequantize(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                   uint32_t n_in, rlx__onnx_val *out,
                                   uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK)
        return st;
    rlx__onnx_val *zp = n_in > 2 ? in[2] : NULL;
    rlx_dtype xt = in[0]->dtype;
    if (!is_byte(xt) && xt != RLX_DTYPE_I32)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "x is %s; rlx dequantizes int8, uint8 and "
                              "int32. Fix: quantize the model to int8 or "
                              "uint8", rlx_dtype_name(xt));
    rlx_value v[3];
    if ((st = rlx__onnx_node_value(c, in[0], &v[0])) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &v[1])) != RLX_OK ||
        (st = zero_point(c, zp, xt, in[1], &v[2])) != RLX_OK)
        return st;
    int64_t a[2];
    quant_attrs(c, a);
    rlx_value r;
    if ((st = rlx__onnx_add(c, RLX_OP_DEQUANTIZE_LINEAR, 3, v, a, 2, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* DynamicQuantizeLinear, as ONNX defines it: the range [min(0, min x),
 * max(0, max x)] maps onto [0, 255]; y_scale = range / 255, y_zp =
 * saturate(round(0 - min / y_scale)), y = quantize(x, y_scale, y_zp). */
static rlx_status lower_dynamic_quantize(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                         uint32_t n_in, rlx__onnx_val *out,
                                         uint32_t n_out)
{
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    if (in[0]->dtype != RLX_DTYPE_F32)
        return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                              "x is %s. Fix: DynamicQuantizeLinear takes "
                              "float32", rlx_dtype_name(in[0]->dtype));
    rlx_value x, zero, one, k255, lo, hi, range, scale, t, zp, y;
    int64_t red[1 + RLX_MAX_RANK] = { 0 }; /* keepdims 0, every axis */
    for (uint32_t i = 0; i < in[0]->rank; i++)
        red[1 + i] = i;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, RLX_DTYPE_F32, 0.0, &zero)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, RLX_DTYPE_F32, 1.0, &one)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, RLX_DTYPE_F32, 255.0, &k255)) != RLX_OK ||
        (st = add1(c, RLX_OP_REDUCE_MIN, x, red, 1 + in[0]->rank, &lo)) !=
            RLX_OK ||
        (st = add1(c, RLX_OP_REDUCE_MAX, x, red, 1 + in[0]->rank, &hi)) !=
            RLX_OK ||
        (st = add2(c, RLX_OP_MIN, lo, zero, &lo)) != RLX_OK ||
        (st = add2(c, RLX_OP_MAX, hi, zero, &hi)) != RLX_OK ||
        (st = add2(c, RLX_OP_SUB, hi, lo, &range)) != RLX_OK ||
        (st = add2(c, RLX_OP_DIV, range, k255, &scale)) != RLX_OK ||
        (st = add2(c, RLX_OP_DIV, lo, scale, &t)) != RLX_OK ||
        (st = add2(c, RLX_OP_SUB, zero, t, &t)) != RLX_OK ||
        (st = zeros(c, RLX_DTYPE_U8, 0, NULL, &zp)) != RLX_OK)
        return st;
    /* the zero point: t rounded half to even and saturated to u8 */
    rlx_value q[3] = { t, one, zp };
    int64_t qa[2] = { 1, 0 };
    if ((st = rlx__onnx_add(c, RLX_OP_QUANTIZE_LINEAR, 3, q, qa, 2, NULL, 0,
                            &zp)) != RLX_OK)
        return st;
    rlx_value q2[3] = { x, scale, zp };
    if ((st = rlx__onnx_add(c, RLX_OP_QUANTIZE_LINEAR, 3, q2, qa, 2, NULL, 0,
                            &y)) != RLX_OK)
        return st;
    if ((st = rlx__onnx_set_out(c, y, &out[0])) != RLX_OK)
        return st;
    if (n_out > 1 && (st = rlx__onnx_set_out(c, scale, &out[1])) != RLX_OK)
        return st;
    if (n_out > 2 && (st = rlx__onnx_set_out(c, zp, &out[2])) != RLX_OK)
        return st;
    return RLX_OK;
}

/* Zero point ZP of integer operand OP (NULL: 0), as [] or [LEN]: one
 * per row (a) or column (b) of a matmul, or output channel (conv w). */
static rlx_status int_zero_point(rlx__onnx_ctx *c, rlx__onnx_val *zp,
                                 const rlx__onnx_val *op, int64_t len,
                                 const char *what, rlx_value *out)
{
    if (!is_byte(op->dtype))
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "an operand is %s. Fix: %s takes int8 or "
                              "uint8 operands", rlx_dtype_name(op->dtype),
                              c->node->op_type);
    if (!zp) { /* a constant 0, as a backend's integer kernel reads it */
        static const uint8_t zero;
        return rlx__onnx_constant(c, op->dtype, 0, NULL, &zero, out);
    }
    if (zp->dtype != op->dtype)
        return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                              "%s is %s, its operand %s. Fix: give the zero "
                              "point its operand's type", what,
                              rlx_dtype_name(zp->dtype),
                              rlx_dtype_name(op->dtype));
    rlx_status st = rlx__onnx_node_value(c, zp, out);
    if (st != RLX_OK)
        return st;
    int64_t n = numel(zp);
    if (n == 1)
        return zp->rank ? reshape(c, *out, 0, NULL, out) : RLX_OK;
    if (len >= 0 && n == len) /* [len], or [len, 1] and the like */
        return zp->rank == 1 ? RLX_OK : reshape(c, *out, 1, &len, out);
    return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                          "%s has %lld elements. Fix: use a scalar %s, or "
                          "one per %s (%lld)", what, (long long)n, what,
                          len >= 0 ? "row, column or output channel"
                                   : "(per tensor)",
                          (long long)len);
}

/* a x b on integers with zero points: IN = a, b, a_zp, b_zp (zp may be
 * NULL). */
static rlx_status matmul_integer(rlx__onnx_ctx *c, rlx__onnx_val *a,
                                 rlx__onnx_val *b, rlx__onnx_val *za,
                                 rlx__onnx_val *zb, rlx_value *out)
{
    rlx_value v[4];
    if (a->rank == 0 || b->rank == 0)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "an operand is a scalar. Fix: matmul needs "
                              "rank 1 or more");
    int64_t m = a->rank >= 2 ? a->dims[a->rank - 2] : 1;
    int64_t n = b->rank >= 2 ? b->dims[b->rank - 1] : 1;
    rlx_status st;
    if ((st = rlx__onnx_node_value(c, a, &v[0])) != RLX_OK ||
        (st = rlx__onnx_node_value(c, b, &v[1])) != RLX_OK ||
        (st = int_zero_point(c, za, a, m, "a_zero_point", &v[2])) !=
            RLX_OK ||
        (st = int_zero_point(c, zb, b, n, "b_zero_point", &v[3])) != RLX_OK)
        return st;
    return rlx__onnx_add(c, RLX_OP_MATMUL_INTEGER, 4, v, NULL, 0, NULL, 0,
                         out);
}

static rlx_status conv_integer(rlx__onnx_ctx *c, rlx__onnx_val *x,
                               rlx__onnx_val *w, rlx__onnx_val *zx,
                               rlx__onnx_val *zw, rlx_value *out)
{
    int64_t a[1 + 4 * MAX_S];
    uint32_t na;
    rlx_value v[4];
    rlx_status st = rlx__onnx_conv_attrs(c, x, w, a, &na);
    if (st != RLX_OK ||
        (st = rlx__onnx_node_value(c, x, &v[0])) != RLX_OK ||
        (st = rlx__onnx_node_value(c, w, &v[1])) != RLX_OK ||
        (st = int_zero_point(c, zx, x, -1, "x_zero_point", &v[2])) !=
            RLX_OK ||
        (st = int_zero_point(c, zw, w, w->dims[0], "w_zero_point", &v[3])) !=
            RLX_OK)
        return st;
    return rlx__onnx_add(c, RLX_OP_CONV_INTEGER, 4, v, a, na, NULL, 0, out);
}

static rlx__onnx_val *opt(rlx__onnx_val **in, uint32_t n_in, uint32_t i)
{
    return i < n_in ? in[i] : NULL;
}

static rlx_status lower_matmul_integer(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                       uint32_t n_in, rlx__onnx_val *out,
                                       uint32_t n_out)
{
    (void)n_out;
    rlx_value r;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK ||
        (st = matmul_integer(c, in[0], in[1], opt(in, n_in, 2),
                             opt(in, n_in, 3), &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_conv_integer(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                     uint32_t n_in, rlx__onnx_val *out,
                                     uint32_t n_out)
{
    (void)n_out;
    rlx_value r;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK ||
        (st = conv_integer(c, in[0], in[1], opt(in, n_in, 2),
                           opt(in, n_in, 3), &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* A per-tensor or per-LEN scale S as f32, shaped to broadcast along axis
 * AXIS of a result of rank RANK. */
static rlx_status scale_along(rlx__onnx_ctx *c, rlx__onnx_val *s,
                              int64_t len, uint32_t axis, uint32_t rank,
                              const char *what, rlx_value *out)
{
    rlx_status st = as_f32(c, s, out);
    if (st != RLX_OK)
        return st;
    int64_t n = numel(s);
    if (n == 1)
        return s->rank ? reshape(c, *out, 0, NULL, out) : RLX_OK;
    if (n != len)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "%s has %lld elements. Fix: use a scalar, or "
                              "one per %s (%lld)", what, (long long)n,
                              axis + 1 == rank ? "column"
                              : axis == 1      ? "output channel"
                                               : "row",
                              (long long)len);
    int64_t dims[RLX_MAX_RANK];
    for (uint32_t i = 0; i < rank; i++)
        dims[i] = i == axis ? len : 1;
    return reshape(c, *out, rank, dims, out);
}

/* y = saturate(round half to even(ACC * MULT) + y_zp): ACC i32. */
static rlx_status requantize(rlx__onnx_ctx *c, rlx_value acc, rlx_value mult,
                             rlx__onnx_val *y_scale, rlx__onnx_val *y_zp,
                             rlx__onnx_val *out)
{
    int64_t f32 = RLX_DTYPE_F32, qa[2] = { 1, 0 };
    rlx_value d, one, v[3], r;
    rlx_status st = need_byte_zp(c, y_zp, "y_zero_point");
    if (st != RLX_OK ||
        (st = add1(c, RLX_OP_CAST, acc, &f32, 1, &d)) != RLX_OK ||
        (st = add2(c, RLX_OP_MUL, d, mult, &d)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, RLX_DTYPE_F32, 1.0, &one)) != RLX_OK ||
        (st = zero_point(c, y_zp, RLX_DTYPE_U8, y_scale, &v[2])) != RLX_OK)
        return st;
    if (numel(y_scale) != 1 || (y_zp && numel(y_zp) != 1))
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "y_scale or y_zero_point is not a scalar. Fix: "
                              "quantize the output per tensor");
    if (y_zp && y_zp->rank && (st = reshape(c, v[2], 0, NULL, &v[2])) !=
                                  RLX_OK)
        return st;
    if (!y_zp && y_scale->rank &&
        (st = reshape(c, v[2], 0, NULL, &v[2])) != RLX_OK)
        return st;
    v[0] = d;
    v[1] = one;
    if ((st = rlx__onnx_add(c, RLX_OP_QUANTIZE_LINEAR, 3, v, qa, 2, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, out);
}

/* (S1 * S2) / y_scale, as ONNX's reference orders it. */
static rlx_status multiplier(rlx__onnx_ctx *c, rlx_value s1, rlx_value s2,
                             rlx__onnx_val *y_scale, rlx_value *out)
{
    rlx_value ys;
    rlx_status st = as_f32(c, y_scale, &ys);
    if (st == RLX_OK && y_scale->rank && numel(y_scale) == 1)
        st = reshape(c, ys, 0, NULL, &ys);
    if (st != RLX_OK || (st = add2(c, RLX_OP_MUL, s1, s2, out)) != RLX_OK)
        return st;
    return add2(c, RLX_OP_DIV, *out, ys, out);
}

/* QLinearMatMul(a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp), and
 * a fused QDQ MatMul or Gemm (onnx_qdq.c), which may add BIAS (int32,
 * one per column) to the accumulator. */
rlx_status rlx__onnx_qlinear_matmul(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                    uint32_t n_in, rlx__onnx_val *bias,
                                    rlx__onnx_val *out)
{
    rlx_status st;
    rlx__onnx_val *a = in[0], *b = in[3];
    rlx_value acc, sa, sb, mult;
    if ((st = matmul_integer(c, a, b, in[2], in[5], &acc)) != RLX_OK)
        return st;
    const int64_t *dims;
    rlx_dtype dt;
    uint32_t rank;
    if ((st = rlx_graph_value_shape(c->g, acc, &dt, &rank, &dims)) != RLX_OK)
        return st;
    int64_t m = a->rank >= 2 ? a->dims[a->rank - 2] : 1;
    int64_t n = b->rank >= 2 ? b->dims[b->rank - 1] : 1;
    /* a_scale per row: the result's second-to-last axis (when a is a
     * matrix); b_scale per column: its last */
    uint32_t row_axis = rank >= 2 ? rank - 2 : 0;
    if ((st = scale_along(c, in[1], m, row_axis, rank, "a_scale", &sa)) !=
            RLX_OK ||
        (st = scale_along(c, in[4], n, rank ? rank - 1 : 0, rank, "b_scale",
                          &sb)) != RLX_OK ||
        (st = multiplier(c, sa, sb, in[6], &mult)) != RLX_OK)
        return st;
    if (bias) {
        rlx_value bv;
        if (bias->dtype != RLX_DTYPE_I32 || numel(bias) != n)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "the bias is %s with %lld elements. Fix: "
                                  "the bias is int32, one per column "
                                  "(%lld)", rlx_dtype_name(bias->dtype),
                                  (long long)numel(bias), (long long)n);
        if ((st = rlx__onnx_node_value(c, bias, &bv)) != RLX_OK ||
            (bias->rank != 1 && (st = reshape(c, bv, 1, &n, &bv)) !=
                                    RLX_OK) ||
            (st = add2(c, RLX_OP_ADD, acc, bv, &acc)) != RLX_OK)
            return st;
    }
    return requantize(c, acc, mult, in[6], opt(in, n_in, 7), &out[0]);
}

static rlx_status lower_qlinear_matmul(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                       uint32_t n_in, rlx__onnx_val *out,
                                       uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 7);
    if (st != RLX_OK)
        return st;
    return rlx__onnx_qlinear_matmul(c, in, n_in, NULL, out);
}

/* QLinearConv(x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp[, B]),
 * and a fused QDQ Conv (onnx_qdq.c): the conv attributes are c->node's. */
rlx_status rlx__onnx_qlinear_conv(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                  uint32_t n_in, rlx__onnx_val *out)
{
    rlx_status st;
    rlx__onnx_val *x = in[0], *w = in[3];
    rlx_value acc, sx, sw, mult;
    if ((st = conv_integer(c, x, w, in[2], in[5], &acc)) != RLX_OK)
        return st;
    uint32_t rank = x->rank;
    int64_t m = w->dims[0];
    rlx__onnx_val *bias = opt(in, n_in, 8);
    if (bias) {
        rlx_value bv;
        int64_t dims[RLX_MAX_RANK];
        for (uint32_t i = 0; i < rank; i++)
            dims[i] = i == 1 ? m : 1;
        if (bias->dtype != RLX_DTYPE_I32 || numel(bias) != m)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "B is %s with %lld elements. Fix: the "
                                  "bias is int32, one per output channel "
                                  "(%lld)", rlx_dtype_name(bias->dtype),
                                  (long long)numel(bias), (long long)m);
        if ((st = rlx__onnx_node_value(c, bias, &bv)) != RLX_OK ||
            (st = reshape(c, bv, rank, dims, &bv)) != RLX_OK ||
            (st = add2(c, RLX_OP_ADD, acc, bv, &acc)) != RLX_OK)
            return st;
    }
    if ((st = scale_along(c, in[1], 1, 1, rank, "x_scale", &sx)) != RLX_OK ||
        (st = scale_along(c, in[4], m, 1, rank, "w_scale", &sw)) != RLX_OK ||
        (st = multiplier(c, sx, sw, in[6], &mult)) != RLX_OK)
        return st;
    return requantize(c, acc, mult, in[6], opt(in, n_in, 7), &out[0]);
}

static rlx_status lower_qlinear_conv(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                     uint32_t n_in, rlx__onnx_val *out,
                                     uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 7);
    if (st != RLX_OK)
        return st;
    return rlx__onnx_qlinear_conv(c, in, n_in, out);
}

const rlx__onnx_op rlx__onnx_ops_quant[] = {
    { "QuantizeLinear", 10, lower_quantize, 0 },
    { "QuantizeLinear", 13, lower_quantize, 0 },
    { "QuantizeLinear", 19, lower_quantize, 0 },
    { "QuantizeLinear", 21, lower_quantize, 0 },
    { "DequantizeLinear", 10, lower_dequantize, 0 },
    { "DequantizeLinear", 13, lower_dequantize, 0 },
    { "DequantizeLinear", 19, lower_dequantize, 0 },
    { "DequantizeLinear", 21, lower_dequantize, 0 },
    { "DynamicQuantizeLinear", 11, lower_dynamic_quantize, 0 },
    { "MatMulInteger", 10, lower_matmul_integer, 0 },
    { "ConvInteger", 10, lower_conv_integer, 0 },
    { "QLinearMatMul", 10, lower_qlinear_matmul, 0 },
    { "QLinearMatMul", 21, lower_qlinear_matmul, 0 },
    { "QLinearConv", 10, lower_qlinear_conv, 0 },
    { NULL, 0, NULL, 0 },
};
