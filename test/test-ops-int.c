/*
 * test-ops-int.c - integer arithmetic on the reference CPU backend: add,
 * sub, mul, div, max, min, pow, neg, abs, relu, sign, clip, prelu, mod
 * and the bitwise ops on i8, u8, i32 and i64, through the public API.
 * Expectations are hand-worked: wrap-around at each width, division
 * truncating toward zero, division and remainder by zero giving 0, the
 * most negative value divided by -1, and clip bounds rounded inward.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* Element I of integer data of dtype T. */
static int64_t get_int(rlx_dtype t, const void *p, size_t i)
{
    switch (t) {
    case RLX_DTYPE_I8: return ((const int8_t *)p)[i];
    case RLX_DTYPE_U8: return ((const uint8_t *)p)[i];
    case RLX_DTYPE_I32: return ((const int32_t *)p)[i];
    default: return ((const int64_t *)p)[i];
    }
}

/* Run OP on two vectors of N elements of dtype T (or one, with B NULL)
 * and compare with WANT. The second operand enters as a constant (i8),
 * a param (u8) or an input, so each way in is covered. */
static void check_int(rlx_op op, const rlx_attrs *at, rlx_dtype t, size_t n,
                      const void *a, const void *b, const void *want)
{
    char kind = t == RLX_DTYPE_I8 ? 'c' : t == RLX_DTYPE_U8 ? 'p' : 'i';
    source in[2] = { src('i', t, 1, DIMS((int64_t)n), a),
                     src(kind, t, 1, DIMS((int64_t)n), b) };
    const result *y = run_any(op, b ? 2 : 1, in, at);
    ASSERT_EQ(y->dtype, t);
    for (size_t i = 0; i < n; i++)
        if (get_int(t, y->data, i) != get_int(t, want, i))
            FAIL("%s %s element %zu: got %lld, want %lld", rlx_op_name(op),
                 rlx_dtype_name(t), i, (long long)get_int(t, y->data, i),
                 (long long)get_int(t, want, i));
}

#define check_i8(op, at, n, a, b, w) check_int(op, at, RLX_DTYPE_I8, n, a, b, w)
#define check_u8(op, at, n, a, b, w) check_int(op, at, RLX_DTYPE_U8, n, a, b, w)
#define check_i32(op, at, n, a, b, w) \
    check_int(op, at, RLX_DTYPE_I32, n, a, b, w)
#define check_i64(op, at, n, a, b, w) \
    check_int(op, at, RLX_DTYPE_I64, n, a, b, w)

TEST(add_sub_mul_wrap)
{
    static const int8_t a8[4] = { 100, -100, 127, -128 };
    static const int8_t b8[4] = { 100, -100, 1, -1 };
    static const int8_t add8[4] = { -56, 56, -128, 127 };
    static const int8_t sub8[4] = { 0, 0, 126, -127 };
    static const int8_t mul8[4] = { 16, 16, 127, -128 }; /* 10000 = 0x2710 */
    check_i8(RLX_OP_ADD, NULL, 4, a8, b8, add8);
    check_i8(RLX_OP_SUB, NULL, 4, a8, b8, sub8);
    check_i8(RLX_OP_MUL, NULL, 4, a8, b8, mul8);
    static const uint8_t au[3] = { 250, 3, 16 }, bu[3] = { 10, 5, 16 };
    static const uint8_t addu[3] = { 4, 8, 32 }, subu[3] = { 240, 254, 0 };
    static const uint8_t mulu[3] = { 196, 15, 0 }; /* 2500 % 256, 256 */
    check_u8(RLX_OP_ADD, NULL, 3, au, bu, addu);
    check_u8(RLX_OP_SUB, NULL, 3, au, bu, subu);
    check_u8(RLX_OP_MUL, NULL, 3, au, bu, mulu);
    static const int64_t a64[3] = { INT64_MAX, INT64_MIN, 3037000500LL };
    static const int64_t b64[3] = { 1, -1, 3037000500LL };
    static const int64_t add64[3] = { INT64_MIN, INT64_MAX,
                                      6074001000LL };
    /* 3037000500^2 = 9223372037000250000 = INT64_MAX + 145474193 */
    static const int64_t mul64[3] = { INT64_MAX, INT64_MIN,
                                      INT64_MIN + 145474192LL };
    check_i64(RLX_OP_ADD, NULL, 3, a64, b64, add64);
    check_i64(RLX_OP_MUL, NULL, 3, a64, b64, mul64);
    static const int32_t a32[2] = { INT32_MIN, 65536 }, b32[2] = { 1, 65536 };
    static const int32_t sub32[2] = { INT32_MAX, 0 };
    static const int32_t mul32[2] = { INT32_MIN, 0 };
    check_i32(RLX_OP_SUB, NULL, 2, a32, b32, sub32);
    check_i32(RLX_OP_MUL, NULL, 2, a32, b32, mul32);
}

