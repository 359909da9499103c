/*
 * test-ops-grid.c - grid_sample on the reference CPU backend: a 2x2
 * image sampled at its corners, centre and outside, in each mode,
 * padding and align_corners setting, with hand-worked values (Keys'
 * cubic weights at 0.5 are -0.09375 and 0.59375), NaN coordinates, f16,
 * and the attribute and shape errors; and roi_align on an image whose
 * values are linear in the position, so a bilinear sample is exact.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

static const float img[4] = { 1, 2, 3, 4 }; /* [[1, 2], [3, 4]] */

/* Sample IMG at the N (x, y) points G with MODE, PAD, ALIGN. */
static const float *sample(const float *g, int64_t n, int64_t mode,
                           int64_t pad, int64_t align)
{
    int64_t a[3] = { mode, pad, align };
    rlx_attrs at = { 3, a, 0, NULL };
    source in[2] = { f32in(4, DIMS(1, 1, 2, 2), img),
                     f32in(4, DIMS(1, 1, n, 2), g) };
    const result *y = run_any(RLX_OP_GRID_SAMPLE, 2, in, &at);
    ASSERT_EQ(y->dtype, RLX_DTYPE_F32);
    ASSERT_RSHAPE(y, 4, 1, 1, 1, n);
    return y->data;
}

static void near(const float *got, const double *want, int n)
{
    for (int i = 0; i < n; i++)
        if (!close_enough(got[i], want[i], 1e-6))
            FAIL("element %d: %.9g, expected %.9g", i, got[i], want[i]);
}

TEST(linear_each_padding)
{
    /* the centre, the top-left outer corner, (x = 1, y = -1) */
    static const float g[6] = { 0, 0, -1, -1, 1, -1 };
    const int L = RLX_GRID_SAMPLE_LINEAR;
    /* align_corners 0: -1 is the outer edge, coordinate -0.5 */
    near(sample(g, 3, L, RLX_GRID_SAMPLE_ZEROS, 0),
         (double[]){ 2.5, 0.25, 0.5 }, 3);
    near(sample(g, 3, L, RLX_GRID_SAMPLE_BORDER, 0),
         (double[]){ 2.5, 1, 2 }, 3);
    near(sample(g, 3, L, RLX_GRID_SAMPLE_REFLECTION, 0),
         (double[]){ 2.5, 1, 2 }, 3);
    /* align_corners 1: -1 and 1 are the corner pixels' centres */
    near(sample(g, 3, L, RLX_GRID_SAMPLE_ZEROS, 1),
         (double[]){ 2.5, 1, 2 }, 3);
    /* outside (align 1: x = 5 is coordinate 3, x = 2 is 1.5, past the
     * last column 1): zeros reads 0 there (half of column 1 remains at
     * 1.5), border clamps to column 1, reflection mirrors about it (3 to
     * 1, 1.5 to 0.5) */
    static const float far[4] = { 5, 0, 2, -1 };
    near(sample(far, 2, L, RLX_GRID_SAMPLE_ZEROS, 1),
         (double[]){ 0, 1 }, 2);
    near(sample(far, 2, L, RLX_GRID_SAMPLE_BORDER, 1),
         (double[]){ 3, 2 }, 2);
    near(sample(far, 2, L, RLX_GRID_SAMPLE_REFLECTION, 1),
         (double[]){ 3, 1.5 }, 2);
}

TEST(nearest_and_cubic)
{
    /* nearest rounds half to even: the centre (0.5, 0.5) reads [0][0] */
    static const float g[4] = { 0, 0, 1, -1 };
    near(sample(g, 2, RLX_GRID_SAMPLE_NEAREST, RLX_GRID_SAMPLE_ZEROS, 1),
         (double[]){ 1, 2 }, 2);
    /* cubic at the centre: taps -1..2 weigh -0.09375, 0.59375, 0.59375,
     * -0.09375 per axis. Zeros drop the outer taps: 0.59375^2 * 10;
     * border folds them onto the edge: 0.5 each, the mean 2.5 */
    static const float c[2] = { 0, 0 };
    near(sample(c, 1, RLX_GRID_SAMPLE_CUBIC, RLX_GRID_SAMPLE_ZEROS, 1),
         (double[]){ 0.59375 * 0.59375 * 10 }, 1);
    near(sample(c, 1, RLX_GRID_SAMPLE_CUBIC, RLX_GRID_SAMPLE_BORDER, 1),
         (double[]){ 2.5 }, 1);
    /* a NaN coordinate gives NaN */
    static const float nan[2] = { NAN, 0 };
    ASSERT(isnan(sample(nan, 1, RLX_GRID_SAMPLE_LINEAR,
                        RLX_GRID_SAMPLE_BORDER, 0)[0]));
}

