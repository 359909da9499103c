/*
 * test-onnx-lower-batchnorm.c - ONNX BatchNormalization in training mode
 * (opset 14 on): normalized by the batch's own per-channel statistics,
 * with the running mean and variance moved toward them by momentum as
 * outputs 1 and 2; the pre-14 training forms refused. Expectations
 * worked by hand.
 */
#include <math.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }
#define F32 ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT

static const int64_t xd[4] = { 2, 2, 1, 2 }, cd[1] = { 2 };
/* channel 0 holds 1, 3, 5, 7 (mean 4, variance 5); channel 1 holds
 * 2, 2, 0, 4 (mean 2, variance 2) */
static const float xv[8] = { 1, 3, 2, 2, 5, 7, 0, 4 };

static ox_model *model(int opset)
{
    ox_model *x = ox_new(8, opset);
    const float scale[2] = { 2, 1 }, bias[2] = { 0, 1 };
    const float mean[2] = { 0, 10 }, var[2] = { 1, 1 };
    ox_input(x, "x", F32, 4, xd);
    ox_init(x, "scale", F32, 1, cd, scale, sizeof scale);
    ox_init(x, "bias", F32, 1, cd, bias, sizeof bias);
    ox_init(x, "mean", F32, 1, cd, mean, sizeof mean);
    ox_init(x, "var", F32, 1, cd, var, sizeof var);
    return x;
}

static void expect_slot(rlx_program *p, uint32_t slot, const float *want,
                   size_t n)
{
    size_t nb;
    const float *got = rlx_program_output_data(p, slot, &nb);
    ASSERT_EQ(nb, n * sizeof(float));
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-5f + 1e-5f * fabsf(want[i])))
            FAIL("output %u element %zu: %.7g, expected %.7g", slot, i,
                 got[i], want[i]);
}

TEST(training_mode_uses_the_batch_statistics)
{
    ox_model *x = model(15);
    Onnx__NodeProto *n = ox_node(x, "BatchNormalization",
                                 N("x", "scale", "bias", "mean", "var"),
                                 N("y", "running_mean", "running_var"));
    ox_attr_int(x, n, "training_mode", 1);
    ox_attr_float(x, n, "momentum", 0.5f);
    ox_attr_float(x, n, "epsilon", 0);
    ox_output(x, "y", F32, 4, xd);
    ox_output(x, "running_mean", F32, 1, cd);
    ox_output(x, "running_var", F32, 1, cd);
    const char *path = ox_write(x, "bn.onnx");
    ox_free(x);
    rlx_model *m;
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_model_load(path, &m));
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_model_compile(m, s, &p));
    ASSERT_OK(rlx_program_set_input(p, "x", xv, sizeof xv));
    ASSERT_OK(rlx_program_run(p));
    /* (x - 4) / sqrt(5) * 2 and (x - 2) / sqrt(2) + 1 */
    const float r5 = 2 / sqrtf(5), r2 = 1 / sqrtf(2);
    const float y[8] = { -3 * r5, -1 * r5, 1, 1, r5, 3 * r5, 1 - 2 * r2,
                         1 + 2 * r2 };
    const float rm[2] = { 2, 6 }, rv[2] = { 3, 1.5f };
    expect_slot(p, 0, y, 8);
    expect_slot(p, 1, rm, 2);
    expect_slot(p, 2, rv, 2);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

TEST(training_before_opset_14_is_refused)
{
    ox_model *x = model(9);
    ox_node(x, "BatchNormalization", N("x", "scale", "bias", "mean", "var"),
            N("y", "saved_mean"));
    ox_output(x, "y", F32, 4, xd);
    ox_output(x, "saved_mean", F32, 1, cd);
    const char *path = ox_write(x, "bn9.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "before opset 14");
}

RLX_TEST_LIST(TEST_ENTRY(training_mode_uses_the_batch_statistics),
              TEST_ENTRY(training_before_opset_14_is_refused))
