/*
 * test-kit.c - the plugin kit (plugin-abi/rlx/kit*.h) on its own: built
 * against the plugin-abi headers only (no librlx), as an out-of-tree
 * backend would use it.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <rlx/kit.h>

#include "harness.h"

/* ---- shapes ------------------------------------------------------------ */

TEST(norm_axis)
{
    ASSERT_EQ(rlx_kit_norm_axis(0, 3), 0);
    ASSERT_EQ(rlx_kit_norm_axis(2, 3), 2);
    ASSERT_EQ(rlx_kit_norm_axis(-1, 3), 2);
    ASSERT_EQ(rlx_kit_norm_axis(-3, 3), 0);
    ASSERT_EQ(rlx_kit_norm_axis(3, 3), -1);
    ASSERT_EQ(rlx_kit_norm_axis(-4, 3), -1);
    ASSERT_EQ(rlx_kit_norm_axis(0, 0), -1);
    ASSERT_EQ(rlx_kit_norm_axis(INT64_MIN, 3), -1);
}

TEST(broadcast_strides)
{
    /* [3, 1] against [2, 3, 4]: missing dim 0, stretched dim 2 */
    const int64_t a[] = { 3, 1 }, out[] = { 2, 3, 4 };
    int64_t s[3];
    ASSERT(rlx_kit_broadcasts(2, a, 3, out));
    rlx_kit_broadcast_strides(3, 2, a, s);
    ASSERT_EQ(s[0], 0);
    ASSERT_EQ(s[1], 1);
    ASSERT_EQ(s[2], 0);
    /* full shape: contiguous strides */
    rlx_kit_broadcast_strides(3, 3, out, s);
    ASSERT_EQ(s[0], 12);
    ASSERT_EQ(s[1], 4);
    ASSERT_EQ(s[2], 1);
    int64_t c[3];
    rlx_kit_contiguous_strides(3, out, c);
    ASSERT(memcmp(c, s, sizeof s) == 0);
    /* [5, 4] does not broadcast to [2, 3, 4]; [4] does; rank too big not */
    const int64_t bad[] = { 5, 4 }, row[] = { 4 };
    ASSERT(!rlx_kit_broadcasts(2, bad, 3, out));
    ASSERT(rlx_kit_broadcasts(1, row, 3, out));
    ASSERT(!rlx_kit_broadcasts(3, out, 2, a));
}

TEST(collapse)
{
    /* contiguous [2, 3, 4] merges to one dim of 24 */
    int64_t d[] = { 2, 3, 4 }, s[3];
    rlx_kit_contiguous_strides(3, d, s);
    int64_t *arr[] = { s };
    ASSERT_EQ(rlx_kit_collapse(3, d, arr, 1), 1);
    ASSERT_EQ(d[0], 24);
    ASSERT_EQ(s[0], 1);

    /* a transpose [3, 2] of [2, 3]: nothing merges */
    int64_t td[] = { 3, 2 }, ts[] = { 1, 3 }, ds[] = { 2, 1 };
    int64_t *two[] = { ts, ds };
    ASSERT_EQ(rlx_kit_collapse(2, td, two, 2), 2);
    ASSERT_EQ(td[0], 3);
    ASSERT_EQ(ts[1], 3);

    /* unit dims drop; the broadcast side blocks merging across a
     * stretched dim: out [2, 1, 3, 4], b strides [0, 0, 4, 1] */
    int64_t bd[] = { 2, 1, 3, 4 }, os[4], bs[] = { 0, 0, 4, 1 };
    rlx_kit_contiguous_strides(4, bd, os);
    int64_t *ob[] = { os, bs };
    ASSERT_EQ(rlx_kit_collapse(4, bd, ob, 2), 2);
    ASSERT_EQ(bd[0], 2);
    ASSERT_EQ(bd[1], 12);
    ASSERT_EQ(os[0], 12);
    ASSERT_EQ(os[1], 1);
    ASSERT_EQ(bs[0], 0);
    ASSERT_EQ(bs[1], 1);

    /* all ones: rank 0 (one element); a NULL stride array is skipped */
    int64_t ones[] = { 1, 1 }, os1[] = { 1, 1 };
    int64_t *withnull[] = { os1, NULL };
    ASSERT_EQ(rlx_kit_collapse(2, ones, withnull, 2), 0);
}

