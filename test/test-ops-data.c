/*
 * test-ops-data.c - the ops that move or convert data on the reference
 * CPU backend, on every dtype: reshape, transpose, concat, slice, gather
 * (and its out-of-range error), cast and fill, through the public API,
 * against element-by-element references and known bit patterns.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/* ---- data movement --------------------------------------------------- */

TEST(reshape)
{
    float *x = pattern(24, 5.0f, 31);
    source in = f32in(3, DIMS(2, 3, 4), x);
    rlx_attrs a1 = { 2, DIMS(4, -1), 0, NULL };
    const result *y = run_any(RLX_OP_RESHAPE, 1, &in, &a1);
    ASSERT_RSHAPE(y, 2, 4, 6);
    ASSERT(memcmp(y->data, x, 24 * sizeof *x) == 0);
    rlx_attrs a2 = { 4, DIMS(1, -1, 2, 1), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a2);
    ASSERT_RSHAPE(y, 4, 1, 12, 2, 1);
    ASSERT(memcmp(y->data, x, 24 * sizeof *x) == 0);
    free(x);
    /* to and from a scalar */
    static const float one[1] = { 7.5f };
    in = f32in(2, DIMS(1, 1), one);
    y = run_any(RLX_OP_RESHAPE, 1, &in, NULL);
    ASSERT_EQ(y->rank, 0);
    ASSERT(((const float *)y->data)[0] == 7.5f);
    in = f32in(0, NULL, one);
    rlx_attrs a3 = { 1, DIMS(-1), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a3);
    ASSERT_RSHAPE(y, 1, 1);
    /* empty tensors, and -1 resolved to 0 */
    in = f32in(2, DIMS(0, 3), NULL);
    rlx_attrs a4 = { 2, DIMS(3, 0), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a4);
    ASSERT_RSHAPE(y, 2, 3, 0);
    rlx_attrs a5 = { 2, DIMS(-1, 3), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a5);
    ASSERT_RSHAPE(y, 2, 0, 3);
    /* any dtype */
    static const int64_t big[6] = { INT64_MIN, -1, 0, 1, 42, INT64_MAX };
    in = src('i', RLX_DTYPE_I64, 1, DIMS(6), big);
    rlx_attrs a6 = { 2, DIMS(3, 2), 0, NULL };
    y = run_any(RLX_OP_RESHAPE, 1, &in, &a6);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT_RSHAPE(y, 2, 3, 2);
    ASSERT(memcmp(y->data, big, sizeof big) == 0);
}

/* Transpose X (R, DIMS) of element size ES by PERM (NULL: reverse). */
static void check_transpose(rlx_dtype t, uint32_t r, const int64_t *dims,
                            const int64_t *perm)
{
    size_t es = rlx_dtype_size(t), n = count_of(r, dims);
    unsigned char *x = malloc(n * es + 1);
    ASSERT(x);
    for (size_t i = 0; i < n * es; i++)
        x[i] = (unsigned char)(i * 7 + 3);
    int64_t p[MAX_RANK], od[MAX_RANK];
    for (uint32_t d = 0; d < r; d++) {
        p[d] = perm ? (perm[d] < 0 ? perm[d] + (int64_t)r : perm[d])
                    : (int64_t)(r - 1 - d);
        od[d] = dims[p[d]];
    }
    rlx_attrs attrs = { r, perm, 0, NULL };
    source in = src('i', t, r, dims, x);
    const result *y = run_any(RLX_OP_TRANSPOSE, 1, &in, perm ? &attrs : NULL);
    int ok = y->rank == r && y->dtype == t;
    for (uint32_t d = 0; ok && d < r; d++)
        ok = y->dims[d] == od[d];
    for (size_t e = 0; ok && e < n; e++) {
        int64_t oi[MAX_RANK], ii[MAX_RANK];
        unravel(e, r, od, oi);
        for (uint32_t d = 0; d < r; d++)
            ii[p[d]] = oi[d];
        ok = memcmp((const unsigned char *)y->data + e * es,
                    x + ravel(r, dims, ii) * es, es) == 0;
    }
    free(x);
    if (!ok)
        FAIL("transpose of %s rank %u gave a wrong result",
             rlx_dtype_name(t), r);
}

