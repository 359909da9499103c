/*
 * pjrt_emit_elementwise.c - binary ops (NumPy broadcasting through
 * broadcast_in_dim) and unary ops, computed in f32 for f16/bf16.
 * Since ABI 1.4 the arithmetic also takes the integer dtypes, which
 * wrap as StableHLO's do; integer division by 0 gives 0, integer pow
 * is square and multiply.
 * Composite activations (gelu, silu) are spelled out from primitives;
 * erf and tan come from CHLO, which every StableHLO consumer accepts.
 */
#include <math.h>

#include "pjrt_emit.h"

/* Integer pow as cpu-ref has it: square and multiply over every bit of
 * the exponent (unrolled, wrapping); a negative exponent gives 1 for a
 * base of 1, +-1 for -1 and 0 otherwise. */
static uint32_t int_pow(rlxp_emit *e, uint32_t x, uint32_t y)
{
    rlx_dtype dt = rlxp_type_of(e, x)->dt;
    int bits = (int)rlx_dtype_size(dt) * 8;
    uint32_t one = rlxp_splat_like(e, x, 1.0);
    uint32_t zero = rlxp_splat_like(e, x, 0.0);
    uint32_t r = one, b = x;
    for (int i = 0; i < bits && r != RLXP_NONE; i++) {
        uint32_t yi = i ? rlxp_bin(e, "stablehlo.shift_right_logical", y,
                                   rlxp_splat_like(e, y, i))
                        : y;
        uint32_t bit = rlxp_compare(e, rlxp_bin(e, "stablehlo.and", yi, one),
                                    zero, "NE");
        r = rlxp_select(e, bit, rlxp_bin(e, "stablehlo.multiply", r, b), r);
        if (i + 1 < bits)
            b = rlxp_bin(e, "stablehlo.multiply", b, b);
    }
    if (rlxp_dt_unsigned(dt))
        return r;
    uint32_t m1 = rlxp_splat_like(e, x, -1.0);
    uint32_t odd = rlxp_compare(e, rlxp_bin(e, "stablehlo.and", y, one),
                                zero, "NE");
    uint32_t neg = rlxp_select(
        e, rlxp_compare(e, x, one, "EQ"), one,
        rlxp_select(e, rlxp_compare(e, x, m1, "EQ"),
                    rlxp_select(e, odd, m1, one), zero));
    return rlxp_select(e, rlxp_compare(e, y, zero, "LT"), neg, r);
}

static uint32_t binary(rlxp_emit *e, const rlx_node_view *n)
{
    rlxp_val out = rlxp_val_of_node(n);
    out.dt = RLX_DTYPE_F32;
    if (n->dtype == RLX_DTYPE_F32 || n->dtype == RLX_DTYPE_F16 ||
        n->dtype == RLX_DTYPE_BF16)
        out.dt = RLX_DTYPE_F32;
    uint32_t a = rlxp_broadcast_to(e, rlxp_in_f32(e, n, 0), &out);
    uint32_t b = rlxp_broadcast_to(e, rlxp_in_f32(e, n, 1), &out);
    const char *name;
    switch (n->op) {
    case RLX_OP_ADD: name = "stablehlo.add"; break;
    case RLX_OP_SUB: name = "stablehlo.subtract"; break;
    case RLX_OP_MUL: name = "stablehlo.multiply"; break;
    case RLX_OP_DIV: name = "stablehlo.divide"; break;
    case RLX_OP_MAX: name = "stablehlo.maximum"; break; /* NaN wins */
    case RLX_OP_MIN: name = "stablehlo.minimum"; break;
    default: name = "stablehlo.power"; break;
    }
    rlx_dtype dt = rlxp_type_of(e, a)->dt;
    int fl = dt == RLX_DTYPE_F32 || dt == RLX_DTYPE_F64;
    if (n->op == RLX_OP_POW && !fl)
        return int_pow(e, a, b);
    if (n->op == RLX_OP_DIV && dt != RLX_DTYPE_F32 && dt != RLX_DTYPE_F64) {
        /* integers (since 1.4): x / 0 is 0, by a divisor of 1 that no
         * backend traps on and a select */
        uint32_t zero = rlxp_splat_like(e, b, 0.0);
        uint32_t bz = rlxp_compare(e, b, zero, "EQ");
        uint32_t q = rlxp_bin(e, name, a, rlxp_select(e, bz,
                                                      rlxp_splat_like(e, b,
                                                                      1.0),
                                                      b));
        return rlxp_select(e, bz, zero, q);
    }
    return rlxp_out(e, n, rlxp_bin(e, name, a, b));
}

