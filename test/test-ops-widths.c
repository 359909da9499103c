/*
 * test-ops-widths.c - the integer dtypes of 1.4 (i16, u16, u32, u64) on
 * the reference CPU backend: names and sizes, wrap-around at each width,
 * u64 values past 2^63 ordered and divided as unsigned, casts that
 * saturate, shifts and data movement. Expected values are hand-worked.
 */
#include <stdint.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

TEST(names_and_sizes)
{
    static const struct { rlx_dtype t; const char *name; size_t size; }
    w[] = { { RLX_DTYPE_I16, "i16", 2 }, { RLX_DTYPE_U16, "u16", 2 },
            { RLX_DTYPE_U32, "u32", 4 }, { RLX_DTYPE_U64, "u64", 8 } };
    for (size_t i = 0; i < N_OF(w); i++) {
        ASSERT_EQ(rlx_dtype_size(w[i].t), w[i].size);
        ASSERT(strcmp(rlx_dtype_name(w[i].t), w[i].name) == 0);
        rlx_dtype back;
        ASSERT_OK(rlx_dtype_from_name(w[i].name, &back));
        ASSERT_EQ(back, w[i].t);
    }
}

TEST(wrap_around_at_each_width)
{
    static const int16_t a16[3] = { 32767, -32768, 100 };
    static const int16_t b16[3] = { 1, -1, -300 };
    source in[2] = { src('i', RLX_DTYPE_I16, 1, DIMS(3), a16),
                     src('i', RLX_DTYPE_I16, 1, DIMS(3), b16) };
    const result *y = run_any(RLX_OP_ADD, 2, in, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I16);
    ASSERT(memcmp(y->data, (int16_t[]){ -32768, 32767, -200 }, 6) == 0);

    static const uint16_t u16a[2] = { 3, 65535 }, u16b[2] = { 5, 2 };
    source u[2] = { src('i', RLX_DTYPE_U16, 1, DIMS(2), u16a),
                    src('i', RLX_DTYPE_U16, 1, DIMS(2), u16b) };
    y = run_any(RLX_OP_SUB, 2, u, NULL);
    ASSERT(memcmp(y->data, (uint16_t[]){ 65534, 65533 }, 4) == 0);
    y = run_any(RLX_OP_MUL, 2, u, NULL);
    ASSERT(memcmp(y->data, (uint16_t[]){ 15, 65534 }, 4) == 0);

    static const uint32_t u32a[2] = { 4000000000u, 7 }, u32b[2] = { 500000000u,
                                                                   2 };
    source v[2] = { src('i', RLX_DTYPE_U32, 1, DIMS(2), u32a),
                    src('i', RLX_DTYPE_U32, 1, DIMS(2), u32b) };
    y = run_any(RLX_OP_ADD, 2, v, NULL); /* 4.5e9 wraps past 2^32 */
    ASSERT(memcmp(y->data, (uint32_t[]){ 205032704u, 9 }, 8) == 0);
    y = run_any(RLX_OP_DIV, 2, v, NULL);
    ASSERT(memcmp(y->data, (uint32_t[]){ 8, 3 }, 8) == 0);
}

/* u64 past 2^63: a signed reading would get each of these wrong. */
TEST(u64_as_unsigned)
{
    static const uint64_t a[4] = { UINT64_MAX, 1ull << 63, 10, 7 };
    static const uint64_t b[4] = { 1, 3, 1ull << 63, 0 };
    source in[2] = { src('i', RLX_DTYPE_U64, 1, DIMS(4), a),
                     src('i', RLX_DTYPE_U64, 1, DIMS(4), b) };
    const result *y = run_any(RLX_OP_MAX, 2, in, NULL);
    ASSERT(memcmp(y->data, (uint64_t[]){ UINT64_MAX, 1ull << 63, 1ull << 63,
                                         7 },
                  32) == 0);
    y = run_any(RLX_OP_DIV, 2, in, NULL);
    ASSERT(memcmp(y->data, (uint64_t[]){ UINT64_MAX, (1ull << 63) / 3, 0, 0 },
                  32) == 0);
    y = run_any(RLX_OP_MOD, 2, in, NULL);
    ASSERT(memcmp(y->data, (uint64_t[]){ 0, (1ull << 63) % 3, 10, 0 }, 32) ==
           0);
    y = run_any(RLX_OP_LESS, 2, in, NULL);
    ASSERT(memcmp(y->data, (unsigned char[]){ 0, 0, 1, 0 }, 4) == 0);

    int64_t axis[2] = { 0, 0 };
    rlx_attrs at = { .ints = axis, .n_ints = 2 };
    y = run_any(RLX_OP_ARGMAX, 1, &in[1], &at);
    ASSERT_EQ(*(const int64_t *)y->data, 2);
    int64_t red[2] = { 0, 0 }; /* keepdims 0, axis 0 */
    rlx_attrs rat = { .ints = red, .n_ints = 2 };
    y = run_any(RLX_OP_REDUCE_MAX, 1, &in[0], &rat);
    ASSERT_EQ(*(const uint64_t *)y->data, UINT64_MAX);
    y = run_any(RLX_OP_REDUCE_MIN, 1, &in[0], &rat);
    ASSERT_EQ(*(const uint64_t *)y->data, 7);
}

/* clip on u64: bounds past 2^63 as unsigned, and lo > hi gives hi
 * (NumPy's rule, as for every other dtype) */