TEST(shape_count_and_str)
{
    size_t n = 7;
    const int64_t ok[] = { 2, 3 }, neg[] = { 2, -1 };
    const int64_t zero[] = { 0, INT64_MAX }, huge[] = { INT64_MAX, 4 };
    ASSERT_EQ(rlx_kit_shape_count(2, ok, 4, &n), 1);
    ASSERT_EQ(n, 6);
    ASSERT_EQ(rlx_kit_shape_count(2, neg, 4, &n), 0);
    ASSERT_EQ(rlx_kit_shape_count(2, zero, 4, &n), 1);
    ASSERT_EQ(n, 0);
    ASSERT_EQ(rlx_kit_shape_count(2, huge, 4, &n), -1);
    ASSERT_EQ(rlx_kit_shape_count(0, NULL, 4, &n), 1);
    ASSERT_EQ(n, 1);
    char buf[32];
    ASSERT_STREQ(rlx_kit_shape_str(2, ok, buf, sizeof buf), "[2, 3]");
    ASSERT_STREQ(rlx_kit_shape_str(0, NULL, buf, sizeof buf), "[]");
    ASSERT_STREQ(rlx_kit_shape_str(2, ok, buf, 4), "[2,");
    ASSERT(rlx_kit_shape_equal(2, ok, 2, ok));
    ASSERT(!rlx_kit_shape_equal(2, ok, 2, neg));
    ASSERT(!rlx_kit_shape_equal(2, ok, 1, ok));
}

TEST(matmul_operands)
{
    /* a [2, 3] transposed reads as 3 x 2 with row stride 1, col 3 */
    const int64_t a[] = { 2, 3 };
    rlx_kit_matmul_operand o;
    rlx_kit_matmul_operand_init(2, a, 1, 0, &o);
    ASSERT_EQ(o.rows, 3);
    ASSERT_EQ(o.cols, 2);
    ASSERT_EQ(o.row, 1);
    ASSERT_EQ(o.col, 3);
    ASSERT_EQ(o.size, 6);
    ASSERT_EQ(o.batch_rank, 0);
    /* rank-1 b is [k, 1]; transpose does not apply to it */
    const int64_t v[] = { 5 };
    rlx_kit_matmul_operand_init(1, v, 1, 1, &o);
    ASSERT_EQ(o.rows, 5);
    ASSERT_EQ(o.cols, 1);
    ASSERT_EQ(o.row, 1);
    ASSERT_EQ(o.col, 0);
    /* batch [4, 1] of [2, 3] matrices against result batch [4, 5] */
    const int64_t bt[] = { 4, 1, 2, 3 };
    rlx_kit_matmul_operand_init(4, bt, 0, 0, &o);
    ASSERT_EQ(o.batch_rank, 2);
    int64_t s[3];
    rlx_kit_matmul_batch_strides(&o, 2, s);
    ASSERT_EQ(s[0], 6);
    ASSERT_EQ(s[1], 0);
    /* against a deeper result batch [7, 4, 5]: the missing dim is 0 */
    rlx_kit_matmul_batch_strides(&o, 3, s);
    ASSERT_EQ(s[0], 0);
    ASSERT_EQ(s[1], 6);
    ASSERT_EQ(s[2], 0);
}

/* ---- attributes and names ------------------------------------------------- */

TEST(attrs_defaults)
{
    const int64_t ints[] = { 5, -1 };
    const double floats[] = { 0.25 };
    rlx_node_view v = { .struct_size = sizeof v, .op = RLX_OP_SOFTMAX,
                        .name = "n", .n_int_attrs = 2, .int_attrs = ints,
                        .n_float_attrs = 1, .float_attrs = floats };
    ASSERT_EQ(rlx_kit_int_attr(&v, 1, 9), -1);
    ASSERT_EQ(rlx_kit_int_attr(&v, 2, 9), 9);
    ASSERT(rlx_kit_float_attr(&v, 0, 1.0) == 0.25);
    ASSERT(rlx_kit_float_attr(&v, 1, 1.0) == 1.0);
    /* a view whose struct_size stops before the attributes has none */
    v.struct_size = (uint32_t)offsetof(rlx_node_view, n_int_attrs);
    ASSERT_EQ(rlx_kit_n_int_attrs(&v), 0);
    ASSERT_EQ(rlx_kit_int_attr(&v, 0, 9), 9);
    ASSERT(rlx_kit_float_attr(&v, 0, 1.5) == 1.5);
}

