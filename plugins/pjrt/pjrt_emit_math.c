/*
 * pjrt_emit_math.c - the ABI 1.4 elementwise math: clip, rounding,
 * sign, reciprocal, erf, isnan/isinf, the activations, prelu, mod and
 * the inverse trigonometric and hyperbolic functions. Floats compute in
 * f32 (f16 and bf16 round once at the end), f64 in f64. StableHLO only,
 * no CHLO, so any PJRT plugin takes the text: erf is a polynomial (but
 * for f64, where its 1.5e-7 would not do: chlo.erf, as gelu uses), the
 * inverse and hyperbolic functions are composed from exp, log1p, sqrt
 * and atan2.
 * The limits rlx fixes (hard_swish and mish at -inf, NaN through clip)
 * are patched with selects.
 */
#include <math.h>

#include "pjrt_emit.h"

static int is_float(rlx_dtype dt)
{
    return dt == RLX_DTYPE_F32 || dt == RLX_DTYPE_F16 ||
           dt == RLX_DTYPE_BF16 || dt == RLX_DTYPE_F64;
}

static double fattr(const rlx_node_view *n, uint32_t i, double dflt)
{
    return n->n_float_attrs > i ? n->float_attrs[i] : dflt;
}

/* Shorthands over one value's type. */
static uint32_t k(rlxp_emit *e, uint32_t like, double v)
{
    return rlxp_splat_like(e, like, v);
}
static uint32_t add(rlxp_emit *e, uint32_t a, uint32_t b)
{
    return rlxp_bin(e, "stablehlo.add", a, b);
}
static uint32_t mul(rlxp_emit *e, uint32_t a, uint32_t b)
{
    return rlxp_bin(e, "stablehlo.multiply", a, b);
}
static uint32_t sub(rlxp_emit *e, uint32_t a, uint32_t b)
{
    return rlxp_bin(e, "stablehlo.subtract", a, b);
}
static uint32_t dv(rlxp_emit *e, uint32_t a, uint32_t b)
{
    return rlxp_bin(e, "stablehlo.divide", a, b);
}

/* erf: odd Taylor series below 0.5 (where 1 - poly*exp would cancel),
 * Abramowitz and Stegun 7.1.26 above (absolute error under 1.5e-7),
 * sign restored; NaN stays NaN, +-inf gives +-1. */
static uint32_t erf_poly(rlxp_emit *e, uint32_t x)
{
    uint32_t a = rlxp_un(e, "stablehlo.abs", x);
    uint32_t x2 = mul(e, x, x);
    /* x (2/sqrt(pi)) (1 - x^2/3 + x^4/10 - x^6/42 + x^8/216 - x^10/1320) */
    static const double taylor[6] = { 1.0, -1.0 / 3, 1.0 / 10, -1.0 / 42,
                                      1.0 / 216, -1.0 / 1320 };
    uint32_t p = k(e, x, taylor[5]);
    for (int i = 4; i >= 0; i--)
        p = add(e, mul(e, p, x2), k(e, x, taylor[i]));
    uint32_t small = mul(e, mul(e, p, x), k(e, x, 1.1283791670955126));
    static const double as[5] = { 0.254829592, -0.284496736, 1.421413741,
                                  -1.453152027, 1.061405429 };
    uint32_t t = dv(e, k(e, x, 1.0),
                    add(e, k(e, x, 1.0), mul(e, a, k(e, x, 0.3275911))));
    uint32_t q = k(e, x, as[4]);
    for (int i = 3; i >= 0; i--)
        q = add(e, mul(e, q, t), k(e, x, as[i]));
    q = mul(e, q, t);
    uint32_t ex = rlxp_un(e, "stablehlo.exponential",
                          rlxp_un(e, "stablehlo.negate", x2));
    uint32_t big = sub(e, k(e, x, 1.0), mul(e, q, ex));
    /* |x| >= 6: exactly 1 (t and exp underflow cleanly, but say it) */
    big = rlxp_select(e, rlxp_compare(e, a, k(e, x, 6.0), "GE"),
                      k(e, x, 1.0), big);
    /* copysign through the input's sign; NaN passes through the compare
     * as false and through the series as NaN */
    uint32_t neg = rlxp_compare(e, x, k(e, x, 0.0), "LT");
    big = rlxp_select(e, neg, rlxp_un(e, "stablehlo.negate", big), big);
    uint32_t is_small = rlxp_compare(e, a, k(e, x, 0.5), "LT");
    uint32_t y = rlxp_select(e, is_small, small, big);
    return rlxp_select(e, rlxp_compare(e, x, x, "NE"), x, y);
}

