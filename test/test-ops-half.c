/*
 * test-ops-half.c - f16 and bf16 on the reference CPU backend, through
 * the public API: the casts bit for bit against the test's own rounding
 * (ops-util.c), the float ops against "compute in f32, round once", and
 * data movement keeping the bits.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

TEST(half_bit_patterns)
{
    /* the test's own rounding, on known patterns */
    ASSERT_EQ(ref_f16(1.0), 0x3C00);
    ASSERT_EQ(ref_bf16(1.0), 0x3F80);
    ASSERT_EQ(ref_f16(-2.0), 0xC000);
    ASSERT_EQ(ref_f16(65504.0), 0x7BFF);
    ASSERT_EQ(ref_f16(65519.0), 0x7BFF);
    ASSERT_EQ(ref_f16(65520.0), 0x7C00); /* rounds to inf */
    ASSERT_EQ(ref_f16(ldexp(1, -24)), 0x0001);
    ASSERT_EQ(ref_f16(ldexp(1, -25)), 0x0000); /* tie to even: 0 */
    ASSERT_EQ(ref_f16(ldexp(3, -25)), 0x0002); /* tie to even: 2 */
    ASSERT_EQ(ref_f16(ldexp(1, -14)), 0x0400); /* smallest normal */
    ASSERT_EQ(ref_bf16(1.0 + ldexp(1, -8)), 0x3F80);
    ASSERT_EQ(ref_bf16(1.0 + ldexp(3, -8)), 0x3F82);
    ASSERT_EQ(ref_f16(1.0 + ldexp(1, -11)), 0x3C00);
    ASSERT_EQ(ref_f16(1.0 + ldexp(3, -11)), 0x3C02);

    /* cpu-ref's casts agree, bit for bit */
    static const float x[16] = {
        1.0f, -2.0f, 65504.0f, 65519.0f, 65520.0f, 0x1p-24f, 0x1p-25f,
        0x3p-25f, 0x1p-14f, 1.00390625f, 1.01171875f, 1.00048828125f,
        1.00146484375f, 0.1f, -3.3e38f, 1e-40f,
    };
    const uint16_t *h = cast_run(RLX_DTYPE_F32, RLX_DTYPE_F16, 16, x);
    for (int i = 0; i < 16; i++)
        if (h[i] != ref_f16(x[i]))
            FAIL("f16 of %g: 0x%04x, expected 0x%04x", (double)x[i], h[i],
                 ref_f16(x[i]));
    const uint16_t *b = cast_run(RLX_DTYPE_F32, RLX_DTYPE_BF16, 16, x);
    for (int i = 0; i < 16; i++)
        if (b[i] != ref_bf16(x[i]))
            FAIL("bf16 of %g: 0x%04x, expected 0x%04x", (double)x[i], b[i],
                 ref_bf16(x[i]));

    /* NaN and infinities survive; widening is exact */
    static const float s[3] = { NAN, INFINITY, -INFINITY };
    h = cast_run(RLX_DTYPE_F32, RLX_DTYPE_F16, 3, s);
    ASSERT((h[0] & 0x7C00) == 0x7C00 && (h[0] & 0x3FF) != 0);
    ASSERT_EQ(h[1], 0x7C00);
    ASSERT_EQ(h[2], 0xFC00);
    static const uint16_t every[8] = { 0x0001, 0x03FF, 0x0400, 0x3C00,
                                       0x7BFF, 0x8001, 0xFC00, 0x3555 };
    const float *w = cast_run(RLX_DTYPE_F16, RLX_DTYPE_F32, 8, every);
    for (int i = 0; i < 8; i++)
        ASSERT((double)w[i] == ref_f16_value(every[i]));
    w = cast_run(RLX_DTYPE_BF16, RLX_DTYPE_F32, 8, every);
    for (int i = 0; i < 8; i++)
        ASSERT((double)w[i] == ref_bf16_value(every[i]));
    /* f16 -> bf16 -> f16 of a value exact in both */
    static const uint16_t one_h[1] = { 0x3C00 };
    const uint16_t *ob = cast_run(RLX_DTYPE_F16, RLX_DTYPE_BF16, 1, one_h);
    ASSERT_EQ(ob[0], 0x3F80);
    /* f64 rounds once, straight to f16 */
    static const double dd[2] = { 1.0 + ldexp(1, -11) + ldexp(1, -40),
                                  -65520.0 };
    h = cast_run(RLX_DTYPE_F64, RLX_DTYPE_F16, 2, dd);
    ASSERT_EQ(h[0], 0x3C01);
    ASSERT_EQ(h[1], 0xFC00);
}

/* ---- f16 and bf16 ---------------------------------------------------- */

/*
 * Run OP on N inputs rounded to T (f16 or bf16) and check the result is,
 * bit for bit, the f32 result on the same (widened) values rounded to T
 * by the test's own helper: "compute as if in f32, round the result".
 */
