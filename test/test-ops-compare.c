/*
 * test-ops-compare.c - comparisons, logical ops, where, isnan and isinf
 * on the reference CPU backend through the public API: every numeric
 * dtype, NaN and signed zero, broadcasting (three-way for where) and
 * empty tensors, against hand-worked expectations.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

static const rlx_op cmp_ops[5] = { RLX_OP_EQUAL, RLX_OP_LESS,
                                   RLX_OP_LESS_EQUAL, RLX_OP_GREATER,
                                   RLX_OP_GREATER_EQUAL };

/* What the test expects of comparison K (cmp_ops order) on X, Y. */
static int want_cmp(int k, double x, double y)
{
    switch (k) {
    case 0: return x == y;
    case 1: return x < y;
    case 2: return x <= y;
    case 3: return x > y;
    default: return x >= y;
    }
}

static void check_bools(const result *y, const unsigned char *want,
                        size_t n)
{
    ASSERT_EQ(y->dtype, RLX_DTYPE_BOOL);
    ASSERT_EQ(y->nbytes, n);
    for (size_t i = 0; i < n; i++)
        if (((const unsigned char *)y->data)[i] != want[i])
            FAIL("element %zu: got %d, want %d", i,
                 ((const unsigned char *)y->data)[i], want[i]);
}

TEST(compare_f32_nan_and_signed_zero)
{
    static const float x[6] = { 1.0f, 2.0f, NAN, 0.0f, -INFINITY, 3.0f };
    static const float y[6] = { 1.0f, 1.0f, NAN, -0.0f, -INFINITY, NAN };
    source in[2] = { f32in(1, DIMS(6), x), f32in(1, DIMS(6), y) };
    for (int k = 0; k < 5; k++) {
        unsigned char want[6];
        for (int i = 0; i < 6; i++)
            want[i] = (unsigned char)want_cmp(k, x[i], y[i]);
        check_bools(run_any(cmp_ops[k], 2, in, NULL), want, 6);
    }
    /* spot values, so the expectations above are not all the test has */
    const result *r = run_any(RLX_OP_EQUAL, 2, in, NULL);
    ASSERT_EQ(((const unsigned char *)r->data)[2], 0); /* NaN != NaN */
    ASSERT_EQ(((const unsigned char *)r->data)[3], 1); /* 0 == -0 */
}