TEST(names)
{
    ASSERT_STREQ(rlx_kit_op_name(RLX_OP_MATMUL), "matmul");
    ASSERT_STREQ(rlx_kit_op_name((rlx_op)9999), "unknown");
    ASSERT_EQ(rlx_kit_op_arity(RLX_OP_LAYER_NORM), 3);
    ASSERT_EQ(rlx_kit_op_arity(RLX_OP_CONCAT), RLX_OP_VARIADIC);
    ASSERT_EQ(rlx_kit_op_arity((rlx_op)9999), RLX_KIT_OP_UNKNOWN);
    ASSERT(rlx_kit_op_is_float(RLX_OP_ADD));
    ASSERT(!rlx_kit_op_is_float(RLX_OP_GATHER));
    ASSERT(!rlx_kit_op_is_float((rlx_op)9999));
    ASSERT(!rlx_kit_op_is_float(RLX_OP_SCATTER_ND)); /* 1.4: any dtype */
    ASSERT_STREQ(rlx_kit_op_name(RLX_OP_STRIDED_SLICE), "strided_slice");
    ASSERT_EQ(rlx_kit_op_arity(RLX_OP_RANGE), 0);
    ASSERT(rlx_kit_op_is_source(RLX_OP_PARAM));
    ASSERT_STREQ(rlx_kit_dtype_name(RLX_DTYPE_BF16), "bf16");
    ASSERT_STREQ(rlx_kit_dtype_name((rlx_dtype)77), "unknown");
}

/* ---- index arithmetic (kit_index.h) ------------------------------------- */

/* ONNX Slice's element count and first index, worked by hand. */
static void check_slice(int64_t dim, int64_t s, int64_t e, int64_t step,
                        int64_t want_first, int64_t want_count)
{
    int64_t first = -99, count = -99;
    rlx_kit_slice_bounds(dim, s, e, step, &first, &count);
    ASSERT_EQ(count, want_count);
    if (want_count)
        ASSERT_EQ(first, want_first);
}

TEST(slice_bounds_and_index_wrap)
{
    check_slice(6, 0, 6, 1, 0, 6);
    check_slice(6, 1, 100, 2, 1, 3);         /* 1, 3, 5 */
    check_slice(6, -1, INT64_MIN, -1, 5, 6); /* the whole axis reversed */
    check_slice(6, 100, 0, -2, 5, 3);        /* start clamps to dim - 1 */
    check_slice(6, -100, 100, 4, 0, 2);      /* 0, 4 */
    check_slice(6, 3, 3, 1, 0, 0);
    check_slice(6, 0, 6, INT64_MIN, 0, 0);   /* backwards from 0 to 5 */
    check_slice(6, 5, -7, INT64_MIN, 5, 1);  /* |step| beyond int64 */
    check_slice(6, INT64_MIN, INT64_MAX, INT64_MAX, 0, 1);
    check_slice(0, 0, 1, 1, 0, 0);
    check_slice(0, -1, INT64_MIN, -1, 0, 0);
    int64_t k = -1;
    ASSERT(rlx_kit_index_wrap(-1, 4, &k) && k == 3);
    ASSERT(rlx_kit_index_wrap(3, 4, &k) && k == 3);
    ASSERT(!rlx_kit_index_wrap(4, 4, &k));
    ASSERT(!rlx_kit_index_wrap(-5, 4, &k));
    ASSERT(!rlx_kit_index_wrap(INT64_MIN, 4, &k));
    ASSERT(!rlx_kit_index_wrap(0, 0, &k));
}

/* ---- the planner ---------------------------------------------------------- */

TEST(plan_reuse_and_peak)
{
    /* a chain a -> b -> c -> d: a dies when c is made, so c reuses a */
    rlx_kit_live v[] = {
        { .nbytes = 100, .first = 0, .last = 1 },
        { .nbytes = 100, .first = 1, .last = 2 },
        { .nbytes = 100, .first = 2, .last = 3 },
        { .nbytes = 100, .first = 3, .last = 4 },
    };
    size_t peak = rlx_kit_plan_memory(v, 4, 64);
    ASSERT(rlx_kit_plan_valid(v, 4, 64));
    ASSERT_EQ(peak, 256); /* two 128-byte slots */
    ASSERT_EQ(rlx_kit_plan_live_peak(v, 4, 64), 256);
    ASSERT_EQ(v[0].offset, v[2].offset);
    ASSERT(v[0].offset != v[1].offset);
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(v[i].offset % 64, 0);
}

