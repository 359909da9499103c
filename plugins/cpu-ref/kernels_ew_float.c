/*
 * kernels_ew_float.c - one element of an ABI 1.4 elementwise op on floats,
 * in double: rounding, sign, reciprocal, erf, clip, mod, the activations
 * and the inverse trigonometric and hyperbolic functions. NaN passes through every op here that gives a number
 * (clip and hard_sigmoid included); at -inf, hard_swish and mish give
 * their limit 0 (docs/ops.md#edge-activations-at-infinity).
 */
#include <math.h>

#include "cpu_ref_internal.h"

/* log(1 + e^x) without overflow for large x. */
static double softplus(double x)
{
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

/* max(0, min(1, alpha x + beta)), keeping NaN. */
static double hard_sigmoid(double x, double alpha, double beta)
{
    double v = alpha * x + beta;
    return v < 0 ? 0.0 : v > 1 ? 1.0 : v;
}

static double clip(double x, double lo, double hi)
{
    if (x < lo)
        x = lo;
    if (x > hi)
        x = hi;
    return x;
}

double rlx__cpu_ref_float_op(rlx_op op, const rlx__cpu_ref_ew *p, double x,
                             double y)
{
    const double a = p->fattr[0], b = p->fattr[1];
    switch (op) {
    case RLX_OP_FLOOR: return floor(x);
    case RLX_OP_CEIL: return ceil(x);
    case RLX_OP_ROUND: return nearbyint(x); /* default mode: half to even */
    case RLX_OP_SIGN: /* +0 for both zeros (NumPy's); NaN stays */
        return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x;
    case RLX_OP_RECIPROCAL: return 1.0 / x;
    case RLX_OP_ERF: return erf(x);
    case RLX_OP_CLIP: return clip(x, a, b);
    case RLX_OP_LEAKY_RELU: return x < 0 ? a * x : x;
    case RLX_OP_ELU: return x < 0 ? a * expm1(x) : x;
    case RLX_OP_SELU: return x > 0 ? b * x : b * a * expm1(x);
    case RLX_OP_SOFTPLUS: return softplus(x);
    case RLX_OP_HARD_SIGMOID: return hard_sigmoid(x, a, b);
    case RLX_OP_HARD_SWISH: {
        double h = hard_sigmoid(x, 1.0 / 6.0, 0.5);
        return h == 0 ? 0.0 : x * h; /* -inf gives 0, not -inf * 0 */
    }
    case RLX_OP_MISH:
        /* mish(-inf) = 0, its limit, where the formula gives -inf * 0 */
        return isinf(x) && x < 0 ? 0.0 : x * tanh(softplus(x));
    case RLX_OP_PRELU: return x < 0 ? y * x : x;
    case RLX_OP_MOD: return fmod(x, y);
    /* libm's: NaN outside the domain, atanh(+-1) = +-inf */
    case RLX_OP_ASIN: return asin(x);
    case RLX_OP_ACOS: return acos(x);
    case RLX_OP_SINH: return sinh(x);
    case RLX_OP_COSH: return cosh(x);
    case RLX_OP_ASINH: return asinh(x);
    case RLX_OP_ACOSH: return acosh(x);
    case RLX_OP_ATANH: return atanh(x);
    /* the ABI 1.0 arithmetic, here for f64 (f32 and the 16-bit floats
     * run on kernels_binary.c and kernels_unary.c, with the same rules) */
    case RLX_OP_ADD: return x + y;
    case RLX_OP_SUB: return x - y;
    case RLX_OP_MUL: return x * y;
    case RLX_OP_DIV: return x / y;
    case RLX_OP_POW: return pow(x, y);
    case RLX_OP_MAX: /* NumPy's maximum: a NaN on either side wins */
        return isnan(x) || isnan(y) ? x + y : (x > y ? x : y);
    case RLX_OP_MIN: return isnan(x) || isnan(y) ? x + y : (x < y ? x : y);
    default:
        if (op >= RLX_OP_RELU && op <= RLX_OP_ATAN)
            return rlx__cpu_ref_unary_apply(op, p->iattr[0], x);
        return NAN; /* compile admits no other op here */
    }
}