static uint32_t gelu(rlxp_emit *e, uint32_t x, int tanh_form)
{
    uint32_t half = rlxp_splat_like(e, x, 0.5);
    uint32_t one = rlxp_splat_like(e, x, 1.0);
    uint32_t inner;
    if (tanh_form) {
        /* 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) */
        uint32_t x3 = rlxp_bin(e, "stablehlo.multiply", x,
                               rlxp_bin(e, "stablehlo.multiply", x, x));
        uint32_t t = rlxp_bin(e, "stablehlo.add", x,
                              rlxp_bin(e, "stablehlo.multiply",
                                       rlxp_splat_like(e, x, 0.044715), x3));
        t = rlxp_bin(e, "stablehlo.multiply",
                     rlxp_splat_like(e, x, 0.79788456080286535588), t);
        inner = rlxp_un(e, "stablehlo.tanh", t);
    } else {
        /* 0.5 x (1 + erf(x / sqrt(2))) */
        uint32_t t = rlxp_bin(e, "stablehlo.multiply", x,
                              rlxp_splat_like(e, x, M_SQRT1_2));
        inner = rlxp_un(e, "chlo.erf", t);
    }
    uint32_t y = rlxp_bin(e, "stablehlo.add", one, inner);
    y = rlxp_bin(e, "stablehlo.multiply",
                 rlxp_bin(e, "stablehlo.multiply", half, x), y);
    /* gelu(-inf) is 0, not -inf * 0 = NaN (docs/ops.md) */
    uint32_t neg_inf = rlxp_compare(e, x, rlxp_splat_like(e, x, -INFINITY),
                                    "EQ");
    return rlxp_select(e, neg_inf, rlxp_splat_like(e, y, 0.0), y);
}

static uint32_t unary(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    uint32_t y;
    switch (n->op) {
    case RLX_OP_RELU:
        /* maximum propagates NaN, as relu does in rlx */
        y = rlxp_bin(e, "stablehlo.maximum", x, rlxp_splat_like(e, x, 0.0));
        break;
    case RLX_OP_GELU:
        y = gelu(e, x, n->n_int_attrs > RLX_ATTR_GELU_APPROX &&
                       n->int_attrs[RLX_ATTR_GELU_APPROX] == RLX_GELU_TANH);
        break;
    case RLX_OP_SIGMOID: y = rlxp_un(e, "stablehlo.logistic", x); break;
    case RLX_OP_TANH: y = rlxp_un(e, "stablehlo.tanh", x); break;
    case RLX_OP_EXP: y = rlxp_un(e, "stablehlo.exponential", x); break;
    case RLX_OP_SIN: y = rlxp_un(e, "stablehlo.sine", x); break;
    case RLX_OP_COS: y = rlxp_un(e, "stablehlo.cosine", x); break;
    case RLX_OP_NEG: y = rlxp_un(e, "stablehlo.negate", x); break;
    case RLX_OP_ABS: /* |x| of an unsigned type is x */
        y = rlxp_dt_unsigned(rlxp_type_of(e, x)->dt)
                ? x : rlxp_un(e, "stablehlo.abs", x);
        break;
    case RLX_OP_LOG: y = rlxp_un(e, "stablehlo.log", x); break;
    case RLX_OP_SQRT: y = rlxp_un(e, "stablehlo.sqrt", x); break;
    case RLX_OP_RSQRT: y = rlxp_un(e, "stablehlo.rsqrt", x); break;
    case RLX_OP_SILU:
        y = rlxp_bin(e, "stablehlo.multiply", x,
                     rlxp_un(e, "stablehlo.logistic", x));
        break;
    case RLX_OP_TAN: y = rlxp_un(e, "chlo.tan", x); break;
    case RLX_OP_ATAN:
        y = rlxp_bin(e, "stablehlo.atan2", x, rlxp_splat_like(e, x, 1.0));
        break;
    default:
        rlxp_fail(e, RLX_ERR_UNSUPPORTED, "pjrt: node '%s': op %d has no "
                  "lowering. Fix: run it on another backend", n->name,
                  (int)n->op);
        return RLXP_NONE;
    }
    return rlxp_out(e, n, y);
}

uint32_t rlxp_emit_elementwise(rlxp_emit *e, const rlx_node_view *n)
{
    if (n->n_inputs == 2)
        return binary(e, n);
    return unary(e, n);
}
