/*
 * test-ops-layout.c - the 1.4 ops that rearrange a tensor or scan along
 * an axis, on the reference CPU backend through the public API: pad
 * (every mode, crops, pads wider than the axis), expand, tile,
 * strided_slice (negative steps and ONNX clamping), trilu, cumsum, topk
 * and range, against hand-worked results, on several dtypes, and their
 * attribute errors.
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

static int same_f32(const result *y, const float *want, size_t n)
{
    if (y->nbytes != n * sizeof(float))
        return 0;
    const float *g = y->data;
    for (size_t i = 0; i < n; i++) {
        /* NaN matches NaN; the sign of zero must match too */
        if (isnan(want[i]) ? !isnan(g[i])
                           : g[i] != want[i] ||
                                 signbit(g[i]) != signbit(want[i]))
            return 0;
    }
    return 1;
}

static int same_bytes(const result *y, const void *want, size_t nbytes)
{
    return y->nbytes == nbytes && (nbytes == 0 ||
                                   memcmp(y->data, want, nbytes) == 0);
}

/* The op fails at graph building with ST and a Fix: hint. */
static void expect_error(rlx_op op, uint32_t n, const source *in,
                         const rlx_attrs *a, rlx_status st, const char *says)
{
    result r;
    ASSERT_STATUS(run_any_try(op, n, in, a, &r), st);
    ASSERT_CONTAINS(run_error, says);
    ASSERT_CONTAINS(run_error, "Fix:");
}

/* ---- pad ------------------------------------------------------------- */

static const float row4[4] = { 1, 2, 3, 4 };

TEST(pad_modes_1d)
{
    source in = f32in(1, DIMS(4), row4);
    /* constant (value 9), 2 before, 1 after */
    rlx_attrs c = { 3, DIMS(RLX_PAD_CONSTANT, 2, 1), 1, (double[]){ 9 } };
    const result *y = run_any(RLX_OP_PAD, 1, &in, &c);
    ASSERT_RSHAPE(y, 1, 7);
    ASSERT(same_f32(y, (const float[]){ 9, 9, 1, 2, 3, 4, 9 }, 7));
    /* reflect: the edge is not repeated */
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_REFLECT, 2, 2));
    ASSERT(same_f32(y, (const float[]){ 3, 2, 1, 2, 3, 4, 3, 2 }, 8));
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_EDGE, 2, 1));
    ASSERT(same_f32(y, (const float[]){ 1, 1, 1, 2, 3, 4, 4 }, 7));
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_WRAP, 2, 1));
    ASSERT(same_f32(y, (const float[]){ 3, 4, 1, 2, 3, 4, 1 }, 7));
    /* wider than the axis: the pattern repeats, as NumPy's pad does */
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_REFLECT, 5, 0));
    ASSERT(same_f32(y, (const float[]){ 2, 3, 4, 3, 2, 1, 2, 3, 4 }, 9));
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_WRAP, 0, 6));
    ASSERT(same_f32(y, (const float[]){ 1, 2, 3, 4, 1, 2, 3, 4, 1, 2 },
                    10));
    /* negative pads crop first; the rest pads the cropped part */
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_EDGE, -1, 2));
    ASSERT(same_f32(y, (const float[]){ 2, 3, 4, 4, 4 }, 5));
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_REFLECT, 2, -2));
    ASSERT(same_f32(y, (const float[]){ 1, 2, 1, 2 }, 4));
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_CONSTANT, -4, 0));
    ASSERT_RSHAPE(y, 1, 0);
    /* no pads: a copy */
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_WRAP));
    ASSERT(same_f32(y, row4, 4));
}

