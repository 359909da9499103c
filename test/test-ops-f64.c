/*
 * test-ops-f64.c - the elementwise ops, comparisons and reductions on f64
 * in the reference CPU backend. Inputs differ below f32's precision
 * (1 + 1e-12, 0.1 + 0.2), so a result computed through f32 would fail;
 * the expected values are written here in double.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

static source d_in(uint32_t rank, const int64_t *dims, const double *x)
{
    return src('i', RLX_DTYPE_F64, rank, dims, x);
}

static void check_f64(const char *what, const result *y, const double *want,
                      size_t n)
{
    ASSERT_EQ(y->dtype, RLX_DTYPE_F64);
    ASSERT_EQ(y->nbytes, n * sizeof(double));
    const double *got = y->data;
    for (size_t i = 0; i < n; i++) {
        int ok = isnan(want[i]) ? isnan(got[i])
                 : want[i] == 0 ? got[i] == 0
                                : fabs(got[i] - want[i]) <=
                                      1e-15 * fabs(want[i]);
        if (!ok)
            FAIL("%s element %zu: got %.17g, want %.17g", what, i, got[i],
                 want[i]);
    }
}

TEST(binary_in_double_with_broadcast)
{
    static const double a[4] = { 0.1, 1.0, -2.5, NAN };
    static const double b[2] = { 0.2, 1e-12 };
    source in[2] = { d_in(2, DIMS(2, 2), a), d_in(1, DIMS(2), b) };
    check_f64("add", run_any(RLX_OP_ADD, 2, in, NULL),
              (double[]){ 0.1 + 0.2, 1.0 + 1e-12, -2.5 + 0.2, NAN }, 4);
    check_f64("mul", run_any(RLX_OP_MUL, 2, in, NULL),
              (double[]){ 0.1 * 0.2, 1e-12, -2.5 * 0.2, NAN }, 4);
    check_f64("div", run_any(RLX_OP_DIV, 2, in, NULL),
              (double[]){ 0.5, 1e12, -12.5, NAN }, 4);
    /* NaN wins max and min, as for f32 */
    check_f64("max", run_any(RLX_OP_MAX, 2, in, NULL),
              (double[]){ 0.2, 1.0, 0.2, NAN }, 4);
    check_f64("min", run_any(RLX_OP_MIN, 2, in, NULL),
              (double[]){ 0.1, 1e-12, -2.5, NAN }, 4);
    /* fmod keeps the dividend's sign */
    static const double num[3] = { 5.5, -5.5, 7.0 };
    static const double den[3] = { 2.0, 2.0, -3.0 };
    int64_t fmod_ = 1;
    rlx_attrs at = { .ints = &fmod_, .n_ints = 1 };
    source m[2] = { d_in(1, DIMS(3), num), d_in(1, DIMS(3), den) };
    check_f64("mod", run_any(RLX_OP_MOD, 2, m, &at),
              (double[]){ 1.5, -1.5, 1.0 }, 3);
}

TEST(unary_in_double)
{
    static const double x[3] = { 1e-10, 0.5, -0.75 };
    source in = d_in(1, DIMS(3), x);
    /* exp(1e-10) - 1 is below f32's resolution near 1 */
    check_f64("exp", run_any(RLX_OP_EXP, 1, &in, NULL),
              (double[]){ 1.0000000001000000000005, 1.6487212707001282,
                          0.47236655274101469 },
              3);
    check_f64("asin", run_any(RLX_OP_ASIN, 1, &in, NULL),
              (double[]){ 1e-10, 0.52359877559829887, -0.848062078981481 },
              3);
    check_f64("neg", run_any(RLX_OP_NEG, 1, &in, NULL),
              (double[]){ -1e-10, -0.5, 0.75 }, 3);
}

TEST(compare_and_arg_below_f32_precision)
{
    static const double a[3] = { 1.0, 1.0 + 1e-12, 3.0 };
    static const double b[3] = { 1.0 + 1e-12, 1.0, 3.0 };
    source in[2] = { d_in(1, DIMS(3), a), d_in(1, DIMS(3), b) };
    const result *y = run_any(RLX_OP_LESS, 2, in, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_BOOL);
    ASSERT(memcmp(y->data, (unsigned char[]){ 1, 0, 0 }, 3) == 0);
    static const double v[4] = { 1.0, 1.0 + 1e-12, 1.0 - 1e-12, 1.0 };
    int64_t attrs[2] = { 0, 0 }; /* axis 0, keepdims 0 */
    rlx_attrs at = { .ints = attrs, .n_ints = 2 };
    source s = d_in(1, DIMS(4), v);
    y = run_any(RLX_OP_ARGMAX, 1, &s, &at);
    ASSERT_EQ(*(const int64_t *)y->data, 1);
    y = run_any(RLX_OP_ARGMIN, 1, &s, &at);
    ASSERT_EQ(*(const int64_t *)y->data, 2);
}

TEST(reductions_in_double)
{
    static const double x[6] = { 1e16, 1.0, -1e16, 2.0, 3.0, 4.0 };
    int64_t axes[2] = { 0, 1 }; /* keepdims 0, axis 1 */
    rlx_attrs at = { .ints = axes, .n_ints = 2 };
    source in = d_in(2, DIMS(2, 3), x);
    /* 1e16 + 1 - 1e16: 0 in a double walk left to right (1 is lost),
     * as a reference that folds in order gives */
    check_f64("reduce_sum", run_any(RLX_OP_REDUCE_SUM, 1, &in, &at),
              (double[]){ 0.0, 9.0 }, 2);
    check_f64("reduce_max", run_any(RLX_OP_REDUCE_MAX, 1, &in, &at),
              (double[]){ 1e16, 4.0 }, 2);
    check_f64("reduce_mean", run_any(RLX_OP_REDUCE_MEAN, 1, &in, &at),
              (double[]){ 0.0, 3.0 }, 2);
    static const double small[4] = { -1000.0, -1000.0, 0.5, 0.25 };
    source s = d_in(2, DIMS(2, 2), small);
    check_f64("reduce_log_sum_exp",
              run_any(RLX_OP_REDUCE_LOG_SUM_EXP, 1, &s, &at),
              (double[]){ -1000.0 + log(2.0),
                          0.5 + log(1.0 + exp(-0.25)) },
              2);
    /* an empty axis: the mean is NaN, the max -inf */
    source e = d_in(2, DIMS(2, 0), NULL);
    check_f64("reduce_mean of nothing",
              run_any(RLX_OP_REDUCE_MEAN, 1, &e, &at),
              (double[]){ NAN, NAN }, 2);
}

TEST(f64_refused_where_not_computed)
{
    static const double x[4] = { 1, 2, 3, 4 };
    source in[2] = { d_in(2, DIMS(2, 2), x), d_in(2, DIMS(2, 2), x) };
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_MATMUL, 2, in, NULL, &r), RLX_ERR_DTYPE);
    ASSERT_CONTAINS(run_error, "f64");
    ASSERT_CONTAINS(run_error, "Fix:");
    ASSERT_EQ(run_any_try(RLX_OP_SOFTMAX, 1, in, NULL, &r), RLX_ERR_DTYPE);
}

RLX_TEST_LIST(TEST_ENTRY(binary_in_double_with_broadcast),
              TEST_ENTRY(unary_in_double),
              TEST_ENTRY(compare_and_arg_below_f32_precision),
              TEST_ENTRY(reductions_in_double),
              TEST_ENTRY(f64_refused_where_not_computed))
