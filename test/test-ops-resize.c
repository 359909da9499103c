/*
 * test-ops-resize.c - resize on the reference CPU backend through the
 * public API, for what ONNX's node tests (test-ops-onnx-vision) leave
 * out: half_pixel_symmetric, each nearest rounding on i8/u8, linear with
 * exclude_outside, an identity resize keeping NaN and -0, empty axes,
 * rank 1, f16, and attribute errors. Expectations are worked by hand
 * from the formulas in docs/ops.md.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* 1-d resize of X (N values) to OUT, mode/coord/nearest/exclude given;
 * SCALE 0 leaves the scale to default (out / in). */
static const float *resize1(const float *x, int64_t n, int64_t out,
                            int64_t mode, int64_t coord, int64_t near,
                            int64_t excl, double scale, tensor *shape)
{
    int64_t ints[] = { mode, coord, near, excl, out };
    double fl[] = { -0.75, 0, scale };
    rlx_attrs attrs = { 5, ints, scale > 0 ? 3u : 0u, fl };
    tensor in = make(1, DIMS(n), x);
    return run_op(RLX_OP_RESIZE, 1, &in, &attrs, shape);
}

TEST(nearest_roundings)
{
    /* asymmetric, scale 2 -> x = o / 2: 0, .5, 1, 1.5, 2, 2.5 */
    static const float x[3] = { 10, 20, 30 };
    tensor out;
    static const float want[4][6] = {
        { 10, 10, 20, 20, 30, 30 }, /* round_prefer_floor */
        { 10, 20, 20, 30, 30, 30 }, /* round_prefer_ceil (clamped) */
        { 10, 10, 20, 20, 30, 30 }, /* floor */
        { 10, 20, 20, 30, 30, 30 }, /* ceil (clamped) */
    };
    for (int m = 0; m < 4; m++) {
        const float *y = resize1(x, 3, 6, RLX_RESIZE_NEAREST,
                                 RLX_RESIZE_ASYMMETRIC, m, 0, 0, &out);
        ASSERT_SHAPE(out, 1, 6);
        for (int i = 0; i < 6; i++)
            ASSERT(y[i] == want[m][i]);
    }
    /* x = 0.4 * o: 0, .4, .8, 1.2, 1.6 -> floor vs ceil vs round */
    static const float x5[5] = { 1, 2, 3, 4, 5 };
    const float *y = resize1(x5, 5, 5, RLX_RESIZE_NEAREST,
                             RLX_RESIZE_ASYMMETRIC, RLX_RESIZE_CEIL, 0, 2.5,
                             &out);
    static const float ceil_want[5] = { 1, 2, 2, 3, 3 };
    for (int i = 0; i < 5; i++)
        ASSERT(y[i] == ceil_want[i]);
    /* a tiny scale sends x = o / scale far past the end: the edge, with
     * no overflow on the way (each mode) */
    for (int m = 0; m < 3; m++) {
        y = resize1(x5, 5, 3, m, RLX_RESIZE_ASYMMETRIC, 0, 0, 1e-300, &out);
        ASSERT(y[0] == 1 && y[1] == 5 && y[2] == 5);
    }
}

TEST(nearest_on_bytes)
{
    static const int8_t xi[2] = { -128, 127 };
    int64_t ints[] = { RLX_RESIZE_NEAREST, RLX_RESIZE_HALF_PIXEL,
                       RLX_RESIZE_ROUND_PREFER_FLOOR, 0, 1, 4 };
    rlx_attrs attrs = { 6, ints, 0, NULL };
    source s = src('i', RLX_DTYPE_I8, 2, DIMS(1, 2), xi);
    const result *r = run_any(RLX_OP_RESIZE, 1, &s, &attrs);
    ASSERT_EQ(r->dtype, RLX_DTYPE_I8);
    ASSERT_RSHAPE(r, 2, 1, 4);
    /* half_pixel, scale 2: x = -0.25, 0.25, 0.75, 1.25 */
    const int8_t *y = r->data;
    ASSERT(y[0] == -128 && y[1] == -128 && y[2] == 127 && y[3] == 127);
    static const uint8_t xu[2] = { 0, 255 };
    s = src('i', RLX_DTYPE_U8, 2, DIMS(1, 2), xu);
    r = run_any(RLX_OP_RESIZE, 1, &s, &attrs);
    ASSERT(((const uint8_t *)r->data)[3] == 255);
    /* linear on bytes is refused */
    ints[0] = RLX_RESIZE_LINEAR;
    result bad = { 0 };
    ASSERT_STATUS(run_any_try(RLX_OP_RESIZE, 1, &s, &attrs, &bad),
                  RLX_ERR_DTYPE);
    ASSERT_CONTAINS(run_error, "Fix:");
}

