/*
 * test-ops-pool.c - max_pool, avg_pool and lp_pool on the reference CPU
 * backend through the public API: hand-worked windows (padding, ceil
 * mode, count_include_pad, dilations, 1-d to 3-d), NaN and signed zero,
 * i8/u8 max_pool, f16, empty batches and attribute errors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* ceil, count_include_pad, p, then blocks; for a 1-d input */
static const float *pool1d(rlx_op op, const float *x, int64_t n,
                           const int64_t *ints, uint32_t n_ints, tensor *out)
{
    rlx_attrs attrs = { n_ints, ints, 0, NULL };
    tensor in = make(3, DIMS(1, 1, n), x);
    return run_op(op, 1, &in, &attrs, out);
}

TEST(max_pool_windows)
{
    static const float x[5] = { 1, 5, 2, 4, 3 };
    tensor out;
    /* kernel 2, stride 2: [1,5] [2,4] -> 5, 4 (floor drops the 3) */
    int64_t a[] = { 0, 0, 2, 2, 2 };
    const float *y = pool1d(RLX_OP_MAX_POOL, x, 5, a, 5, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 2);
    ASSERT(y[0] == 5 && y[1] == 4);
    /* ceil mode keeps the partial window [3] */
    int64_t c[] = { 1, 0, 2, 2, 2 };
    y = pool1d(RLX_OP_MAX_POOL, x, 5, c, 5, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 3);
    ASSERT(y[2] == 3);
    /* dilation 2, kernel 2: max(x[i], x[i+2]) */
    int64_t d[] = { 0, 0, 2, 2, 1, 2 };
    y = pool1d(RLX_OP_MAX_POOL, x, 5, d, 6, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 3);
    ASSERT(y[0] == 2 && y[1] == 5 && y[2] == 3);
    /* padding never wins, even over negative values */
    static const float neg[3] = { -3, -1, -2 };
    int64_t p[] = { 0, 0, 2, 3, 1, 1, 1, 1 };
    y = pool1d(RLX_OP_MAX_POOL, neg, 3, p, 8, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 3);
    ASSERT(y[0] == -1 && y[1] == -1 && y[2] == -1);
    /* NaN wins a max; -0 and +0 tie and the first is kept */
    static const float nan_x[4] = { 1, NAN, -0.0f, 0.0f };
    int64_t k2[] = { 0, 0, 2, 2, 2 };
    y = pool1d(RLX_OP_MAX_POOL, nan_x, 4, k2, 5, &out);
    ASSERT(isnan(y[0]));
    ASSERT(y[1] == 0 && signbit(y[1]));
}

TEST(ceil_mode_drops_window_in_end_padding)
{
    /* in 4, kernel 2, stride 2, pad_end 1, ceil: the third window would
     * start at 4, inside the end padding only, so it is dropped */
    static const float x[4] = { 1, 2, 3, 4 };
    int64_t a[] = { 1, 0, 2, 2, 2, 1, 0, 1 };
    tensor out;
    const float *y = pool1d(RLX_OP_AVG_POOL, x, 4, a, 8, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 2);
    ASSERT(y[0] == 1.5f && y[1] == 3.5f);
}

TEST(avg_pool_count_include_pad)
{
    static const float x[3] = { 3, 6, 9 };
    tensor out;
    /* kernel 3, pads 1/1: windows [p,3,6] [3,6,9] [6,9,p] */
    int64_t ex[] = { 0, 0, 2, 3, 1, 1, 1, 1 };
    const float *y = pool1d(RLX_OP_AVG_POOL, x, 3, ex, 8, &out);
    ASSERT(y[0] == 4.5f && y[1] == 6.0f && y[2] == 7.5f);
    int64_t in[] = { 0, 1, 2, 3, 1, 1, 1, 1 };
    y = pool1d(RLX_OP_AVG_POOL, x, 3, in, 8, &out);
    ASSERT(y[0] == 3.0f && y[1] == 6.0f && y[2] == 5.0f);
    /* ceil mode, stride 2, kernel 2, no pads, in 3: the last window
     * [9, past the end] counts only the 9 either way */
    int64_t cm[] = { 1, 1, 2, 2, 2 };
    y = pool1d(RLX_OP_AVG_POOL, x, 3, cm, 5, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 2);
    ASSERT(y[0] == 4.5f && y[1] == 9.0f);
}