TEST(transpose)
{
    check_transpose(RLX_DTYPE_F32, 3, DIMS(2, 3, 4), NULL);
    check_transpose(RLX_DTYPE_F32, 3, DIMS(2, 3, 4), DIMS(1, 0, 2));
    check_transpose(RLX_DTYPE_F32, 3, DIMS(2, 3, 4), DIMS(-1, 0, 1));
    check_transpose(RLX_DTYPE_F32, 2, DIMS(1, 5), NULL);
    check_transpose(RLX_DTYPE_I64, 4, DIMS(2, 1, 3, 2), DIMS(3, 1, 0, 2));
    check_transpose(RLX_DTYPE_U8, 2, DIMS(3, 4), NULL);
    check_transpose(RLX_DTYPE_F16, 2, DIMS(3, 4), DIMS(1, 0));
    check_transpose(RLX_DTYPE_F32, 2, DIMS(0, 4), NULL);
    check_transpose(RLX_DTYPE_F32, 0, NULL, NULL);
}

TEST(concat)
{
    static const float a[2] = { 1, 2 }, b[6] = { 3, 4, 5, 6, 7, 8 };
    source in[3] = { f32in(2, DIMS(2, 1), a), f32in(2, DIMS(2, 3), b),
                     f32in(2, DIMS(2, 0), NULL) };
    int64_t axis = 1;
    rlx_attrs attrs = { 1, &axis, 0, NULL };
    const result *y = run_any(RLX_OP_CONCAT, 3, in, &attrs);
    ASSERT_RSHAPE(y, 2, 2, 4);
    static const float want1[8] = { 1, 3, 4, 5, 2, 6, 7, 8 };
    ASSERT(memcmp(y->data, want1, sizeof want1) == 0);
    axis = -1;
    y = run_any(RLX_OP_CONCAT, 3, in, &attrs);
    ASSERT(memcmp(y->data, want1, sizeof want1) == 0);

    /* axis 0 (the default) with three inputs, one a constant */
    source r3[3] = { f32in(2, DIMS(1, 2), a), f32in(2, DIMS(3, 2), b),
                     src('c', RLX_DTYPE_F32, 2, DIMS(1, 2), a) };
    y = run_any(RLX_OP_CONCAT, 3, r3, NULL);
    ASSERT_RSHAPE(y, 2, 5, 2);
    static const float want0[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 1, 2 };
    ASSERT(memcmp(y->data, want0, sizeof want0) == 0);

    /* one input; i64 data; a middle axis */
    y = run_any(RLX_OP_CONCAT, 1, r3 + 1, NULL);
    ASSERT(memcmp(y->data, b, sizeof b) == 0);
    static const int64_t p[4] = { 1, 2, 3, 4 }, q[2] = { -5, -6 };
    source i64[2] = { src('i', RLX_DTYPE_I64, 3, DIMS(2, 2, 1), p),
                      src('i', RLX_DTYPE_I64, 3, DIMS(2, 1, 1), q) };
    axis = 1;
    y = run_any(RLX_OP_CONCAT, 2, i64, &attrs);
    ASSERT_RSHAPE(y, 3, 2, 3, 1);
    static const int64_t want2[6] = { 1, 2, -5, 3, 4, -6 };
    ASSERT(memcmp(y->data, want2, sizeof want2) == 0);
}

/* Slice X [4,5] (values 0..19) with TRIPLES; compare with a reference
 * that clamps as ops.h says. */
static void check_slice(uint32_t n_ints, const int64_t *triples)
{
    static const int64_t dims[2] = { 4, 5 };
    float x[20];
    for (int i = 0; i < 20; i++)
        x[i] = (float)i;
    int64_t start[2] = { 0, 0 }, len[2] = { 4, 5 };
    for (uint32_t t = 0; t < n_ints; t += 3) {
        int64_t ax = triples[t] < 0 ? triples[t] + 2 : triples[t];
        int64_t s = triples[t + 1], e = triples[t + 2];
        if (s < 0)
            s += dims[ax];
        if (e < 0)
            e += dims[ax];
        s = s < 0 ? 0 : s > dims[ax] ? dims[ax] : s;
        e = e < 0 ? 0 : e > dims[ax] ? dims[ax] : e;
        start[ax] = s;
        len[ax] = e > s ? e - s : 0;
    }
    rlx_attrs attrs = { n_ints, triples, 0, NULL };
    source in = f32in(2, dims, x);
    const result *y = run_any(RLX_OP_SLICE, 1, &in, n_ints ? &attrs : NULL);
    ASSERT_RSHAPE(y, 2, len[0], len[1]);
    const float *got = y->data;
    for (int64_t i = 0; i < len[0]; i++)
        for (int64_t j = 0; j < len[1]; j++)
            ASSERT(got[i * len[1] + j] == x[(start[0] + i) * 5 + start[1] + j]);
}