TEST(div_truncates_and_by_zero)
{
    static const int64_t a[8] = { 7, -7, 7, -7, 5, INT64_MIN, 0, -1 };
    static const int64_t b[8] = { 2, 2, -2, -2, 0, -1, 0, 3 };
    static const int64_t q[8] = { 3, -3, -3, 3, 0, INT64_MIN, 0, 0 };
    check_i64(RLX_OP_DIV, NULL, 8, a, b, q);
    static const int8_t a8[3] = { -128, -128, 100 }, b8[3] = { -1, 0, 7 };
    static const int8_t q8[3] = { -128, 0, 14 };
    check_i8(RLX_OP_DIV, NULL, 3, a8, b8, q8);
    static const uint8_t au[2] = { 255, 200 }, bu[2] = { 2, 0 };
    static const uint8_t qu[2] = { 127, 0 };
    check_u8(RLX_OP_DIV, NULL, 2, au, bu, qu);
}

TEST(max_min_pow)
{
    static const int64_t a[5] = { INT64_MIN, 5, -3, 2, -2 };
    static const int64_t b[5] = { INT64_MAX, 5, -4, 10, 3 };
    static const int64_t mx[5] = { INT64_MAX, 5, -3, 10, 3 };
    static const int64_t mn[5] = { INT64_MIN, 5, -4, 2, -2 };
    static const int64_t pa[5] = { 1, 5, 0, 2, -2 };
    static const int64_t pb[5] = { 0, 5, 3, 10, 3 };
    check_i64(RLX_OP_MAX, NULL, 5, a, b, mx);
    check_i64(RLX_OP_MIN, NULL, 5, a, b, mn);
    static const int64_t pw[5] = { 1, 3125, 0, 1024, -8 };
    check_i64(RLX_OP_POW, NULL, 5, pa, pb, pw);
    /* negative powers truncate: 1, +-1 for -1, else 0; 2^64 wraps to 0 */
    static const int64_t na[5] = { 1, -1, -1, 2, 2 };
    static const int64_t nb[5] = { -5, -3, -2, -1, 64 };
    static const int64_t nw[5] = { 1, -1, 1, 0, 0 };
    check_i64(RLX_OP_POW, NULL, 5, na, nb, nw);
    static const int8_t a8[2] = { 3, -2 }, b8[2] = { 5, 7 };
    static const int8_t p8[2] = { -13, -128 }; /* 243 wraps; -128 fits */
    check_i8(RLX_OP_POW, NULL, 2, a8, b8, p8);
}

TEST(unary_neg_abs_relu_sign)
{
    static const int64_t a[4] = { INT64_MIN, -5, 0, 7 };
    static const int64_t neg[4] = { INT64_MIN, 5, 0, -7 };
    static const int64_t abs_[4] = { INT64_MIN, 5, 0, 7 };
    static const int64_t relu[4] = { 0, 0, 0, 7 };
    static const int64_t sign[4] = { -1, -1, 0, 1 };
    check_i64(RLX_OP_NEG, NULL, 4, a, NULL, neg);
    check_i64(RLX_OP_ABS, NULL, 4, a, NULL, abs_);
    check_i64(RLX_OP_RELU, NULL, 4, a, NULL, relu);
    check_i64(RLX_OP_SIGN, NULL, 4, a, NULL, sign);
    static const int8_t a8[3] = { -128, -1, 127 };
    static const int8_t neg8[3] = { -128, 1, -127 };
    check_i8(RLX_OP_NEG, NULL, 3, a8, NULL, neg8);
    static const int8_t abs8[3] = { -128, 1, 127 };
    check_i8(RLX_OP_ABS, NULL, 3, a8, NULL, abs8);
    static const uint8_t au[3] = { 0, 200, 1 }, signu[3] = { 0, 1, 1 };
    check_u8(RLX_OP_SIGN, NULL, 3, au, NULL, signu);
    check_u8(RLX_OP_ABS, NULL, 3, au, NULL, au);
    /* u8 has no negation */
    source u = src('i', RLX_DTYPE_U8, 1, DIMS(3), au);
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_NEG, 1, &u, NULL, &r), RLX_ERR_DTYPE);
}

