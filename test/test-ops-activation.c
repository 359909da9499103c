/*
 * test-ops-activation.c - the float elementwise ops of ABI 1.4 on the
 * reference CPU backend: floor, ceil, round (ties to even), sign,
 * reciprocal, erf, clip, leaky_relu, elu, selu, softplus, hard_sigmoid,
 * hard_swish, mish and prelu. Hand-worked values for ties, signed zero,
 * NaN and infinities; the rest against formulas written here in double
 * (not the kernel's), with defaults and explicit attributes.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* Run a one-input f32 op over X (N) and return the output. */
static const float *run1(rlx_op op, size_t n, const float *x,
                         const rlx_attrs *at)
{
    source in = f32in(1, DIMS((int64_t)n), x);
    const result *y = run_any(op, 1, &in, at);
    ASSERT_EQ(y->dtype, RLX_DTYPE_F32);
    ASSERT_EQ(y->nbytes, n * sizeof(float));
    return y->data;
}

/* Same bits, or both NaN. */
static void check_exact(const char *what, const float *got,
                        const float *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (isnan(want[i]) ? isnan(got[i])
                           : memcmp(&got[i], &want[i], sizeof(float)) == 0)
            continue;
        FAIL("%s element %zu: got %.9g, want %.9g", what, i, got[i],
             want[i]);
    }
}

TEST(rounding_ties_and_signed_zero)
{
    static const float x[10] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f,
                                 2.4f, -0.0f, NAN, -INFINITY };
    static const float rnd[10] = { 0.0f, 2.0f, 2.0f, -0.0f, -2.0f, -2.0f,
                                   2.0f, -0.0f, NAN, -INFINITY };
    static const float flo[10] = { 0.0f, 1.0f, 2.0f, -1.0f, -2.0f, -3.0f,
                                   2.0f, -0.0f, NAN, -INFINITY };
    static const float cei[10] = { 1.0f, 2.0f, 3.0f, -0.0f, -1.0f, -2.0f,
                                   3.0f, -0.0f, NAN, -INFINITY };
    static const float sgn[10] = { 1, 1, 1, -1, -1, -1, 1, 0.0f, NAN, -1 };
    check_exact("round", run1(RLX_OP_ROUND, 10, x, NULL), rnd, 10);
    check_exact("floor", run1(RLX_OP_FLOOR, 10, x, NULL), flo, 10);
    check_exact("ceil", run1(RLX_OP_CEIL, 10, x, NULL), cei, 10);
    check_exact("sign", run1(RLX_OP_SIGN, 10, x, NULL), sgn, 10);
    /* large values are already integers */
    static const float big[2] = { 16777216.0f, -3e30f };
    check_exact("round big", run1(RLX_OP_ROUND, 2, big, NULL), big, 2);
    /* in bf16: 2.5 is exact, rounds to 2 */
    uint16_t h[2] = { ref_bf16(2.5), ref_bf16(-3.5) };
    source hb = src('i', RLX_DTYPE_BF16, 1, DIMS(2), h);
    const result *y = run_any(RLX_OP_ROUND, 1, &hb, NULL);
    const uint16_t *o = y->data;
    ASSERT(ref_bf16_value(o[0]) == 2.0 && ref_bf16_value(o[1]) == -4.0);
}

TEST(reciprocal_erf)
{
    static const float x[5] = { 4.0f, -0.0f, 0.0f, INFINITY, 0.3f };
    const float *r = run1(RLX_OP_RECIPROCAL, 5, x, NULL);
    ASSERT(r[0] == 0.25f);
    ASSERT(isinf(r[1]) && r[1] < 0);
    ASSERT(isinf(r[2]) && r[2] > 0);
    ASSERT(r[3] == 0.0f && !signbit(r[3]));
    ASSERT(close_enough(r[4], 1.0 / 0.3f, 1e-7));
    /* erf against its series, sum (-1)^n x^(2n+1) / (n! (2n+1)) 2/sqrt(pi) */
    float *p = pattern(16, 2.0f, 5);
    const float *e = run1(RLX_OP_ERF, 16, p, NULL);
    for (int i = 0; i < 16; i++) {
        double xx = p[i], term = xx, sum = 0;
        for (int n = 0; n < 60; n++) {
            sum += term / (2 * n + 1);
            term *= -xx * xx / (n + 1);
        }
        ASSERT(close_enough(e[i], sum * 1.1283791670955126, 1e-6));
    }
    free(p);
    static const float ends[3] = { INFINITY, -INFINITY, NAN };
    const float *ee = run1(RLX_OP_ERF, 3, ends, NULL);
    ASSERT(ee[0] == 1.0f && ee[1] == -1.0f && isnan(ee[2]));
}

