/*
 * test-ops-chnorm.c - batch_norm, instance_norm and group_norm on the
 * reference CPU backend through the public API, against references in
 * double computed here (each group's mean and variance taken directly),
 * with per-channel and per-group parameters, rank 2 to 5, f16, empty
 * tensors and shape errors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* Group norm of x [n, c, inner] with G groups; instance norm is G = c.
 * Params are per channel, or per group when PER_GROUP. */
static void ref_group(const float *x, size_t n, size_t c, size_t inner,
                      size_t groups, const float *scale, const float *bias,
                      int per_group, double eps, double *y)
{
    size_t cg = c / groups;
    for (size_t b = 0; b < n; b++)
        for (size_t g = 0; g < groups; g++) {
            double sum = 0, sq = 0;
            size_t len = cg * inner, base = (b * c + g * cg) * inner;
            for (size_t i = 0; i < len; i++)
                sum += x[base + i];
            double mean = sum / (double)len;
            for (size_t i = 0; i < len; i++)
                sq += (x[base + i] - mean) * (x[base + i] - mean);
            double sd = sqrt(sq / (double)len + eps);
            for (size_t i = 0; i < len; i++) {
                size_t ch = per_group ? g : g * cg + i / inner;
                y[base + i] = (x[base + i] - mean) / sd * scale[ch] +
                              bias[ch];
            }
        }
}

TEST(batch_norm_per_channel)
{
    /* x [2, 3, 2]; y = (x - mean) / sqrt(var + eps) * scale + bias */
    float *x = pattern(12, 3.0f, 5);
    static const float scale[3] = { 1, 2, -0.5f }, bias[3] = { 0, 1, 2 };
    static const float mean[3] = { 0.5f, -1, 0 }, var[3] = { 1, 4, 0.25f };
    double eps = 1e-3, want[12];
    for (size_t i = 0; i < 12; i++) {
        size_t ch = (i / 2) % 3;
        want[i] = (x[i] - mean[ch]) / sqrt(var[ch] + eps) * scale[ch] +
                  bias[ch];
    }
    tensor in[5] = { make(3, DIMS(2, 3, 2), x), make(1, DIMS(3), scale),
                     make(1, DIMS(3), bias), make(1, DIMS(3), mean),
                     make(1, DIMS(3), var) };
    rlx_attrs attrs = { 0, NULL, 1, &eps };
    tensor out;
    const float *y = run_op(RLX_OP_BATCH_NORM, 5, in, &attrs, &out);
    ASSERT_SHAPE(out, 3, 2, 3, 2);
    check_values("batch_norm", y, want, 12, REL_TOL, 1e-6);
    /* rank 2 (no spatial axes), default epsilon 1e-5 */
    in[0] = make(2, DIMS(4, 3), x);
    y = run_op(RLX_OP_BATCH_NORM, 5, in, NULL, &out);
    for (size_t i = 0; i < 12; i++) {
        size_t ch = i % 3;
        want[i] = (x[i] - mean[ch]) / sqrt(var[ch] + 1e-5) * scale[ch] +
                  bias[ch];
    }
    check_values("batch_norm rank 2", y, want, 12, REL_TOL, 1e-6);
    free(x);
}

TEST(instance_norm)
{
    float *x = pattern(2 * 3 * 4 * 5, 4.0f, 9);
    float *scale = pattern(3, 2.0f, 3), *bias = pattern(3, 1.0f, 4);
    static double want[120];
    ref_group(x, 2, 3, 20, 3, scale, bias, 0, 1e-5, want);
    tensor in[3] = { make(4, DIMS(2, 3, 4, 5), x), make(1, DIMS(3), scale),
                     make(1, DIMS(3), bias) };
    tensor out;
    const float *y = run_op(RLX_OP_INSTANCE_NORM, 3, in, NULL, &out);
    ASSERT_SHAPE(out, 4, 2, 3, 4, 5);
    check_values("instance_norm", y, want, 120, 1e-4, 1e-5);
    free(x);
    free(scale);
    free(bias);
}

