/*
 * test-ops-quant.c - the quantization primitives on the reference CPU
 * backend through the public API, beyond what the ONNX tests reach:
 * quantize_linear from f16 and bf16, dequantize_linear to f16 and in
 * blocked form, matmul_integer with broadcast batch dims and per-column
 * zero points, conv_integer with groups, strides and per-channel weight
 * zero points, and empty tensors. Expectations are hand-worked.
 */
#include <stdint.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

static int64_t get_int(rlx_dtype t, const void *p, size_t i)
{
    switch (t) {
    case RLX_DTYPE_I8: return ((const int8_t *)p)[i];
    case RLX_DTYPE_U8: return ((const uint8_t *)p)[i];
    default: return ((const int32_t *)p)[i];
    }
}

static void expect_ints(const result *y, rlx_dtype t, const int64_t *want,
                        size_t n)
{
    ASSERT_EQ(y->dtype, t);
    ASSERT_EQ(y->nbytes, n * rlx_dtype_size(t));
    for (size_t i = 0; i < n; i++)
        if (get_int(t, y->data, i) != want[i])
            FAIL("element %zu: %lld, expected %lld", i,
                 (long long)get_int(t, y->data, i), (long long)want[i]);
}

/* f16 and bf16 data divide in f32 and round half to even as f32 does. */
TEST(quantize_from_half_dtypes)
{
    static const rlx_dtype halves[2] = { RLX_DTYPE_F16, RLX_DTYPE_BF16 };
    for (int h = 0; h < 2; h++) {
        rlx_dtype t = halves[h];
        /* all exact in both half formats */
        static const double xs[5] = { -2.5, 0.5, 1.5, 300, -1 };
        uint16_t x[5], s = ref_half(t, 1.0);
        for (int i = 0; i < 5; i++)
            x[i] = ref_half(t, xs[i]);
        uint8_t z = 10;
        source in[3] = { src('i', t, 1, DIMS(5), x),
                         src('c', t, 0, DIMS(0), &s),
                         src('c', RLX_DTYPE_U8, 0, DIMS(0), &z) };
        const result *y = run_any(RLX_OP_QUANTIZE_LINEAR, 3, in, NULL);
        int64_t want[5] = { 8, 10, 12, 255, 9 };
        expect_ints(y, RLX_DTYPE_U8, want, 5);
    }
}

/* Blocks of 2 along axis 0 of a [3, 2]: rows 0-1 use scale row 0, row 2
 * the second; the result is f16 as the scale is. */
TEST(dequantize_blocked_to_f16)
{
    static const int8_t x[6] = { 1, -1, 2, -2, 3, -3 };
    uint16_t s[4] = { ref_f16(0.5), ref_f16(2), ref_f16(0.25), ref_f16(1) };
    static const int8_t z[4] = { 0, 1, -1, 0 };
    int64_t at[2] = { 0, 2 };
    rlx_attrs a = { 2, at, 0, NULL };
    source in[3] = { src('i', RLX_DTYPE_I8, 2, DIMS(3, 2), x),
                     src('c', RLX_DTYPE_F16, 2, DIMS(2, 2), s),
                     src('c', RLX_DTYPE_I8, 2, DIMS(2, 2), z) };
    const result *y = run_any(RLX_OP_DEQUANTIZE_LINEAR, 3, in, &a);
    ASSERT_EQ(y->dtype, RLX_DTYPE_F16);
    /* (1-0)*.5, (-1-1)*2, (2-0)*.5, (-2-1)*2, (3+1)*.25, (-3-0)*1 */
    static const double want[6] = { 0.5, -4, 1, -6, 1, -3 };
    const uint16_t *got = y->data;
    for (int i = 0; i < 6; i++)
        if (ref_f16_value(got[i]) != want[i])
            FAIL("element %d: %g, expected %g", i, ref_f16_value(got[i]),
                 want[i]);
}

/* a [2, 1, 2] x b [2, 1]: the batch dim of a, b broadcast; b's
 * per-column zero point is a one-element [1]. */
