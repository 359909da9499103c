/*
 * kernels_unary.c - elementwise one-input ops. Each is evaluated in
 * double and rounded once, so results are as close to exact as libm
 * allows.
 */
#include <math.h>

#include "cpu_ref_internal.h"

/* 1 / (1 + e^-x) without overflow for large |x|. */
static double sigmoid(double x)
{
    if (x >= 0)
        return 1.0 / (1.0 + exp(-x));
    double e = exp(x);
    return e / (1.0 + e);
}

static double gelu_erf(double x)
{
    /* 0.5 x (1 + erf(x / sqrt 2)) == 0.5 x erfc(-x / sqrt 2); the erfc
     * form keeps its precision for large negative x. */
    return 0.5 * x * erfc(-x * 0.70710678118654752440);
}

static double gelu_tanh(double x)
{
    const double c = 0.79788456080286535588; /* sqrt(2 / pi) */
    return 0.5 * x * (1.0 + tanh(c * (x + 0.044715 * x * x * x)));
}

double rlx__cpu_ref_unary_apply(rlx_op op, int64_t approx, double x)
{
    switch (op) {
    case RLX_OP_RELU: return x > 0 || isnan(x) ? x : 0.0;
    case RLX_OP_GELU:
        /* gelu(-inf) = 0 and gelu(+inf) = +inf in both forms, where the
         * formulas give -inf * 0 (docs/ops.md#edge-gelu-at-infinity) */
        if (isinf(x))
            return x > 0 ? x : 0.0;
        return approx == RLX_GELU_TANH ? gelu_tanh(x) : gelu_erf(x);
    case RLX_OP_SIGMOID: return sigmoid(x);
    case RLX_OP_TANH: return tanh(x);
    case RLX_OP_EXP: return exp(x);
    case RLX_OP_SIN: return sin(x);
    case RLX_OP_COS: return cos(x);
    case RLX_OP_NEG: return -x;
    case RLX_OP_ABS: return fabs(x);
    case RLX_OP_LOG: return log(x);
    case RLX_OP_SQRT: return sqrt(x);
    case RLX_OP_RSQRT: return 1.0 / sqrt(x);
    case RLX_OP_SILU: return x * sigmoid(x);
    case RLX_OP_TAN: return tan(x);
    case RLX_OP_ATAN: return atan(x);
    default: return NAN; /* compile admits no other op here */
    }
}

void rlx__cpu_ref_unary(rlx_op op, int64_t approx, const float *x, float *y,
                        size_t count)
{
    for (size_t i = 0; i < count; i++)
        y[i] = rlx__cpu_ref_to_f32(
            rlx__cpu_ref_unary_apply(op, approx, (double)x[i]));
}
