/*
 * pjrt_emit_quant.c - the quantization ops: quantize_linear and
 * dequantize_linear (per tensor, per axis, blocked) and the integer
 * matmul and conv, matching cpu-ref's arithmetic.
 *
 * quantize divides in f32, rounds half to even, adds the zero point and
 * saturates; NaN gives the zero point. dequantize is (f32(x) -
 * f32(zp)) * scale in f32. matmul_integer and conv_integer subtract the
 * zero points and contract in f64, whose sums of 8-bit products are
 * exact below 2^53 (over 10^11 terms), then wrap to i32 through i64 as
 * cpu-ref's int64 sums do. f64 was chosen over s32 operands because
 * XLA's GPU convolutions go through cuDNN, whose integer convolutions
 * have layout limits, while f64 dot_general and convolution are taken
 * by every XLA backend we target.
 */
#include "pjrt_emit.h"

static uint32_t in(rlxp_emit *e, const rlx_node_view *n, uint32_t i)
{
    return e->node_val[n->inputs[i]];
}

static uint32_t slice_axis(rlxp_emit *e, uint32_t x, uint32_t axis,
                           int64_t len)
{
    rlxp_val v = *rlxp_type_of(e, x);
    if (v.dims[axis] == len)
        return x;
    int64_t start[RLXP_MAX_RANK] = { 0 }, lim[RLXP_MAX_RANK],
            step[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < v.rank; d++) {
        lim[d] = d == axis ? len : v.dims[d];
        step[d] = 1;
    }
    v.dims[axis] = len;
    char attrs[512] = "";
    rlxp_cat_array(attrs, sizeof attrs, "start_indices", v.rank, start);
    rlxp_cat_array(attrs, sizeof attrs, "limit_indices", v.rank, lim);
    rlxp_cat_array(attrs, sizeof attrs, "strides", v.rank, step);
    return rlxp_op(e, "stablehlo.slice", 1, &x, &v, attrs);
}

/* S (a scale or zero point) broadcast to X's shape: per tensor, per
 * axis ([D] along the axis) or blocked (x's shape with the axis dim
 * ceil(D / B): each entry repeated B times, the tail cut). */
static uint32_t expand(rlxp_emit *e, const rlx_node_view *n, uint32_t s,
                       const rlxp_val *xv)
{
    if (s == RLXP_NONE)
        return s;
    const rlxp_val sv = *rlxp_type_of(e, s);
    int64_t axis = n->n_int_attrs > RLX_ATTR_QUANT_AXIS
                       ? n->int_attrs[RLX_ATTR_QUANT_AXIS] : 1;
    int64_t block = n->n_int_attrs > RLX_ATTR_QUANT_BLOCK_SIZE
                        ? n->int_attrs[RLX_ATTR_QUANT_BLOCK_SIZE] : 0;
    rlxp_val to = *xv;
    to.dt = sv.dt;
    if (block == 0 && rlxp_val_count(&sv) == 1 && sv.rank <= 1)
        return rlxp_broadcast(e, rlxp_reshape(e, s, 0, NULL), &to, NULL);
    if (axis < 0)
        axis += xv->rank;
    if (axis < 0 || axis >= (int64_t)xv->rank || block < 0 ||
        (block > 0 && (sv.rank != xv->rank || xv->rank >= RLXP_MAX_RANK))) {
        rlxp_fail(e, RLX_ERR_INVALID_ARGUMENT, "pjrt: node '%s': the axis "
                  "or block size does not fit the scale's shape. Fix: give "
                  "an axis of x and a scale of the documented shape",
                  n->name);
        return RLXP_NONE;
    }
    if (block == 0) {
        int64_t map[1] = { axis };
        return rlxp_broadcast(e, s, &to, map);
    }
    /* [.., nb, ..] -> [.., nb, B, ..] -> [.., nb * B, ..] -> [.., D, ..] */
    rlxp_val big = sv;
    int64_t map[RLXP_MAX_RANK];
    big.rank = sv.rank + 1;
    for (uint32_t d = 0; d < sv.rank; d++) {
        uint32_t at = d <= (uint32_t)axis ? d : d + 1;
        map[d] = at;
        big.dims[at] = sv.dims[d];
    }
    big.dims[axis + 1] = block;
    uint32_t b = rlxp_broadcast(e, s, &big, map);
    rlxp_val flat = sv;
    flat.dims[axis] = sv.dims[axis] * block;
    b = rlxp_reshape(e, b, flat.rank, flat.dims);
    return slice_axis(e, b, (uint32_t)axis, xv->dims[axis]);
}