TEST(compare_integers_every_width)
{
    /* extremes of each width: a comparison done in a narrower or
     * unsigned type would get them wrong */
    static const int8_t a8[4] = { -128, 127, 0, -1 };
    static const int8_t b8[4] = { 127, -128, 0, 0 };
    static const uint8_t au[4] = { 255, 0, 128, 7 }, bu[4] = { 0, 255, 127, 7 };
    static const int32_t a32[4] = { INT32_MIN, INT32_MAX, 5, -5 };
    static const int32_t b32[4] = { INT32_MAX, INT32_MIN, 5, 5 };
    static const int64_t a64[4] = { INT64_MIN, INT64_MAX, 9007199254740993LL,
                                    -2 };
    static const int64_t b64[4] = { INT64_MAX, INT64_MIN, 9007199254740992LL,
                                    -2 };
    /* as doubles a64[2] and b64[2] are equal; as integers they are not */
    struct { rlx_dtype t; const void *a, *b; } cases[4] = {
        { RLX_DTYPE_I8, a8, b8 }, { RLX_DTYPE_U8, au, bu },
        { RLX_DTYPE_I32, a32, b32 }, { RLX_DTYPE_I64, a64, b64 } };
    static const unsigned char lt[4][4] = { { 1, 0, 0, 1 }, { 0, 1, 0, 0 },
                                            { 1, 0, 0, 1 }, { 1, 0, 0, 0 } };
    static const unsigned char eq[4][4] = { { 0, 0, 1, 0 }, { 0, 0, 0, 1 },
                                            { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
    for (int c = 0; c < 4; c++) {
        source in[2] = { src('i', cases[c].t, 1, DIMS(4), cases[c].a),
                         src('c', cases[c].t, 1, DIMS(4), cases[c].b) };
        check_bools(run_any(RLX_OP_LESS, 2, in, NULL), lt[c], 4);
        check_bools(run_any(RLX_OP_EQUAL, 2, in, NULL), eq[c], 4);
        unsigned char ge[4];
        for (int i = 0; i < 4; i++)
            ge[i] = !lt[c][i];
        check_bools(run_any(RLX_OP_GREATER_EQUAL, 2, in, NULL), ge, 4);
    }
}

TEST(compare_broadcast_and_half)
{
    /* [2,1] vs [3] -> [2,3], in f16 and bf16 */
    static const float col[2] = { 1.0f, 2.5f }, row[3] = { 0.5f, 2.5f, 4.0f };
    static const unsigned char le[6] = { 0, 1, 1, 0, 1, 1 };
    rlx_dtype halves[2] = { RLX_DTYPE_F16, RLX_DTYPE_BF16 };
    for (int h = 0; h < 2; h++) {
        uint16_t c16[2], r16[3];
        for (int i = 0; i < 2; i++)
            c16[i] = ref_half(halves[h], col[i]);
        for (int i = 0; i < 3; i++)
            r16[i] = ref_half(halves[h], row[i]);
        source in[2] = { src('i', halves[h], 2, DIMS(2, 1), c16),
                         src('i', halves[h], 1, DIMS(3), r16) };
        const result *y = run_any(RLX_OP_LESS_EQUAL, 2, in, NULL);
        ASSERT_RSHAPE(y, 2, 2, 3);
        check_bools(y, le, 6);
    }
}

TEST(equal_on_bool_and_empty)
{
    static const unsigned char a[4] = { 0, 0, 1, 1 }, b[4] = { 0, 1, 0, 1 };
    static const unsigned char eq[4] = { 1, 0, 0, 1 };
    source in[2] = { src('i', RLX_DTYPE_BOOL, 1, DIMS(4), a),
                     src('i', RLX_DTYPE_BOOL, 1, DIMS(4), b) };
    check_bools(run_any(RLX_OP_EQUAL, 2, in, NULL), eq, 4);
    source e[2] = { f32in(2, DIMS(0, 3), NULL), f32in(1, DIMS(3), v3) };
    const result *y = run_any(RLX_OP_GREATER, 2, e, NULL);
    ASSERT_RSHAPE(y, 2, 0, 3);
    ASSERT_EQ(y->nbytes, 0);
}

TEST(logical_ops)
{
    static const unsigned char a[4] = { 0, 0, 1, 1 }, b[4] = { 0, 1, 0, 1 };
    static const unsigned char and_[4] = { 0, 0, 0, 1 };
    static const unsigned char or_[4] = { 0, 1, 1, 1 };
    static const unsigned char xor_[4] = { 0, 1, 1, 0 };
    static const unsigned char not_[4] = { 1, 1, 0, 0 };
    source in[2] = { src('i', RLX_DTYPE_BOOL, 1, DIMS(4), a),
                     src('p', RLX_DTYPE_BOOL, 1, DIMS(4), b) };
    check_bools(run_any(RLX_OP_LOGICAL_AND, 2, in, NULL), and_, 4);
    check_bools(run_any(RLX_OP_LOGICAL_OR, 2, in, NULL), or_, 4);
    check_bools(run_any(RLX_OP_LOGICAL_XOR, 2, in, NULL), xor_, 4);
    check_bools(run_any(RLX_OP_LOGICAL_NOT, 1, in, NULL), not_, 4);
    /* broadcasting: [2,1] and [2] */
    source bc[2] = { src('i', RLX_DTYPE_BOOL, 2, DIMS(2, 1), a + 1),
                     src('i', RLX_DTYPE_BOOL, 1, DIMS(2), b + 2) };
    static const unsigned char bor[4] = { 0, 1, 1, 1 }; /* (0|1 0) x (0,1) */
    const result *y = run_any(RLX_OP_LOGICAL_OR, 2, bc, NULL);
    ASSERT_RSHAPE(y, 2, 2, 2);
    check_bools(y, bor, 4);
    /* f32 is not a logical operand */
    source f[2] = { f32in(1, DIMS(3), v3), f32in(1, DIMS(3), v3) };
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_LOGICAL_AND, 2, f, NULL, &r), RLX_ERR_DTYPE);
}