/* log(1 + e^x) without overflow: max(x, 0) + log1p(exp(-|x|)). */
static uint32_t softplus(rlxp_emit *e, uint32_t x)
{
    uint32_t m = rlxp_bin(e, "stablehlo.maximum", x, k(e, x, 0.0));
    uint32_t t = rlxp_un(e, "stablehlo.exponential",
                         rlxp_un(e, "stablehlo.negate",
                                 rlxp_un(e, "stablehlo.abs", x)));
    return add(e, m, rlxp_un(e, "stablehlo.log_plus_one", t));
}

/* max(0, min(1, alpha x + beta)), keeping NaN (maximum and minimum
 * propagate it). */
static uint32_t hard_sigmoid(rlxp_emit *e, uint32_t x, double alpha,
                             double beta)
{
    uint32_t v = add(e, mul(e, x, k(e, x, alpha)), k(e, x, beta));
    v = rlxp_bin(e, "stablehlo.minimum", v, k(e, x, 1.0));
    return rlxp_bin(e, "stablehlo.maximum", v, k(e, x, 0.0));
}

/* Y where X is -inf, else 0: the limit where the formula has -inf * 0. */
static uint32_t zero_at_neg_inf(rlxp_emit *e, uint32_t x, uint32_t y)
{
    uint32_t ni = rlxp_compare(e, x, k(e, x, -INFINITY), "EQ");
    return rlxp_select(e, ni, k(e, y, 0.0), y);
}

static uint32_t inverse(rlxp_emit *e, rlx_op op, uint32_t x)
{
    uint32_t one = k(e, x, 1.0);
    switch (op) {
    case RLX_OP_ASIN: case RLX_OP_ACOS: {
        /* sqrt(1 - x^2) is NaN outside [-1, 1], and so is atan2 then */
        uint32_t c = rlxp_un(e, "stablehlo.sqrt",
                             mul(e, sub(e, one, x), add(e, one, x)));
        return op == RLX_OP_ASIN ? rlxp_bin(e, "stablehlo.atan2", x, c)
                                 : rlxp_bin(e, "stablehlo.atan2", c, x);
    }
    case RLX_OP_SINH: {
        uint32_t a = rlxp_un(e, "stablehlo.exponential_minus_one", x);
        uint32_t b = rlxp_un(e, "stablehlo.exponential_minus_one",
                             rlxp_un(e, "stablehlo.negate", x));
        return mul(e, sub(e, a, b), k(e, x, 0.5));
    }
    case RLX_OP_COSH: {
        uint32_t a = rlxp_un(e, "stablehlo.exponential", x);
        uint32_t b = rlxp_un(e, "stablehlo.exponential",
                             rlxp_un(e, "stablehlo.negate", x));
        return mul(e, add(e, a, b), k(e, x, 0.5));
    }
    case RLX_OP_ASINH: {
        /* sign(x) log1p(a + a^2 / (1 + sqrt(a^2 + 1))), a = |x| */
        uint32_t a = rlxp_un(e, "stablehlo.abs", x);
        uint32_t a2 = mul(e, a, a);
        uint32_t r = rlxp_un(e, "stablehlo.sqrt", add(e, a2, one));
        uint32_t v = rlxp_un(e, "stablehlo.log_plus_one",
                             add(e, a, dv(e, a2, add(e, one, r))));
        /* large |x|: a^2 overflows; log(2a) = log(a) + log(2) there */
        uint32_t huge = rlxp_compare(e, a, k(e, x, 1e18), "GT");
        v = rlxp_select(e, huge, add(e, rlxp_un(e, "stablehlo.log", a),
                                     k(e, x, M_LN2)), v);
        uint32_t neg = rlxp_compare(e, x, k(e, x, 0.0), "LT");
        return rlxp_select(e, neg, rlxp_un(e, "stablehlo.negate", v), v);
    }
    case RLX_OP_ACOSH: {
        /* log(x + sqrt((x - 1)(x + 1))), NaN below 1 */
        uint32_t s = rlxp_un(e, "stablehlo.sqrt",
                             mul(e, sub(e, x, one), add(e, x, one)));
        uint32_t v = rlxp_un(e, "stablehlo.log", add(e, x, s));
        uint32_t huge = rlxp_compare(e, x, k(e, x, 1e18), "GT");
        return rlxp_select(e, huge, add(e, rlxp_un(e, "stablehlo.log", x),
                                        k(e, x, M_LN2)), v);
    }
    default: /* atanh: 0.5 log1p(2x / (1 - x)); +-1 give +-inf */
        return mul(e, rlxp_un(e, "stablehlo.log_plus_one",
                              dv(e, add(e, x, x), sub(e, one, x))),
                   k(e, x, 0.5));
    }
}