TEST(clip_floats)
{
    static const float x[6] = { -5.0f, -1.0f, 0.5f, 3.0f, NAN, -0.0f };
    double b[2] = { -1.0, 2.0 };
    rlx_attrs at = { 0, NULL, 2, b };
    static const float w[6] = { -1.0f, -1.0f, 0.5f, 2.0f, NAN, -0.0f };
    check_exact("clip", run1(RLX_OP_CLIP, 6, x, &at), w, 6);
    /* no attributes: unbounded */
    check_exact("clip none", run1(RLX_OP_CLIP, 6, x, NULL), x, 6);
    double lo[1] = { 0.0 };
    rlx_attrs only_lo = { 0, NULL, 1, lo };
    static const float wl[6] = { 0, 0, 0.5f, 3.0f, NAN, -0.0f };
    check_exact("clip lo", run1(RLX_OP_CLIP, 6, x, &only_lo), wl, 6);
    double nb[2] = { NAN, 1.0 };
    rlx_attrs bad = { 0, NULL, 2, nb };
    source in = f32in(1, DIMS(6), x);
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_CLIP, 1, &in, &bad, &r),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT(strstr(run_error, "Fix:") != NULL);
}

static double sp(double x) { return log(1.0 + exp(x)); } /* small |x| */

/* Each activation with its attributes against the formula here. */
TEST(activations_against_formulas)
{
    enum { N = 24 };
    float *x = pattern(N, 6.0f, 11);
    double a2[2] = { 0.3, 0.7 }, a1[1] = { 0.25 };
    rlx_attrs two = { 0, NULL, 2, a2 }, one = { 0, NULL, 1, a1 };
    struct { rlx_op op; const rlx_attrs *at; int k; } cases[] = {
        { RLX_OP_LEAKY_RELU, NULL, 0 }, { RLX_OP_LEAKY_RELU, &one, 1 },
        { RLX_OP_ELU, NULL, 2 },        { RLX_OP_ELU, &one, 3 },
        { RLX_OP_SELU, NULL, 4 },       { RLX_OP_SELU, &two, 5 },
        { RLX_OP_SOFTPLUS, NULL, 6 },   { RLX_OP_HARD_SIGMOID, NULL, 7 },
        { RLX_OP_HARD_SIGMOID, &two, 8 }, { RLX_OP_HARD_SWISH, NULL, 9 },
        { RLX_OP_MISH, NULL, 10 },
    };
    for (size_t c = 0; c < N_OF(cases); c++) {
        const float *y = run1(cases[c].op, N, x, cases[c].at);
        for (int i = 0; i < N; i++) {
            double v = x[i], w;
            switch (cases[c].k) {
            case 0: w = v >= 0 ? v : 0.01 * v; break;
            case 1: w = v >= 0 ? v : 0.25 * v; break;
            case 2: w = v >= 0 ? v : exp(v) - 1.0; break;
            case 3: w = v >= 0 ? v : 0.25 * (exp(v) - 1.0); break;
            case 4:
                w = 1.05070102214813232421875 *
                    (v > 0 ? v : 1.67326319217681884765625 * (exp(v) - 1.0));
                break;
            case 5: w = 0.7 * (v > 0 ? v : 0.3 * (exp(v) - 1.0)); break;
            case 6: w = sp(v); break;
            case 7: w = fmax(0.0, fmin(1.0, 0.2 * v + 0.5)); break;
            case 8: w = fmax(0.0, fmin(1.0, 0.3 * v + 0.7)); break;
            case 9: w = v * fmax(0.0, fmin(1.0, v / 6.0 + 0.5)); break;
            default: w = v * tanh(sp(v)); break;
            }
            if (!close_enough(y[i], w, 1e-6) && fabs(y[i] - w) > 1e-7)
                FAIL("%s x=%.9g: got %.9g, want %.9g",
                     rlx_op_name(cases[c].op), v, y[i], w);
        }
    }
    free(x);
}