TEST(plan_mixed_sizes)
{
    /* a big value alive throughout and small ones that come and go: the
     * small ones share one slot beside it; negative steps are allowed */
    rlx_kit_live v[] = {
        { .nbytes = 1000, .first = -1, .last = 9 },
        { .nbytes = 10, .first = 0, .last = 1 },
        { .nbytes = 0, .first = 2, .last = 3 },
        { .nbytes = 30, .first = 4, .last = 5 },
        { .nbytes = 20, .first = 6, .last = 9 },
    };
    size_t peak = rlx_kit_plan_memory(v, 5, 16);
    ASSERT(rlx_kit_plan_valid(v, 5, 16));
    ASSERT_EQ(peak, rlx_kit_plan_live_peak(v, 5, 16));
    ASSERT_EQ(peak, 1008 + 32);
    /* everything alive at once: no reuse, peak is the sum */
    rlx_kit_live w[] = {
        { .nbytes = 8, .first = 0, .last = 3 },
        { .nbytes = 24, .first = 1, .last = 3 },
        { .nbytes = 16, .first = 2, .last = 3 },
    };
    ASSERT_EQ(rlx_kit_plan_memory(w, 3, 8), 48);
    ASSERT(rlx_kit_plan_valid(w, 3, 8));
    ASSERT_EQ(rlx_kit_plan_memory(NULL, 0, 8), 0);
}

TEST(plan_random_graphs_valid)
{
    /* random lifetimes: always valid, never below the live peak */
    uint32_t seed = 12345;
    for (int round = 0; round < 50; round++) {
        rlx_kit_live v[40];
        for (int i = 0; i < 40; i++) {
            seed = seed * 1664525u + 1013904223u;
            int64_t first = (int64_t)(seed >> 24) % 30;
            seed = seed * 1664525u + 1013904223u;
            v[i].first = first;
            v[i].last = first + (int64_t)(seed >> 26) % 8;
            v[i].nbytes = (size_t)(seed >> 8) % 5000;
        }
        size_t peak = rlx_kit_plan_memory(v, 40, 64);
        ASSERT(rlx_kit_plan_valid(v, 40, 64));
        ASSERT(peak >= rlx_kit_plan_live_peak(v, 40, 64));
        for (int i = 0; i < 40; i++)
            ASSERT(v[i].offset + 1 <= peak);
    }
}

/* ---- half precision -------------------------------------------------------- */

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

TEST(f16_round_trip_every_pattern)
{
    /* every f16 widens exactly and rounds back to itself (NaN: a NaN) */
    for (uint32_t h = 0; h <= 0xffff; h++) {
        float f = rlx_kit_f16_to_f32((uint16_t)h);
        uint16_t back = rlx_kit_f16_from_f32(f);
        uint16_t back_d = rlx_kit_f16_from_double(f);
        int nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu);
        if (nan) {
            ASSERT(isnan(f));
            ASSERT((back & 0x7c00u) == 0x7c00u && (back & 0x3ffu));
            ASSERT_EQ(back_d, (h & 0x8000u) | 0x7e00u);
        } else {
            ASSERT_EQ(back, h);
            ASSERT_EQ(back_d, h);
        }
    }
}

TEST(bf16_round_trip_every_pattern)
{
    for (uint32_t h = 0; h <= 0xffff; h++) {
        float f = rlx_kit_bf16_to_f32((uint16_t)h);
        ASSERT_EQ(bits_of(f), h << 16);
        int nan = (h & 0x7f80u) == 0x7f80u && (h & 0x7fu);
        if (nan) {
            ASSERT(isnan(f));
            ASSERT((rlx_kit_bf16_from_f32(f) & 0x7fc0u) == 0x7fc0u);
            ASSERT_EQ(rlx_kit_bf16_from_double(f), (h & 0x8000u) | 0x7fc0u);
        } else {
            ASSERT_EQ(rlx_kit_bf16_from_f32(f), h);
            ASSERT_EQ(rlx_kit_bf16_from_double(f), h);
        }
    }
}