TEST(u64_clip)
{
    static const uint64_t a[4] = { UINT64_MAX, 1ull << 63, 10, 7 };
    source in = src('i', RLX_DTYPE_U64, 1, DIMS(4), a);
    double b[2] = { 8.0, 9223372036854775808.0 * 1.5 };
    rlx_attrs at = { 0, NULL, 2, b };
    const result *y = run_any(RLX_OP_CLIP, 1, &in, &at);
    ASSERT(memcmp(y->data, (uint64_t[]){ 3ull << 62, 1ull << 63, 10, 8 },
                  32) == 0);
    double rev[2] = { 9.0, 4.0 };
    rlx_attrs at2 = { 0, NULL, 2, rev };
    y = run_any(RLX_OP_CLIP, 1, &in, &at2);
    ASSERT(memcmp(y->data, (uint64_t[]){ 4, 4, 4, 4 }, 32) == 0);
}

TEST(casts_saturate)
{
    static const float f[5] = { -1.5f, 70000.0f, 3.9f, 5e19f, 0.0f };
    const uint16_t *u16 = cast_run(RLX_DTYPE_F32, RLX_DTYPE_U16, 5, f);
    ASSERT(memcmp(u16, (uint16_t[]){ 0, 65535, 3, 65535, 0 }, 10) == 0);
    const int16_t *i16 = cast_run(RLX_DTYPE_F32, RLX_DTYPE_I16, 5, f);
    ASSERT(memcmp(i16, (int16_t[]){ -1, 32767, 3, 32767, 0 }, 10) == 0);
    const uint64_t *u64 = cast_run(RLX_DTYPE_F32, RLX_DTYPE_U64, 5, f);
    ASSERT(memcmp(u64, (uint64_t[]){ 0, 70000, 3, UINT64_MAX, 0 }, 40) == 0);
    static const uint64_t big[2] = { UINT64_MAX, 1ull << 63 };
    const double *d = cast_run(RLX_DTYPE_U64, RLX_DTYPE_F64, 2, big);
    ASSERT(d[0] == 18446744073709551616.0 && d[1] == 9223372036854775808.0);
    const int64_t *l = cast_run(RLX_DTYPE_U64, RLX_DTYPE_I64, 2, big);
    ASSERT(l[0] == INT64_MAX && l[1] == INT64_MAX);
    static const int32_t neg[2] = { -5, 70000 };
    const uint32_t *u32 = cast_run(RLX_DTYPE_I32, RLX_DTYPE_U32, 2, neg);
    ASSERT(u32[0] == 0 && u32[1] == 70000);
}

TEST(shifts_and_movement)
{
    static const uint64_t x[2] = { 1, UINT64_MAX };
    static const uint64_t n[2] = { 63, 64 };
    source in[2] = { src('i', RLX_DTYPE_U64, 1, DIMS(2), x),
                     src('i', RLX_DTYPE_U64, 1, DIMS(2), n) };
    const result *y = run_any(RLX_OP_BIT_SHIFT, 2, in, NULL);
    ASSERT(memcmp(y->data, (uint64_t[]){ 1ull << 63, 0 }, 16) == 0);
    int64_t right = RLX_BIT_SHIFT_RIGHT;
    rlx_attrs at = { .ints = &right, .n_ints = 1 };
    y = run_any(RLX_OP_BIT_SHIFT, 2, in, &at);
    ASSERT(memcmp(y->data, (uint64_t[]){ 0, 0 }, 16) == 0);

    static const uint16_t h[2] = { 0x8001, 3 }, s[2] = { 15, 1 };
    source hs[2] = { src('i', RLX_DTYPE_U16, 1, DIMS(2), h),
                     src('i', RLX_DTYPE_U16, 1, DIMS(2), s) };
    y = run_any(RLX_OP_BIT_SHIFT, 2, hs, &at);
    ASSERT(memcmp(y->data, (uint16_t[]){ 1, 1 }, 4) == 0);

    /* data movement copies the bytes of any width */
    static const int16_t m[6] = { 1, -2, 3, -4, 5, -6 };
    source t = src('i', RLX_DTYPE_I16, 2, DIMS(2, 3), m);
    y = run_any(RLX_OP_TRANSPOSE, 1, &t, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I16);
    ASSERT_RSHAPE(y, 2, 3, 2);
    ASSERT(memcmp(y->data, (int16_t[]){ 1, -4, -2, 5, 3, -6 }, 12) == 0);
}

TEST(refusals)
{
    /* neg takes signed integers only; bit_shift unsigned only */
    static const uint32_t u[2] = { 1, 2 };
    source su = src('i', RLX_DTYPE_U32, 1, DIMS(2), u);
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_NEG, 1, &su, NULL, &r), RLX_ERR_DTYPE);
    static const int16_t i[2] = { 1, 2 };
    source si[2] = { src('i', RLX_DTYPE_I16, 1, DIMS(2), i),
                     src('i', RLX_DTYPE_I16, 1, DIMS(2), i) };
    ASSERT_EQ(run_any_try(RLX_OP_BIT_SHIFT, 2, si, NULL, &r), RLX_ERR_DTYPE);
    ASSERT_CONTAINS(run_error, "unsigned");
    /* exp computes in floating point */
    ASSERT_EQ(run_any_try(RLX_OP_EXP, 1, si, NULL, &r), RLX_ERR_DTYPE);
}

RLX_TEST_LIST(TEST_ENTRY(names_and_sizes),
              TEST_ENTRY(wrap_around_at_each_width),
              TEST_ENTRY(u64_as_unsigned), TEST_ENTRY(u64_clip),
              TEST_ENTRY(casts_saturate),
              TEST_ENTRY(shifts_and_movement), TEST_ENTRY(refusals))