/* clip on integers: bounds rounded inward, saturated by the literal. */
static uint32_t clip_int(rlxp_emit *e, const rlx_node_view *n, uint32_t x)
{
    double lo = ceil(fattr(n, RLX_ATTR_CLIP_MIN, -INFINITY));
    double hi = floor(fattr(n, RLX_ATTR_CLIP_MAX, INFINITY));
    x = rlxp_bin(e, "stablehlo.maximum", x, k(e, x, lo));
    return rlxp_bin(e, "stablehlo.minimum", x, k(e, x, hi));
}

/* mod: fmod 1 is stablehlo.remainder (C's %, fmod); fmod 0 (integers)
 * moves a remainder whose sign differs from the divisor's by one
 * divisor. An integer remainder by 0 is 0. */
static uint32_t mod(rlxp_emit *e, const rlx_node_view *n, uint32_t a,
                    uint32_t b)
{
    int fmod1 = n->n_int_attrs > RLX_ATTR_MOD_FMOD &&
                n->int_attrs[RLX_ATTR_MOD_FMOD] != 0;
    if (is_float(rlxp_type_of(e, a)->dt))
        return rlxp_bin(e, "stablehlo.remainder", a, b);
    uint32_t zero = k(e, b, 0.0);
    uint32_t bz = rlxp_compare(e, b, zero, "EQ");
    /* a divisor of 0 replaced by 1 so no backend traps; the result is
     * set to 0 below */
    uint32_t safe = rlxp_select(e, bz, k(e, b, 1.0), b);
    uint32_t r = rlxp_bin(e, "stablehlo.remainder", a, safe);
    if (!fmod1) {
        uint32_t rneg = rlxp_compare(e, r, zero, "LT");
        uint32_t bneg = rlxp_compare(e, safe, zero, "LT");
        uint32_t differ = rlxp_bin(e, "stablehlo.xor", rneg, bneg);
        uint32_t fix = rlxp_bin(e, "stablehlo.and", differ,
                                rlxp_compare(e, r, zero, "NE"));
        r = rlxp_select(e, fix, add(e, r, safe), r);
    }
    return rlxp_select(e, bz, zero, r);
}

