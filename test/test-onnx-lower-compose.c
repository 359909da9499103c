/*
 * test-onnx-lower-compose.c - the small ONNX ops composed from
 * primitives (CastLike, Hardmax before and after opset 13, Shrink on
 * floats and integers, EyeLike, LRN, MeanVarianceNormalization), run on
 * cpu-ref against values worked out here from ONNX's definitions.
 */
#include <math.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }
#define OX_I32 ONNX__TENSOR_PROTO__DATA_TYPE__INT32

static const int64_t d23[2] = { 2, 3 };
static const float x23[6] = { -1.5f, 0.5f, 2, -0.25f, 3, -4 };

TEST(cast_like_shrink_and_eye_like)
{
    ox_model *x = ox_new(8, 15);
    int64_t d1[1] = { 1 }, d34[2] = { 3, 4 }, like[1] = { 0 };
    ox_input(x, "x", OX_F32, 2, d23);
    ox_input(x, "xi", OX_I32, 2, d23);
    ox_input(x, "m", OX_F32, 2, d34);
    ox_init(x, "like", OX_I64, 1, d1, like, sizeof like);
    ox_node(x, "CastLike", N("x", "like"), N("cl"));
    Onnx__NodeProto *n = ox_node(x, "Shrink", N("x"), N("sh"));
    ox_attr_float(x, n, "lambd", 1.0f);
    ox_attr_float(x, n, "bias", 0.5f);
    n = ox_node(x, "Shrink", N("xi"), N("shi"));
    ox_attr_float(x, n, "lambd", 1.5f);
    ox_attr_float(x, n, "bias", 1.0f);
    n = ox_node(x, "EyeLike", N("m"), N("eye"));
    ox_attr_int(x, n, "k", 1);
    ox_attr_int(x, n, "dtype", OX_I64);
    ox_output(x, "cl", OX_I64, 2, d23);
    ox_output(x, "sh", OX_F32, 2, d23);
    ox_output(x, "shi", OX_I32, 2, d23);
    ox_output(x, "eye", OX_I64, 2, d34);
    run r;
    run_open(&r, x, "compose.onnx");
    int32_t xi[6] = { -3, -2, -1, 1, 2, 5 };
    float m[12] = { 0 };
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_set_input(r.p, "xi", xi, sizeof xi));
    ASSERT_OK(rlx_program_set_input(r.p, "m", m, sizeof m));
    ASSERT_OK(rlx_program_run(r.p));
    const int64_t *cl = out(&r, "cl", RLX_DTYPE_I64, 6);
    const int64_t wcl[6] = { -1, 0, 2, 0, 3, -4 }; /* toward zero */
    for (int i = 0; i < 6; i++)
        ASSERT_EQ(cl[i], wcl[i]);
    /* x < -1: x + 0.5; x > 1: x - 0.5; else 0 */
    const float wsh[6] = { -1, 0, 1.5f, 0, 2.5f, -3.5f };
    expect(out(&r, "sh", RLX_DTYPE_F32, 6), wsh, 6);
    /* integers: x < -1.5 is x <= -2; x > 1.5 is x >= 2 */
    const int32_t *shi = out(&r, "shi", RLX_DTYPE_I32, 6);
    const int32_t wshi[6] = { -2, -1, 0, 0, 1, 4 };
    for (int i = 0; i < 6; i++)
        ASSERT_EQ(shi[i], wshi[i]);
    const int64_t *eye = out(&r, "eye", RLX_DTYPE_I64, 12);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            ASSERT_EQ(eye[i * 4 + j], j == i + 1);
    run_close(&r);
}

/* Hardmax: opset 13 along one axis; opset 11 over the input coerced to
 * [prod(dims[:axis]), prod(dims[axis:])]. The first maximum wins. */