TEST(group_norm_channel_and_group_params)
{
    float *x = pattern(2 * 6 * 3, 4.0f, 21);
    float *scale = pattern(6, 2.0f, 22), *bias = pattern(6, 1.0f, 23);
    static double want[36];
    int64_t groups = 3;
    double eps = 1e-2;
    rlx_attrs attrs = { 1, &groups, 1, &eps };
    tensor in[3] = { make(3, DIMS(2, 6, 3), x), make(1, DIMS(6), scale),
                     make(1, DIMS(6), bias) };
    tensor out;
    ref_group(x, 2, 6, 3, 3, scale, bias, 0, eps, want);
    const float *y = run_op(RLX_OP_GROUP_NORM, 3, in, &attrs, &out);
    check_values("group_norm per channel", y, want, 36, 1e-4, 1e-5);
    /* [groups] parameters (ONNX opset 18) */
    in[1] = make(1, DIMS(3), scale);
    in[2] = make(1, DIMS(3), bias);
    ref_group(x, 2, 6, 3, 3, scale, bias, 1, eps, want);
    y = run_op(RLX_OP_GROUP_NORM, 3, in, &attrs, &out);
    check_values("group_norm per group", y, want, 36, 1e-4, 1e-5);
    /* one group: layer norm over everything but the batch */
    groups = 1;
    in[1] = make(1, DIMS(6), scale);
    in[2] = make(1, DIMS(6), bias);
    ref_group(x, 2, 6, 3, 1, scale, bias, 0, eps, want);
    y = run_op(RLX_OP_GROUP_NORM, 3, in, &attrs, &out);
    check_values("group_norm one group", y, want, 36, 1e-4, 1e-5);
    free(x);
    free(scale);
    free(bias);
}

TEST(norms_constant_input_and_empty)
{
    /* a constant channel has variance 0: the result is the bias */
    static const float x[4] = { 7, 7, 7, 7 }, s[1] = { 3 }, b[1] = { -1 };
    tensor in[3] = { make(3, DIMS(1, 1, 4), x), make(1, DIMS(1), s),
                     make(1, DIMS(1), b) };
    tensor out;
    const float *y = run_op(RLX_OP_INSTANCE_NORM, 3, in, NULL, &out);
    for (int i = 0; i < 4; i++)
        ASSERT(y[i] == -1);
    /* empty spatial axes and an empty batch pass through */
    in[0] = make(3, DIMS(1, 1, 0), NULL);
    run_op(RLX_OP_INSTANCE_NORM, 3, in, NULL, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 0);
    in[0] = make(3, DIMS(0, 1, 4), NULL);
    run_op(RLX_OP_INSTANCE_NORM, 3, in, NULL, &out);
    ASSERT_SHAPE(out, 3, 0, 1, 4);
}

TEST(instance_norm_bf16)
{
    static const float xf[4] = { 1, 2, 3, 5 };
    uint16_t x[4], s = ref_bf16(1.0), b = ref_bf16(0.0);
    for (int i = 0; i < 4; i++)
        x[i] = ref_bf16(xf[i]);
    source in[3] = { src('i', RLX_DTYPE_BF16, 3, DIMS(1, 1, 4), x),
                     src('i', RLX_DTYPE_BF16, 1, DIMS(1), &s),
                     src('i', RLX_DTYPE_BF16, 1, DIMS(1), &b) };
    const result *r = run_any(RLX_OP_INSTANCE_NORM, 3, in, NULL);
    double sd = sqrt((3.0625 + 0.5625 + 0.0625 + 5.0625) / 4 + 1e-5);
    ASSERT_EQ(((const uint16_t *)r->data)[3], ref_bf16((5 - 2.75) / sd));
}

TEST(chnorm_errors)
{
    static const float z[24] = { 0 };
    source x = src('i', RLX_DTYPE_F32, 3, DIMS(2, 4, 3), z);
    source p4 = src('i', RLX_DTYPE_F32, 1, DIMS(4), z);
    source p3 = src('i', RLX_DTYPE_F32, 1, DIMS(3), z);
    source bn[5] = { x, p4, p4, p3, p4 };
    result r = { 0 };
    ASSERT_STATUS(run_any_try(RLX_OP_BATCH_NORM, 5, bn, NULL, &r),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(run_error, "mean");
    ASSERT_CONTAINS(run_error, "Fix:");
    int64_t g3 = 3;
    rlx_attrs a3 = { 1, &g3, 0, NULL };
    source gn[3] = { x, p4, p4 };
    ASSERT_STATUS(run_any_try(RLX_OP_GROUP_NORM, 3, gn, &a3, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "groups is 3 for 4 channels");
    ASSERT_STATUS(run_any_try(RLX_OP_GROUP_NORM, 3, gn, NULL, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    double neg = -1;
    rlx_attrs an = { 0, NULL, 1, &neg };
    ASSERT_STATUS(run_any_try(RLX_OP_INSTANCE_NORM, 3, gn, &an, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "epsilon");
    source flat[3] = { src('i', RLX_DTYPE_F32, 1, DIMS(4), z), p4, p4 };
    ASSERT_STATUS(run_any_try(RLX_OP_INSTANCE_NORM, 3, flat, NULL, &r),
                  RLX_ERR_SHAPE);
}

RLX_TEST_LIST(TEST_ENTRY(batch_norm_per_channel), TEST_ENTRY(instance_norm),
              TEST_ENTRY(group_norm_channel_and_group_params),
              TEST_ENTRY(norms_constant_input_and_empty),
              TEST_ENTRY(instance_norm_bf16), TEST_ENTRY(chnorm_errors))