TEST(lp_pool_norms)
{
    static const float x[4] = { 3, -4, 1, 2 };
    tensor out;
    int64_t p2[] = { 0, 0, 2, 2, 2 };
    const float *y = pool1d(RLX_OP_LP_POOL, x, 4, p2, 5, &out);
    ASSERT(y[0] == 5.0f);
    ASSERT(close_enough(y[1], sqrt(5.0), REL_TOL));
    int64_t p1[] = { 0, 0, 1, 2, 2 };
    y = pool1d(RLX_OP_LP_POOL, x, 4, p1, 5, &out);
    ASSERT(y[0] == 7.0f && y[1] == 3.0f);
    /* padding adds zeros: window [pad, 3] with p 3 is 3 */
    int64_t p3[] = { 0, 0, 3, 2, 2, 1, 1, 0 };
    y = pool1d(RLX_OP_LP_POOL, x, 4, p3, 8, &out);
    ASSERT_SHAPE(out, 3, 1, 1, 2);
    ASSERT(close_enough(y[0], 3.0, REL_TOL));
    ASSERT(close_enough(y[1], cbrt(64.0 + 1.0), REL_TOL));
}

TEST(pools_2d_and_3d)
{
    /* 2-d 3x3 max with kernel 2 stride 1: each 2x2 block's max */
    static const float x[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    int64_t a[] = { 0, 0, 2, 2, 2 };
    rlx_attrs attrs = { 5, a, 0, NULL };
    tensor in = make(4, DIMS(1, 1, 3, 3), x), out;
    const float *y = run_op(RLX_OP_MAX_POOL, 1, &in, &attrs, &out);
    ASSERT_SHAPE(out, 4, 1, 1, 2, 2);
    ASSERT(y[0] == 5 && y[1] == 6 && y[2] == 8 && y[3] == 9);
    /* 3-d average over the whole 2x2x2 cube, two channels */
    float cube[16];
    for (int i = 0; i < 16; i++)
        cube[i] = (float)i;
    int64_t c[] = { 0, 0, 2, 2, 2, 2 };
    rlx_attrs ca = { 6, c, 0, NULL };
    tensor cin = make(5, DIMS(1, 2, 2, 2, 2), cube);
    y = run_op(RLX_OP_AVG_POOL, 1, &cin, &ca, &out);
    ASSERT_SHAPE(out, 5, 1, 2, 1, 1, 1);
    ASSERT(y[0] == 3.5f && y[1] == 11.5f);
    /* an empty batch */
    tensor e = make(4, DIMS(0, 3, 3, 3), NULL);
    run_op(RLX_OP_MAX_POOL, 1, &e, &attrs, &out);
    ASSERT_SHAPE(out, 4, 0, 3, 2, 2);
}

TEST(max_pool_bytes)
{
    static const int8_t xi[4] = { -128, -5, 127, -1 };
    static const uint8_t xu[4] = { 0, 255, 7, 200 };
    int64_t a[] = { 0, 0, 2, 2, 2, 0, 0 };
    rlx_attrs attrs = { 5, a, 0, NULL };
    source si = src('i', RLX_DTYPE_I8, 3, DIMS(1, 1, 4), xi);
    const result *r = run_any(RLX_OP_MAX_POOL, 1, &si, &attrs);
    ASSERT_EQ(r->dtype, RLX_DTYPE_I8);
    ASSERT_EQ(((const int8_t *)r->data)[0], -5);
    ASSERT_EQ(((const int8_t *)r->data)[1], 127);
    source su = src('i', RLX_DTYPE_U8, 3, DIMS(1, 1, 4), xu);
    r = run_any(RLX_OP_MAX_POOL, 1, &su, &attrs);
    ASSERT_EQ(((const uint8_t *)r->data)[0], 255);
    ASSERT_EQ(((const uint8_t *)r->data)[1], 200);
    /* avg_pool on bytes is refused */
    result bad = { 0 };
    ASSERT_STATUS(run_any_try(RLX_OP_AVG_POOL, 1, &si, &attrs, &bad),
                  RLX_ERR_DTYPE);
}

TEST(avg_pool_f16)
{
    uint16_t x[4];
    static const float xf[4] = { 0.1f, 0.2f, 0.3f, 0.7f };
    for (int i = 0; i < 4; i++)
        x[i] = ref_f16(xf[i]);
    int64_t a[] = { 0, 0, 2, 4 };
    rlx_attrs attrs = { 4, a, 0, NULL };
    source s = src('i', RLX_DTYPE_F16, 3, DIMS(1, 1, 4), x);
    const result *r = run_any(RLX_OP_AVG_POOL, 1, &s, &attrs);
    double sum = 0;
    for (int i = 0; i < 4; i++)
        sum += ref_f16_value(x[i]);
    ASSERT_EQ(((const uint16_t *)r->data)[0], ref_f16(sum / 4));
}

static void expect_error(rlx_op op, const int64_t *ints, uint32_t n,
                         rlx_status code, const char *want)
{
    static const float z[16] = { 0 };
    source s = src('i', RLX_DTYPE_F32, 3, DIMS(1, 1, 4), z);
    rlx_attrs attrs = { n, ints, 0, NULL };
    result r = { 0 };
    ASSERT_STATUS(run_any_try(op, 1, &s, n ? &attrs : NULL, &r), code);
    ASSERT_CONTAINS(run_error, want);
    ASSERT_CONTAINS(run_error, "Fix:");
}

TEST(pool_errors)
{
    int64_t ceil2[] = { 2, 0, 2, 2 }, pad[] = { 0, 0, 2, 2, 1, 1, 2, 0 };
    int64_t big[] = { 0, 0, 2, 9 }, p0[] = { 0, 0, 0, 2 };
    int64_t k0[] = { 0, 0, 2, 0 };
    expect_error(RLX_OP_MAX_POOL, NULL, 0, RLX_ERR_INVALID_ARGUMENT,
                 "no kernel size");
    expect_error(RLX_OP_MAX_POOL, ceil2, 4, RLX_ERR_INVALID_ARGUMENT,
                 "ceil_mode 2");
    expect_error(RLX_OP_AVG_POOL, pad, 8, RLX_ERR_SHAPE,
                 "reach a whole window");
    expect_error(RLX_OP_MAX_POOL, big, 4, RLX_ERR_SHAPE, "larger than");
    expect_error(RLX_OP_LP_POOL, p0, 4, RLX_ERR_INVALID_ARGUMENT,
                 "p is 0");
    expect_error(RLX_OP_MAX_POOL, k0, 4, RLX_ERR_INVALID_ARGUMENT,
                 "kernel[0] is 0");
}

/* max_pool_index: the flat input position of each maximum, hand-worked
 * on a [1, 2, 2, 3] input (2 channels) with a 2x2 kernel and stride 1;
 * ties, NaN and storage order. */
TEST(max_pool_index_positions)
{
    static const float x[12] = { 1, 9, 3,   /* channel 0 */
                                 4, 5, 9,
                                 7, 7, NAN, /* channel 1 */
                                 7, 2, 1 };
    int64_t a[] = { 0, 0, 0, 2, 2, 1, 1 };
    rlx_attrs at = { 7, a, 0, NULL };
    source in = f32in(4, DIMS(1, 2, 2, 3), x);
    const result *y = run_any(RLX_OP_MAX_POOL_INDEX, 1, &in, &at);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT_RSHAPE(y, 4, 1, 2, 1, 2);
    const int64_t *g = y->data;
    /* channel 0: windows {1,9,4,5} -> 9 at 1; {9,3,5,9} -> first 9, at 1.
     * channel 1 (offset 6): {7,7,7,2} -> the first 7, at 6 + 0; {7,NaN,
     * 2,1} -> NaN, at 6 + 2 */
    ASSERT(g[0] == 1 && g[1] == 1 && g[2] == 6 && g[3] == 8);
    /* storage_order 1: spatial position column-major, w * H + h */
    a[2] = 1;
    y = run_any(RLX_OP_MAX_POOL_INDEX, 1, &in, &at);
    g = y->data;
    ASSERT(g[0] == 2 && g[1] == 2 && g[2] == 6 && g[3] == 6 + 4);
    /* a storage order other than 0 or 1 is refused */
    a[2] = 2;
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_MAX_POOL_INDEX, 1, &in, &at, &r),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "storage_order");
}

RLX_TEST_LIST(TEST_ENTRY(max_pool_windows),
              TEST_ENTRY(max_pool_index_positions),
              TEST_ENTRY(ceil_mode_drops_window_in_end_padding),
              TEST_ENTRY(avg_pool_count_include_pad),
              TEST_ENTRY(lp_pool_norms), TEST_ENTRY(pools_2d_and_3d),
              TEST_ENTRY(max_pool_bytes), TEST_ENTRY(avg_pool_f16),
              TEST_ENTRY(pool_errors))