TEST(half_and_errors)
{
    uint16_t x[4], g[2];
    for (int i = 0; i < 4; i++)
        x[i] = ref_half(RLX_DTYPE_F16, img[i]);
    g[0] = g[1] = ref_half(RLX_DTYPE_F16, 0);
    int64_t a[3] = { 0, 0, 1 };
    rlx_attrs at = { 3, a, 0, NULL };
    source in[2] = { src('i', RLX_DTYPE_F16, 4, DIMS(1, 1, 2, 2), x),
                     src('i', RLX_DTYPE_F16, 4, DIMS(1, 1, 1, 2), g) };
    const result *y = run_any(RLX_OP_GRID_SAMPLE, 2, in, &at);
    ASSERT_EQ(y->dtype, RLX_DTYPE_F16);
    ASSERT_EQ(((const uint16_t *)y->data)[0], ref_half(RLX_DTYPE_F16, 2.5));

    result r;
    a[1] = 3; /* no such padding */
    ASSERT_EQ(run_any_try(RLX_OP_GRID_SAMPLE, 2, in, &at, &r),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "padding");
    a[1] = 0;
    /* a grid whose last axis is not the spatial rank */
    source bad[2] = { in[0], src('i', RLX_DTYPE_F16, 4, DIMS(1, 1, 1, 3),
                                 (uint16_t[]){ 0, 0, 0 }) };
    ASSERT_EQ(run_any_try(RLX_OP_GRID_SAMPLE, 2, bad, &at, &r),
              RLX_ERR_SHAPE);
    ASSERT_CONTAINS(run_error, "Fix:");
}

/* x[h][w] = 4h + w on a 4x4 image; one roi (0, 0)-(3, 3), one bin:
 * the status, and the one value into *Y. */
static rlx_status roi(int64_t mode, int64_t ratio, int64_t half,
                      int64_t batch, float *y)
{
    float x[16];
    for (int i = 0; i < 16; i++)
        x[i] = (float)i;
    static const float rois[4] = { 0, 0, 3, 3 };
    int64_t b[1] = { batch };
    int64_t a[5] = { mode, 1, 1, ratio, half };
    rlx_attrs at = { 5, a, 0, NULL };
    source in[3] = { f32in(4, DIMS(1, 1, 4, 4), x),
                     f32in(2, DIMS(1, 4), rois),
                     src('i', RLX_DTYPE_I64, 1, DIMS(1), b) };
    result r;
    rlx_status st = run_any_try(RLX_OP_ROI_ALIGN, 3, in, &at, &r);
    if (st == RLX_OK) {
        int shape_ok = r.rank == 4 && r.dims[0] == 1 && r.dims[2] == 1 &&
                       r.dims[3] == 1 && r.nbytes == sizeof *y;
        if (shape_ok)
            memcpy(y, r.data, sizeof *y);
        free(r.data);
        ASSERT(shape_ok);
    }
    return st;
}

TEST(roi_align_bins)
{
    float y = 0;
    /* output_half_pixel, 1 sample: the bin centre (1.5, 1.5) = 7.5 */
    ASSERT_OK(roi(0, 1, 0, 0, &y));
    ASSERT(close_enough(y, 7.5, 1e-6));
    /* 2 x 2 samples average to the centre too, the image being linear */
    ASSERT_OK(roi(0, 2, 0, 0, &y));
    ASSERT(close_enough(y, 7.5, 1e-6));
    /* half_pixel shifts the roi by -0.5: the sample is (1, 1) = 5 */
    ASSERT_OK(roi(0, 1, 1, 0, &y));
    ASSERT(close_enough(y, 5, 1e-6));
    /* max keeps the largest weighted corner: 0.25 * 10 */
    ASSERT_OK(roi(1, 1, 0, 0, &y));
    ASSERT(close_enough(y, 2.5, 1e-6));
    /* a batch index past N fails the run */
    ASSERT_EQ(roi(0, 1, 0, 1, &y), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "batch");
}

RLX_TEST_LIST(TEST_ENTRY(linear_each_padding), TEST_ENTRY(nearest_and_cubic),
              TEST_ENTRY(half_and_errors), TEST_ENTRY(roi_align_bins))
