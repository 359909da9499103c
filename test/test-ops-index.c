/*
 * test-ops-index.c - the 1.4 indexing ops on the reference CPU backend
 * through the public API: gather_elements, gather_nd (batch_dims),
 * scatter_elements and scatter_nd with every reduction, one_hot and
 * non_zero, against hand-worked results (the ONNX operator examples among
 * them), with negative indices, duplicates, out-of-range indices that
 * fail the run, empty tensors and the attribute errors.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

#define ATTRS_I(...)                                                        \
    (&(rlx_attrs){ N_OF(((int64_t[]){ __VA_ARGS__ })),                      \
                   (int64_t[]){ __VA_ARGS__ }, 0, NULL })

static int same_bytes(const result *y, const void *want, size_t nbytes)
{
    return y->nbytes == nbytes && (nbytes == 0 ||
                                   memcmp(y->data, want, nbytes) == 0);
}

static void expect_error(rlx_op op, uint32_t n, const source *in,
                         const rlx_attrs *a, rlx_status st, const char *says)
{
    result r;
    ASSERT_STATUS(run_any_try(op, n, in, a, &r), st);
    ASSERT_CONTAINS(run_error, says);
    ASSERT_CONTAINS(run_error, "Fix:");
}

/* ---- gather_elements ------------------------------------------------- */