TEST(half_special_values)
{
    ASSERT_EQ(rlx_kit_f16_from_f32(INFINITY), 0x7c00);
    ASSERT_EQ(rlx_kit_f16_from_f32(-INFINITY), 0xfc00);
    ASSERT_EQ(rlx_kit_f16_from_double(-INFINITY), 0xfc00);
    ASSERT_EQ(rlx_kit_f16_from_f32(65504.0f), 0x7bff);  /* max */
    ASSERT_EQ(rlx_kit_f16_from_f32(65519.0f), 0x7bff);  /* rounds down */
    ASSERT_EQ(rlx_kit_f16_from_f32(65520.0f), 0x7c00);  /* to inf */
    ASSERT_EQ(rlx_kit_f16_from_double(65520.0), 0x7c00);
    ASSERT_EQ(rlx_kit_f16_from_f32(-0.0f), 0x8000);
    /* denormals: 2^-24 is the smallest; half of it ties to even 0, a bit
     * more rounds up; 3 * 2^-25 ties to the even 2 * 2^-24 */
    ASSERT_EQ(rlx_kit_f16_from_f32(ldexpf(1, -24)), 0x0001);
    ASSERT_EQ(rlx_kit_f16_from_f32(ldexpf(1, -25)), 0x0000);
    ASSERT_EQ(rlx_kit_f16_from_double(ldexp(1, -25)), 0x0000);
    ASSERT_EQ(rlx_kit_f16_from_double(ldexp(1, -25) * 1.0000001), 0x0001);
    ASSERT_EQ(rlx_kit_f16_from_f32(3 * ldexpf(1, -25)), 0x0002);
    ASSERT(rlx_kit_f16_to_f32(0x0001) == ldexpf(1, -24));
    ASSERT(rlx_kit_f16_to_f32(0x03ff) == ldexpf(1023, -24));
    /* ties to even in the normal range: 1 + 2^-11 -> 1, 1 + 3*2^-11 -> up */
    ASSERT_EQ(rlx_kit_f16_from_f32(1.0f + ldexpf(1, -11)), 0x3c00);
    ASSERT_EQ(rlx_kit_f16_from_f32(1.0f + 3 * ldexpf(1, -11)), 0x3c02);
    /* bf16: inf, overflow to inf, NaN stays NaN with its sign */
    ASSERT_EQ(rlx_kit_bf16_from_f32(INFINITY), 0x7f80);
    ASSERT_EQ(rlx_kit_bf16_from_double(1e39), 0x7f80);
    ASSERT_EQ(rlx_kit_bf16_from_double(-NAN) & 0x8000, 0x8000);
    ASSERT(isnan(rlx_kit_bf16_to_f32(rlx_kit_bf16_from_f32(NAN))));
    ASSERT(isnan(rlx_kit_f16_to_f32(rlx_kit_f16_from_double(NAN))));
    /* bf16 subnormal: smallest is 2^-133 */
    ASSERT_EQ(rlx_kit_bf16_from_double(ldexp(1, -133)), 0x0001);
    ASSERT_EQ(rlx_kit_bf16_from_f32(ldexpf(1, -133)), 0x0001);
    /* integers round once: 2049 ties to 2048 in f16; INT64_MIN exact */
    ASSERT_EQ(rlx_kit_f16_from_int(2049), rlx_kit_f16_from_double(2048));
    ASSERT_EQ(rlx_kit_f16_from_int(2051), rlx_kit_f16_from_double(2052));
    ASSERT_EQ(rlx_kit_f16_from_int(100000), 0x7c00);
    ASSERT(rlx_kit_f32_from_int(INT64_MIN) == -0x1p63f);
    ASSERT(rlx_kit_bf16_to_f32(rlx_kit_bf16_from_int(-257)) == -256.0f);
    /* f32 from double rounds once, to inf past the top */
    ASSERT(rlx_kit_f32_from_double(1e300) == INFINITY);
    ASSERT(rlx_kit_f32_from_double(0.1) == 0.1f);
}

TEST(half_fast_matches_exact)
{
    /* the bulk f32 path and the exact path agree on non-NaN floats */
    uint32_t seed = 99;
    for (int i = 0; i < 200000; i++) {
        seed = seed * 1664525u + 1013904223u;
        float f;
        memcpy(&f, &seed, sizeof f);
        if (isnan(f))
            continue;
        ASSERT_EQ(rlx_kit_f16_from_f32(f), rlx_kit_f16_from_double(f));
        ASSERT_EQ(rlx_kit_bf16_from_f32(f), rlx_kit_bf16_from_double(f));
    }
}

