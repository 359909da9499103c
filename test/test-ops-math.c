/*
 * test-ops-math.c - the inverse trigonometric and hyperbolic functions
 * (asin, acos, sinh, cosh, asinh, acosh, atanh) and bit_shift on the
 * reference CPU backend. Values come from formulas written here through
 * log, exp, atan and sqrt (not the functions the kernel calls), the
 * domain edges from docs/ops.md, and shifts from hand-worked bytes.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

static double f_asin(double x) { return atan(x / sqrt(1 - x * x)); }
static double f_acos(double x) { return 2 * atan(sqrt((1 - x) / (1 + x))); }
static double f_sinh(double x) { return (exp(x) - exp(-x)) / 2; }
static double f_cosh(double x) { return (exp(x) + exp(-x)) / 2; }
static double f_asinh(double x) { return log(x + sqrt(x * x + 1)); }
static double f_acosh(double x) { return log(x + sqrt(x * x - 1)); }
static double f_atanh(double x) { return 0.5 * log((1 + x) / (1 - x)); }

typedef struct fn_case {
    rlx_op op;
    double (*f)(double);
    double lo, hi; /* inside the domain */
} fn_case;

static const fn_case fns[] = {
    { RLX_OP_ASIN, f_asin, -0.95, 0.95 },
    { RLX_OP_ACOS, f_acos, -0.95, 0.95 },
    { RLX_OP_SINH, f_sinh, -4, 4 },
    { RLX_OP_COSH, f_cosh, -4, 4 },
    { RLX_OP_ASINH, f_asinh, 0.1, 6 }, /* the log form loses x < 0 */
    { RLX_OP_ACOSH, f_acosh, 1.05, 6 },
    { RLX_OP_ATANH, f_atanh, -0.95, 0.95 },
};

TEST(inverse_and_hyperbolic_f32)
{
    enum { N = 24 };
    float x[N];
    double want[N];
    for (size_t k = 0; k < N_OF(fns); k++) {
        const fn_case *fc = &fns[k];
        for (size_t i = 0; i < N; i++) {
            x[i] = (float)(fc->lo + (fc->hi - fc->lo) * (double)i / (N - 1));
            want[i] = fc->f((double)x[i]);
        }
        const result *y = run_any(fc->op, 1, &(source){ 'i', RLX_DTYPE_F32,
                                                        1, { N }, x },
                                  NULL);
        ASSERT_EQ(y->dtype, RLX_DTYPE_F32);
        ASSERT_RSHAPE(y, 1, N);
        check_values(rlx_op_name(fc->op), y->data, want, N, 2e-6, 1e-7);
    }
}

/* docs/ops.md#edge-inverse-functions-outside-their-domain */
TEST(domain_edges_nan_inf_and_signed_zero)
{
    static const float x[6] = { 1.5f, -1.5f, 1.0f, -1.0f, -0.0f, NAN };
    float got[6];
    const result *y;

    y = run_any(RLX_OP_ASIN, 1, &(source){ 'i', RLX_DTYPE_F32, 1, { 6 }, x },
                NULL);
    memcpy(got, y->data, sizeof got);
    ASSERT(isnan(got[0]) && isnan(got[1]) && isnan(got[5]));
    ASSERT(close_enough(got[2], 1.5707963267948966, 1e-7));
    ASSERT(got[4] == 0 && signbit(got[4])); /* asin(-0) = -0 */

    y = run_any(RLX_OP_ATANH, 1, &(source){ 'i', RLX_DTYPE_F32, 1, { 6 }, x },
                NULL);
    memcpy(got, y->data, sizeof got);
    ASSERT(isnan(got[0]) && isnan(got[1]) && isnan(got[5]));
    ASSERT(isinf(got[2]) && got[2] > 0);
    ASSERT(isinf(got[3]) && got[3] < 0);
    ASSERT(got[4] == 0 && signbit(got[4]));

    static const float a[4] = { 0.5f, 1.0f, INFINITY, -INFINITY };
    y = run_any(RLX_OP_ACOSH, 1, &(source){ 'i', RLX_DTYPE_F32, 1, { 4 }, a },
                NULL);
    memcpy(got, y->data, 4 * sizeof *got);
    ASSERT(isnan(got[0]) && got[1] == 0 && isinf(got[2]) && isnan(got[3]));

    /* cosh(90) is about 6.1e38, over FLT_MAX: +inf; sinh keeps the sign */
    static const float big[3] = { 90.0f, -90.0f, -INFINITY };
    y = run_any(RLX_OP_COSH, 1, &(source){ 'i', RLX_DTYPE_F32, 1, { 3 },
                                           big },
                NULL);
    memcpy(got, y->data, 3 * sizeof *got);
    ASSERT(isinf(got[0]) && got[0] > 0 && isinf(got[1]) && got[1] > 0);
    ASSERT(isinf(got[2]) && got[2] > 0);
    y = run_any(RLX_OP_SINH, 1, &(source){ 'i', RLX_DTYPE_F32, 1, { 3 },
                                           big },
                NULL);
    memcpy(got, y->data, 3 * sizeof *got);
    ASSERT(isinf(got[1]) && got[1] < 0 && isinf(got[2]) && got[2] < 0);
}

/* f16 and bf16 compute in f32 or better and round once. */
TEST(inverse_and_hyperbolic_half)
{
    static const double xs[5] = { -0.75, -0.25, 0.0, 0.5, 0.875 };
    for (int h = 0; h < 2; h++) {
        rlx_dtype t = h ? RLX_DTYPE_BF16 : RLX_DTYPE_F16;
        uint16_t in[5];
        for (size_t i = 0; i < 5; i++)
            in[i] = ref_half(t, xs[i]);
        const result *y = run_any(RLX_OP_ATANH, 1,
                                  &(source){ 'i', t, 1, { 5 }, in }, NULL);
        ASSERT_EQ(y->dtype, t);
        const uint16_t *out = y->data;
        for (size_t i = 0; i < 5; i++)
            ASSERT_EQ(out[i],
                      ref_half(t, f_atanh(ref_half_value(t, in[i]))));
    }
}