TEST(matmul_integer_batched)
{
    static const uint8_t a[4] = { 1, 2, 3, 4 };
    static const int8_t b[2] = { 5, -6 };
    static const uint8_t za = 1;
    static const int8_t zb[1] = { -1 };
    source in[4] = { src('i', RLX_DTYPE_U8, 3, DIMS(2, 1, 2), a),
                     src('i', RLX_DTYPE_I8, 2, DIMS(2, 1), b),
                     src('c', RLX_DTYPE_U8, 0, DIMS(0), &za),
                     src('c', RLX_DTYPE_I8, 1, DIMS(1), zb) };
    const result *y = run_any(RLX_OP_MATMUL_INTEGER, 4, in, NULL);
    ASSERT_EQ(y->rank, 3u);
    /* (a - 1) . (b + 1) = [0, 1].[6, -5], [2, 3].[6, -5] */
    int64_t want[2] = { -5, -3 };
    expect_ints(y, RLX_DTYPE_I32, want, 2);
}

/* Two groups, stride 2 on a [1, 2, 3, 3]: each output channel sees its
 * own input channel through a 1x1 kernel, with its own w zero point. */
TEST(conv_integer_groups_and_strides)
{
    uint8_t x[18];
    for (int i = 0; i < 18; i++)
        x[i] = (uint8_t)i;
    static const int8_t w[2] = { 2, 5 }, zw[2] = { 1, 2 };
    static const uint8_t zx = 4;
    /* group 2; strides 2, 2; dilations 1, 1; pads 0 */
    int64_t at[9] = { 2, 2, 2, 1, 1, 0, 0, 0, 0 };
    rlx_attrs a = { 9, at, 0, NULL };
    source in[4] = { src('i', RLX_DTYPE_U8, 4, DIMS(1, 2, 3, 3), x),
                     src('c', RLX_DTYPE_I8, 4, DIMS(2, 1, 1, 1), w),
                     src('c', RLX_DTYPE_U8, 0, DIMS(0), &zx),
                     src('c', RLX_DTYPE_I8, 1, DIMS(2), zw) };
    const result *y = run_any(RLX_OP_CONV_INTEGER, 4, in, &a);
    ASSERT_EQ(y->rank, 4u);
    ASSERT_EQ(y->dims[2], 2);
    /* channel 0 picks 0, 2, 6, 8, times (2-1); channel 1 picks 9, 11,
     * 15, 17, times (5-2); each minus x's zero point 4 first */
    int64_t want[8] = { -4, -2, 2, 4, 15, 21, 33, 39 };
    expect_ints(y, RLX_DTYPE_I32, want, 8);
}

TEST(empty_tensors)
{
    float s = 1;
    uint8_t z = 0;
    source in[3] = { src('i', RLX_DTYPE_F32, 2, DIMS(0, 3), empty_data),
                     src('c', RLX_DTYPE_F32, 0, DIMS(0), &s),
                     src('c', RLX_DTYPE_U8, 0, DIMS(0), &z) };
    const result *y = run_any(RLX_OP_QUANTIZE_LINEAR, 3, in, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_U8);
    ASSERT_EQ(y->nbytes, 0u);
    source mm[4] = { src('i', RLX_DTYPE_U8, 2, DIMS(0, 2), empty_data),
                     src('i', RLX_DTYPE_U8, 2, DIMS(2, 3), "abcdef"),
                     src('c', RLX_DTYPE_U8, 0, DIMS(0), &z),
                     src('c', RLX_DTYPE_U8, 0, DIMS(0), &z) };
    y = run_any(RLX_OP_MATMUL_INTEGER, 4, mm, NULL);
    ASSERT_EQ(y->rank, 2u);
    ASSERT_EQ(y->dims[0], 0);
    ASSERT_EQ(y->nbytes, 0u);
}

RLX_TEST_LIST(TEST_ENTRY(quantize_from_half_dtypes),
              TEST_ENTRY(dequantize_blocked_to_f16),
              TEST_ENTRY(matmul_integer_batched),
              TEST_ENTRY(conv_integer_groups_and_strides),
              TEST_ENTRY(empty_tensors))