/* ---- errors and arguments -------------------------------------------------- */

static char last_msg[4096];
static rlx_status last_status;
static int reports;

static rlx_status record(const rlx_host *host, rlx_status status,
                         const char *message)
{
    (void)host;
    snprintf(last_msg, sizeof last_msg, "%s", message);
    last_status = status;
    reports++;
    return status;
}

static rlx_host test_host(void)
{
    rlx_host h;
    memset(&h, 0, sizeof h);
    h.struct_size = sizeof h;
    h.report = record;
    return h;
}

TEST(format_truncation)
{
    char buf[16];
    int n = rlx_kit_format(buf, sizeof buf, "%s-%d", "abc", 42);
    ASSERT_EQ(n, 6);
    ASSERT_STREQ(buf, "abc-42");
    n = rlx_kit_format(buf, sizeof buf, "%s", "0123456789abcdefghij");
    ASSERT_EQ(n, 20);
    ASSERT_EQ(strlen(buf), 15);
    ASSERT_STREQ(buf, "0123456789ab...");
    /* exactly fits: not marked */
    n = rlx_kit_format(buf, sizeof buf, "%s", "0123456789abcde");
    ASSERT_STREQ(buf, "0123456789abcde");
    /* tiny buffers stay terminated */
    char two[2];
    rlx_kit_format(two, sizeof two, "%s", "xyz");
    ASSERT_STREQ(two, "x");
    ASSERT_EQ(rlx_kit_format(NULL, 0, "x"), -1);
}

TEST(fail_reports_long_message_whole)
{
    rlx_host h = test_host();
    char pad[3000];
    memset(pad, 'p', sizeof pad - 1);
    pad[sizeof pad - 1] = '\0';
    reports = 0;
    rlx_status st = rlx_kit_fail(&h, RLX_ERR_SHAPE, "bad %s. Fix: %s",
                                 pad, "do the thing");
    ASSERT_EQ(st, RLX_ERR_SHAPE);
    ASSERT_EQ(reports, 1);
    ASSERT_EQ(last_status, RLX_ERR_SHAPE);
    ASSERT_EQ(strlen(last_msg), 4 + 2999 + 19);
    ASSERT_CONTAINS(last_msg, "Fix: do the thing");
    /* a short one, and a host without report: status still returned */
    rlx_kit_fail(&h, RLX_ERR_BACKEND, "x %d. Fix: y", 3);
    ASSERT_STREQ(last_msg, "x 3. Fix: y");
    ASSERT_EQ(rlx_kit_fail(NULL, RLX_ERR_DEVICE, "z"), RLX_ERR_DEVICE);
}