TEST(where_three_way_broadcast)
{
    /* cond [2,1,1], a [3,1], b [4] -> [2,3,4] */
    static const unsigned char cond[2] = { 1, 0 };
    static const int64_t a[3] = { 10, 20, INT64_MIN };
    static const int64_t b[4] = { -1, -2, -3, INT64_MAX };
    source in[3] = { src('i', RLX_DTYPE_BOOL, 3, DIMS(2, 1, 1), cond),
                     src('i', RLX_DTYPE_I64, 2, DIMS(3, 1), a),
                     src('c', RLX_DTYPE_I64, 1, DIMS(4), b) };
    const result *y = run_any(RLX_OP_WHERE, 3, in, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT_RSHAPE(y, 3, 2, 3, 4);
    const int64_t *v = y->data;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                ASSERT_EQ(v[(i * 3 + j) * 4 + k], cond[i] ? a[j] : b[k]);
}

TEST(where_every_dtype)
{
    /* the selected bytes are copied as they are: NaN payloads, -0 */
    static const unsigned char cond[3] = { 1, 0, 1 };
    static const float a[3] = { -0.0f, 1.0f, NAN }, b[3] = { 5, 6, 7 };
    source in[3] = { src('i', RLX_DTYPE_BOOL, 1, DIMS(3), cond),
                     f32in(1, DIMS(3), a), f32in(1, DIMS(3), b) };
    const result *y = run_any(RLX_OP_WHERE, 3, in, NULL);
    const float *f = y->data;
    ASSERT(f[0] == 0.0f && signbit(f[0]));
    ASSERT(f[1] == 6.0f);
    ASSERT(isnan(f[2]));
    rlx_dtype all[] = { RLX_DTYPE_F16, RLX_DTYPE_BF16, RLX_DTYPE_F64,
                        RLX_DTYPE_I8, RLX_DTYPE_U8, RLX_DTYPE_I32,
                        RLX_DTYPE_BOOL };
    for (size_t t = 0; t < N_OF(all); t++) {
        size_t es = rlx_dtype_size(all[t]);
        unsigned char ab[24], bb[24];
        for (size_t i = 0; i < 3 * es; i++) {
            int is_bool = all[t] == RLX_DTYPE_BOOL;
            ab[i] = (unsigned char)(is_bool ? 1 : 0x11 * (i + 1));
            bb[i] = (unsigned char)(is_bool ? 0 : 0xA0 + i);
        }
        source tin[3] = { in[0], src('i', all[t], 1, DIMS(3), ab),
                          src('i', all[t], 1, DIMS(3), bb) };
        y = run_any(RLX_OP_WHERE, 3, tin, NULL);
        ASSERT_EQ(y->dtype, all[t]);
        const unsigned char *o = y->data;
        for (size_t i = 0; i < 3; i++)
            ASSERT(memcmp(o + i * es, (cond[i] ? ab : bb) + i * es, es) == 0);
    }
    /* the condition must be bool, a and b one dtype */
    result r;
    source bad[3] = { f32in(1, DIMS(3), a), f32in(1, DIMS(3), a),
                      f32in(1, DIMS(3), b) };
    ASSERT_EQ(run_any_try(RLX_OP_WHERE, 3, bad, NULL, &r), RLX_ERR_DTYPE);
    ASSERT(strstr(run_error, "Fix:") != NULL);
    static const int32_t i3[3] = { 1, 2, 3 };
    source mix[3] = { in[0], f32in(1, DIMS(3), a),
                      src('i', RLX_DTYPE_I32, 1, DIMS(3), i3) };
    ASSERT_EQ(run_any_try(RLX_OP_WHERE, 3, mix, NULL, &r), RLX_ERR_DTYPE);
    source shp[3] = { src('i', RLX_DTYPE_BOOL, 1, DIMS(2), cond),
                      f32in(1, DIMS(3), a), f32in(1, DIMS(3), b) };
    ASSERT_EQ(run_any_try(RLX_OP_WHERE, 3, shp, NULL, &r), RLX_ERR_SHAPE);
}

TEST(isnan_isinf)
{
    static const float x[6] = { 1.0f, NAN, INFINITY, -INFINITY, -0.0f,
                                3.4e38f };
    static const unsigned char nan_[6] = { 0, 1, 0, 0, 0, 0 };
    static const unsigned char inf_[6] = { 0, 0, 1, 1, 0, 0 };
    static const unsigned char pos[6] = { 0, 0, 1, 0, 0, 0 };
    static const unsigned char neg[6] = { 0, 0, 0, 1, 0, 0 };
    static const unsigned char none[6] = { 0 };
    source in = f32in(1, DIMS(6), x);
    check_bools(run_any(RLX_OP_ISNAN, 1, &in, NULL), nan_, 6);
    check_bools(run_any(RLX_OP_ISINF, 1, &in, NULL), inf_, 6);
    rlx_attrs ap = { 2, DIMS(1, 0), 0, NULL }, an = { 2, DIMS(0, 1), 0, NULL };
    rlx_attrs a0 = { 2, DIMS(0, 0), 0, NULL }, bad = { 1, DIMS(2), 0, NULL };
    check_bools(run_any(RLX_OP_ISINF, 1, &in, &ap), pos, 6);
    check_bools(run_any(RLX_OP_ISINF, 1, &in, &an), neg, 6);
    check_bools(run_any(RLX_OP_ISINF, 1, &in, &a0), none, 6);
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_ISINF, 1, &in, &bad, &r),
              RLX_ERR_INVALID_ARGUMENT);
    /* bf16 keeps infinities and NaN */
    uint16_t h[6];
    for (int i = 0; i < 6; i++)
        h[i] = ref_bf16(x[i]);
    source hb = src('i', RLX_DTYPE_BF16, 1, DIMS(6), h);
    check_bools(run_any(RLX_OP_ISNAN, 1, &hb, NULL), nan_, 6);
    /* integers have neither */
    static const int32_t i3[3] = { 1, 2, 3 };
    source ii = src('i', RLX_DTYPE_I32, 1, DIMS(3), i3);
    ASSERT_EQ(run_any_try(RLX_OP_ISNAN, 1, &ii, NULL, &r), RLX_ERR_DTYPE);
}

RLX_TEST_LIST(TEST_ENTRY(compare_f32_nan_and_signed_zero),
              TEST_ENTRY(compare_integers_every_width),
              TEST_ENTRY(compare_broadcast_and_half),
              TEST_ENTRY(equal_on_bool_and_empty), TEST_ENTRY(logical_ops),
              TEST_ENTRY(where_three_way_broadcast),
              TEST_ENTRY(where_every_dtype), TEST_ENTRY(isnan_isinf))