static void check_half(rlx_dtype t, rlx_op op, uint32_t n,
                       const uint32_t *ranks, const int64_t *const *dims,
                       const rlx_attrs *attrs)
{
    source hs[3], fs[3];
    uint16_t *h[3] = { NULL, NULL, NULL };
    float *f[3] = { NULL, NULL, NULL };
    for (uint32_t i = 0; i < n; i++) {
        size_t c = count_of(ranks[i], dims[i]);
        float *p = pattern(c, 2.5f, 50 + i);
        h[i] = malloc((c ? c : 1) * sizeof *h[i]);
        f[i] = malloc((c ? c : 1) * sizeof *f[i]);
        ASSERT(h[i] && f[i]);
        for (size_t k = 0; k < c; k++) {
            h[i][k] = ref_half(t, p[k]);
            f[i][k] = (float)ref_half_value(t, h[i][k]);
        }
        free(p);
        hs[i] = src('i', t, ranks[i], dims[i], h[i]);
        fs[i] = f32in(ranks[i], dims[i], f[i]);
    }
    const result *y32 = run_any(op, n, fs, attrs);
    size_t m = count_of(y32->rank, y32->dims);
    float *want = malloc((m ? m : 1) * sizeof *want);
    ASSERT(want);
    if (m)
        memcpy(want, y32->data, m * sizeof *want);
    const result *y = run_any(op, n, hs, attrs);
    int bad = -1;
    ASSERT_EQ(y->dtype, t);
    ASSERT_EQ(count_of(y->rank, y->dims), m);
    for (size_t k = 0; k < m && bad < 0; k++)
        if (((const uint16_t *)y->data)[k] != ref_half(t, want[k]))
            bad = (int)k;
    uint16_t got = bad >= 0 ? ((const uint16_t *)y->data)[bad] : 0;
    float w = bad >= 0 ? want[bad] : 0;
    free(want);
    for (uint32_t i = 0; i < n; i++) {
        free(h[i]);
        free(f[i]);
    }
    if (bad >= 0)
        FAIL("%s %s: element %d is 0x%04x, expected 0x%04x (f32 %g)",
             rlx_dtype_name(t), rlx_op_name(op), bad, got, ref_half(t, w),
             (double)w);
}

static void check_half_ops(rlx_dtype t)
{
    const uint32_t r2[3] = { 2, 2, 1 }, r21[2] = { 2, 1 }, r1[1] = { 2 };
    const int64_t *d23x3[2] = { DIMS(2, 3), DIMS(3) };
    check_half(t, RLX_OP_ADD, 2, r21, d23x3, NULL);
    check_half(t, RLX_OP_MUL, 2, r21, d23x3, NULL);
    check_half(t, RLX_OP_DIV, 2, r21, d23x3, NULL);
    const int64_t *d45[1] = { DIMS(4, 5) };
    check_half(t, RLX_OP_EXP, 1, r1, d45, NULL);
    check_half(t, RLX_OP_GELU, 1, r1, d45, NULL);
    check_half(t, RLX_OP_TANH, 1, r1, d45, NULL);
    check_half(t, RLX_OP_SOFTMAX, 1, r1, d45, NULL);
    const int64_t *mm[2] = { DIMS(3, 8), DIMS(8, 4) };
    check_half(t, RLX_OP_MATMUL, 2, r2, mm, NULL);
    const int64_t *ln[3] = { DIMS(3, 6), DIMS(6), DIMS(6) };
    const uint32_t rln[3] = { 2, 1, 1 };
    check_half(t, RLX_OP_LAYER_NORM, 3, rln, ln, NULL);
    check_half(t, RLX_OP_RMS_NORM, 2, rln, ln, NULL);
    int64_t red[2] = { 0, 1 };
    rlx_attrs ra = { 2, red, 0, NULL };
    check_half(t, RLX_OP_REDUCE_SUM, 1, r1, d45, &ra);
    check_half(t, RLX_OP_REDUCE_MEAN, 1, r1, d45, &ra);
    check_half(t, RLX_OP_REDUCE_MAX, 1, r1, d45, NULL);

    /* add, straight against libm-free arithmetic in double */
    static const float a[4] = { 1.0f, 0.1f, 60000.0f, -3.25f };
    static const float b[4] = { 0.0009765625f, 0.2f, 8000.0f, 1e-3f };
    uint16_t ha[4], hb[4];
    for (int i = 0; i < 4; i++) {
        ha[i] = ref_half(t, a[i]);
        hb[i] = ref_half(t, b[i]);
    }
    source in[2] = { src('i', t, 1, DIMS(4), ha), src('i', t, 1, DIMS(4), hb) };
    const result *y = run_any(RLX_OP_ADD, 2, in, NULL);
    for (int i = 0; i < 4; i++) {
        double sum = ref_half_value(t, ha[i]) + ref_half_value(t, hb[i]);
        ASSERT_EQ(((const uint16_t *)y->data)[i], ref_half(t, (float)sum));
    }
    if (t == RLX_DTYPE_F16) /* 60000 + 8000 overflows f16 */
        ASSERT_EQ(((const uint16_t *)y->data)[2], 0x7C00);
}

TEST(f16_ops) { check_half_ops(RLX_DTYPE_F16); }
TEST(bf16_ops) { check_half_ops(RLX_DTYPE_BF16); }

TEST(half_movement)
{
    /* data movement on f16 keeps the bits; a float op after it reads
     * the moved values */
    static const uint16_t h[6] = { 0x3C00, 0x4000, 0x4200,
                                   0xBC00, 0x0001, 0x7BFF };
    source in = src('i', RLX_DTYPE_F16, 2, DIMS(2, 3), h);
    const result *y = run_any(RLX_OP_TRANSPOSE, 1, &in, NULL);
    static const uint16_t want[6] = { 0x3C00, 0xBC00, 0x4000,
                                      0x0001, 0x4200, 0x7BFF };
    ASSERT_EQ(y->dtype, RLX_DTYPE_F16);
    ASSERT(memcmp(y->data, want, sizeof want) == 0);
}

RLX_TEST_LIST(TEST_ENTRY(half_bit_patterns), TEST_ENTRY(f16_ops),
              TEST_ENTRY(bf16_ops), TEST_ENTRY(half_movement))