TEST(linear_transforms)
{
    static const float x[4] = { 0, 10, 20, 30 };
    tensor out;
    /* align_corners 4 -> 7: x = o * 3 / 6 = o / 2 */
    const float *y = resize1(x, 4, 7, RLX_RESIZE_LINEAR,
                             RLX_RESIZE_ALIGN_CORNERS, 0, 0, 0, &out);
    for (int o = 0; o < 7; o++)
        ASSERT(close_enough(y[o], 5.0 * o, REL_TOL));
    /* half_pixel 4 -> 8: x = (o + .5) / 2 - .5; the ends clamp */
    y = resize1(x, 4, 8, RLX_RESIZE_LINEAR, RLX_RESIZE_HALF_PIXEL, 0, 0, 0,
                &out);
    static const double hp[8] = { 0, 2.5, 7.5, 12.5, 17.5, 22.5, 27.5, 30 };
    check_values("half_pixel", y, hp, 8, REL_TOL, 1e-6);
    /* pytorch_half_pixel to one output: x = 0 */
    y = resize1(x, 4, 1, RLX_RESIZE_LINEAR, RLX_RESIZE_PYTORCH_HALF_PIXEL, 0,
                0, 0, &out);
    ASSERT(y[0] == 0);
    /* half_pixel to one output: x = 0.5 * 4 - 0.5 = 1.5 */
    y = resize1(x, 4, 1, RLX_RESIZE_LINEAR, RLX_RESIZE_HALF_PIXEL, 0, 0, 0,
                &out);
    ASSERT(close_enough(y[0], 15.0, REL_TOL));
}

TEST(half_pixel_symmetric)
{
    /* 4 -> 6 with scale 1.6 (6.4 unrounded): adjustment 6 / 6.4, offset
     * 2 * (1 - adjustment) = 0.125; x = 0.125 + (o + .5) / 1.6 - .5 */
    static const float x[4] = { 0, 10, 20, 30 };
    tensor out;
    const float *y = resize1(x, 4, 6, RLX_RESIZE_LINEAR,
                             RLX_RESIZE_HALF_PIXEL_SYMMETRIC, 0, 0, 1.6,
                             &out);
    double want[6];
    for (int o = 0; o < 6; o++) {
        double c = 0.125 + (o + 0.5) / 1.6 - 0.5;
        c = c < 0 ? 0 : c > 3 ? 3 : c;
        want[o] = 10 * c;
    }
    check_values("half_pixel_symmetric", y, want, 6, REL_TOL, 1e-6);
}

TEST(exclude_outside_renormalizes)
{
    /* cubic at t = 0.5, A = -0.75: weights -0.09375, 0.59375, 0.59375,
     * -0.09375. Asymmetric 2 -> 4 (scale 2): at x = 0.5 the taps -1 and
     * 2 fall outside; with exclude_outside their weights go and the two
     * inside are renormalised to 0.5 each */
    static const float x[2] = { 4, 8 };
    tensor out;
    const float *y = resize1(x, 2, 4, RLX_RESIZE_CUBIC,
                             RLX_RESIZE_ASYMMETRIC, 0, 1, 0, &out);
    ASSERT(close_enough(y[1], 6.0, REL_TOL));
    ASSERT(y[0] == 4);
    /* without it the outside taps read the edge: at x = 1.5 tap 0 reads
     * 4 and taps 1..3 read 8 */
    y = resize1(x, 2, 4, RLX_RESIZE_CUBIC, RLX_RESIZE_ASYMMETRIC, 0, 0, 0,
                &out);
    ASSERT(close_enough(y[3], -0.09375 * 4 + (0.59375 * 2 - 0.09375) * 8,
                        REL_TOL));
}