TEST(pad_2d_and_dtypes)
{
    /* [[1, 2], [3, 4]] padded: rows 1 before, cols 1 after, -0.0 value */
    static const float x[4] = { 1, 2, 3, 4 };
    source in = f32in(2, DIMS(2, 2), x);
    rlx_attrs c = { 5, DIMS(RLX_PAD_CONSTANT, 1, 0, 0, 1), 1,
                    (double[]){ -0.0 } };
    const result *y = run_any(RLX_OP_PAD, 1, &in, &c);
    ASSERT_RSHAPE(y, 2, 3, 3);
    ASSERT(same_f32(y, (const float[]){ -0.0f, -0.0f, -0.0f, 1, 2, -0.0f, 3,
                                        4, -0.0f }, 9));
    /* i64 edge, both axes */
    static const int64_t xi[4] = { INT64_MIN, 1, 2, INT64_MAX };
    in = src('i', RLX_DTYPE_I64, 2, DIMS(2, 2), xi);
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_EDGE, 0, 1, 1, 0));
    ASSERT_RSHAPE(y, 2, 3, 3);
    static const int64_t wi[9] = { INT64_MIN, INT64_MIN, 1, 2, 2, INT64_MAX,
                                   2, 2, INT64_MAX };
    ASSERT(same_bytes(y, wi, sizeof wi));
    /* u8 constant 300 saturates to 255 as cast does; bool pads with 1 */
    static const uint8_t xu[2] = { 7, 8 };
    in = src('i', RLX_DTYPE_U8, 1, DIMS(2), xu);
    rlx_attrs cu = { 3, DIMS(RLX_PAD_CONSTANT, 1, 0), 1, (double[]){ 300 } };
    y = run_any(RLX_OP_PAD, 1, &in, &cu);
    ASSERT(same_bytes(y, (const uint8_t[]){ 255, 7, 8 }, 3));
    in = src('i', RLX_DTYPE_BOOL, 1, DIMS(2), (const uint8_t[]){ 0, 1 });
    rlx_attrs cb = { 3, DIMS(RLX_PAD_CONSTANT, 0, 1), 1, (double[]){ 1 } };
    y = run_any(RLX_OP_PAD, 1, &in, &cb);
    ASSERT(same_bytes(y, (const uint8_t[]){ 0, 1, 1 }, 3));
    /* f16 reflect keeps the bits */
    uint16_t h[3] = { ref_f16(1.5), ref_f16(-2), ref_f16(0.25) };
    in = src('i', RLX_DTYPE_F16, 1, DIMS(3), h);
    y = run_any(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_REFLECT, 1, 1));
    ASSERT(same_bytes(y, (const uint16_t[]){ h[1], h[0], h[1], h[2], h[1] },
                      10));
}

TEST(pad_errors)
{
    source in = f32in(1, DIMS(4), row4);
    expect_error(RLX_OP_PAD, 1, &in, ATTRS_I(7), RLX_ERR_INVALID_ARGUMENT,
                 "mode 7");
    expect_error(RLX_OP_PAD, 1, &in, ATTRS_I(0, 1, 1, 1, 1),
                 RLX_ERR_INVALID_ARGUMENT, "4 pads");
    expect_error(RLX_OP_PAD, 1, &in, ATTRS_I(0, -3, -2), RLX_ERR_SHAPE,
                 "crop more");
    expect_error(RLX_OP_PAD, 1, &in, ATTRS_I(0, INT64_MAX, 1), RLX_ERR_SHAPE,
                 "overflow");
    expect_error(RLX_OP_PAD, 1, &in, ATTRS_I(RLX_PAD_EDGE, -4, 1),
                 RLX_ERR_SHAPE, "empty");
    /* huge but representable: refused for its size, not run */
    expect_error(RLX_OP_PAD, 1, &in, ATTRS_I(0, INT64_MAX / 2, 0),
                 RLX_ERR_SHAPE, "overflows");
}

/* ---- expand, tile ------------------------------------------------------ */