TEST(execute_args_checks)
{
    rlx_host h = test_host();
    ASSERT_EQ(rlx_kit_check_execute_args(&h, "t execute", NULL, 0, 0, 0),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(last_msg, "t execute: missing or truncated");
    rlx_execute_args a;
    memset(&a, 0, sizeof a);
    a.struct_size = sizeof a;
    a.n_inputs = 1;
    ASSERT_EQ(rlx_kit_check_execute_args(&h, "t execute", &a, 0, 2, 0),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(last_msg, "got 0 params, 1 inputs, 0 outputs; the graph "
                              "has 0, 2, 0. Fix:");
    ASSERT_EQ(rlx_kit_check_execute_args(&h, "t execute", &a, 0, 1, 0),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(last_msg, "array is NULL. Fix:");
    const void *in[1] = { NULL };
    a.inputs = in;
    ASSERT_EQ(rlx_kit_check_execute_args(&h, "t execute", &a, 0, 1, 0),
              RLX_OK);
    /* a 1.0-sized struct has no bound-buffer arrays to read */
    rlx_buffer *bufs[1] = { (rlx_buffer *)&a };
    a.input_buffers = bufs;
    ASSERT(rlx_kit_bound_input(&a, 0) == (rlx_buffer *)&a);
    a.struct_size = (uint32_t)offsetof(rlx_execute_args, input_buffers);
    ASSERT(rlx_kit_bound_input(&a, 0) == NULL);
    ASSERT(rlx_kit_bound_output(&a, 0) == NULL);
}

/* ---- spatial ops (conv, pools) ----------------------------------------- */

TEST(spatial_parse_and_sizes)
{
    rlx_kit_spatial sp;
    char err[256];
    /* conv 2-d: group 2, strides (2, 1), dilations default */
    const int64_t conv[] = { 2, 2, 1 };
    ASSERT_EQ(rlx_kit_spatial_parse(RLX_OP_CONV, 4, 3, conv, &sp, err,
                                    sizeof err), 0);
    ASSERT_EQ(sp.s, 2);
    ASSERT_EQ(sp.group, 2);
    ASSERT(sp.stride[0] == 2 && sp.stride[1] == 1);
    ASSERT(sp.dilation[0] == 1 && sp.pad_end[1] == 0);
    sp.kernel[0] = sp.kernel[1] = 3;
    ASSERT_EQ(rlx_kit_spatial_out(RLX_OP_CONV, &sp, 0, 7, err, sizeof err),
              3);
    ASSERT_EQ(rlx_kit_spatial_out(RLX_OP_CONV, &sp, 1, 2, err, sizeof err),
              -1);
    ASSERT(strstr(err, "larger than") && strstr(err, "Fix:"));
    /* a partial block is refused */
    const int64_t part[] = { 1, 2 };
    ASSERT_EQ(rlx_kit_spatial_parse(RLX_OP_CONV, 4, 2, part, &sp, err,
                                    sizeof err), -1);
    ASSERT(strstr(err, "blocks of 2"));
    /* max_pool 1-d, ceil: in 5, kernel 2, stride 2 -> 3; pad_end 1 on
     * in 4 -> 2 (the third window would start in the end padding) */
    const int64_t pool[] = { 1, 0, 2, 2, 2, 1, 0, 1 };
    ASSERT_EQ(rlx_kit_spatial_parse(RLX_OP_MAX_POOL, 3, 8, pool, &sp, err,
                                    sizeof err), 0);
    ASSERT_EQ(rlx_kit_spatial_out(RLX_OP_MAX_POOL, &sp, 0, 4, err,
                                  sizeof err), 2);
    ASSERT_EQ(rlx_kit_spatial_out(RLX_OP_MAX_POOL, &sp, 0, 5, err,
                                  sizeof err), 3);
    /* conv_transpose: stride 2, output_padding 1 on in 3, kernel 3 */
    const int64_t tr[] = { 1, 2, 1, 0, 0, 1 };
    ASSERT_EQ(rlx_kit_spatial_parse(RLX_OP_CONV_TRANSPOSE, 3, 6, tr, &sp,
                                    err, sizeof err), 0);
    sp.kernel[0] = 3;
    ASSERT_EQ(rlx_kit_spatial_out(RLX_OP_CONV_TRANSPOSE, &sp, 0, 3, err,
                                  sizeof err), 2 * 2 + 1 + 3);
    /* rank 2 has no spatial axis; a pool needs its kernel */
    ASSERT_EQ(rlx_kit_spatial_parse(RLX_OP_CONV, 2, 0, NULL, &sp, err,
                                    sizeof err), -1);
    ASSERT_EQ(rlx_kit_spatial_parse(RLX_OP_AVG_POOL, 3, 3, pool, &sp, err,
                                    sizeof err), -1);
    ASSERT(strstr(err, "no kernel size"));
}

RLX_TEST_LIST(TEST_ENTRY(norm_axis), TEST_ENTRY(broadcast_strides),
              TEST_ENTRY(collapse), TEST_ENTRY(shape_count_and_str),
              TEST_ENTRY(matmul_operands),
              TEST_ENTRY(attrs_defaults), TEST_ENTRY(names),
              TEST_ENTRY(slice_bounds_and_index_wrap),
              TEST_ENTRY(plan_reuse_and_peak), TEST_ENTRY(plan_mixed_sizes),
              TEST_ENTRY(plan_random_graphs_valid),
              TEST_ENTRY(f16_round_trip_every_pattern),
              TEST_ENTRY(bf16_round_trip_every_pattern),
              TEST_ENTRY(half_special_values),
              TEST_ENTRY(half_fast_matches_exact),
              TEST_ENTRY(format_truncation),
              TEST_ENTRY(fail_reports_long_message_whole),
              TEST_ENTRY(execute_args_checks),
              TEST_ENTRY(spatial_parse_and_sizes));
