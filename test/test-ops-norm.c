/*
 * test-ops-norm.c - the ops that normalise along an axis on the reference
 * CPU backend: softmax (any axis, and causal), layer_norm and rms_norm,
 * through the public API, against references in double that take each
 * line's max, sum or moments themselves.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* ---- softmax --------------------------------------------------------- */

static void check_softmax(uint32_t r, const int64_t *dims, const float *x,
                          int64_t axis, int pass_axis)
{
    static double expect[256];
    size_t n = count_of(r, dims);
    ASSERT(n <= 256);
    rlx_attrs attrs = { 1, &axis, 0, NULL };
    tensor in = make(r, dims, x), out;
    const float *y = run_op(RLX_OP_SOFTMAX, 1, &in,
                            pass_axis ? &attrs : NULL, &out);
    ASSERT_EQ(out.rank, r);
    for (uint32_t i = 0; i < r; i++)
        ASSERT_EQ(out.dims[i], dims[i]);
    uint32_t ax = (uint32_t)(axis < 0 ? axis + (int64_t)r : axis);
    size_t stride = count_of(r - ax - 1, dims + ax + 1);
    size_t len = (size_t)dims[ax];
    for (size_t e = 0; e < n; e++) {
        /* the first element of E's line along the axis */
        size_t pos = (e / stride) % len;
        size_t first = e - pos * stride;
        double m = -INFINITY, sum = 0;
        for (size_t j = 0; j < len; j++)
            if (x[first + j * stride] > m)
                m = x[first + j * stride];
        for (size_t j = 0; j < len; j++)
            sum += exp((double)x[first + j * stride] - m);
        expect[e] = exp((double)x[e] - m) / sum;
    }
    check_values("softmax", y, expect, n, REL_TOL, 1e-7);
}

TEST(softmax_last_axis)
{
    static const float x[6] = { 1.0f, 2.0f, 3.0f, -1.0f, 0.0f, 1.0f };
    check_softmax(2, DIMS(2, 3), x, -1, 0); /* the default */
    check_softmax(2, DIMS(2, 3), x, -1, 1);
    check_softmax(2, DIMS(2, 3), x, 1, 1);
    /* large values: stable only when the max is subtracted */
    static const float big[6] = { 1000.0f, 1001.0f, 1002.0f,
                                  -1000.0f, 0.0f, 88.0f };
    check_softmax(2, DIMS(2, 3), big, -1, 1);
}

TEST(softmax_axis0)
{
    static const float x[6] = { 1.0f, 2.0f, 3.0f, -1.0f, 0.0f, 10.0f };
    check_softmax(2, DIMS(2, 3), x, 0, 1);
    check_softmax(2, DIMS(2, 3), x, -2, 1);
}

TEST(softmax_middle_axis)
{
    float *x = pattern(24, 5.0f, 3);
    static float kept[24];
    memcpy(kept, x, sizeof kept);
    free(x);
    check_softmax(3, DIMS(2, 3, 4), kept, 1, 1);
    check_softmax(1, DIMS(24), kept, 0, 1);
}

/* ---- causal softmax -------------------------------------------------- */

static void check_causal(uint32_t r, const int64_t *dims)
{
    size_t n = count_of(r, dims);
    size_t rows = (size_t)dims[r - 2], cols = (size_t)dims[r - 1];
    float *x = pattern(n, 3.0f, 41);
    static double expect[256];
    ASSERT(n <= 256);
    for (size_t line = 0; line < n / cols; line++) {
        int64_t i = (int64_t)(line % rows);
        const float *xs = x + line * cols;
        double m = -INFINITY, sum = 0;
        for (size_t j = 0; j < cols; j++)
            if ((int64_t)j <= i + (int64_t)cols - (int64_t)rows && xs[j] > m)
                m = xs[j];
        for (size_t j = 0; j < cols; j++)
            if ((int64_t)j <= i + (int64_t)cols - (int64_t)rows)
                sum += exp(xs[j] - m);
        for (size_t j = 0; j < cols; j++)
            expect[line * cols + j] =
                (int64_t)j <= i + (int64_t)cols - (int64_t)rows
                    ? exp(xs[j] - m) / sum : 0.0;
    }
    int64_t ints[2] = { -1, 1 };
    rlx_attrs attrs = { 2, ints, 0, NULL };
    source in = f32in(r, dims, x);
    const result *y = run_any(RLX_OP_SOFTMAX, 1, &in, &attrs);
    free(x);
    ASSERT_EQ(count_of(y->rank, y->dims), n);
    check_values("causal softmax", y->data, expect, n, REL_TOL, 1e-7);
}

