/*
 * test-ops-unary.c - the unary ops of the reference CPU backend (relu,
 * gelu in both forms, sigmoid, tanh, exp, sin, cos, neg, abs, log, sqrt,
 * rsqrt, silu, tan, atan), through the public API, against libm in
 * double on values that reach overflow, underflow and the domain edges.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

static double ref_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double ref_unary(rlx_op op, int approx, double x)
{
    const double pi = 3.14159265358979323846;
    switch (op) {
    case RLX_OP_RELU: return x > 0 ? x : 0;
    case RLX_OP_GELU:
        if (approx)
            return 0.5 * x *
                   (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x * x * x)));
        return 0.5 * x * (1 + erf(x / sqrt(2.0)));
    case RLX_OP_SIGMOID: return ref_sigmoid(x);
    case RLX_OP_TANH: return tanh(x);
    case RLX_OP_EXP: return exp(x);
    case RLX_OP_SIN: return sin(x);
    case RLX_OP_COS: return cos(x);
    case RLX_OP_NEG: return -x;
    case RLX_OP_ABS: return x < 0 ? -x : x;
    case RLX_OP_LOG: return log(x);
    case RLX_OP_SQRT: return sqrt(x);
    case RLX_OP_RSQRT: return 1 / sqrt(x);
    case RLX_OP_SILU: return x * ref_sigmoid(x);
    case RLX_OP_TAN: return tan(x);
    case RLX_OP_ATAN: return atan(x);
    default: return NAN;
    }
}

static const float spread[] = { -100.0f, -20.0f, -3.5f, -1.0f, -0.5f,
                                -1e-3f,  0.0f,   1e-3f, 0.5f,  1.0f,
                                2.0f,    3.5f,   20.0f, 100.0f };
static const float positive[] = { 1e-30f, 1e-3f, 0.25f, 0.5f, 1.0f,
                                  2.0f,   3.5f,  20.0f, 100.0f, 1e30f };

/* Run unary OP on the values X (as a [2, n/2] tensor when n is even, to
 * use a rank above 1) and compare with ref_unary. */
static void check_unary_values(rlx_op op, int approx, const rlx_attrs *attrs,
                               const float *x, size_t n)
{
    int64_t dims[2] = { 2, (int64_t)(n / 2) };
    tensor in = n % 2 == 0 ? make(2, dims, x)
                           : make(1, (int64_t[]){ (int64_t)n }, x);
    tensor out;
    const float *y = run_op(op, 1, &in, attrs, &out);
    ASSERT_EQ(out.rank, in.rank);
    for (uint32_t i = 0; i < in.rank; i++)
        ASSERT_EQ(out.dims[i], in.dims[i]);
    double expect[64];
    ASSERT(n <= 64);
    for (size_t i = 0; i < n; i++)
        expect[i] = ref_unary(op, approx, (double)x[i]);
    check_values(rlx_op_name(op), y, expect, n, REL_TOL, 0);
}

static void check_unary(rlx_op op)
{
    check_unary_values(op, 0, NULL, spread, N_OF(spread));
}

TEST(relu) { check_unary(RLX_OP_RELU); }
TEST(sigmoid) { check_unary(RLX_OP_SIGMOID); }
TEST(tanh) { check_unary(RLX_OP_TANH); }
TEST(neg) { check_unary(RLX_OP_NEG); }
TEST(abs) { check_unary(RLX_OP_ABS); }
TEST(silu) { check_unary(RLX_OP_SILU); }
TEST(atan) { check_unary(RLX_OP_ATAN); }

TEST(exp)
{
    /* exp(100) overflows f32 to +inf; exp(-100) is an f32 subnormal. */
    static const float x[] = { -100.0f, -87.0f, -3.5f, -1.0f, 0.0f,
                               1e-3f,   1.0f,   20.0f, 88.0f, 100.0f };
    check_unary_values(RLX_OP_EXP, 0, NULL, x, N_OF(x));
    check_unary(RLX_OP_EXP);
}

TEST(sin_cos)
{
    static const float x[] = { -1e4f, -100.0f, -3.14159f, -1.0f, 0.0f,
                               0.5f,  1.5707964f, 3.0f, 100.0f, 1e4f };
    check_unary_values(RLX_OP_SIN, 0, NULL, x, N_OF(x));
    check_unary_values(RLX_OP_COS, 0, NULL, x, N_OF(x));
}

TEST(tan)
{
    static const float x[] = { -1.5f, -1.0f, -0.5f, 0.0f, 0.25f,
                               0.5f,  1.0f,  1.5f,  3.0f, 100.0f };
    check_unary_values(RLX_OP_TAN, 0, NULL, x, N_OF(x));
}

TEST(log)
{
    check_unary_values(RLX_OP_LOG, 0, NULL, positive, N_OF(positive));
    static const float zero[] = { 0.0f }; /* -inf */
    check_unary_values(RLX_OP_LOG, 0, NULL, zero, 1);
}

TEST(sqrt)
{
    check_unary_values(RLX_OP_SQRT, 0, NULL, positive, N_OF(positive));
    static const float zero[] = { 0.0f };
    check_unary_values(RLX_OP_SQRT, 0, NULL, zero, 1);
}

TEST(rsqrt)
{
    check_unary_values(RLX_OP_RSQRT, 0, NULL, positive, N_OF(positive));
}

TEST(gelu_erf)
{
    int64_t form = RLX_GELU_ERF;
    rlx_attrs attrs = { 1, &form, 0, NULL };
    check_unary_values(RLX_OP_GELU, 0, &attrs, spread, N_OF(spread));
    /* No attributes: erf is the default. */
    check_unary_values(RLX_OP_GELU, 0, NULL, spread, N_OF(spread));
    static const float mid[] = { -5.0f, -2.0f, -0.7f, 0.3f, 1.7f, 4.0f };
    check_unary_values(RLX_OP_GELU, 0, NULL, mid, N_OF(mid));
}

TEST(gelu_tanh)
{
    int64_t form = RLX_GELU_TANH;
    rlx_attrs attrs = { 1, &form, 0, NULL };
    check_unary_values(RLX_OP_GELU, 1, &attrs, spread, N_OF(spread));
    static const float mid[] = { -5.0f, -2.0f, -0.7f, 0.3f, 1.7f, 4.0f };
    check_unary_values(RLX_OP_GELU, 1, &attrs, mid, N_OF(mid));
}

RLX_TEST_LIST(TEST_ENTRY(relu), TEST_ENTRY(gelu_erf), TEST_ENTRY(gelu_tanh),
              TEST_ENTRY(sigmoid), TEST_ENTRY(tanh), TEST_ENTRY(exp),
              TEST_ENTRY(sin_cos), TEST_ENTRY(neg), TEST_ENTRY(abs),
              TEST_ENTRY(log), TEST_ENTRY(sqrt), TEST_ENTRY(rsqrt),
              TEST_ENTRY(silu), TEST_ENTRY(tan), TEST_ENTRY(atan))