TEST(identity_keeps_nan_and_signed_zero)
{
    static const float x[4] = { NAN, -0.0f, 1, -2 };
    int64_t ints[] = { RLX_RESIZE_LINEAR, RLX_RESIZE_HALF_PIXEL, 0, 0, 2, 2 };
    rlx_attrs attrs = { 6, ints, 0, NULL };
    tensor in = make(2, DIMS(2, 2), x), out;
    const float *y = run_op(RLX_OP_RESIZE, 1, &in, &attrs, &out);
    ASSERT(isnan(y[0]));
    ASSERT(y[1] == 0 && signbit(y[1]));
    ASSERT(y[2] == 1 && y[3] == -2);
    /* an empty axis stays empty */
    int64_t e[] = { RLX_RESIZE_NEAREST, RLX_RESIZE_HALF_PIXEL, 0, 0, 0, 5 };
    rlx_attrs ea = { 6, e, 0, NULL };
    tensor ein = make(2, DIMS(0, 2), NULL);
    run_op(RLX_OP_RESIZE, 1, &ein, &ea, &out);
    ASSERT_SHAPE(out, 2, 0, 5);
}

TEST(tf_crop_and_resize_extrapolates)
{
    /* roi [0.5, 1.5] over 3 values, 3 outputs: x = 0.5 * 2 + o * (1.5 -
     * 0.5) * 2 / 2 = 1, 2, 3; 3 is past in - 1, so it extrapolates */
    static const float x[3] = { 1, 2, 3 };
    int64_t ints[] = { RLX_RESIZE_LINEAR, RLX_RESIZE_TF_CROP_AND_RESIZE, 0,
                       0, 3 };
    double fl[] = { -0.75, -7, 1.0, 0.5, 1.5 };
    rlx_attrs attrs = { 5, ints, 5, fl };
    tensor in = make(1, DIMS(3), x), out;
    const float *y = run_op(RLX_OP_RESIZE, 1, &in, &attrs, &out);
    ASSERT(y[0] == 2 && y[1] == 3 && y[2] == -7);
}

TEST(resize_f16)
{
    uint16_t x[2] = { ref_f16(1.0), ref_f16(2.0) };
    int64_t ints[] = { RLX_RESIZE_LINEAR, RLX_RESIZE_ALIGN_CORNERS, 0, 0, 3 };
    rlx_attrs attrs = { 5, ints, 0, NULL };
    source s = src('i', RLX_DTYPE_F16, 1, DIMS(2), x);
    const result *r = run_any(RLX_OP_RESIZE, 1, &s, &attrs);
    ASSERT_EQ(((const uint16_t *)r->data)[1], ref_f16(1.5));
}

static void expect_error(const int64_t *ints, uint32_t n, const double *fl,
                         uint32_t nf, rlx_status code, const char *want)
{
    static const float z[4] = { 0 };
    source s = src('i', RLX_DTYPE_F32, 2, DIMS(2, 2), z);
    rlx_attrs attrs = { n, ints, nf, fl };
    result r = { 0 };
    ASSERT_STATUS(run_any_try(RLX_OP_RESIZE, 1, &s, &attrs, &r), code);
    ASSERT_CONTAINS(run_error, want);
    ASSERT_CONTAINS(run_error, "Fix:");
}

TEST(resize_errors)
{
    int64_t short_[] = { 0, 0, 0, 0, 2 }, mode[] = { 3, 0, 0, 0, 2, 2 };
    int64_t neg[] = { 0, 0, 0, 0, 2, -1 }, ok[] = { 0, 0, 0, 0, 2, 4 };
    double zero_scale[] = { -0.75, 0, 1, 0 }, inf[] = { INFINITY, 0 };
    double three[] = { 0, 0, 1 };
    expect_error(short_, 5, NULL, 0, RLX_ERR_INVALID_ARGUMENT,
                 "5 integer attributes for rank 2");
    expect_error(mode, 6, NULL, 0, RLX_ERR_INVALID_ARGUMENT, "mode 3");
    expect_error(neg, 6, NULL, 0, RLX_ERR_SHAPE, "output dim 1 is -1");
    expect_error(ok, 6, zero_scale, 4, RLX_ERR_INVALID_ARGUMENT,
                 "scales must be > 0");
    expect_error(ok, 6, inf, 2, RLX_ERR_INVALID_ARGUMENT, "finite");
    expect_error(ok, 6, three, 3, RLX_ERR_INVALID_ARGUMENT,
                 "3 float attributes");
}

RLX_TEST_LIST(TEST_ENTRY(nearest_roundings), TEST_ENTRY(nearest_on_bytes),
              TEST_ENTRY(linear_transforms),
              TEST_ENTRY(half_pixel_symmetric),
              TEST_ENTRY(exclude_outside_renormalizes),
              TEST_ENTRY(identity_keeps_nan_and_signed_zero),
              TEST_ENTRY(tf_crop_and_resize_extrapolates),
              TEST_ENTRY(resize_f16), TEST_ENTRY(resize_errors))