TEST(activations_at_the_edges)
{
    static const float x[4] = { INFINITY, -INFINITY, NAN, 100.0f };
    const float *y = run1(RLX_OP_SOFTPLUS, 4, x, NULL);
    ASSERT(isinf(y[0]) && y[0] > 0 && y[1] == 0.0f && isnan(y[2]) &&
           y[3] == 100.0f); /* no overflow in exp(100) */
    y = run1(RLX_OP_MISH, 4, x, NULL);
    ASSERT(isinf(y[0]) && y[1] == 0.0f && isnan(y[2]) && y[3] == 100.0f);
    y = run1(RLX_OP_HARD_SWISH, 4, x, NULL);
    ASSERT(isinf(y[0]) && y[1] == 0.0f && isnan(y[2]) && y[3] == 100.0f);
    y = run1(RLX_OP_HARD_SIGMOID, 4, x, NULL);
    ASSERT(y[0] == 1.0f && y[1] == 0.0f && isnan(y[2]) && y[3] == 1.0f);
    y = run1(RLX_OP_ELU, 4, x, NULL);
    ASSERT(isinf(y[0]) && y[1] == -1.0f && isnan(y[2]));
    y = run1(RLX_OP_LEAKY_RELU, 4, x, NULL);
    ASSERT(isinf(y[0]) && isinf(y[1]) && y[1] < 0 && isnan(y[2]));
    /* hard_swish at -3 and 3, where its pieces meet */
    static const float k[2] = { -3.0f, 3.0f };
    y = run1(RLX_OP_HARD_SWISH, 2, k, NULL);
    ASSERT(y[0] == 0.0f && y[1] == 3.0f);
}

TEST(prelu_broadcast_f32_and_f16)
{
    /* x [2,2,3], slope [2,1,1] per channel */
    static const float x[12] = { -1, 2, -3, 4, -5, 6, -1, 2, -3, 4, -5, 6 };
    static const float s[2] = { 0.5f, -2.0f };
    source in[2] = { f32in(3, DIMS(2, 2, 3), x),
                     src('p', RLX_DTYPE_F32, 3, DIMS(2, 1, 1), s) };
    const result *y = run_any(RLX_OP_PRELU, 2, in, NULL);
    ASSERT_RSHAPE(y, 3, 2, 2, 3);
    const float *v = y->data;
    for (int i = 0; i < 12; i++)
        ASSERT(v[i] == (x[i] < 0 ? s[i / 6] * x[i] : x[i]));
    uint16_t hx[3] = { ref_f16(-4.0), ref_f16(0.0), ref_f16(3.0) };
    uint16_t hs[1] = { ref_f16(0.1) };
    source hin[2] = { src('i', RLX_DTYPE_F16, 1, DIMS(3), hx),
                      src('i', RLX_DTYPE_F16, 1, DIMS(1), hs) };
    y = run_any(RLX_OP_PRELU, 2, hin, NULL);
    const uint16_t *o = y->data;
    ASSERT_EQ(o[0], ref_f16(-4.0 * ref_f16_value(hs[0])));
    ASSERT_EQ(o[2], hx[2]);
    /* activations are float-only */
    static const int32_t i3[3] = { 1, 2, 3 };
    source ii = src('i', RLX_DTYPE_I32, 1, DIMS(3), i3);
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_MISH, 1, &ii, NULL, &r), RLX_ERR_DTYPE);
    ASSERT_EQ(run_any_try(RLX_OP_FLOOR, 1, &ii, NULL, &r), RLX_ERR_DTYPE);
}

RLX_TEST_LIST(TEST_ENTRY(rounding_ties_and_signed_zero),
              TEST_ENTRY(reciprocal_erf), TEST_ENTRY(clip_floats),
              TEST_ENTRY(activations_against_formulas),
              TEST_ENTRY(activations_at_the_edges),
              TEST_ENTRY(prelu_broadcast_f32_and_f16))