TEST(slice)
{
    check_slice(3, DIMS(0, 1, 3));
    check_slice(6, DIMS(0, 1, 3, 1, -3, 100)); /* end clamps */
    check_slice(3, DIMS(-1, -100, 2));         /* start clamps */
    check_slice(3, DIMS(1, 4, 2));             /* start > end: empty */
    check_slice(3, DIMS(0, -1, 4));            /* the last row */
    check_slice(0, NULL);                      /* nothing: a copy */
    check_slice(6, DIMS(1, 0, 5, 0, 2, -1));
    /* any dtype: u8 */
    static const unsigned char b[6] = { 1, 2, 3, 4, 5, 6 };
    source in = src('i', RLX_DTYPE_U8, 2, DIMS(2, 3), b);
    rlx_attrs attrs = { 3, DIMS(1, 1, 3), 0, NULL };
    const result *y = run_any(RLX_OP_SLICE, 1, &in, &attrs);
    ASSERT_EQ(y->dtype, RLX_DTYPE_U8);
    ASSERT_RSHAPE(y, 2, 2, 2);
    static const unsigned char want[4] = { 2, 3, 5, 6 };
    ASSERT(memcmp(y->data, want, 4) == 0);
}

/* Gather from X [3,4] (values 10*i + j) along AXIS. */
static void check_gather(rlx_dtype index_dtype, uint32_t idx_rank,
                         const int64_t *idx_dims, const int64_t *idx,
                         int64_t axis)
{
    float x[12];
    for (int i = 0; i < 12; i++)
        x[i] = (float)(10 * (i / 4) + i % 4);
    size_t n = count_of(idx_rank, idx_dims);
    int32_t i32[16];
    ASSERT(n <= 16);
    for (size_t i = 0; i < n; i++)
        i32[i] = (int32_t)idx[i];
    source in[2] = { f32in(2, DIMS(3, 4), x),
                     src('i', index_dtype, idx_rank, idx_dims,
                         index_dtype == RLX_DTYPE_I32 ? (const void *)i32
                                                      : (const void *)idx) };
    rlx_attrs attrs = { 1, &axis, 0, NULL };
    const result *y = run_any(RLX_OP_GATHER, 2, in, &attrs);
    const float *got = y->data;
    if (axis == 0) {
        ASSERT_EQ(y->rank, idx_rank + 1);
        for (size_t k = 0; k < n; k++)
            for (int j = 0; j < 4; j++)
                ASSERT(got[k * 4 + (size_t)j] == x[idx[k] * 4 + j]);
    } else {
        ASSERT_EQ(y->rank, idx_rank + 1);
        ASSERT_EQ(y->dims[0], 3);
        for (int i = 0; i < 3; i++)
            for (size_t k = 0; k < n; k++)
                ASSERT(got[(size_t)i * n + k] == x[i * 4 + idx[k]]);
    }
    for (uint32_t d = 0; d < idx_rank; d++)
        ASSERT_EQ(y->dims[axis == 0 ? d : d + 1], idx_dims[d]);
}

TEST(gather)
{
    check_gather(RLX_DTYPE_I32, 1, DIMS(2), DIMS(2, 0), 0);
    check_gather(RLX_DTYPE_I64, 1, DIMS(4), DIMS(1, 1, 0, 2), 0);
    check_gather(RLX_DTYPE_I32, 2, DIMS(2, 2), DIMS(3, 0, 1, 3), 1);
    check_gather(RLX_DTYPE_I64, 2, DIMS(2, 2), DIMS(3, 0, 1, 3), -1);
    check_gather(RLX_DTYPE_I64, 1, DIMS(0), DIMS(0), 1); /* no indices */
    check_gather(RLX_DTYPE_I32, 0, NULL, DIMS(2), 0);    /* a scalar */

    /* an embedding lookup on i64 data */
    static const int64_t table[6] = { 100, 101, 200, 201, 300, 301 };
    static const int32_t ids[3] = { 2, 2, 0 };
    source in[2] = { src('p', RLX_DTYPE_I64, 2, DIMS(3, 2), table),
                     src('i', RLX_DTYPE_I32, 1, DIMS(3), ids) };
    const result *y = run_any(RLX_OP_GATHER, 2, in, NULL);
    ASSERT_EQ(y->dtype, RLX_DTYPE_I64);
    ASSERT_RSHAPE(y, 2, 3, 2);
    static const int64_t want[6] = { 300, 301, 300, 301, 100, 101 };
    ASSERT(memcmp(y->data, want, sizeof want) == 0);
}

