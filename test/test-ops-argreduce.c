/*
 * test-ops-argreduce.c - the reductions of ABI 1.4 (min, prod, L1, L2,
 * log-sum-exp, sum of squares), the integer forms of every reduction and
 * argmax/argmin on the reference CPU backend, through the public API:
 * against a reference that visits every element, plus hand-worked empty
 * axes, NaN, infinities, wrap-around, ties and select_last_index.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

static const rlx_op float_ops[6] = {
    RLX_OP_REDUCE_MIN, RLX_OP_REDUCE_PROD, RLX_OP_REDUCE_L1,
    RLX_OP_REDUCE_L2, RLX_OP_REDUCE_LOG_SUM_EXP, RLX_OP_REDUCE_SUM_SQUARE
};

/* Reduce a [2,3,4] pattern over AXES (N_AXES), keepdims KEEP, and check
 * each op against sums taken here. */
static void check_float(int keep, uint32_t n_axes, const int64_t *axes)
{
    const int64_t dims[3] = { 2, 3, 4 };
    float *x = pattern(24, 2.0f, 3);
    int red[3] = { n_axes == 0, n_axes == 0, n_axes == 0 };
    for (uint32_t i = 0; i < n_axes; i++)
        red[axes[i] < 0 ? axes[i] + 3 : axes[i]] = 1;
    int64_t kd[3];
    uint32_t kr = 0;
    for (int d = 0; d < 3; d++)
        if (!red[d])
            kd[kr++] = dims[d];
    size_t m = count_of(kr, kd);
    double mn[24], pr[24], l1[24], sq[24], se[24];
    for (size_t o = 0; o < m; o++) {
        mn[o] = INFINITY;
        pr[o] = 1;
        l1[o] = sq[o] = se[o] = 0;
    }
    for (size_t e = 0; e < 24; e++) {
        int64_t idx[3], k[3];
        uint32_t j = 0;
        unravel(e, 3, dims, idx);
        for (int d = 0; d < 3; d++)
            if (!red[d])
                k[j++] = idx[d];
        size_t o = ravel(kr, kd, k);
        double v = x[e];
        mn[o] = fmin(mn[o], v);
        pr[o] *= v;
        l1[o] += fabs(v);
        sq[o] += v * v;
        se[o] += exp(v); /* |v| <= 2: no overflow, no shift needed */
    }
    int64_t ints[4] = { keep };
    for (uint32_t i = 0; i < n_axes; i++)
        ints[1 + i] = axes[i];
    rlx_attrs at = { 1 + n_axes, ints, 0, NULL };
    source in = f32in(3, dims, x);
    for (int k = 0; k < 6; k++) {
        const result *y = run_any(float_ops[k], 1, &in, &at);
        ASSERT_EQ(y->nbytes, m * sizeof(float));
        ASSERT_EQ(y->rank, keep ? 3u : kr);
        const float *v = y->data;
        for (size_t o = 0; o < m; o++) {
            double w = k == 0 ? mn[o] : k == 1 ? pr[o] : k == 2 ? l1[o]
                       : k == 3 ? sqrt(sq[o]) : k == 4 ? log(se[o]) : sq[o];
            if (!close_enough(v[o], w, 1e-6))
                FAIL("%s output %zu: got %.9g, want %.9g",
                     rlx_op_name(float_ops[k]), o, v[o], w);
        }
    }
    free(x);
}

TEST(float_reductions)
{
    check_float(0, 0, NULL);
    check_float(1, 1, DIMS(1));
    check_float(0, 2, DIMS(0, -1));
    check_float(1, 1, DIMS(2));
}