static uint32_t quantize(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val xv = *rlxp_type_of(e, x);
    uint32_t s = expand(e, n, rlxp_in_f32(e, n, 1), &xv);
    uint32_t zp = expand(e, n, in(e, n, 2), &xv);
    uint32_t q = rlxp_bin(e, "stablehlo.divide", x, s);
    uint32_t r = rlxp_un(e, "stablehlo.round_nearest_even", q);
    r = rlxp_bin(e, "stablehlo.add", r,
                 rlxp_convert(e, zp, RLX_DTYPE_F32));
    double lo = n->dtype == RLX_DTYPE_I8 ? -128.0 : 0.0;
    double hi = n->dtype == RLX_DTYPE_I8 ? 127.0 : 255.0;
    r = rlxp_bin(e, "stablehlo.maximum", r, rlxp_splat_like(e, r, lo));
    r = rlxp_bin(e, "stablehlo.minimum", r, rlxp_splat_like(e, r, hi));
    uint32_t y = rlxp_convert(e, r, n->dtype);
    /* NaN (maximum and minimum keep it) gives the zero point */
    return rlxp_select(e, rlxp_compare(e, q, q, "NE"), zp, y);
}

static uint32_t dequantize(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_convert(e, in(e, n, 0), RLX_DTYPE_F32);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val xv = *rlxp_type_of(e, x);
    uint32_t s = expand(e, n, rlxp_in_f32(e, n, 1), &xv);
    uint32_t zp = rlxp_convert(e, expand(e, n, in(e, n, 2), &xv),
                               RLX_DTYPE_F32);
    uint32_t d = rlxp_bin(e, "stablehlo.subtract", x, zp);
    return rlxp_out(e, n, rlxp_bin(e, "stablehlo.multiply", d, s));
}

/* X - ZP in f64, ZP a scalar or one per index of X's axis AXIS. */
static uint32_t shifted(rlxp_emit *e, uint32_t x, uint32_t zp,
                        uint32_t axis)
{
    x = rlxp_convert(e, x, RLX_DTYPE_F64);
    zp = rlxp_convert(e, zp, RLX_DTYPE_F64);
    if (x == RLXP_NONE || zp == RLXP_NONE)
        return RLXP_NONE;
    const rlxp_val xv = *rlxp_type_of(e, x);
    const rlxp_val zv = *rlxp_type_of(e, zp);
    uint32_t b;
    if (rlxp_val_count(&zv) == 1) {
        b = rlxp_broadcast(e, rlxp_reshape(e, zp, 0, NULL), &xv, NULL);
    } else {
        int64_t map[1] = { axis };
        b = rlxp_broadcast(e, zp, &xv, map);
    }
    return rlxp_bin(e, "stablehlo.subtract", x, b);
}

/* An exact f64 sum to i32, wrapping as cpu-ref's int64 sums do. */
static uint32_t wrap_i32(rlxp_emit *e, uint32_t y)
{
    return rlxp_convert(e, rlxp_convert(e, y, RLX_DTYPE_I64), RLX_DTYPE_I32);
}

static uint32_t matmul_integer(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t a = in(e, n, 0), b = in(e, n, 1);
    uint32_t ra = rlxp_type_of(e, a)->rank, rb = rlxp_type_of(e, b)->rank;
    /* a's zero points per row (axis -2), b's per column (axis -1) */
    a = shifted(e, a, in(e, n, 2), ra >= 2 ? ra - 2 : 0);
    b = shifted(e, b, in(e, n, 3), rb >= 1 ? rb - 1 : 0);
    return wrap_i32(e, rlxp_dot(e, n, a, b, 0, 0));
}

static uint32_t conv_integer(rlxp_emit *e, const rlx_node_view *n)
{
    /* the padding holds x's zero point: 0 once shifted */
    uint32_t x = shifted(e, in(e, n, 0), in(e, n, 2), 1);
    uint32_t w = shifted(e, in(e, n, 1), in(e, n, 3), 0);
    rlx_node_view as_conv = *n;
    as_conv.op = RLX_OP_CONV;
    as_conv.n_inputs = 2;
    return wrap_i32(e, rlxp_conv(e, &as_conv, x, w));
}

uint32_t rlxp_emit_quant(rlxp_emit *e, const rlx_node_view *n)
{
    switch (n->op) {
    case RLX_OP_QUANTIZE_LINEAR: return quantize(e, n);
    case RLX_OP_DEQUANTIZE_LINEAR: return dequantize(e, n);
    case RLX_OP_MATMUL_INTEGER: return matmul_integer(e, n);
    default: return conv_integer(e, n);
    }
}
