/*
 * test-ops-reduce.c - reduce_sum, reduce_mean and reduce_max on the
 * reference CPU backend, through the public API, against a reference
 * that visits every element: any axes, keepdims, rank 0, empty axes
 * (sum 0, mean NaN, max -inf) and empty results.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* Reduce X (R, DIMS) over AXES (N_AXES; none: all), compare with a
 * reference that visits every element; WANT is the result's shape. */
static void check_reduce(rlx_op op, uint32_t r, const int64_t *dims,
                         int keep, uint32_t n_axes, const int64_t *axes,
                         uint32_t want_rank, const int64_t *want)
{
    size_t n = count_of(r, dims);
    float *x = pattern(n, 4.0f, 21);
    int reduced[MAX_RANK] = { 0 };
    for (uint32_t d = 0; d < r; d++)
        reduced[d] = n_axes == 0;
    for (uint32_t i = 0; i < n_axes; i++)
        reduced[axes[i] < 0 ? axes[i] + (int64_t)r : axes[i]] = 1;
    int64_t kept_dims[MAX_RANK];
    uint32_t kr = 0;
    for (uint32_t d = 0; d < r; d++)
        if (!reduced[d])
            kept_dims[kr++] = dims[d];
    size_t m = count_of(kr, kept_dims);
    static double sum[256], cnt[256], mx[256];
    ASSERT(m <= 256);
    for (size_t o = 0; o < m; o++) {
        sum[o] = cnt[o] = 0;
        mx[o] = -INFINITY;
    }
    for (size_t e = 0; e < n; e++) {
        int64_t idx[MAX_RANK], kidx[MAX_RANK];
        uint32_t k = 0;
        unravel(e, r, dims, idx);
        for (uint32_t d = 0; d < r; d++)
            if (!reduced[d])
                kidx[k++] = idx[d];
        size_t o = ravel(kr, kept_dims, kidx);
        sum[o] += x[e];
        cnt[o] += 1;
        if (x[e] > mx[o])
            mx[o] = x[e];
    }
    static double expect[256];
    for (size_t o = 0; o < m; o++)
        expect[o] = op == RLX_OP_REDUCE_SUM ? sum[o]
                    : op == RLX_OP_REDUCE_MAX ? mx[o]
                    : cnt[o] ? sum[o] / cnt[o] : NAN;

    int64_t ints[1 + MAX_RANK];
    ints[0] = keep;
    for (uint32_t i = 0; i < n_axes; i++)
        ints[1 + i] = axes[i];
    rlx_attrs attrs = { 1 + n_axes, ints, 0, NULL };
    source in = f32in(r, dims, x);
    const result *y = run_any(op, 1, &in, keep || n_axes ? &attrs : NULL);
    free(x);
    ASSERT_EQ(y->rank, want_rank);
    for (uint32_t d = 0; d < want_rank; d++)
        ASSERT_EQ(y->dims[d], want[d]);
    ASSERT_EQ(count_of(y->rank, y->dims), m);
    check_values(rlx_op_name(op), y->data, expect, m, 1e-6, 1e-5);
}

static void check_reduce_all_ops(uint32_t r, const int64_t *dims, int keep,
                                 uint32_t n_axes, const int64_t *axes,
                                 uint32_t want_rank, const int64_t *want)
{
    check_reduce(RLX_OP_REDUCE_SUM, r, dims, keep, n_axes, axes, want_rank,
                 want);
    check_reduce(RLX_OP_REDUCE_MEAN, r, dims, keep, n_axes, axes, want_rank,
                 want);
    check_reduce(RLX_OP_REDUCE_MAX, r, dims, keep, n_axes, axes, want_rank,
                 want);
}

TEST(reductions)
{
    /* every axis, with and without keepdims */
    check_reduce_all_ops(3, DIMS(2, 3, 4), 0, 0, NULL, 0, NULL);
    check_reduce_all_ops(3, DIMS(2, 3, 4), 1, 0, NULL, 3, DIMS(1, 1, 1));
    /* one axis, a negative one, two axes */
    check_reduce_all_ops(3, DIMS(2, 3, 4), 0, 1, DIMS(1), 2, DIMS(2, 4));
    check_reduce_all_ops(3, DIMS(2, 3, 4), 1, 1, DIMS(-1), 3, DIMS(2, 3, 1));
    check_reduce_all_ops(3, DIMS(2, 3, 4), 0, 2, DIMS(2, 0), 1, DIMS(3));
    check_reduce_all_ops(3, DIMS(2, 3, 4), 1, 2, DIMS(0, -1), 3,
                         DIMS(1, 3, 1));
    /* size-1 dims and a rank-0 input */
    check_reduce_all_ops(3, DIMS(1, 5, 1), 0, 1, DIMS(1), 2, DIMS(1, 1));
    check_reduce_all_ops(0, NULL, 0, 0, NULL, 0, NULL);
    check_reduce_all_ops(1, DIMS(7), 0, 1, DIMS(0), 0, NULL);
}

TEST(reductions_empty)
{
    /* reducing an empty axis: sum 0, mean NaN, max -inf */
    check_reduce_all_ops(3, DIMS(2, 0, 3), 0, 1, DIMS(1), 2, DIMS(2, 3));
    check_reduce_all_ops(3, DIMS(2, 0, 3), 1, 0, NULL, 3, DIMS(1, 1, 1));
    /* an empty result: nothing to reduce into */
    check_reduce_all_ops(3, DIMS(2, 0, 3), 0, 1, DIMS(0), 2, DIMS(0, 3));
    const result *y;
    source in = f32in(2, DIMS(0, 3), NULL);
    int64_t ax[2] = { 0, 0 };
    rlx_attrs attrs = { 2, ax, 0, NULL };
    y = run_any(RLX_OP_REDUCE_MAX, 1, &in, &attrs);
    ASSERT_RSHAPE(y, 1, 3);
    for (int i = 0; i < 3; i++)
        ASSERT(isinf(((const float *)y->data)[i]) &&
               ((const float *)y->data)[i] < 0);
    y = run_any(RLX_OP_REDUCE_MEAN, 1, &in, &attrs);
    for (int i = 0; i < 3; i++)
        ASSERT(isnan(((const float *)y->data)[i]));
}

RLX_TEST_LIST(TEST_ENTRY(reductions), TEST_ENTRY(reductions_empty))