TEST(float_reduction_edges)
{
    /* an empty axis: min +inf, prod 1, l1 0, l2 0, lse -inf, sumsq 0 */
    source e = f32in(2, DIMS(3, 0), NULL);
    int64_t ax[2] = { 0, 1 };
    rlx_attrs at = { 2, ax, 0, NULL };
    const double want[6] = { INFINITY, 1, 0, 0, -INFINITY, 0 };
    for (int k = 0; k < 6; k++) {
        const result *y = run_any(float_ops[k], 1, &e, &at);
        ASSERT_RSHAPE(y, 1, 3);
        for (int i = 0; i < 3; i++)
            ASSERT(((const float *)y->data)[i] == (float)want[k]);
    }
    /* NaN wins min; log-sum-exp of large values does not overflow, of
     * +inf is +inf, of all -inf is -inf */
    static const float x[4][3] = { { 1, NAN, -2 }, { 1000, 1000, -INFINITY },
                                   { INFINITY, 1, 2 },
                                   { -INFINITY, -INFINITY, -INFINITY } };
    source in = f32in(2, DIMS(4, 3), &x[0][0]);
    int64_t a1[2] = { 0, 1 };
    rlx_attrs last = { 2, a1, 0, NULL };
    const float *mn = run_any(RLX_OP_REDUCE_MIN, 1, &in, &last)->data;
    ASSERT(isnan(mn[0]) && mn[1] == -INFINITY && mn[2] == 1.0f);
    const float *l = run_any(RLX_OP_REDUCE_LOG_SUM_EXP, 1, &in, &last)->data;
    ASSERT(isnan(l[0]));
    ASSERT(close_enough(l[1], 1000.0 + log(2.0), 1e-7));
    ASSERT(isinf(l[2]) && l[2] > 0);
    ASSERT(isinf(l[3]) && l[3] < 0);
    /* f16: the product rounds once at the end */
    uint16_t h[3] = { ref_f16(1.5), ref_f16(-2.0), ref_f16(3.0) };
    source hs = src('i', RLX_DTYPE_F16, 1, DIMS(3), h);
    const uint16_t *p = run_any(RLX_OP_REDUCE_PROD, 1, &hs, NULL)->data;
    ASSERT_EQ(p[0], ref_f16(-9.0));
    /* log-sum-exp is float-only */
    static const int32_t i3[3] = { 1, 2, 3 };
    source ii = src('i', RLX_DTYPE_I32, 1, DIMS(3), i3);
    result r;
    ASSERT_EQ(run_any_try(RLX_OP_REDUCE_LOG_SUM_EXP, 1, &ii, NULL, &r),
              RLX_ERR_DTYPE);
}