uint32_t rlxp_emit_math(rlxp_emit *e, const rlx_node_view *n)
{
    rlx_dtype in_dt = rlxp_type_of(e, e->node_val[n->inputs[0]])->dt;
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    if (n->op == RLX_OP_ISNAN || n->op == RLX_OP_ISINF) {
        if (n->op == RLX_OP_ISNAN)
            return rlxp_compare(e, x, x, "NE");
        int pos = n->n_int_attrs <= RLX_ATTR_ISINF_DETECT_POSITIVE ||
                  n->int_attrs[RLX_ATTR_ISINF_DETECT_POSITIVE] != 0;
        int neg = n->n_int_attrs <= RLX_ATTR_ISINF_DETECT_NEGATIVE ||
                  n->int_attrs[RLX_ATTR_ISINF_DETECT_NEGATIVE] != 0;
        if (!pos && !neg) /* detects nothing: x != x && x == x */
            return rlxp_bin(e, "stablehlo.and", rlxp_compare(e, x, x, "NE"),
                            rlxp_compare(e, x, x, "EQ"));
        uint32_t p = pos ? rlxp_compare(e, x, k(e, x, INFINITY), "EQ")
                         : RLXP_NONE;
        uint32_t m = neg ? rlxp_compare(e, x, k(e, x, -INFINITY), "EQ")
                         : RLXP_NONE;
        if (!neg)
            return p;
        if (!pos)
            return m;
        return rlxp_bin(e, "stablehlo.or", p, m);
    }
    if (n->op == RLX_OP_PRELU || n->op == RLX_OP_MOD) {
        rlxp_val to = rlxp_val_of_node(n);
        to.dt = rlxp_type_of(e, x)->dt;
        x = rlxp_broadcast_to(e, x, &to);
        uint32_t y = rlxp_broadcast_to(e, rlxp_in_f32(e, n, 1), &to);
        if (n->op == RLX_OP_MOD)
            return rlxp_out(e, n, mod(e, n, x, y));
        uint32_t neg = rlxp_compare(e, x, k(e, x, 0.0), "LT");
        return rlxp_out(e, n, rlxp_select(e, neg, mul(e, y, x), x));
    }
    if (!is_float(in_dt)) {
        if (n->op == RLX_OP_CLIP)
            return clip_int(e, n, x);
        /* sign: -1, 0, 1 by two compares, for unsigned types too */
        uint32_t z = k(e, x, 0.0);
        uint32_t pos = rlxp_convert(e, rlxp_compare(e, x, z, "GT"), in_dt);
        uint32_t neg = rlxp_convert(e, rlxp_compare(e, x, z, "LT"), in_dt);
        return sub(e, pos, neg);
    }
    uint32_t y;
    switch (n->op) {
    case RLX_OP_CLIP:
        y = rlxp_bin(e, "stablehlo.maximum", x,
                     k(e, x, fattr(n, RLX_ATTR_CLIP_MIN, -INFINITY)));
        y = rlxp_bin(e, "stablehlo.minimum", y,
                     k(e, x, fattr(n, RLX_ATTR_CLIP_MAX, INFINITY)));
        break;
    case RLX_OP_FLOOR: y = rlxp_un(e, "stablehlo.floor", x); break;
    case RLX_OP_CEIL: y = rlxp_un(e, "stablehlo.ceil", x); break;
    case RLX_OP_ROUND:
        y = rlxp_un(e, "stablehlo.round_nearest_even", x);
        break;
    case RLX_OP_SIGN: {
        /* +0 for both zeros, NaN stays */
        uint32_t z = k(e, x, 0.0);
        y = rlxp_select(e, rlxp_compare(e, x, z, "GT"), k(e, x, 1.0),
                        rlxp_select(e, rlxp_compare(e, x, z, "LT"),
                                    k(e, x, -1.0),
                                    rlxp_select(e, rlxp_compare(e, x, z,
                                                                "EQ"),
                                                z, x)));
        break;
    }
    case RLX_OP_RECIPROCAL: y = dv(e, k(e, x, 1.0), x); break;
    case RLX_OP_ERF: /* f64 wants more than the polynomial's 1.5e-7 */
        y = rlxp_type_of(e, x)->dt == RLX_DTYPE_F64 ? rlxp_un(e, "chlo.erf", x)
                                                   : erf_poly(e, x);
        break;
    case RLX_OP_LEAKY_RELU:
        y = rlxp_select(e, rlxp_compare(e, x, k(e, x, 0.0), "LT"),
                        mul(e, x, k(e, x, fattr(n, RLX_ATTR_LEAKY_RELU_ALPHA,
                                                RLX_LEAKY_RELU_ALPHA_DEFAULT))),
                        x);
        break;
    case RLX_OP_ELU:
        y = rlxp_select(e, rlxp_compare(e, x, k(e, x, 0.0), "LT"),
                        mul(e, rlxp_un(e, "stablehlo.exponential_minus_one",
                                       x),
                            k(e, x, fattr(n, RLX_ATTR_ELU_ALPHA,
                                          RLX_ELU_ALPHA_DEFAULT))),
                        x);
        break;
    case RLX_OP_SELU: {
        double a = fattr(n, RLX_ATTR_SELU_ALPHA, RLX_SELU_ALPHA_DEFAULT);
        double g = fattr(n, RLX_ATTR_SELU_GAMMA, RLX_SELU_GAMMA_DEFAULT);
        y = rlxp_select(e, rlxp_compare(e, x, k(e, x, 0.0), "GT"),
                        mul(e, x, k(e, x, g)),
                        mul(e, rlxp_un(e, "stablehlo.exponential_minus_one",
                                       x),
                            k(e, x, g * a)));
        break;
    }
    case RLX_OP_SOFTPLUS: y = softplus(e, x); break;
    case RLX_OP_HARD_SIGMOID:
        y = hard_sigmoid(e, x,
                         fattr(n, RLX_ATTR_HARD_SIGMOID_ALPHA,
                               RLX_HARD_SIGMOID_ALPHA_DEFAULT),
                         fattr(n, RLX_ATTR_HARD_SIGMOID_BETA,
                               RLX_HARD_SIGMOID_BETA_DEFAULT));
        break;
    case RLX_OP_HARD_SWISH: {
        uint32_t h = hard_sigmoid(e, x, 1.0 / 6.0, 0.5);
        /* +0 where the gate is 0 (-inf included, not -inf * 0) */
        y = rlxp_select(e, rlxp_compare(e, h, k(e, h, 0.0), "EQ"),
                        k(e, x, 0.0), mul(e, x, h));
        break;
    }
    case RLX_OP_MISH:
        y = zero_at_neg_inf(e, x, mul(e, x, rlxp_un(e, "stablehlo.tanh",
                                                    softplus(e, x))));
        break;
    default:
        y = inverse(e, n->op, x);
        break;
    }
    return rlxp_out(e, n, y);
}
