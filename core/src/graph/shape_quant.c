/*
 * shape_quant.c - shape, dtype and attribute checks of the quantization
 * ops: quantize_linear, dequantize_linear (per tensor, per axis and
 * blocked scales), matmul_integer and conv_integer (their zero points).
 * The geometry of the integer ops is matmul's and conv's.
 */
#include <string.h>

#include "shape_internal.h"

static int is_byte(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8;
}

static int is_float(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 || t == RLX_DTYPE_BF16;
}

static int64_t numel(const rlx__node *n)
{
    return rlx__shape_elements(n->rank, n->shape);
}

/* scale and zero point of (de)quantize against x: per tensor, per axis
 * or blocked. */
static rlx_status check_scale_shape(const rlx__shape_ctx *c,
                                    const rlx__node *x, const rlx__node *s,
                                    const rlx__node *z)
{
    char sx[RLX__SHAPE_BUF], ss[RLX__SHAPE_BUF], sz[RLX__SHAPE_BUF];
    int64_t block = rlx__shape_int(c, RLX_ATTR_QUANT_BLOCK_SIZE, 0);
    if (s->rank != z->rank ||
        memcmp(s->shape, z->shape, s->rank * sizeof *s->shape) != 0)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "scale '%s' is %s but zero_point '%s' is %s. "
                                "Fix: give both one shape", s->name,
                                rlx__shape_of(ss, sizeof ss, s), z->name,
                                rlx__shape_of(sz, sizeof sz, z));
    if (block < 0)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "block_size is %lld. Fix: use 0 (not "
                                "blocked) or a positive size",
                                (long long)block);
    if (block == 0 && numel(s) == 1 && s->rank <= 1)
        return RLX_OK; /* per tensor: the axis is not used */
    uint32_t axis;
    rlx_status st = rlx__shape_axis(
        c, "axis", rlx__shape_int(c, RLX_ATTR_QUANT_AXIS, 1), x->rank, &axis);
    if (st != RLX_OK)
        return st;
    if (block == 0) {
        if (s->rank == 1 && s->shape[0] == x->shape[axis])
            return RLX_OK;
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "scale '%s' is %s, x '%s' is %s with axis "
                                "%u. Fix: per axis the scale is [%lld]; per "
                                "tensor it is [] or [1]", s->name,
                                rlx__shape_of(ss, sizeof ss, s), x->name,
                                rlx__shape_of(sx, sizeof sx, x), axis,
                                (long long)x->shape[axis]);
    }
    int ok = s->rank == x->rank;
    for (uint32_t i = 0; ok && i < x->rank; i++) {
        int64_t want = i == axis ? (x->shape[i] + block - 1) / block
                                 : x->shape[i];
        ok = s->shape[i] == want;
    }
    if (!ok)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "blocked scale '%s' is %s, x '%s' is %s with "
                                "axis %u and block_size %lld. Fix: the scale "
                                "has x's shape with the axis dim ceil(dim / "
                                "block_size)", s->name,
                                rlx__shape_of(ss, sizeof ss, s), x->name,
                                rlx__shape_of(sx, sizeof sx, x), axis,
                                (long long)block);
    return RLX_OK;
}

rlx_status rlx__shape_quant(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0), *s = rlx__shape_in(c, 1),
                    *z = rlx__shape_in(c, 2);
    int q = c->op == RLX_OP_QUANTIZE_LINEAR;
    if (q && !is_float(x->dtype))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "x '%s' is %s. Fix: quantize f32, f16 or "
                                "bf16 data", x->name,
                                rlx_dtype_name(x->dtype));
    if (!q && !is_byte(x->dtype) && x->dtype != RLX_DTYPE_I32)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "x '%s' is %s. Fix: dequantize i8, u8 or "
                                "i32 data", x->name,
                                rlx_dtype_name(x->dtype));
    if (q ? s->dtype != x->dtype : !is_float(s->dtype))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "scale '%s' is %s. Fix: the scale is %s",
                                s->name, rlx_dtype_name(s->dtype),
                                q ? "x's dtype" : "f32, f16 or bf16");
    if (q ? !is_byte(z->dtype) : z->dtype != x->dtype)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "zero_point '%s' is %s. Fix: the zero point "
                                "is %s", z->name, rlx_dtype_name(z->dtype),
                                q ? "i8 or u8 (the result's dtype)"
                                  : "x's dtype");
    rlx_status st = check_scale_shape(c, x, s, z);
    if (st != RLX_OK)
        return st;
    out->dtype = q ? z->dtype : s->dtype;
    out->rank = x->rank;
    memcpy(out->shape, x->shape, sizeof out->shape);
    return RLX_OK;
}

/* Zero point ZP of operand OP: its dtype, and [] / [1] or [LEN]. */
static rlx_status check_zero_point(const rlx__shape_ctx *c,
                                   const rlx__node *op, const rlx__node *zp,
                                   int64_t len, const char *per)
{
    char sz[RLX__SHAPE_BUF];
    if (!is_byte(op->dtype))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "'%s' is %s. Fix: %s takes i8 or u8 "
                                "operands", op->name,
                                rlx_dtype_name(op->dtype),
                                rlx_op_name(c->op));
    if (zp->dtype != op->dtype)
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "zero point '%s' is %s, its operand '%s' %s. "
                                "Fix: give the zero point its operand's "
                                "dtype", zp->name, rlx_dtype_name(zp->dtype),
                                op->name, rlx_dtype_name(op->dtype));
    if ((zp->rank <= 1 && numel(zp) == 1) ||
        (len >= 0 && zp->rank == 1 && zp->shape[0] == len))
        return RLX_OK;
    if (len < 0)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "zero point '%s' is %s. Fix: it must be a "
                                "scalar", zp->name,
                                rlx__shape_of(sz, sizeof sz, zp));
    return rlx__shape_error(c, RLX_ERR_SHAPE,
                            "zero point '%s' is %s. Fix: use a scalar, or "
                            "[%lld] (one per %s)", zp->name,
                            rlx__shape_of(sz, sizeof sz, zp), (long long)len,
                            per);
}

rlx_status rlx__shape_matmul_integer(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *a = rlx__shape_in(c, 0), *b = rlx__shape_in(c, 1);
    int64_t m = a->rank >= 2 ? a->shape[a->rank - 2] : 1;
    int64_t n = b->rank >= 2 ? b->shape[b->rank - 1] : 1;
    rlx_status st = check_zero_point(c, a, rlx__shape_in(c, 2), m, "row");
    if (st == RLX_OK)
        st = check_zero_point(c, b, rlx__shape_in(c, 3), n, "column");
    out->dtype = RLX_DTYPE_I32;
    return st;
}

rlx_status rlx__shape_conv_integer(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0), *w = rlx__shape_in(c, 1);
    rlx_status st = check_zero_point(c, x, rlx__shape_in(c, 2), -1, "");
    if (st == RLX_OK)
        st = check_zero_point(c, w, rlx__shape_in(c, 3),
                              w->rank ? w->shape[0] : 0, "output channel");
    if (st != RLX_OK)
        return st;
    /* conv's geometry and attribute checks, on x and w alone */
    rlx__shape_ctx conv = *c;
    conv.op = RLX_OP_CONV;
    conv.n_inputs = 2;
    st = rlx__shape_conv(&conv, out);
    out->dtype = RLX_DTYPE_I32;
    return st;
}