TEST(integer_reductions)
{
    /* i32 [2,3] over the last axis */
    static const int32_t x[6] = { 3, -7, INT32_MAX, -4, 5, 0 };
    source in = src('i', RLX_DTYPE_I32, 2, DIMS(2, 3), x);
    int64_t ax[2] = { 0, -1 };
    rlx_attrs at = { 2, ax, 0, NULL };
    struct { rlx_op op; int32_t w[2]; } cases[] = {
        /* 3 - 7 + INT32_MAX wraps: INT32_MAX - 4 */
        { RLX_OP_REDUCE_SUM, { INT32_MAX - 4, 1 } },
        /* the mean is taken exactly and truncated toward zero */
        { RLX_OP_REDUCE_MEAN, { (int32_t)((3.0 - 7 + INT32_MAX) / 3), 0 } },
        { RLX_OP_REDUCE_MAX, { INT32_MAX, 5 } },
        { RLX_OP_REDUCE_MIN, { -7, -4 } },
        { RLX_OP_REDUCE_PROD, { (int32_t)(uint32_t)(-21LL * INT32_MAX), 0 } },
        { RLX_OP_REDUCE_L1, { (int32_t)(uint32_t)(10LL + INT32_MAX), 9 } },
        { RLX_OP_REDUCE_SUM_SQUARE, { (int32_t)(uint32_t)(58ULL +
              (uint64_t)INT32_MAX * INT32_MAX), 41 } },
        /* sqrt(58 + (2^31-1)^2) truncated */
        { RLX_OP_REDUCE_L2, { INT32_MAX, 6 } },
    };
    for (size_t c = 0; c < N_OF(cases); c++) {
        const result *y = run_any(cases[c].op, 1, &in, &at);
        ASSERT_EQ(y->dtype, RLX_DTYPE_I32);
        ASSERT_RSHAPE(y, 1, 2);
        const int32_t *v = y->data;
        if (v[0] != cases[c].w[0] || v[1] != cases[c].w[1])
            FAIL("%s: got %d %d, want %d %d", rlx_op_name(cases[c].op),
                 v[0], v[1], cases[c].w[0], cases[c].w[1]);
    }
    /* empty axis on integers: max the dtype's least, min its greatest,
     * mean 0 */
    source e = src('i', RLX_DTYPE_I8, 2, DIMS(2, 0), NULL);
    const int8_t *mx = run_any(RLX_OP_REDUCE_MAX, 1, &e, &at)->data;
    ASSERT(mx[0] == INT8_MIN && mx[1] == INT8_MIN);
    const int8_t *mn = run_any(RLX_OP_REDUCE_MIN, 1, &e, &at)->data;
    ASSERT(mn[0] == INT8_MAX);
    const int8_t *me = run_any(RLX_OP_REDUCE_MEAN, 1, &e, &at)->data;
    ASSERT(me[0] == 0);
    source ue = src('i', RLX_DTYPE_U8, 2, DIMS(2, 0), NULL);
    const uint8_t *umn = run_any(RLX_OP_REDUCE_MIN, 1, &ue, &at)->data;
    ASSERT(umn[0] == 255);
    /* u8 sums wrap at 256; i64 keeps full precision */
    static const uint8_t u[3] = { 200, 100, 7 };
    source us = src('i', RLX_DTYPE_U8, 1, DIMS(3), u);
    ASSERT_EQ(((const uint8_t *)run_any(RLX_OP_REDUCE_SUM, 1, &us,
                                        NULL)->data)[0], 51);
    static const int64_t big[2] = { 9007199254740993LL, 1 };
    source bs = src('i', RLX_DTYPE_I64, 1, DIMS(2), big);
    ASSERT_EQ(((const int64_t *)run_any(RLX_OP_REDUCE_SUM, 1, &bs,
                                        NULL)->data)[0],
              9007199254740994LL);
}

/* argmax/argmin of a [LEN] f32 vector; returns the index. */
static int64_t arg1(rlx_op op, size_t len, const float *x, int last)
{
    source in = f32in(1, DIMS((int64_t)len), x);
    int64_t ints[3] = { 0, 0, last };
    rlx_attrs at = { 3, ints, 0, NULL };
    const result *y = run_any(op, 1, &in, &at);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT_EQ(y->rank, 0);
    return ((const int64_t *)y->data)[0];
}

TEST(argmax_argmin_ties_nan_zero)
{
    static const float t[5] = { 1, 3, 0, 3, 0 };
    ASSERT_EQ(arg1(RLX_OP_ARGMAX, 5, t, 0), 1);
    ASSERT_EQ(arg1(RLX_OP_ARGMAX, 5, t, 1), 3);
    ASSERT_EQ(arg1(RLX_OP_ARGMIN, 5, t, 0), 2);
    ASSERT_EQ(arg1(RLX_OP_ARGMIN, 5, t, 1), 4);
    /* NaN is the extreme for both; the first (or last) NaN */
    static const float n[5] = { 1, NAN, 9, NAN, -9 };
    ASSERT_EQ(arg1(RLX_OP_ARGMAX, 5, n, 0), 1);
    ASSERT_EQ(arg1(RLX_OP_ARGMIN, 5, n, 0), 1);
    ASSERT_EQ(arg1(RLX_OP_ARGMAX, 5, n, 1), 3);
    /* -0 and +0 tie */
    static const float z[3] = { -0.0f, 0.0f, -1.0f };
    ASSERT_EQ(arg1(RLX_OP_ARGMAX, 3, z, 0), 0);
    ASSERT_EQ(arg1(RLX_OP_ARGMAX, 3, z, 1), 1);
}