TEST(gather_index_out_of_range)
{
    static const float x[6] = { 1, 2, 3, 4, 5, 6 };
    static const int32_t bad32[2] = { 0, 3 };
    static const int64_t neg64[2] = { -1, 0 };
    source in[2] = { f32in(2, DIMS(3, 2), x),
                     src('i', RLX_DTYPE_I32, 1, DIMS(2), bad32) };
    result r;
    ASSERT_STATUS(run_any_try(RLX_OP_GATHER, 2, in, NULL, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "rlx_program_run");
    ASSERT_CONTAINS(run_error, "'op'");
    ASSERT_CONTAINS(run_error, "index 3");
    ASSERT_CONTAINS(run_error, "[0, 3)");
    ASSERT_CONTAINS(run_error, "Fix:");
    in[1] = src('i', RLX_DTYPE_I64, 1, DIMS(2), neg64);
    int64_t axis = 1;
    rlx_attrs attrs = { 1, &axis, 0, NULL };
    ASSERT_STATUS(run_any_try(RLX_OP_GATHER, 2, in, &attrs, &r),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(run_error, "index -1");
    ASSERT_CONTAINS(run_error, "[0, 2)");
}

/* ---- cast and fill --------------------------------------------------- */

TEST(cast_float_to_int)
{
    static const float x[10] = { 2.7f, -2.7f, 0.0f, -0.5f, 3e9f, -3e9f,
                                 NAN, INFINITY, -INFINITY, 254.9f };
    static const int32_t w32[10] = { 2, -2, 0, 0, INT32_MAX, INT32_MIN,
                                     0, INT32_MAX, INT32_MIN, 254 };
    ASSERT(memcmp(cast_run(RLX_DTYPE_F32, RLX_DTYPE_I32, 10, x), w32,
                  sizeof w32) == 0);
    static const uint8_t wu8[10] = { 2, 0, 0, 0, 255, 0, 0, 255, 0, 254 };
    ASSERT(memcmp(cast_run(RLX_DTYPE_F32, RLX_DTYPE_U8, 10, x), wu8,
                  sizeof wu8) == 0);
    static const int8_t wi8[10] = { 2, -2, 0, 0, 127, -128, 0, 127, -128,
                                    127 };
    ASSERT(memcmp(cast_run(RLX_DTYPE_F32, RLX_DTYPE_I8, 10, x), wi8,
                  sizeof wi8) == 0);
    /* bool is x != 0: NaN is nonzero */
    static const uint8_t wb[10] = { 1, 1, 0, 1, 1, 1, 1, 1, 1, 1 };
    ASSERT(memcmp(cast_run(RLX_DTYPE_F32, RLX_DTYPE_BOOL, 10, x), wb,
                  sizeof wb) == 0);
    static const double d[5] = { 1e19, -1e19, 9.2233720368547748e18,
                                 -9.2233720368547758e18, -7.99 };
    static const int64_t w64[5] = { INT64_MAX, INT64_MIN, INT64_MAX,
                                    INT64_MIN, -7 };
    const int64_t *g64 = cast_run(RLX_DTYPE_F64, RLX_DTYPE_I64, 5, d);
    ASSERT_EQ(g64[0], w64[0]);
    ASSERT_EQ(g64[1], w64[1]);
    ASSERT_EQ(g64[2], 9223372036854774784LL); /* the largest below 2^63 */
    ASSERT_EQ(g64[3], w64[3]);
    ASSERT_EQ(g64[4], w64[4]);
}

TEST(cast_int_and_bool)
{
    static const int64_t v[5] = { 3000000000LL, -3000000000LL, -1, 300,
                                  16777217 };
    const int32_t *g32 = cast_run(RLX_DTYPE_I64, RLX_DTYPE_I32, 5, v);
    ASSERT_EQ(g32[0], INT32_MAX); /* narrowing saturates */
    ASSERT_EQ(g32[1], INT32_MIN);
    ASSERT_EQ(g32[2], -1);
    const uint8_t *gu8 = cast_run(RLX_DTYPE_I64, RLX_DTYPE_U8, 5, v);
    ASSERT_EQ(gu8[2], 0);
    ASSERT_EQ(gu8[3], 255);
    const float *gf = cast_run(RLX_DTYPE_I64, RLX_DTYPE_F32, 5, v);
    ASSERT(gf[3] == 300.0f);
    ASSERT(gf[4] == 16777216.0f); /* 2^24 + 1 ties to even */
    ASSERT(gf[0] == 3e9f);
    static const uint8_t b[3] = { 0, 1, 1 };
    const float *bf = cast_run(RLX_DTYPE_BOOL, RLX_DTYPE_F32, 3, b);
    ASSERT(bf[0] == 0.0f && bf[1] == 1.0f && bf[2] == 1.0f);
    static const int8_t s8[3] = { -128, -1, 127 };
    const int64_t *w = cast_run(RLX_DTYPE_I8, RLX_DTYPE_I64, 3, s8);
    ASSERT(w[0] == -128 && w[1] == -1 && w[2] == 127);
    const double *wd = cast_run(RLX_DTYPE_I8, RLX_DTYPE_F64, 3, s8);
    ASSERT(wd[0] == -128.0 && wd[2] == 127.0);
    static const float f[2] = { 0.1f, -1e30f };
    const double *fd = cast_run(RLX_DTYPE_F32, RLX_DTYPE_F64, 2, f);
    ASSERT(fd[0] == (double)0.1f && fd[1] == (double)-1e30f);
    static const double dd[2] = { 1e300, 0.1 };
    const float *df = cast_run(RLX_DTYPE_F64, RLX_DTYPE_F32, 2, dd);
    ASSERT(isinf(df[0]) && df[1] == 0.1f);
}

TEST(fill)
{
    int64_t ints[3] = { RLX_DTYPE_F32, 2, 3 };
    double value = 1.5;
    rlx_attrs attrs = { 3, ints, 1, &value };
    const result *y = run_any(RLX_OP_FILL, 0, NULL, &attrs);
    ASSERT_EQ(y->dtype, RLX_DTYPE_F32);
    ASSERT_RSHAPE(y, 2, 2, 3);
    for (int i = 0; i < 6; i++)
        ASSERT(((const float *)y->data)[i] == 1.5f);
    /* an int dtype truncates like cast; a scalar; default value 0 */
    ints[0] = RLX_DTYPE_I32;
    value = -7.9;
    y = run_any(RLX_OP_FILL, 0, NULL, &attrs);
    for (int i = 0; i < 6; i++)
        ASSERT(((const int32_t *)y->data)[i] == -7);
    rlx_attrs scalar = { 1, ints, 0, NULL };
    ints[0] = RLX_DTYPE_F64;
    y = run_any(RLX_OP_FILL, 0, NULL, &scalar);
    ASSERT_EQ(y->rank, 0);
    ASSERT(((const double *)y->data)[0] == 0.0);
    ints[0] = RLX_DTYPE_F16;
    value = 1.0;
    y = run_any(RLX_OP_FILL, 0, NULL, &attrs);
    ASSERT_EQ(((const uint16_t *)y->data)[5], 0x3C00);
    ints[0] = RLX_DTYPE_BOOL;
    value = -0.25;
    y = run_any(RLX_OP_FILL, 0, NULL, &attrs);
    ASSERT_EQ(((const uint8_t *)y->data)[0], 1);
    int64_t empty[3] = { RLX_DTYPE_U8, 0, 4 };
    rlx_attrs ea = { 3, empty, 1, &value };
    y = run_any(RLX_OP_FILL, 0, NULL, &ea);
    ASSERT_RSHAPE(y, 2, 0, 4);
}

RLX_TEST_LIST(TEST_ENTRY(reshape), TEST_ENTRY(transpose), TEST_ENTRY(concat),
              TEST_ENTRY(slice), TEST_ENTRY(gather),
              TEST_ENTRY(gather_index_out_of_range),
              TEST_ENTRY(cast_float_to_int), TEST_ENTRY(cast_int_and_bool),
              TEST_ENTRY(fill))