TEST(bit_shift_u8)
{
    static const uint8_t x[6] = { 1, 1, 255, 3, 128, 200 };
    static const uint8_t n[6] = { 7, 8, 1, 0, 9, 255 };
    static const uint8_t left[6] = { 128, 0, 254, 3, 0, 0 };
    static const uint8_t right[6] = { 0, 0, 127, 3, 0, 0 };
    source in[2] = { src('i', RLX_DTYPE_U8, 1, DIMS(6), x),
                     src('i', RLX_DTYPE_U8, 1, DIMS(6), n) };
    const result *y = run_any(RLX_OP_BIT_SHIFT, 2, in, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_U8);
    ASSERT(memcmp(y->data, left, 6) == 0);
    int64_t dir = RLX_BIT_SHIFT_RIGHT;
    rlx_attrs at = { .ints = &dir, .n_ints = 1 };
    y = run_any(RLX_OP_BIT_SHIFT, 2, in, &at);
    ASSERT(memcmp(y->data, right, 6) == 0);

    /* broadcasting: [3, 1] by [2] */
    static const uint8_t col[3] = { 1, 2, 255 };
    static const uint8_t sh[2] = { 1, 4 };
    static const uint8_t want[6] = { 2, 16, 4, 32, 254, 240 };
    source b[2] = { src('i', RLX_DTYPE_U8, 2, DIMS(3, 1), col),
                    src('c', RLX_DTYPE_U8, 1, DIMS(2), sh) };
    y = run_any(RLX_OP_BIT_SHIFT, 2, b, NULL);
    ASSERT_RSHAPE(y, 2, 3, 2);
    ASSERT(memcmp(y->data, want, 6) == 0);
}

TEST(refusals)
{
    /* bit_shift: signed integers and floats are refused, and so is a
     * direction other than 0 or 1 */
    static const int32_t i[2] = { 1, 2 };
    source si[2] = { src('i', RLX_DTYPE_I32, 1, DIMS(2), i),
                     src('i', RLX_DTYPE_I32, 1, DIMS(2), i) };
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_BIT_SHIFT, 2, si, NULL, &r), RLX_ERR_DTYPE);
    ASSERT_CONTAINS(run_error, "unsigned");
    static const uint8_t u[2] = { 1, 2 };
    source su[2] = { src('i', RLX_DTYPE_U8, 1, DIMS(2), u),
                     src('i', RLX_DTYPE_U8, 1, DIMS(2), u) };
    int64_t dir = 2;
    rlx_attrs at = { .ints = &dir, .n_ints = 1 };
    ASSERT_EQ(run_any_try(RLX_OP_BIT_SHIFT, 2, su, &at, &r),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "Fix:");
    /* the unary functions compute in floating point */
    ASSERT_EQ(run_any_try(RLX_OP_ASIN, 1, si, NULL, &r), RLX_ERR_DTYPE);
    ASSERT_CONTAINS(run_error, "Fix:");
}

/* det: hand-worked 2x2 and 3x3 (a row swap flips the sign), singular,
 * empty and f64 stacks. */
TEST(det_stacks)
{
    static const float m[3][9] = {
        { 0, 1, 0, 0, 0, 1, 1, 0, 0 },  /* a cyclic permutation: +1 */
        { 2, 0, 0, 0, 3, 0, 0, 0, 4 },  /* diagonal: 24 */
        { 1, 2, 3, 2, 4, 6, 1, 1, 1 },  /* rows 0 and 1 dependent: 0 */
    };
    const result *y = run_any(RLX_OP_DET, 1,
                              &(source){ 'i', RLX_DTYPE_F32, 3, { 3, 3, 3 },
                                         m },
                              NULL);
    ASSERT_RSHAPE(y, 1, 3);
    const float *d = y->data;
    ASSERT(d[0] == 1 && d[1] == 24 && d[2] == 0);
    static const double s2[4] = { 1e-9, 2, 3, 4 }; /* 4e-9 - 6 */
    y = run_any(RLX_OP_DET, 1,
                &(source){ 'i', RLX_DTYPE_F64, 2, { 2, 2 }, s2 }, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_F64);
    ASSERT_EQ(y->rank, 0);
    ASSERT(fabs(*(const double *)y->data - (4e-9 - 6)) < 1e-14);
    /* m = 0: the empty product, 1 */
    y = run_any(RLX_OP_DET, 1,
                &(source){ 'i', RLX_DTYPE_F32, 3, { 2, 0, 0 }, NULL }, NULL);
    ASSERT(((const float *)y->data)[0] == 1 && ((const float *)y->data)[1] == 1);
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_DET, 1,
                          &(source){ 'i', RLX_DTYPE_F32, 2, { 2, 3 }, m[0] },
                          NULL, &r),
              RLX_ERR_SHAPE);
    ASSERT_CONTAINS(run_error, "square");
}

RLX_TEST_LIST(TEST_ENTRY(inverse_and_hyperbolic_f32),
              TEST_ENTRY(det_stacks),
              TEST_ENTRY(domain_edges_nan_inf_and_signed_zero),
              TEST_ENTRY(inverse_and_hyperbolic_half),
              TEST_ENTRY(bit_shift_u8), TEST_ENTRY(refusals))