TEST(expand)
{
    static const float col[3] = { 1, 2, 3 };
    source in = f32in(2, DIMS(3, 1), col);
    const result *y = run_any(RLX_OP_EXPAND, 1, &in, ATTRS_I(2, 1, 2));
    ASSERT_RSHAPE(y, 3, 2, 3, 2);
    ASSERT(same_f32(y, (const float[]){ 1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3 },
                    12));
    /* both ways: a 1 in the shape keeps the input's size */
    y = run_any(RLX_OP_EXPAND, 1, &in, ATTRS_I(1, 2));
    ASSERT_RSHAPE(y, 2, 3, 2);
    /* to an empty shape, and from a scalar, on i32 */
    y = run_any(RLX_OP_EXPAND, 1, &in, ATTRS_I(0, 3, 4));
    ASSERT_RSHAPE(y, 3, 0, 3, 4);
    source s = src('i', RLX_DTYPE_I32, 0, NULL, (const int32_t[]){ -5 });
    y = run_any(RLX_OP_EXPAND, 1, &s, ATTRS_I(2, 2));
    ASSERT(same_bytes(y, (const int32_t[]){ -5, -5, -5, -5 }, 16));
    expect_error(RLX_OP_EXPAND, 1, &in, ATTRS_I(2, 2), RLX_ERR_SHAPE,
                 "does not broadcast");
    expect_error(RLX_OP_EXPAND, 1, &in, ATTRS_I(-1, 1), RLX_ERR_SHAPE,
                 "negative");
}

TEST(tile)
{
    static const float x[4] = { 1, 2, 3, 4 };
    source in = f32in(2, DIMS(2, 2), x);
    const result *y = run_any(RLX_OP_TILE, 1, &in, ATTRS_I(2, 3));
    ASSERT_RSHAPE(y, 2, 4, 6);
    ASSERT(same_f32(y, (const float[]){ 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
                                        1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4 },
                    24));
    y = run_any(RLX_OP_TILE, 1, &in, ATTRS_I(0, 1));
    ASSERT_RSHAPE(y, 2, 0, 2);
    source b = src('i', RLX_DTYPE_BOOL, 1, DIMS(2), (const uint8_t[]){ 1, 0 });
    y = run_any(RLX_OP_TILE, 1, &b, ATTRS_I(2));
    ASSERT(same_bytes(y, (const uint8_t[]){ 1, 0, 1, 0 }, 4));
    expect_error(RLX_OP_TILE, 1, &in, ATTRS_I(2), RLX_ERR_INVALID_ARGUMENT,
                 "1 repeats");
    expect_error(RLX_OP_TILE, 1, &in, ATTRS_I(2, -1),
                 RLX_ERR_INVALID_ARGUMENT, "repeat 1");
    expect_error(RLX_OP_TILE, 1, &in, ATTRS_I(INT64_MAX, 1), RLX_ERR_SHAPE,
                 "overflow");
}

/* ---- strided_slice --------------------------------------------------- */

TEST(strided_slice)
{
    static const float x[6] = { 0, 1, 2, 3, 4, 5 };
    source in = f32in(1, DIMS(6), x);
    /* reverse: step -1 from the end to before the start */
    const result *y = run_any(RLX_OP_STRIDED_SLICE, 1, &in,
                              ATTRS_I(0, -1, INT64_MIN, -1));
    ASSERT(same_f32(y, (const float[]){ 5, 4, 3, 2, 1, 0 }, 6));
    y = run_any(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 1, 100, 2));
    ASSERT(same_f32(y, (const float[]){ 1, 3, 5 }, 3));
    y = run_any(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 100, 0, -2));
    ASSERT(same_f32(y, (const float[]){ 5, 3, 1 }, 3)); /* start clamps to 5 */
    y = run_any(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 4, 1, -3));
    ASSERT(same_f32(y, (const float[]){ 4 }, 1));
    y = run_any(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 2, 2, 1));
    ASSERT_RSHAPE(y, 1, 0);
    y = run_any(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 0, 6, INT64_MIN));
    ASSERT_RSHAPE(y, 1, 0); /* walking back from 0 to 5: nothing */
    y = run_any(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 5, -7, INT64_MIN));
    ASSERT(same_f32(y, (const float[]){ 5 }, 1));
    y = run_any(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 0, 6, INT64_MAX));
    ASSERT(same_f32(y, (const float[]){ 0 }, 1));

    /* two axes of a [2, 3] i64 matrix, the second reversed */
    static const int64_t m[6] = { 10, 11, 12, 20, 21, 22 };
    in = src('i', RLX_DTYPE_I64, 2, DIMS(2, 3), m);
    y = run_any(RLX_OP_STRIDED_SLICE, 1, &in,
                ATTRS_I(-1, -1, INT64_MIN, -2, 0, 1, 2, 1));
    ASSERT_RSHAPE(y, 2, 1, 2);
    ASSERT(same_bytes(y, (const int64_t[]){ 22, 20 }, 16));
    expect_error(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 0, 1, 0),
                 RLX_ERR_INVALID_ARGUMENT, "step");
    expect_error(RLX_OP_STRIDED_SLICE, 1, &in, ATTRS_I(0, 0, 1),
                 RLX_ERR_INVALID_ARGUMENT, "quadruples");
    expect_error(RLX_OP_STRIDED_SLICE, 1, &in,
                 ATTRS_I(0, 0, 1, 1, -2, 0, 1, 1), RLX_ERR_INVALID_ARGUMENT,
                 "twice");
}