TEST(clip_integers)
{
    static const int32_t a[6] = { -10, -3, 0, 3, 10, INT32_MIN };
    /* bounds -2.5 and 4.5 round inward to -2 and 4 */
    double f[2] = { -2.5, 4.5 };
    rlx_attrs at = { 0, NULL, 2, f };
    static const int32_t want[6] = { -2, -2, 0, 3, 4, -2 };
    check_i32(RLX_OP_CLIP, &at, 6, a, NULL, want);
    /* absent max: no upper bound; a bound past the dtype saturates */
    double lo[1] = { -1e30 };
    rlx_attrs only_lo = { 0, NULL, 1, lo };
    check_i32(RLX_OP_CLIP, &only_lo, 6, a, NULL, a);
    double hi[2] = { -INFINITY, 1.0 };
    rlx_attrs only_hi = { 0, NULL, 2, hi };
    static const int32_t wh[6] = { -10, -3, 0, 1, 1, INT32_MIN };
    check_i32(RLX_OP_CLIP, &only_hi, 6, a, NULL, wh);
    /* min above max: everything becomes max, as NumPy's clip */
    double sw[2] = { 5, 1 };
    rlx_attrs swapped = { 0, NULL, 2, sw };
    static const int32_t ws[6] = { 1, 1, 1, 1, 1, 1 };
    check_i32(RLX_OP_CLIP, &swapped, 6, a, NULL, ws);
    static const uint8_t u[3] = { 0, 100, 255 }, wu[3] = { 10, 100, 200 };
    double ub[2] = { 10, 200 };
    rlx_attrs uat = { 0, NULL, 2, ub };
    check_u8(RLX_OP_CLIP, &uat, 3, u, NULL, wu);
    /* bounds beyond the dtype saturate to it, never wrap into it */
    double over[1] = { 300 };
    rlx_attrs uover = { 0, NULL, 1, over };
    static const uint8_t w255[3] = { 255, 255, 255 };
    check_u8(RLX_OP_CLIP, &uover, 3, u, NULL, w255);
    double under[2] = { -INFINITY, -1000 };
    rlx_attrs iunder = { 0, NULL, 2, under };
    static const int8_t i8v[3] = { -5, 0, 100 }, wmin[3] = { -128, -128, -128 };
    check_i8(RLX_OP_CLIP, &iunder, 3, i8v, NULL, wmin);
}

TEST(mod_sign_rules)
{
    static const int64_t a[8] = { 7, -7, 7, -7, 5, INT64_MIN, 6, 0 };
    static const int64_t b[8] = { 3, 3, -3, -3, 0, -1, 3, 4 };
    /* fmod 0: the sign of the divisor (Python's %) */
    static const int64_t m0[8] = { 1, 2, -2, -1, 0, 0, 0, 0 };
    /* fmod 1: the sign of the dividend (C's %) */
    static const int64_t m1[8] = { 1, -1, 1, -1, 0, 0, 0, 0 };
    rlx_attrs f0 = { 1, DIMS(0), 0, NULL }, f1 = { 1, DIMS(1), 0, NULL };
    check_i64(RLX_OP_MOD, NULL, 8, a, b, m0);
    check_i64(RLX_OP_MOD, &f0, 8, a, b, m0);
    check_i64(RLX_OP_MOD, &f1, 8, a, b, m1);
    static const uint8_t au[2] = { 250, 7 }, bu[2] = { 7, 0 };
    static const uint8_t mu[2] = { 5, 0 };
    check_u8(RLX_OP_MOD, NULL, 2, au, bu, mu);
    /* floats: only fmod 1, C's fmod */
    static const float fa[4] = { 5.5f, -5.5f, 1.0f, INFINITY };
    static const float fb[4] = { 2.0f, 2.0f, 0.0f, 1.0f };
    source in[2] = { f32in(1, DIMS(4), fa), f32in(1, DIMS(4), fb) };
    const result *y = run_any(RLX_OP_MOD, 2, in, &f1);
    const float *v = y->data;
    ASSERT(v[0] == 1.5f && v[1] == -1.5f && isnan(v[2]) && isnan(v[3]));
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_MOD, 2, in, NULL, &r),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT(strstr(run_error, "fmod") != NULL);
    rlx_attrs f2 = { 1, DIMS(2), 0, NULL };
    ASSERT_EQ(run_any_try(RLX_OP_MOD, 2, in, &f2, &r),
              RLX_ERR_INVALID_ARGUMENT);
}