TEST(argmax_axes_keepdims_and_ints)
{
    /* x [2,3,2] of i32: compare each line with a scan done here */
    static const int32_t x[12] = { 5, -1, 7, 7, -3, 2, 0, 0, 4, -8, 4, 9 };
    const int64_t dims[3] = { 2, 3, 2 };
    for (int axis = -3; axis < 3; axis++)
        for (int keep = 0; keep < 2; keep++)
            for (int op = 0; op < 2; op++) {
                int ax = axis < 0 ? axis + 3 : axis;
                int64_t ints[2] = { axis, keep };
                rlx_attrs at = { 2, ints, 0, NULL };
                source in = src('i', RLX_DTYPE_I32, 3, dims, x);
                rlx_op o = op ? RLX_OP_ARGMIN : RLX_OP_ARGMAX;
                const result *y = run_any(o, 1, &in, &at);
                ASSERT_EQ(y->rank, keep ? 3u : 2u);
                const int64_t *v = y->data;
                size_t k = 0;
                int64_t idx[3];
                for (size_t e = 0; e < 12; e++) {
                    unravel(e, 3, dims, idx);
                    if (idx[ax] != 0)
                        continue; /* one visit per line */
                    int64_t best = 0;
                    for (int64_t j = 1; j < dims[ax]; j++) {
                        int64_t a[3] = { idx[0], idx[1], idx[2] };
                        int64_t b[3] = { idx[0], idx[1], idx[2] };
                        a[ax] = j;
                        b[ax] = best;
                        int32_t va = x[ravel(3, dims, a)];
                        int32_t vb = x[ravel(3, dims, b)];
                        if (op ? va < vb : va > vb)
                            best = j;
                    }
                    if (v[k] != best)
                        FAIL("%s axis %d keep %d line %zu: got %lld, want "
                             "%lld", rlx_op_name(o), axis, keep, k,
                             (long long)v[k], (long long)best);
                    k++;
                }
            }
    /* default keepdims is 1 (as ONNX) */
    source in = f32in(2, DIMS(2, 3), m23);
    const result *y = run_any(RLX_OP_ARGMAX, 1, &in, NULL);
    ASSERT_RSHAPE(y, 2, 1, 3);
    /* errors: an empty axis, a bad axis, a bad flag, bool input */
    result r;
    source e = f32in(2, DIMS(2, 0), NULL);
    rlx_attrs a1 = { 1, DIMS(1), 0, NULL };
    ASSERT_EQ(run_any_try(RLX_OP_ARGMAX, 1, &e, &a1, &r), RLX_ERR_SHAPE);
    ASSERT(strstr(run_error, "empty") != NULL);
    rlx_attrs a0 = { 1, DIMS(0), 0, NULL };
    y = run_any(RLX_OP_ARGMAX, 1, &e, &a0); /* lines of 2: fine, none */
    ASSERT_RSHAPE(y, 2, 1, 0);
    rlx_attrs a5 = { 1, DIMS(5), 0, NULL };
    ASSERT_EQ(run_any_try(RLX_OP_ARGMIN, 1, &in, &a5, &r), RLX_ERR_SHAPE);
    rlx_attrs sl = { 3, DIMS(0, 1, 2), 0, NULL };
    ASSERT_EQ(run_any_try(RLX_OP_ARGMIN, 1, &in, &sl, &r),
              RLX_ERR_INVALID_ARGUMENT);
    static const unsigned char bb[2] = { 1, 0 };
    source b = src('i', RLX_DTYPE_BOOL, 1, DIMS(2), bb);
    ASSERT_EQ(run_any_try(RLX_OP_ARGMAX, 1, &b, NULL, &r), RLX_ERR_DTYPE);
}

RLX_TEST_LIST(TEST_ENTRY(float_reductions), TEST_ENTRY(float_reduction_edges),
              TEST_ENTRY(integer_reductions),
              TEST_ENTRY(argmax_argmin_ties_nan_zero),
              TEST_ENTRY(argmax_axes_keepdims_and_ints))
