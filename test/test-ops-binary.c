/*
 * test-ops-binary.c - the binary ops of the reference CPU backend (add,
 * sub, mul, div, max, min, pow), through the public API, against a
 * reference in double that locates each operand element by NumPy
 * broadcasting on its own: scalars, rows, outer products, rank 3.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

static double ref_binary(rlx_op op, double a, double b)
{
    switch (op) {
    case RLX_OP_ADD: return a + b;
    case RLX_OP_SUB: return a - b;
    case RLX_OP_MUL: return a * b;
    case RLX_OP_DIV: return a / b;
    case RLX_OP_MAX: return a > b ? a : b;
    case RLX_OP_MIN: return a < b ? a : b;
    case RLX_OP_POW: return pow(a, b);
    default: return NAN;
    }
}

/* Offset in T of the output index IDX (of rank R), NumPy-broadcast. */
static size_t broadcast_offset(const tensor *t, uint32_t r,
                               const int64_t *idx)
{
    size_t off = 0;
    for (uint32_t d = 0; d < t->rank; d++) {
        int64_t i = idx[r - t->rank + d];
        off = off * (size_t)t->dims[d] +
              (t->dims[d] == 1 ? 0 : (size_t)i);
    }
    return off;
}

/* Run OP on A and B and compare against a broadcast reference whose
 * output shape is (R, DIMS). */
static void check_binary(rlx_op op, const char *kinds, tensor a, tensor b,
                         uint32_t r, const int64_t *dims)
{
    tensor ins[2] = { a, b }, out;
    const float *y = run_op_kinds(op, kinds, 2, ins, NULL, &out);
    ASSERT_EQ(out.rank, r);
    for (uint32_t i = 0; i < r; i++)
        ASSERT_EQ(out.dims[i], dims[i]);
    static double expect[256];
    size_t n = count_of(r, dims);
    ASSERT(n <= 256);
    for (size_t e = 0; e < n; e++) {
        int64_t idx[MAX_RANK];
        size_t rest = e;
        for (uint32_t d = r; d-- > 0;) {
            idx[d] = (int64_t)(rest % (size_t)dims[d]);
            rest /= (size_t)dims[d];
        }
        expect[e] = ref_binary(op, a.data[broadcast_offset(&a, r, idx)],
                               b.data[broadcast_offset(&b, r, idx)]);
    }
    check_values(rlx_op_name(op), y, expect, n, REL_TOL, 0);
}

static const float c21[2] = { 1.5f, -3.0f };
static const float r13[3] = { 2.0f, -0.25f, 7.0f };

TEST(add_broadcast_row)
{
    /* [2,3] + [3] */
    check_binary(RLX_OP_ADD, "ii", make(2, (int64_t[]){ 2, 3 }, m23),
                 make(1, (int64_t[]){ 3 }, v3), 2, (int64_t[]){ 2, 3 });
}

TEST(add_broadcast_3d)
{
    /* [2,1,4] + [3,1] -> [2,3,4], the second side a constant */
    float a[8], b[3] = { 10.0f, -20.0f, 30.5f };
    for (int i = 0; i < 8; i++)
        a[i] = 0.75f * (float)i - 2.0f;
    check_binary(RLX_OP_ADD, "ic", make(3, (int64_t[]){ 2, 1, 4 }, a),
                 make(2, (int64_t[]){ 3, 1 }, b), 3,
                 (int64_t[]){ 2, 3, 4 });
}

TEST(sub_outer)
{
    /* [2,1] - [1,3] -> [2,3] */
    check_binary(RLX_OP_SUB, "ii", make(2, (int64_t[]){ 2, 1 }, c21),
                 make(2, (int64_t[]){ 1, 3 }, r13), 2, (int64_t[]){ 2, 3 });
}

TEST(mul_outer)
{
    check_binary(RLX_OP_MUL, "ii", make(2, (int64_t[]){ 2, 1 }, c21),
                 make(2, (int64_t[]){ 1, 3 }, r13), 2, (int64_t[]){ 2, 3 });
    check_binary(RLX_OP_MUL, "ii", make(2, (int64_t[]){ 2, 3 }, m23),
                 make(2, (int64_t[]){ 2, 3 }, m23), 2, (int64_t[]){ 2, 3 });
}

TEST(div_scalar)
{
    static const float s[1] = { -4.0f };
    /* [2,3] / rank-0 */
    check_binary(RLX_OP_DIV, "ii", make(2, (int64_t[]){ 2, 3 }, m23),
                 make(0, NULL, s), 2, (int64_t[]){ 2, 3 });
    /* rank-0 / [3] */
    check_binary(RLX_OP_DIV, "ii", make(0, NULL, s),
                 make(1, (int64_t[]){ 3 }, v3), 1, (int64_t[]){ 3 });
}

TEST(max_min)
{
    /* [3] against [2,3]: the left side broadcasts */
    check_binary(RLX_OP_MAX, "ii", make(1, (int64_t[]){ 3 }, v3),
                 make(2, (int64_t[]){ 2, 3 }, m23), 2, (int64_t[]){ 2, 3 });
    static const float one[1] = { 0.25f };
    /* [1] against [2,3] */
    check_binary(RLX_OP_MIN, "ii", make(1, (int64_t[]){ 1 }, one),
                 make(2, (int64_t[]){ 2, 3 }, m23), 2, (int64_t[]){ 2, 3 });
    check_binary(RLX_OP_MAX, "ii", make(2, (int64_t[]){ 2, 1 }, c21),
                 make(2, (int64_t[]){ 1, 3 }, r13), 2, (int64_t[]){ 2, 3 });
}

TEST(pow)
{
    static const float base[6] = { 0.5f, 1.0f, 2.0f, 3.0f, 10.0f, 0.1f };
    static const float ex[3] = { 0.5f, -1.5f, 3.0f };
    check_binary(RLX_OP_POW, "ii", make(2, (int64_t[]){ 2, 3 }, base),
                 make(1, (int64_t[]){ 3 }, ex), 2, (int64_t[]){ 2, 3 });
    /* negative bases with integer exponents */
    static const float nb[2] = { -2.0f, -0.5f };
    static const float ie[3] = { 2.0f, 3.0f, -1.0f };
    check_binary(RLX_OP_POW, "ii", make(2, (int64_t[]){ 2, 1 }, nb),
                 make(2, (int64_t[]){ 1, 3 }, ie), 2, (int64_t[]){ 2, 3 });
}

RLX_TEST_LIST(TEST_ENTRY(add_broadcast_row), TEST_ENTRY(add_broadcast_3d),
              TEST_ENTRY(sub_outer), TEST_ENTRY(mul_outer),
              TEST_ENTRY(div_scalar), TEST_ENTRY(max_min), TEST_ENTRY(pow))