TEST(bitwise)
{
    static const int32_t a[3] = { 0x0F0F, -1, INT32_MIN };
    static const int32_t b[3] = { 0x00FF, 0x1234, -1 };
    static const int32_t and_[3] = { 0x000F, 0x1234, INT32_MIN };
    static const int32_t or_[3] = { 0x0FFF, -1, -1 };
    static const int32_t xor_[3] = { 0x0FF0, ~0x1234, INT32_MAX };
    static const int32_t not_[3] = { ~0x0F0F, 0, INT32_MAX };
    check_i32(RLX_OP_BITWISE_AND, NULL, 3, a, b, and_);
    check_i32(RLX_OP_BITWISE_OR, NULL, 3, a, b, or_);
    check_i32(RLX_OP_BITWISE_XOR, NULL, 3, a, b, xor_);
    check_i32(RLX_OP_BITWISE_NOT, NULL, 3, a, NULL, not_);
    static const uint8_t u[2] = { 0x0F, 0xFF }, nu[2] = { 0xF0, 0x00 };
    check_u8(RLX_OP_BITWISE_NOT, NULL, 2, u, NULL, nu);
    /* broadcasting an i8 mask over a [2,2] */
    static const int8_t m[4] = { 1, 2, 3, -128 }, mask[2] = { 1, -1 };
    static const int8_t w[4] = { 1, 2, 1, -128 };
    source in[2] = { src('i', RLX_DTYPE_I8, 2, DIMS(2, 2), m),
                     src('i', RLX_DTYPE_I8, 1, DIMS(2), mask) };
    const result *y = run_any(RLX_OP_BITWISE_AND, 2, in, NULL);
    ASSERT_RSHAPE(y, 2, 2, 2);
    ASSERT(memcmp(y->data, w, 4) == 0);
}

TEST(prelu_integers_and_broadcast_binary)
{
    /* x [2,3] with a per-row slope [2,1] */
    static const int64_t x[6] = { -1, 2, -3, -4, 5, -6 };
    static const int64_t s[2] = { 2, -1 };
    static const int64_t w[6] = { -2, 2, -6, 4, 5, 6 };
    source in[2] = { src('i', RLX_DTYPE_I64, 2, DIMS(2, 3), x),
                     src('i', RLX_DTYPE_I64, 2, DIMS(2, 1), s) };
    const result *y = run_any(RLX_OP_PRELU, 2, in, NULL);
    ASSERT_RSHAPE(y, 2, 2, 3);
    ASSERT(memcmp(y->data, w, sizeof w) == 0);
    /* add on i32 with a scalar */
    static const int32_t v[3] = { 1, 2, 3 }, one[1] = { 10 };
    static const int32_t sum[3] = { 11, 12, 13 };
    source ab[2] = { src('i', RLX_DTYPE_I32, 1, DIMS(3), v),
                     src('c', RLX_DTYPE_I32, 0, NULL, one) };
    y = run_any(RLX_OP_ADD, 2, ab, NULL);
    ASSERT_RSHAPE(y, 1, 3);
    ASSERT(memcmp(y->data, sum, sizeof sum) == 0);
    /* bool is not a number */
    static const unsigned char bb[2] = { 1, 0 };
    source bs[2] = { src('i', RLX_DTYPE_BOOL, 1, DIMS(2), bb),
                     src('i', RLX_DTYPE_BOOL, 1, DIMS(2), bb) };
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_ADD, 2, bs, NULL, &r), RLX_ERR_DTYPE);
}

RLX_TEST_LIST(TEST_ENTRY(add_sub_mul_wrap),
              TEST_ENTRY(div_truncates_and_by_zero), TEST_ENTRY(max_min_pow),
              TEST_ENTRY(unary_neg_abs_relu_sign), TEST_ENTRY(clip_integers),
              TEST_ENTRY(mod_sign_rules), TEST_ENTRY(bitwise),
              TEST_ENTRY(prelu_integers_and_broadcast_binary))