TEST(softmax_causal)
{
    check_causal(2, DIMS(4, 4));
    check_causal(3, DIMS(2, 3, 3));
    check_causal(2, DIMS(3, 5));   /* more columns: a cached prefix */
    check_causal(2, DIMS(4, 2));   /* fewer: the first rows are all 0 */
    check_causal(4, DIMS(2, 1, 2, 3));
    /* axis given as the last one explicitly */
    static const float x[4] = { 1, 2, 3, 4 };
    int64_t ints[2] = { 1, 1 };
    rlx_attrs attrs = { 2, ints, 0, NULL };
    source in = f32in(2, DIMS(2, 2), x);
    const result *y = run_any(RLX_OP_SOFTMAX, 1, &in, &attrs);
    const float *g = y->data;
    ASSERT(g[0] == 1.0f && g[1] == 0.0f);
    ASSERT_NEAR(g[2], 1 / (1 + exp(1.0)), 1e-7);
}

/* ---- layer_norm, rms_norm -------------------------------------------- */

static void check_norm(rlx_op op, uint32_t r, const int64_t *dims,
                       const double *eps)
{
    size_t n = count_of(r, dims), cols = (size_t)dims[r - 1];
    static float x[256], gamma[64], beta[64];
    static double expect[256];
    ASSERT(n <= 256 && cols <= 64);
    float *p = pattern(n, 3.0f, 11);
    memcpy(x, p, n * sizeof *x);
    free(p);
    p = pattern(cols, 2.0f, 12);
    memcpy(gamma, p, cols * sizeof *p);
    free(p);
    p = pattern(cols, 1.0f, 13);
    memcpy(beta, p, cols * sizeof *p);
    free(p);
    /* one row far from zero mean, to check the centring */
    for (size_t j = 0; j < cols; j++)
        x[j] += 100.0f;
    double e = eps ? *eps : op == RLX_OP_LAYER_NORM ? 1e-5 : 1e-6;
    for (size_t row = 0; row < n / cols; row++) {
        const float *xs = x + row * cols;
        double mean = 0, var = 0;
        for (size_t j = 0; j < cols; j++)
            mean += xs[j];
        mean /= (double)cols;
        for (size_t j = 0; j < cols; j++) {
            double d = op == RLX_OP_LAYER_NORM ? xs[j] - mean : xs[j];
            var += d * d;
        }
        var /= (double)cols;
        for (size_t j = 0; j < cols; j++)
            expect[row * cols + j] =
                op == RLX_OP_LAYER_NORM
                    ? (xs[j] - mean) / sqrt(var + e) * gamma[j] + beta[j]
                    : xs[j] / sqrt(var + e) * gamma[j];
    }
    source in[3] = { f32in(r, dims, x), f32in(1, DIMS((int64_t)cols), gamma),
                     f32in(1, DIMS((int64_t)cols), beta) };
    rlx_attrs attrs = { 0, NULL, 1, eps };
    const result *y = run_any(op, op == RLX_OP_LAYER_NORM ? 3 : 2, in,
                              eps ? &attrs : NULL);
    ASSERT_EQ(y->rank, r);
    for (uint32_t d = 0; d < r; d++)
        ASSERT_EQ(y->dims[d], dims[d]);
    check_values(rlx_op_name(op), y->data, expect, n, 1e-5, 1e-5);
}

TEST(layer_norm)
{
    check_norm(RLX_OP_LAYER_NORM, 2, DIMS(3, 5), NULL);
    check_norm(RLX_OP_LAYER_NORM, 3, DIMS(2, 2, 4), NULL);
    double big = 0.5; /* an epsilon large enough to show */
    check_norm(RLX_OP_LAYER_NORM, 2, DIMS(3, 5), &big);
    check_norm(RLX_OP_LAYER_NORM, 1, DIMS(6), NULL);
    /* one feature: x - mean is 0, so the result is beta */
    check_norm(RLX_OP_LAYER_NORM, 2, DIMS(4, 1), NULL);
}

TEST(rms_norm)
{
    check_norm(RLX_OP_RMS_NORM, 2, DIMS(3, 4), NULL);
    double big = 2.0;
    check_norm(RLX_OP_RMS_NORM, 2, DIMS(3, 4), &big);
    check_norm(RLX_OP_RMS_NORM, 3, DIMS(2, 1, 7), NULL);
    /* an empty batch */
    source in[2] = { f32in(2, DIMS(0, 4), NULL), f32in(1, DIMS(4), v3) };
    static const float g4[4] = { 1, 2, 3, 4 };
    in[1].data = g4;
    const result *y = run_any(RLX_OP_RMS_NORM, 2, in, NULL);
    ASSERT_RSHAPE(y, 2, 0, 4);
}

RLX_TEST_LIST(TEST_ENTRY(softmax_last_axis), TEST_ENTRY(softmax_axis0),
              TEST_ENTRY(softmax_middle_axis), TEST_ENTRY(softmax_causal),
              TEST_ENTRY(layer_norm), TEST_ENTRY(rms_norm))