/* ---- trilu ------------------------------------------------------------ */

TEST(trilu)
{
    static const float x[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
    source in = f32in(2, DIMS(3, 4), x);
    const result *y = run_any(RLX_OP_TRILU, 1, &in, NULL); /* upper, k 0 */
    ASSERT(same_f32(y, (const float[]){ 1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11,
                                        12 }, 12));
    y = run_any(RLX_OP_TRILU, 1, &in, ATTRS_I(0, -1)); /* lower, below */
    ASSERT(same_f32(y, (const float[]){ 0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0,
                                        0 }, 12));
    y = run_any(RLX_OP_TRILU, 1, &in, ATTRS_I(1, 2));
    ASSERT(same_f32(y, (const float[]){ 0, 0, 3, 4, 0, 0, 0, 8, 0, 0, 0, 0 },
                    12));
    /* huge k: everything or nothing, no overflow */
    y = run_any(RLX_OP_TRILU, 1, &in, ATTRS_I(0, INT64_MAX));
    ASSERT(same_f32(y, x, 12));
    y = run_any(RLX_OP_TRILU, 1, &in, ATTRS_I(1, INT64_MAX));
    ASSERT(same_f32(y, (const float[12]){ 0 }, 12));
    y = run_any(RLX_OP_TRILU, 1, &in, ATTRS_I(1, INT64_MIN));
    ASSERT(same_f32(y, x, 12));
    /* batched i8 */
    static const int8_t b[8] = { 1, 2, 3, 4, -1, -2, -3, -4 };
    in = src('i', RLX_DTYPE_I8, 3, DIMS(2, 2, 2), b);
    y = run_any(RLX_OP_TRILU, 1, &in, ATTRS_I(0, 0));
    ASSERT(same_bytes(y, (const int8_t[]){ 1, 0, 3, 4, -1, 0, -3, -4 }, 8));
    in = f32in(1, DIMS(4), row4);
    expect_error(RLX_OP_TRILU, 1, &in, NULL, RLX_ERR_SHAPE, "rank 1");
    in = f32in(2, DIMS(3, 4), x);
    expect_error(RLX_OP_TRILU, 1, &in, ATTRS_I(2), RLX_ERR_INVALID_ARGUMENT,
                 "upper is 2");
}

/* ---- cumsum -------------------------------------------------------------- */

TEST(cumsum)
{
    static const float x[6] = { 1, 2, 3, 4, 5, 6 };
    source in = f32in(2, DIMS(2, 3), x);
    const result *y = run_any(RLX_OP_CUMSUM, 1, &in, ATTRS_I(1));
    ASSERT(same_f32(y, (const float[]){ 1, 3, 6, 4, 9, 15 }, 6));
    y = run_any(RLX_OP_CUMSUM, 1, &in, NULL); /* axis 0 */
    ASSERT(same_f32(y, (const float[]){ 1, 2, 3, 5, 7, 9 }, 6));
    y = run_any(RLX_OP_CUMSUM, 1, &in, ATTRS_I(-1, 1, 0)); /* exclusive */
    ASSERT(same_f32(y, (const float[]){ 0, 1, 3, 0, 4, 9 }, 6));
    y = run_any(RLX_OP_CUMSUM, 1, &in, ATTRS_I(1, 0, 1)); /* reverse */
    ASSERT(same_f32(y, (const float[]){ 6, 5, 3, 15, 11, 6 }, 6));
    y = run_any(RLX_OP_CUMSUM, 1, &in, ATTRS_I(1, 1, 1)); /* both */
    ASSERT(same_f32(y, (const float[]){ 5, 3, 0, 11, 6, 0 }, 6));
    /* NaN carries on from where it enters */
    static const float xn[3] = { 1, NAN, 2 };
    in = f32in(1, DIMS(3), xn);
    y = run_any(RLX_OP_CUMSUM, 1, &in, NULL);
    ASSERT(same_f32(y, (const float[]){ 1, NAN, NAN }, 3));
    /* integers wrap */
    static const int32_t xi[3] = { INT32_MAX, 1, 1 };
    in = src('i', RLX_DTYPE_I32, 1, DIMS(3), xi);
    y = run_any(RLX_OP_CUMSUM, 1, &in, NULL);
    ASSERT(same_bytes(y, (const int32_t[]){ INT32_MAX, INT32_MIN,
                                            INT32_MIN + 1 }, 12));
    static const int64_t xl[3] = { 5, -7, 1 };
    in = src('i', RLX_DTYPE_I64, 1, DIMS(3), xl);
    y = run_any(RLX_OP_CUMSUM, 1, &in, ATTRS_I(0, 1, 1));
    ASSERT(same_bytes(y, (const int64_t[]){ -6, 1, 0 }, 24));
    /* bf16 sums in wide precision, rounds once per output */
    uint16_t hb[3] = { ref_bf16(256), ref_bf16(1), ref_bf16(1) };
    in = src('i', RLX_DTYPE_BF16, 1, DIMS(3), hb);
    y = run_any(RLX_OP_CUMSUM, 1, &in, NULL);
    ASSERT(same_bytes(y, (const uint16_t[]){ ref_bf16(256), ref_bf16(256),
                                             ref_bf16(258) }, 6));
    in = src('i', RLX_DTYPE_BOOL, 1, DIMS(2), (const uint8_t[]){ 1, 1 });
    expect_error(RLX_OP_CUMSUM, 1, &in, NULL, RLX_ERR_DTYPE, "bool");
    in = f32in(2, DIMS(2, 3), x);
    expect_error(RLX_OP_CUMSUM, 1, &in, ATTRS_I(2), RLX_ERR_SHAPE, "axis 2");
    expect_error(RLX_OP_CUMSUM, 1, &in, ATTRS_I(0, 2), RLX_ERR_INVALID_ARGUMENT,
                 "exclusive");
}

/* ---- topk ------------------------------------------------------------- */

TEST(topk)
{
    /* ties keep the lower index first; NaN ranks above every number */
    static const float x[6] = { 3, 1, 3, NAN, -INFINITY, 2 };
    source in = f32in(1, DIMS(6), x);
    const result *y = run_any(RLX_OP_TOPK, 1, &in, ATTRS_I(3));
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT(same_bytes(y, (const int64_t[]){ 3, 0, 2 }, 24));
    y = run_any(RLX_OP_TOPK, 1, &in, ATTRS_I(6, 0, 0, 1)); /* smallest */
    ASSERT(same_bytes(y, (const int64_t[]){ 4, 1, 5, 0, 2, 3 }, 48));
    y = run_any(RLX_OP_TOPK, 1, &in, ATTRS_I(0));
    ASSERT_RSHAPE(y, 1, 0);
    /* along axis 0 of a [3, 2] i32 matrix, sorted 0 gives the same */
    static const int32_t m[6] = { 5, -1, 7, -1, 5, 0 };
    in = src('i', RLX_DTYPE_I32, 2, DIMS(3, 2), m);
    y = run_any(RLX_OP_TOPK, 1, &in, ATTRS_I(2, 0, 1, 0));
    ASSERT_RSHAPE(y, 2, 2, 2);
    ASSERT(same_bytes(y, (const int64_t[]){ 1, 2, 0, 0 }, 32));
    /* values by gather_elements along the same axis */
    int64_t order[4];
    memcpy(order, y->data, sizeof order); /* run_any frees y next call */
    source g[2] = { in, src('c', RLX_DTYPE_I64, 2, DIMS(2, 2), order) };
    const result *v = run_any(RLX_OP_GATHER_ELEMENTS, 2, g, ATTRS_I(0));
    ASSERT(same_bytes(v, (const int32_t[]){ 7, 0, 5, -1 }, 16));
    expect_error(RLX_OP_TOPK, 1, &in, ATTRS_I(4, 0), RLX_ERR_INVALID_ARGUMENT,
                 "k is 4");
    expect_error(RLX_OP_TOPK, 1, &in, NULL, RLX_ERR_INVALID_ARGUMENT,
                 "no k");
    in = src('i', RLX_DTYPE_BOOL, 1, DIMS(2), (const uint8_t[]){ 1, 0 });
    expect_error(RLX_OP_TOPK, 1, &in, ATTRS_I(1), RLX_ERR_DTYPE, "bool");
}

/* ---- range ------------------------------------------------------------- */

TEST(range)
{
    rlx_attrs f = { 2, DIMS(RLX_DTYPE_F32, 4), 2, (double[]){ 1.5, -0.5 } };
    const result *y = run_any(RLX_OP_RANGE, 0, NULL, &f);
    ASSERT_RSHAPE(y, 1, 4);
    ASSERT(same_f32(y, (const float[]){ 1.5f, 1.0f, 0.5f, 0.0f }, 4));
    y = run_any(RLX_OP_RANGE, 0, NULL, ATTRS_I(RLX_DTYPE_F64, 3));
    ASSERT(same_bytes(y, (const double[]){ 0, 1, 2 }, 24)); /* defaults */
    y = run_any(RLX_OP_RANGE, 0, NULL,
                ATTRS_I(RLX_DTYPE_I64, 3, INT64_MAX - 4, 2));
    ASSERT(same_bytes(y, (const int64_t[]){ INT64_MAX - 4, INT64_MAX - 2,
                                            INT64_MAX }, 24));
    y = run_any(RLX_OP_RANGE, 0, NULL, ATTRS_I(RLX_DTYPE_U8, 3, 255, -100));
    ASSERT(same_bytes(y, (const uint8_t[]){ 255, 155, 55 }, 3));
    y = run_any(RLX_OP_RANGE, 0, NULL, ATTRS_I(RLX_DTYPE_I32, 0));
    ASSERT_RSHAPE(y, 1, 0);
    expect_error(RLX_OP_RANGE, 0, NULL,
                 ATTRS_I(RLX_DTYPE_I64, 4, INT64_MAX - 4, 2),
                 RLX_ERR_INVALID_ARGUMENT, "range");
    expect_error(RLX_OP_RANGE, 0, NULL, ATTRS_I(RLX_DTYPE_I8, 2, 0, 200),
                 RLX_ERR_INVALID_ARGUMENT, "i8");
    expect_error(RLX_OP_RANGE, 0, NULL, ATTRS_I(RLX_DTYPE_BOOL, 2),
                 RLX_ERR_DTYPE, "bool");
    expect_error(RLX_OP_RANGE, 0, NULL, ATTRS_I(RLX_DTYPE_F32, -1),
                 RLX_ERR_SHAPE, "count");
    expect_error(RLX_OP_RANGE, 0, NULL, ATTRS_I(RLX_DTYPE_F32),
                 RLX_ERR_INVALID_ARGUMENT, "count");
}

RLX_TEST_LIST(TEST_ENTRY(pad_modes_1d), TEST_ENTRY(pad_2d_and_dtypes),
              TEST_ENTRY(pad_errors), TEST_ENTRY(expand), TEST_ENTRY(tile),
              TEST_ENTRY(strided_slice), TEST_ENTRY(trilu),
              TEST_ENTRY(cumsum), TEST_ENTRY(topk), TEST_ENTRY(range))