TEST(gather_elements)
{
    /* ONNX's example: data [[1, 2], [3, 4]], indices [[0, 0], [1, 0]],
     * axis 1 -> [[1, 1], [4, 3]] */
    static const float d[4] = { 1, 2, 3, 4 };
    static const int64_t i1[4] = { 0, 0, 1, 0 };
    source in[2] = { f32in(2, DIMS(2, 2), d),
                     src('i', RLX_DTYPE_I64, 2, DIMS(2, 2), i1) };
    const result *y = run_any(RLX_OP_GATHER_ELEMENTS, 2, in, ATTRS_I(1));
    ASSERT(same_bytes(y, (const float[]){ 1, 1, 4, 3 }, 16));
    /* negative indices count from the end; indices smaller than data on
     * the other axis; axis 0 of a [3, 3] i8 matrix */
    static const int8_t m[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    static const int32_t i0[4] = { -1, 0, 1, -3 };
    in[0] = src('i', RLX_DTYPE_I8, 2, DIMS(3, 3), m);
    in[1] = src('i', RLX_DTYPE_I32, 2, DIMS(2, 2), i0);
    y = run_any(RLX_OP_GATHER_ELEMENTS, 2, in, ATTRS_I(-2));
    ASSERT_RSHAPE(y, 2, 2, 2);
    ASSERT(same_bytes(y, (const int8_t[]){ 7, 2, 4, 2 }, 4));
    /* no indices: an empty result */
    in[1] = src('i', RLX_DTYPE_I32, 2, DIMS(0, 3), NULL);
    y = run_any(RLX_OP_GATHER_ELEMENTS, 2, in, NULL);
    ASSERT_RSHAPE(y, 2, 0, 3);
}

TEST(gather_elements_errors)
{
    static const float d[4] = { 1, 2, 3, 4 };
    static const int64_t bad[2] = { 0, 2 };
    source in[2] = { f32in(2, DIMS(2, 2), d),
                     src('i', RLX_DTYPE_I64, 2, DIMS(1, 2), bad) };
    result r;
    ASSERT_STATUS(run_any_try(RLX_OP_GATHER_ELEMENTS, 2, in, ATTRS_I(1), &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "index 2");
    ASSERT_CONTAINS(run_error, "[-2, 2)");
    ASSERT_CONTAINS(run_error, "Fix:");
    static const int64_t neg[2] = { -3, 0 };
    in[1] = src('i', RLX_DTYPE_I64, 2, DIMS(1, 2), neg);
    ASSERT_STATUS(run_any_try(RLX_OP_GATHER_ELEMENTS, 2, in, NULL, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "index -3");
    /* build-time errors */
    in[1] = src('i', RLX_DTYPE_I64, 1, DIMS(2), neg);
    expect_error(RLX_OP_GATHER_ELEMENTS, 2, in, NULL, RLX_ERR_SHAPE,
                 "do not fit");
    in[1] = src('i', RLX_DTYPE_I64, 2, DIMS(3, 2), NULL);
    expect_error(RLX_OP_GATHER_ELEMENTS, 2, in, ATTRS_I(1), RLX_ERR_SHAPE,
                 "do not fit");
    in[1] = f32in(2, DIMS(1, 2), d);
    expect_error(RLX_OP_GATHER_ELEMENTS, 2, in, NULL, RLX_ERR_DTYPE,
                 "i32 or i64");
}

/* ---- gather_nd ---------------------------------------------------------- */

TEST(gather_nd)
{
    /* ONNX's examples 1, 2 and 5 */
    static const int32_t d22[4] = { 0, 1, 2, 3 };
    static const int64_t full[4] = { 0, 0, 1, 1 };
    source in[2] = { src('i', RLX_DTYPE_I32, 2, DIMS(2, 2), d22),
                     src('i', RLX_DTYPE_I64, 2, DIMS(2, 2), full) };
    const result *y = run_any(RLX_OP_GATHER_ND, 2, in, NULL);
    ASSERT_RSHAPE(y, 1, 2);
    ASSERT(same_bytes(y, (const int32_t[]){ 0, 3 }, 8));
    static const int64_t rows[2] = { 1, 0 };
    in[1] = src('i', RLX_DTYPE_I64, 2, DIMS(2, 1), rows);
    y = run_any(RLX_OP_GATHER_ND, 2, in, NULL);
    ASSERT_RSHAPE(y, 2, 2, 2);
    ASSERT(same_bytes(y, (const int32_t[]){ 2, 3, 0, 1 }, 16));
    static const float d222[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
    in[0] = f32in(3, DIMS(2, 2, 2), d222);
    y = run_any(RLX_OP_GATHER_ND, 2, in, ATTRS_I(1)); /* batch_dims 1 */
    ASSERT_RSHAPE(y, 2, 2, 2);
    ASSERT(same_bytes(y, (const float[]){ 2, 3, 4, 5 }, 16));
    /* negative entries count from the end */
    static const int32_t negs[2] = { -1, -2 };
    in[1] = src('i', RLX_DTYPE_I32, 1, DIMS(2), negs);
    y = run_any(RLX_OP_GATHER_ND, 2, in, NULL);
    ASSERT_RSHAPE(y, 1, 2);
    ASSERT(same_bytes(y, (const float[]){ 4, 5 }, 8));
    /* out of range fails the run */
    static const int32_t bad[2] = { 0, 2 };
    in[1] = src('i', RLX_DTYPE_I32, 1, DIMS(2), bad);
    result r;
    ASSERT_STATUS(run_any_try(RLX_OP_GATHER_ND, 2, in, NULL, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "index 2");
    /* attribute and shape errors */
    in[1] = src('i', RLX_DTYPE_I32, 1, DIMS(4), NULL);
    expect_error(RLX_OP_GATHER_ND, 2, in, NULL, RLX_ERR_SHAPE, "1 to 3");
    in[1] = src('i', RLX_DTYPE_I32, 2, DIMS(2, 1), NULL);
    expect_error(RLX_OP_GATHER_ND, 2, in, ATTRS_I(2),
                 RLX_ERR_INVALID_ARGUMENT, "batch_dims");
    in[1] = src('i', RLX_DTYPE_I32, 2, DIMS(3, 1), NULL);
    expect_error(RLX_OP_GATHER_ND, 2, in, ATTRS_I(1), RLX_ERR_SHAPE,
                 "batch dimension 0");
}

/* ---- scatter_elements --------------------------------------------------- */

TEST(scatter_elements)
{
    /* ONNX's example 2: [[1, 2, 3, 4, 5]], indices [[1, 3]], updates
     * [[1.1, 2.1]], axis 1 -> [[1, 1.1, 3, 2.1, 5]] */
    static const float d[5] = { 1, 2, 3, 4, 5 };
    static const int64_t idx[2] = { 1, 3 };
    static const float u[2] = { 1.1f, 2.1f };
    source in[3] = { f32in(2, DIMS(1, 5), d),
                     src('i', RLX_DTYPE_I64, 2, DIMS(1, 2), idx),
                     f32in(2, DIMS(1, 2), u) };
    const result *y = run_any(RLX_OP_SCATTER_ELEMENTS, 3, in, ATTRS_I(1));
    ASSERT(same_bytes(y, (const float[]){ 1, 1.1f, 3, 2.1f, 5 }, 20));
    /* duplicates: none keeps the last write; the reductions combine */
    static const int32_t dup[3] = { 1, -4, 4 }; /* -4 is 1 */
    static const float u3[3] = { 10, 20, 30 };
    in[1] = src('i', RLX_DTYPE_I32, 2, DIMS(1, 3), dup);
    in[2] = f32in(2, DIMS(1, 3), u3);
    static const struct {
        int64_t red;
        float want[5];
    } cases[] = {
        { RLX_REDUCTION_NONE, { 1, 20, 3, 4, 30 } },
        { RLX_REDUCTION_ADD, { 1, 32, 3, 4, 35 } },
        { RLX_REDUCTION_MUL, { 1, 400, 3, 4, 150 } },
        { RLX_REDUCTION_MAX, { 1, 20, 3, 4, 30 } },
        { RLX_REDUCTION_MIN, { 1, 2, 3, 4, 5 } },
    };
    for (size_t c = 0; c < N_OF(cases); c++) {
        y = run_any(RLX_OP_SCATTER_ELEMENTS, 3, in,
                    ATTRS_I(1, cases[c].red));
        ASSERT(same_bytes(y, cases[c].want, 20));
    }
    /* max with NaN: NaN propagates */
    static const float un[3] = { NAN, 0, 0 };
    in[2] = f32in(2, DIMS(1, 3), un);
    y = run_any(RLX_OP_SCATTER_ELEMENTS, 3, in, ATTRS_I(1, RLX_REDUCTION_MAX));
    ASSERT(isnan(((const float *)y->data)[1]));
    /* i64 add wraps */
    static const int64_t di[2] = { INT64_MAX, 0 };
    static const int64_t ii[1] = { 0 };
    static const int64_t ui[1] = { 1 };
    source ini[3] = { src('i', RLX_DTYPE_I64, 1, DIMS(2), di),
                      src('i', RLX_DTYPE_I64, 1, DIMS(1), ii),
                      src('i', RLX_DTYPE_I64, 1, DIMS(1), ui) };
    y = run_any(RLX_OP_SCATTER_ELEMENTS, 3, ini, ATTRS_I(0, 1));
    ASSERT(same_bytes(y, (const int64_t[]){ INT64_MIN, 0 }, 16));
    /* out of range: the run fails */
    static const int64_t oob[1] = { 2 };
    ini[1] = src('i', RLX_DTYPE_I64, 1, DIMS(1), oob);
    result r;
    ASSERT_STATUS(run_any_try(RLX_OP_SCATTER_ELEMENTS, 3, ini, NULL, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "index 2");
    /* errors at build */
    expect_error(RLX_OP_SCATTER_ELEMENTS, 3, ini, ATTRS_I(0, 9),
                 RLX_ERR_INVALID_ARGUMENT, "reduction 9");
    ini[2] = src('i', RLX_DTYPE_I32, 1, DIMS(1), ui);
    expect_error(RLX_OP_SCATTER_ELEMENTS, 3, ini, NULL, RLX_ERR_DTYPE,
                 "dtypes differ");
    ini[2] = src('i', RLX_DTYPE_I64, 1, DIMS(2), di);
    expect_error(RLX_OP_SCATTER_ELEMENTS, 3, ini, NULL, RLX_ERR_SHAPE,
                 "one update per index");
    static const uint8_t bools[2] = { 0, 1 };
    source inb[3] = { src('i', RLX_DTYPE_BOOL, 1, DIMS(2), bools),
                      src('i', RLX_DTYPE_I64, 1, DIMS(1), ii),
                      src('i', RLX_DTYPE_BOOL, 1, DIMS(1), bools) };
    expect_error(RLX_OP_SCATTER_ELEMENTS, 3, inb, ATTRS_I(0, 1),
                 RLX_ERR_DTYPE, "bool");
    y = run_any(RLX_OP_SCATTER_ELEMENTS, 3, inb, NULL);
    ASSERT(same_bytes(y, (const uint8_t[]){ 0, 1 }, 2));
}

/* ---- scatter_nd ---------------------------------------------------------- */

TEST(scatter_nd)
{
    /* ONNX's example 1: data [1..8], indices [[4], [3], [1], [7]],
     * updates [9, 10, 11, 12] -> [1, 11, 3, 10, 9, 6, 7, 12] */
    static const int32_t d[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    static const int64_t idx[4] = { 4, 3, 1, 7 };
    static const int32_t u[4] = { 9, 10, 11, 12 };
    source in[3] = { src('i', RLX_DTYPE_I32, 1, DIMS(8), d),
                     src('i', RLX_DTYPE_I64, 2, DIMS(4, 1), idx),
                     src('i', RLX_DTYPE_I32, 1, DIMS(4), u) };
    const result *y = run_any(RLX_OP_SCATTER_ND, 3, in, NULL);
    ASSERT(same_bytes(y, (const int32_t[]){ 1, 11, 3, 10, 9, 6, 7, 12 }, 32));
    /* slices: rows of a [3, 2] f32 matrix, a duplicate row, added */
    static const float m[6] = { 1, 2, 3, 4, 5, 6 };
    static const int64_t rows[2] = { -1, 2 };
    static const float ur[4] = { 10, 20, 100, 200 };
    source in2[3] = { f32in(2, DIMS(3, 2), m),
                      src('i', RLX_DTYPE_I64, 2, DIMS(2, 1), rows),
                      f32in(2, DIMS(2, 2), ur) };
    y = run_any(RLX_OP_SCATTER_ND, 3, in2, ATTRS_I(RLX_REDUCTION_ADD));
    ASSERT(same_bytes(y, (const float[]){ 1, 2, 3, 4, 115, 226 }, 24));
    y = run_any(RLX_OP_SCATTER_ND, 3, in2, ATTRS_I(RLX_REDUCTION_NONE));
    ASSERT(same_bytes(y, (const float[]){ 1, 2, 3, 4, 100, 200 }, 24));
    y = run_any(RLX_OP_SCATTER_ND, 3, in2, ATTRS_I(RLX_REDUCTION_MIN));
    ASSERT(same_bytes(y, (const float[]){ 1, 2, 3, 4, 5, 6 }, 24));
    y = run_any(RLX_OP_SCATTER_ND, 3, in2, ATTRS_I(RLX_REDUCTION_MUL));
    ASSERT(same_bytes(y, (const float[]){ 1, 2, 3, 4, 5000, 24000 }, 24));
    /* errors */
    static const int64_t oob[2] = { 3, 0 };
    in2[1] = src('i', RLX_DTYPE_I64, 2, DIMS(2, 1), oob);
    result r;
    ASSERT_STATUS(run_any_try(RLX_OP_SCATTER_ND, 3, in2, NULL, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "index 3");
    in2[2] = f32in(2, DIMS(2, 3), NULL);
    expect_error(RLX_OP_SCATTER_ND, 3, in2, NULL, RLX_ERR_SHAPE,
                 "expected [2,2]");
}

/* ---- one_hot ---------------------------------------------------------- */

TEST(one_hot)
{
    /* depth 3, values (off 0, on 5); -1 is the last class; 3 and -4 are
     * out of [-3, 3): all off, as ONNX says */
    static const int64_t idx[4] = { 0, -1, 3, -4 };
    static const float val[2] = { 0, 5 };
    source in[2] = { src('i', RLX_DTYPE_I64, 1, DIMS(4), idx),
                     f32in(1, DIMS(2), val) };
    const result *y = run_any(RLX_OP_ONE_HOT, 2, in, ATTRS_I(3));
    ASSERT_RSHAPE(y, 2, 4, 3);
    ASSERT(same_bytes(y, (const float[]){ 5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0,
                                          0 }, 48));
    /* axis 0: classes first; bool values */
    static const int32_t i2[2] = { 1, 0 };
    static const uint8_t bv[2] = { 0, 1 };
    in[0] = src('i', RLX_DTYPE_I32, 1, DIMS(2), i2);
    in[1] = src('i', RLX_DTYPE_BOOL, 1, DIMS(2), bv);
    y = run_any(RLX_OP_ONE_HOT, 2, in, ATTRS_I(2, 0));
    ASSERT_EQ(y->dtype, RLX_DTYPE_BOOL);
    ASSERT_RSHAPE(y, 2, 2, 2);
    ASSERT(same_bytes(y, (const uint8_t[]){ 0, 1, 1, 0 }, 4));
    expect_error(RLX_OP_ONE_HOT, 2, in, NULL, RLX_ERR_INVALID_ARGUMENT,
                 "no depth");
    expect_error(RLX_OP_ONE_HOT, 2, in, ATTRS_I(2, 2), RLX_ERR_SHAPE,
                 "axis 2");
    in[1] = src('i', RLX_DTYPE_BOOL, 1, DIMS(1), bv);
    expect_error(RLX_OP_ONE_HOT, 2, in, ATTRS_I(2), RLX_ERR_SHAPE, "[2]");
}

/* ---- non_zero ------------------------------------------------------------ */

TEST(non_zero)
{
    /* [[1, 0], [-0.0, NaN]]: NaN counts, -0 does not */
    static const float x[4] = { 1, 0, -0.0f, NAN };
    source in = f32in(2, DIMS(2, 2), x);
    const result *y = run_any(RLX_OP_NON_ZERO, 1, &in, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT_RSHAPE(y, 2, 2, 4); /* one column per element, -1 padded */
    ASSERT(same_bytes(y, (const int64_t[]){ 0, 1, -1, -1, 0, 1, -1, -1 },
                      64));
    y = run_any(RLX_OP_NON_ZERO, 1, &in, ATTRS_I(2)); /* the exact count */
    ASSERT_RSHAPE(y, 2, 2, 2);
    ASSERT(same_bytes(y, (const int64_t[]){ 0, 1, 0, 1 }, 32));
    result r;
    ASSERT_STATUS(run_any_try(RLX_OP_NON_ZERO, 1, &in, ATTRS_I(1), &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "2 nonzero");
    ASSERT_CONTAINS(run_error, "Fix:");
    static const uint8_t b[3] = { 0, 1, 1 };
    in = src('i', RLX_DTYPE_BOOL, 1, DIMS(3), b);
    y = run_any(RLX_OP_NON_ZERO, 1, &in, ATTRS_I(2));
    ASSERT(same_bytes(y, (const int64_t[]){ 1, 2 }, 16));
    in = f32in(2, DIMS(0, 3), NULL);
    y = run_any(RLX_OP_NON_ZERO, 1, &in, NULL);
    ASSERT_RSHAPE(y, 2, 2, 0);
    expect_error(RLX_OP_NON_ZERO, 1, &in, ATTRS_I(-2),
                 RLX_ERR_INVALID_ARGUMENT, "column count");
}

RLX_TEST_LIST(TEST_ENTRY(gather_elements), TEST_ENTRY(gather_elements_errors),
              TEST_ENTRY(gather_nd), TEST_ENTRY(scatter_elements),
              TEST_ENTRY(scatter_nd), TEST_ENTRY(one_hot),
              TEST_ENTRY(non_zero))
