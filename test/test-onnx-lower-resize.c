/*
 * test-onnx-lower-resize.c - ONNX Resize's tf_crop_and_resize lowered
 * onto rlx's resize with the roi as attributes: by sizes and by scales
 * (where the output length is floor(in * (end - start) * scale)), the
 * extrapolation value outside the input, and the refusals (no roi,
 * tf_half_pixel_for_nn). Expectations worked by hand from the ONNX
 * formula x = start * (in - 1) + o * (end - start) * (in - 1) / (out - 1).
 */
#include <math.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }

static const int64_t xd[4] = { 1, 1, 1, 5 };
static const float xv[5] = { 0, 10, 20, 30, 40 };

/* Resize X [1,1,1,5] by tf_crop_and_resize with ROI (starts, then ends)
 * and SIZES or SCALES; the output has OUT_N elements. */
static void crop(const float *roi, const int64_t *sizes, const float *scales,
                 int64_t out_n, const float *want)
{
    ox_model *x = ox_new(8, 13);
    int64_t rd[1] = { 8 }, sd[1] = { 4 }, od[4] = { 1, 1, 1, out_n };
    ox_input(x, "x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, xd);
    ox_init(x, "roi", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 1, rd, roi,
            8 * sizeof *roi);
    if (sizes)
        ox_init(x, "sizes", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, 1, sd,
                sizes, 4 * sizeof *sizes);
    else
        ox_init(x, "scales", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 1, sd,
                scales, 4 * sizeof *scales);
    Onnx__NodeProto *n = ox_node(x, "Resize",
                                 sizes ? N("x", "roi", "", "sizes")
                                       : N("x", "roi", "scales"),
                                 N("y"));
    ox_attr_string(x, n, "mode", "linear");
    ox_attr_string(x, n, "coordinate_transformation_mode",
                   "tf_crop_and_resize");
    ox_attr_float(x, n, "extrapolation_value", 99);
    ox_output(x, "y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, od);
    const char *path = ox_write(x, "crop.onnx");
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
    size_t nb;
    const float *y = rlx_program_output_data(p, 0, &nb);
    ASSERT_EQ(nb, (size_t)out_n * sizeof(float));
    for (int64_t i = 0; i < out_n; i++)
        if (!(fabsf(y[i] - want[i]) <= 1e-4f))
            FAIL("element %lld: %g, expected %g", (long long)i, y[i],
                 want[i]);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

/* roi [0.25, 0.75] of the last axis, 3 outputs: x = 1 + o -> 10, 20, 30;
 * by scales 1.2, floor(5 * 0.5 * 1.2) = 3 outputs, the same points. */
TEST(crop_by_sizes_and_by_scales)
{
    const float roi[8] = { 0, 0, 0, 0.25f, 1, 1, 1, 0.75f };
    const int64_t sizes[4] = { 1, 1, 1, 3 };
    const float scales[4] = { 1, 1, 1, 1.2f };
    const float want[3] = { 10, 20, 30 };
    crop(roi, sizes, NULL, 3, want);
    crop(roi, NULL, scales, 3, want);
}

/* roi [0.1, 1.25], 4 outputs: x = 0.4 + o * 1.5333 -> 0.4, 1.9333,
 * 3.4667 and 5 (past the input: the extrapolation value). */
TEST(crop_past_the_input_extrapolates)
{
    const float roi[8] = { 0, 0, 0, 0.1f, 1, 1, 1, 1.25f };
    const int64_t sizes[4] = { 1, 1, 1, 4 };
    const float want[4] = { 4, 19.333333f, 34.666667f, 99 };
    crop(roi, sizes, NULL, 4, want);
}

/* Resize-11's tf_half_pixel_for_nn: X [1, 1, 1, 5] to SIZE outputs with
 * MODE, the nearest rounding NM (NULL: the default). */
static const char *half_pixel_nn(const char *file, int64_t size,
                                 const char *mode, const char *nm)
{
    ox_model *x = ox_new(8, 11);
    int64_t sd[1] = { 4 }, od[4] = { 1, 1, 1, size };
    const int64_t sizes[4] = { 1, 1, 1, size };
    ox_input(x, "x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, xd);
    ox_init(x, "sizes", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, 1, sd, sizes,
            sizeof sizes);
    Onnx__NodeProto *n = ox_node(x, "Resize", N("x", "", "", "sizes"),
                                 N("y"));
    ox_attr_string(x, n, "coordinate_transformation_mode",
                   "tf_half_pixel_for_nn");
    ox_attr_string(x, n, "mode", mode);
    if (nm)
        ox_attr_string(x, n, "nearest_mode", nm);
    ox_output(x, "y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, od);
    const char *path = ox_write(x, file);
    ox_free(x);
    return path;
}

static void run_nn(const char *path, int64_t size, const float *want)
{
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
    size_t nb;
    const float *y = rlx_program_output_data(p, 0, &nb);
    ASSERT_EQ(nb, (size_t)size * sizeof(float));
    for (int64_t i = 0; i < size; i++)
        if (y[i] != want[i])
            FAIL("element %lld: %g, expected %g", (long long)i, y[i],
                 want[i]);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

/* 5 -> 2 (scale 0.4): x = 1.25, 3.75 -> 1, 4 (round_prefer_floor);
 * 5 -> 4 (scale 0.8): x = 0.625, 1.875, 3.125, 4.375 -> 1, 2, 3, 4, or
 * with floor 0, 1, 3, 4; 5 -> 8 (1.6), round_prefer_ceil: x = 0.3125 +
 * 0.625 o -> 0, 1, 2, 2, 3, 3, 4, 4 (the last clamped from 5). */
TEST(tf_half_pixel_for_nn_gathers)
{
    const float w2[2] = { 10, 40 }, w4[4] = { 10, 20, 30, 40 },
                w4f[4] = { 0, 10, 30, 40 },
                w8[8] = { 0, 10, 20, 20, 30, 30, 40, 40 };
    run_nn(half_pixel_nn("nn2.onnx", 2, "nearest", NULL), 2, w2);
    run_nn(half_pixel_nn("nn4.onnx", 4, "nearest", NULL), 4, w4);
    run_nn(half_pixel_nn("nn4f.onnx", 4, "nearest", "floor"), 4, w4f);
    run_nn(half_pixel_nn("nn8.onnx", 8, "nearest", "round_prefer_ceil"), 8,
           w8);
}

TEST(refusals)
{
    ox_expect_fail(half_pixel_nn("nnlin.onnx", 2, "linear", NULL),
                   RLX_ERR_UNSUPPORTED, "nearest' only");

    int64_t sd[1] = { 4 }, od[4] = { 1, 1, 1, 2 };
    const int64_t sizes[4] = { 1, 1, 1, 2 };
    Onnx__NodeProto *n;
    const char *path;
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, xd);
    ox_init(x, "sizes", ONNX__TENSOR_PROTO__DATA_TYPE__INT64, 1, sd, sizes,
            sizeof sizes);
    n = ox_node(x, "Resize", N("x", "", "", "sizes"), N("y"));
    ox_attr_string(x, n, "coordinate_transformation_mode",
                   "tf_crop_and_resize");
    ox_output(x, "y", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 4, od);
    path = ox_write(x, "noroi.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_INVALID_ARGUMENT, "needs the roi");
}

RLX_TEST_LIST(TEST_ENTRY(crop_by_sizes_and_by_scales),
              TEST_ENTRY(crop_past_the_input_extrapolates),
              TEST_ENTRY(tf_half_pixel_for_nn_gathers),
              TEST_ENTRY(refusals))