TEST(hardmax_before_and_after_opset_13)
{
    const int64_t d[3] = { 2, 2, 2 };
    const float v[8] = { 1, 3, 3, 0, -1, -2, 5, 5 };
    for (int opset = 11; opset <= 13; opset += 2) {
        ox_model *x = ox_new(8, opset);
        ox_input(x, "x", OX_F32, 3, d);
        Onnx__NodeProto *n = ox_node(x, "Hardmax", N("x"), N("y"));
        ox_attr_int(x, n, "axis", 1);
        ox_output(x, "y", OX_F32, 3, d);
        run r;
        run_open(&r, x, opset == 11 ? "hardmax11.onnx" : "hardmax13.onnx");
        ASSERT_OK(rlx_program_set_input(r.p, "x", v, sizeof v));
        ASSERT_OK(rlx_program_run(r.p));
        /* 13: along axis 1 per (n, k); 11: over the 4 values of each n */
        const float w13[8] = { 0, 1, 1, 0, 0, 0, 1, 1 };
        const float w11[8] = { 0, 1, 0, 0, 0, 0, 1, 0 };
        expect(out(&r, "y", RLX_DTYPE_F32, 8), opset == 13 ? w13 : w11, 8);
        run_close(&r);
    }
}

TEST(lrn_and_mean_variance_normalization)
{
    const int64_t d[4] = { 1, 4, 1, 2 };
    float v[8];
    for (int i = 0; i < 8; i++)
        v[i] = 0.5f * (float)i - 1.25f;
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 4, d);
    Onnx__NodeProto *n = ox_node(x, "LRN", N("x"), N("lrn"));
    ox_attr_int(x, n, "size", 3);
    ox_attr_float(x, n, "alpha", 0.5f);
    ox_attr_float(x, n, "beta", 0.75f);
    ox_attr_float(x, n, "bias", 2.0f);
    ox_node(x, "MeanVarianceNormalization", N("x"), N("mvn"));
    ox_output(x, "lrn", OX_F32, 4, d);
    ox_output(x, "mvn", OX_F32, 4, d);
    run r;
    run_open(&r, x, "lrn.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", v, sizeof v));
    ASSERT_OK(rlx_program_run(r.p));
    float wl[8], wm[8];
    for (int c = 0; c < 4; c++)
        for (int s = 0; s < 2; s++) {
            double sq = 0; /* channels c - 1 .. c + 1 */
            for (int k = c - 1; k <= c + 1; k++)
                if (k >= 0 && k < 4)
                    sq += (double)v[k * 2 + s] * v[k * 2 + s];
            wl[c * 2 + s] = (float)(v[c * 2 + s] /
                                    pow(2.0 + 0.5 / 3 * sq, 0.75));
        }
    /* axes 0, 2, 3: per channel over its two values */
    for (int c = 0; c < 4; c++) {
        double a = v[c * 2], b = v[c * 2 + 1], mu = (a + b) / 2;
        double sd = sqrt(((a - mu) * (a - mu) + (b - mu) * (b - mu)) / 2);
        wm[c * 2] = (float)((a - mu) / (sd + 1e-9));
        wm[c * 2 + 1] = (float)((b - mu) / (sd + 1e-9));
    }
    expect(out(&r, "lrn", RLX_DTYPE_F32, 8), wl, 8);
    expect(out(&r, "mvn", RLX_DTYPE_F32, 8), wm, 8);
    run_close(&r);
}

TEST(lrn_without_size_is_refused)
{
    ox_model *x = ox_new(8, 13);
    const int64_t d[4] = { 1, 2, 1, 1 };
    ox_input(x, "x", OX_F32, 4, d);
    ox_node(x, "LRN", N("x"), N("y"));
    ox_output(x, "y", OX_F32, 4, d);
    const char *path = ox_write(x, "lrn-nosize.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_INVALID_ARGUMENT, "size");
}

RLX_TEST_LIST(TEST_ENTRY(cast_like_shrink_and_eye_like),
              TEST_ENTRY(hardmax_before_and_after_opset_13),
              TEST_ENTRY(lrn_and_mean_variance_normalization),
              TEST_ENTRY(lrn_without_size_is_refused))
