/*
 * test-vulkan-numeric.c - checks the Vulkan shaders of the dtypes and
 * ops that came last against cpu-ref, where `rlx conformance` (small
 * random cases) does not reach: u32 and u64 values past the signed
 * range (ordering and division unsigned), i16/u16 wrap-around, bit
 * shifts by the width or more, saturating casts of the new widths, the
 * inverse trigonometric and hyperbolic functions across their domains,
 * f64 arithmetic, comparisons, activations and reductions (exp and log
 * of our own), i64/u64/i16 reductions, argmax and topk, quantization
 * ties, the integer matmul over several tiles and batches with per-row
 * and per-column zero points, on both its paths (packed dot products
 * and plain integer products, RLX_VULKAN_INT_DOT=off), the integer conv
 * direct and as a GEMM on both paths with per-channel zero points and
 * padding, grid_sample in 3-d, det, max_pool_index
 * column-major, and roi_align failing the run on a bad batch index. On
 * test/harness.h; skipped when no Vulkan device exists.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"

static void ok(int cond, const char *what)
{
    if (!cond)
        FAIL("%s (last error: %s)", what, rlx_last_error());
}

/* One op node over up to 4 inputs of the given dtypes and data (random
 * f32 in [-1, 1) where DATA[J] is NULL). */
typedef struct tcase {
    rlx_op op;
    uint32_t n_in;
    uint32_t rank[4];
    int64_t shape[4][5];
    rlx_dtype types[4];
    const void *data[4];
    rlx_attrs attrs;
} tcase;

static size_t count_of(uint32_t rank, const int64_t *shape)
{
    size_t n = 1;
    for (uint32_t d = 0; d < rank; d++)
        n *= (size_t)shape[d];
    return n;
}

#define MAX_BYTES (1u << 20)

/* Run C on DEVICE; the result's bytes into Y (MAX_BYTES), its dtype in
 * *YT. RLX_OK or the failing status. */
static rlx_status run_case(rlx_runtime *rt, const char *device,
                           const tcase *c, void *y, size_t *bytes,
                           rlx_dtype *yt)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value in[4], out;
    static const char *const names[4] = { "a", "b", "c", "d" };
    float *rnd[4] = { NULL, NULL, NULL, NULL };
    unsigned seed = 5;
    rlx_status st = rlx_graph_create(&g);
    for (uint32_t j = 0; j < c->n_in && st == RLX_OK; j++)
        st = rlx_graph_input(g, names[j], c->types[j], c->rank[j],
                             c->shape[j], &in[j]);
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, "y", c->op, c->n_in, in, &c->attrs, &out);
    if (st == RLX_OK)
        st = rlx_graph_output(g, "y", out);
    if (st == RLX_OK)
        st = rlx_session_create(rt, device, &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    for (uint32_t j = 0; j < c->n_in && st == RLX_OK; j++) {
        size_t k = count_of(c->rank[j], c->shape[j]);
        const void *d = c->data[j];
        if (!d) {
            if (!(rnd[j] = malloc(k * sizeof(float) + 1))) {
                st = RLX_ERR_OUT_OF_MEMORY;
                break;
            }
            for (size_t i = 0; i < k; i++) {
                seed = seed * 1103515245u + 12345u;
                rnd[j][i] = (float)((seed >> 8) & 0xffff) / 32768.0f - 1.0f;
            }
            d = rnd[j];
        }
        st = rlx_program_set_input(p, names[j], d,
                                   k * rlx_dtype_size(c->types[j]));
    }
    if (st == RLX_OK)
        st = rlx_program_run(p);
    if (st == RLX_OK) {
        const void *o = rlx_program_output_data(p, 0, bytes);
        uint32_t rank;
        const int64_t *dims;
        if (rlx_graph_value_shape(g, out, yt, &rank, &dims) != RLX_OK ||
            *bytes > MAX_BYTES)
            st = RLX_ERR_OUT_OF_MEMORY;
        else
            memcpy(y, o, *bytes);
    }
    for (int j = 0; j < 4; j++)
        free(rnd[j]);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return st;
}

/* Element I of a float result as a double. */
static double elem(const void *y, rlx_dtype t, size_t i)
{
    if (t == RLX_DTYPE_F64) {
        double d;
        memcpy(&d, (const char *)y + 8 * i, 8);
        return d;
    }
    float f;
    memcpy(&f, (const char *)y + 4 * i, 4);
    return f;
}

/* C on vulkan against cpu-ref: integer results exactly, float ones each
 * within REL of the reference (plus REL absolute), NaN where it is. */
static void check(rlx_runtime *rt, const tcase *c, double rel,
                  const char *what)
{
    char *y0 = malloc(MAX_BYTES), *y1 = malloc(MAX_BYTES);
    size_t n0 = 0, n1 = 0;
    rlx_dtype t0 = 0, t1 = 0;
    rlx_status s0 = run_case(rt, "cpu-ref", c, y0, &n0, &t0);
    rlx_status s1 = run_case(rt, "vulkan", c, y1, &n1, &t1);
    int same = s0 == RLX_OK && s1 == RLX_OK && n0 == n1 && t0 == t1;
    if (!same)
        printf("# cpu-ref status %d, vulkan %d: %s\n", (int)s0, (int)s1,
               rlx_last_error());
    double worst = 0;
    if (same && (t0 == RLX_DTYPE_F32 || t0 == RLX_DTYPE_F64)) {
        for (size_t i = 0; i < n0 / rlx_dtype_size(t0); i++) {
            double a = elem(y0, t0, i), b = elem(y1, t0, i);
            if (isnan(a) != isnan(b) ||
                (!isnan(a) && a != b &&
                 !(fabs(a - b) <= rel * (fabs(a) + 1)))) {
                if (same)
                    printf("# first difference at %zu: %.17g, want %.17g\n",
                           i, b, a);
                same = 0;
            }
            else if (!isnan(a) && a != b && fabs(a - b) > worst)
                worst = fabs(a - b);
        }
    } else if (same) {
        same = memcmp(y0, y1, n0) == 0;
    }
    printf("# %s: %s (max difference %.3g)\n", what,
           same ? "matches" : "differs", worst);
    free(y0);
    free(y1);
    ok(same, what);
}

static int vulkan_available(rlx_runtime *rt)
{
    uint32_t n = 0;
    const rlx_backend *b = rlx_runtime_find_backend(rt, "vulkan");
    return b && rlx_backend_probe(b, &n) == RLX_OK;
}

static rlx_runtime *vulkan_runtime(void)
{
    rlx_runtime *rt = NULL;
    unsetenv("RLX_VULKAN_DEVICE");
    if (rlx_runtime_create(&rt, 0) != RLX_OK || !vulkan_available(rt)) {
        rlx_runtime_destroy(rt);
        SKIP("no usable Vulkan device: %s", rlx_last_error());
    }
    return rt;
}

/* A two-input elementwise case on dtype T, 1-d of N. */
static tcase binary(rlx_op op, rlx_dtype t, int64_t n, const void *a,
                    const void *b)
{
    tcase c = { .op = op, .n_in = 2, .rank = { 1, 1 },
                .shape = { { n }, { n } }, .types = { t, t },
                .data = { a, b } };
    return c;
}

TEST(unsigned_32)
{
    rlx_runtime *rt = vulkan_runtime();
    static const uint32_t a[6] = { 0xfffffff0u, 5, 0x80000000u, 7, 9,
                                   0x7fffffffu };
    static const uint32_t b[6] = { 3, 0x90000000u, 0, 7, 0xffffffffu, 2 };
    static const rlx_op ops[] = { RLX_OP_DIV, RLX_OP_MAX, RLX_OP_MIN,
                                  RLX_OP_MOD, RLX_OP_GREATER, RLX_OP_ADD,
                                  RLX_OP_MUL, RLX_OP_POW };
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        tcase c = binary(ops[k], RLX_DTYPE_U32, 6, a, b);
        char what[96];
        snprintf(what, sizeof what, "u32 %s past 2^31",
                 rlx_op_name(ops[k]));
        check(rt, &c, 0, what);
    }
    tcase c = { .op = RLX_OP_CLIP, .n_in = 1, .rank = { 1 },
                .shape = { { 6 } }, .types = { RLX_DTYPE_U32 },
                .data = { a },
                .attrs = { .n_floats = 2,
                           .floats = (const double[]){ 6.5, 3e9 } } };
    check(rt, &c, 0, "u32 clip to [6.5, 3e9]");
    rlx_runtime_destroy(rt);
}

TEST(narrow_16)
{
    rlx_runtime *rt = vulkan_runtime();
    static const int16_t a[4] = { 32767, -32768, 100, -7 };
    static const int16_t b[4] = { 1, -1, 400, 3 };
    static const rlx_op ops[] = { RLX_OP_ADD, RLX_OP_SUB, RLX_OP_MUL,
                                  RLX_OP_DIV, RLX_OP_MOD, RLX_OP_LESS };
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        char what[96];
        tcase c = binary(ops[k], RLX_DTYPE_I16, 4, a, b);
        snprintf(what, sizeof what, "i16 %s wraps", rlx_op_name(ops[k]));
        check(rt, &c, 0, what);
        c = binary(ops[k], RLX_DTYPE_U16, 4, a, b);
        snprintf(what, sizeof what, "u16 %s wraps", rlx_op_name(ops[k]));
        check(rt, &c, 0, what);
    }
    tcase c = { .op = RLX_OP_TRANSPOSE, .n_in = 1, .rank = { 2 },
                .shape = { { 2, 2 } }, .types = { RLX_DTYPE_I16 },
                .data = { a },
                .attrs = { .n_ints = 2, .ints = (const int64_t[]){ 1, 0 } } };
    check(rt, &c, 0, "i16 transpose");
    rlx_runtime_destroy(rt);
}

TEST(unsigned_64)
{
    rlx_runtime *rt = vulkan_runtime();
    static const uint64_t a[4] = { 0xfffffffffffffff0u, 5, (uint64_t)1 << 63, 12 };
    static const uint64_t b[4] = { 3, 0x9000000000000000u, 0, 5 };
    static const rlx_op ops[] = { RLX_OP_DIV, RLX_OP_MAX, RLX_OP_MIN,
                                  RLX_OP_MOD, RLX_OP_LESS, RLX_OP_SUB };
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
        char what[96];
        tcase c = binary(ops[k], RLX_DTYPE_U64, 4, a, b);
        snprintf(what, sizeof what, "u64 %s past 2^63",
                 rlx_op_name(ops[k]));
        check(rt, &c, 0, what);
    }
    rlx_runtime_destroy(rt);
}

TEST(bit_shift)
{
    rlx_runtime *rt = vulkan_runtime();
    static const uint64_t x64[5] = { 1, 0xff00ff00ff00ff00u, 3, 7, 9 };
    static const uint64_t n64[5] = { 63, 8, 64, 200, 0 };
    static const uint32_t x32[5] = { 1, 0xff00ff00u, 3, 7, 9 };
    static const uint32_t n32[5] = { 31, 8, 32, 200, 0 };
    static const uint16_t x16[5] = { 1, 0xff00u, 3, 7, 9 };
    static const uint16_t n16[5] = { 15, 4, 16, 40, 0 };
    static const uint8_t x8[5] = { 1, 0xf0u, 3, 7, 9 };
    static const uint8_t n8[5] = { 7, 2, 8, 40, 0 };
    const void *xs[4] = { x8, x16, x32, x64 }, *ns[4] = { n8, n16, n32, n64 };
    static const rlx_dtype ts[4] = { RLX_DTYPE_U8, RLX_DTYPE_U16,
                                     RLX_DTYPE_U32, RLX_DTYPE_U64 };
    for (int k = 0; k < 4; k++)
        for (int64_t dir = 0; dir < 2; dir++) {
            char what[96];
            tcase c = binary(RLX_OP_BIT_SHIFT, ts[k], 5, xs[k], ns[k]);
            c.attrs.n_ints = 1;
            c.attrs.ints = dir ? (const int64_t[]){ 1 }
                               : (const int64_t[]){ 0 };
            snprintf(what, sizeof what, "bit_shift %s %s, by the width "
                     "and more", rlx_dtype_name(ts[k]),
                     dir ? "right" : "left");
            check(rt, &c, 0, what);
        }
    rlx_runtime_destroy(rt);
}

TEST(casts)
{
    rlx_runtime *rt = vulkan_runtime();
    static const float f[6] = { -5.5f, 70000.0f, 3.9f, NAN, 1e20f, -1e20f };
    static const uint64_t u[3] = { 0xffffffffffffffffu, (uint64_t)1 << 63, 42 };
    static const rlx_dtype to[] = { RLX_DTYPE_I16, RLX_DTYPE_U16,
                                    RLX_DTYPE_U32, RLX_DTYPE_U64 };
    for (size_t k = 0; k < sizeof to / sizeof *to; k++) {
        char what[96];
        tcase c = { .op = RLX_OP_CAST, .n_in = 1, .rank = { 1 },
                    .shape = { { 6 } }, .types = { RLX_DTYPE_F32 },
                    .data = { f },
                    .attrs = { .n_ints = 1,
                               .ints = (const int64_t[]){ to[k] } } };
        snprintf(what, sizeof what, "cast f32 to %s saturates",
                 rlx_dtype_name(to[k]));
        check(rt, &c, 0, what);
        c.types[0] = RLX_DTYPE_U64;
        c.shape[0][0] = 3;
        c.data[0] = u;
        snprintf(what, sizeof what, "cast u64 past 2^63 to %s",
                 rlx_dtype_name(to[k]));
        check(rt, &c, 0, what);
    }
    tcase c = { .op = RLX_OP_CAST, .n_in = 1, .rank = { 1 },
                .shape = { { 3 } }, .types = { RLX_DTYPE_U64 },
                .data = { u },
                .attrs = { .n_ints = 1,
                           .ints = (const int64_t[]){ RLX_DTYPE_F32 } } };
    check(rt, &c, 0, "cast u64 to f32");
    rlx_runtime_destroy(rt);
}

TEST(inverse_functions)
{
    rlx_runtime *rt = vulkan_runtime();
    float x[64];
    for (int i = 0; i < 64; i++)
        x[i] = -1.2f + 2.4f * (float)i / 63.0f;
    x[0] = -1.0f;
    x[63] = 1.0f;
    float big[8] = { 0.0f, 25.0f, -40.0f, 1e20f, 3e38f, 88.0f, 1.5f, -0.0f };
    for (rlx_op op = RLX_OP_ASIN; op <= RLX_OP_ATANH; op++) {
        char what[96];
        tcase c = { .op = op, .n_in = 1, .rank = { 1 }, .shape = { { 64 } },
                    .types = { RLX_DTYPE_F32 }, .data = { x } };
        snprintf(what, sizeof what, "%s over [-1.2, 1.2]", rlx_op_name(op));
        check(rt, &c, 2e-6, what);
        c.shape[0][0] = 8;
        c.data[0] = big;
        snprintf(what, sizeof what, "%s of large values", rlx_op_name(op));
        check(rt, &c, 2e-6, what);
    }
    rlx_runtime_destroy(rt);
}

TEST(float64)
{
    rlx_runtime *rt = vulkan_runtime();
    enum { N = 600 };
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int i = 0; i < N; i++) {
        a[i] = (i - 300) * 1.37 + 1e-3 * i;
        b[i] = 0.75 + (i % 17) * 0.31;
    }
    a[5] = 1e15 + 0.5;
    b[5] = 3.3;
    static const rlx_op bin[] = { RLX_OP_DIV, RLX_OP_MOD, RLX_OP_MAX,
                                  RLX_OP_MUL };
    for (size_t k = 0; k < sizeof bin / sizeof *bin; k++) {
        char what[96];
        tcase c = binary(bin[k], RLX_DTYPE_F64, N, a, b);
        static const int64_t fmod_on[1] = { 1 };
        if (bin[k] == RLX_OP_MOD) {
            c.attrs.n_ints = 1;
            c.attrs.ints = fmod_on;
        }
        snprintf(what, sizeof what, "f64 %s", rlx_op_name(bin[k]));
        check(rt, &c, 0, what);
    }
    static const rlx_op un[] = { RLX_OP_EXP, RLX_OP_LOG, RLX_OP_SQRT,
                                 RLX_OP_SIGMOID, RLX_OP_ROUND };
    for (size_t k = 0; k < sizeof un / sizeof *un; k++) {
        char what[96];
        tcase c = { .op = un[k], .n_in = 1, .rank = { 1 },
                    .shape = { { N } }, .types = { RLX_DTYPE_F64 },
                    .data = { un[k] == RLX_OP_EXP ? (const void *)b : a } };
        snprintf(what, sizeof what, "f64 %s", rlx_op_name(un[k]));
        check(rt, &c, 1e-14, what);
    }
    static const rlx_op red[] = { RLX_OP_REDUCE_LOG_SUM_EXP,
                                  RLX_OP_REDUCE_SUM, RLX_OP_REDUCE_L2,
                                  RLX_OP_REDUCE_MIN };
    for (size_t k = 0; k < sizeof red / sizeof *red; k++) {
        char what[96];
        tcase c = { .op = red[k], .n_in = 1, .rank = { 2 },
                    .shape = { { 3, 200 } }, .types = { RLX_DTYPE_F64 },
                    .data = { a },
                    .attrs = { .n_ints = 2,
                               .ints = (const int64_t[]){ 0, 1 } } };
        snprintf(what, sizeof what, "f64 %s over 200", rlx_op_name(red[k]));
        check(rt, &c, 1e-14, what);
    }
    free(a);
    free(b);
    rlx_runtime_destroy(rt);
}

TEST(float64_more)
{
    rlx_runtime *rt = vulkan_runtime();
    static const double a[8] = { 1.5, -2.0, NAN, INFINITY, -INFINITY, 0.0,
                                 -0.0, 3e300 };
    static const double b[8] = { 1.5, 2.0, 1.0, INFINITY, 1.0, -0.0, 2.0,
                                 -3e300 };
    static const rlx_op cmp[] = { RLX_OP_EQUAL, RLX_OP_LESS,
                                  RLX_OP_GREATER_EQUAL, RLX_OP_POW };
    for (size_t k = 0; k < sizeof cmp / sizeof *cmp; k++) {
        char what[96];
        tcase c = binary(cmp[k], RLX_DTYPE_F64, 8, a, b);
        snprintf(what, sizeof what, "f64 %s with NaN, infinities, zeros",
                 rlx_op_name(cmp[k]));
        check(rt, &c, 1e-14, what);
    }
    double x[40];
    for (int i = 0; i < 40; i++)
        x[i] = -30.0 + 1.5 * i + 1e-3;
    x[0] = 1e-300;
    x[1] = -0.0;
    x[2] = 12345.678;
    x[3] = 0.5;
    static const rlx_op un[] = { RLX_OP_ISNAN, RLX_OP_ISINF, RLX_OP_TANH,
                                 RLX_OP_SOFTPLUS, RLX_OP_MISH, RLX_OP_SINH,
                                 RLX_OP_COSH, RLX_OP_ASINH, RLX_OP_ELU,
                                 RLX_OP_SIN, RLX_OP_COS, RLX_OP_TAN,
                                 RLX_OP_ATAN, RLX_OP_ERF, RLX_OP_GELU };
    for (size_t k = 0; k < sizeof un / sizeof *un; k++) {
        char what[96];
        tcase c = { .op = un[k], .n_in = 1, .rank = { 1 },
                    .shape = { { k < 2 ? 8 : 40 } },
                    .types = { RLX_DTYPE_F64 },
                    .data = { k < 2 ? (const void *)a : x } };
        snprintf(what, sizeof what, "f64 %s", rlx_op_name(un[k]));
        check(rt, &c, 1e-14, what);
    }
    double y[41];
    for (int i = 0; i <= 40; i++)
        y[i] = -1.0 + i / 20.0;
    for (rlx_op op = RLX_OP_ASIN; op <= RLX_OP_ACOS; op++) {
        char what[96];
        tcase c = { .op = op, .n_in = 1, .rank = { 1 }, .shape = { { 41 } },
                    .types = { RLX_DTYPE_F64 }, .data = { y } };
        snprintf(what, sizeof what, "f64 %s over [-1, 1]", rlx_op_name(op));
        check(rt, &c, 1e-14, what);
    }
    rlx_runtime_destroy(rt);
}

TEST(wide_reductions)
{
    rlx_runtime *rt = vulkan_runtime();
    static const uint64_t u[6] = { 0xfffffffffffffff0u, 5, (uint64_t)1 << 63,
                                   12, 3, 0x8000000000000001u };
    static const int16_t s16[6] = { -32768, 32767, 5, -5, 100, 7 };
    static const rlx_op ops[] = { RLX_OP_REDUCE_SUM, RLX_OP_REDUCE_MAX,
                                  RLX_OP_REDUCE_MIN, RLX_OP_REDUCE_PROD,
                                  RLX_OP_REDUCE_L1, RLX_OP_REDUCE_MEAN,
                                  RLX_OP_REDUCE_L2,
                                  RLX_OP_REDUCE_SUM_SQUARE };
    static const rlx_dtype ts[] = { RLX_DTYPE_U64, RLX_DTYPE_I64,
                                    RLX_DTYPE_I16 };
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
        for (size_t j = 0; j < sizeof ts / sizeof *ts; j++) {
            char what[96];
            tcase c = { .op = ops[k], .n_in = 1, .rank = { 2 },
                        .shape = { { 2, 3 } }, .types = { ts[j] },
                        .data = { ts[j] == RLX_DTYPE_I16 ? (const void *)s16
                                                         : u },
                        .attrs = { .n_ints = 2,
                                   .ints = (const int64_t[]){ 0, 1 } } };
            snprintf(what, sizeof what, "%s on %s", rlx_op_name(ops[k]),
                     rlx_dtype_name(ts[j]));
            check(rt, &c, 0, what);
        }
    for (size_t j = 0; j < sizeof ts / sizeof *ts; j++) {
        char what[96];
        tcase c = { .op = RLX_OP_ARGMAX, .n_in = 1, .rank = { 2 },
                    .shape = { { 2, 3 } }, .types = { ts[j] },
                    .data = { ts[j] == RLX_DTYPE_I16 ? (const void *)s16
                                                     : u },
                    .attrs = { .n_ints = 1,
                               .ints = (const int64_t[]){ 1 } } };
        snprintf(what, sizeof what, "argmax on %s", rlx_dtype_name(ts[j]));
        check(rt, &c, 0, what);
    }
    static const double f[6] = { 1.0, NAN, -3.0, 1.0, 7.0, -INFINITY };
    static const rlx_dtype wide[] = { RLX_DTYPE_U64, RLX_DTYPE_I64,
                                      RLX_DTYPE_F64 };
    for (size_t j = 0; j < sizeof wide / sizeof *wide; j++)
        for (int64_t largest = 0; largest < 2; largest++) {
            char what[96];
            tcase c = { .op = RLX_OP_TOPK, .n_in = 1, .rank = { 2 },
                        .shape = { { 2, 3 } }, .types = { wide[j] },
                        .data = { wide[j] == RLX_DTYPE_F64 ? (const void *)f
                                                           : u } };
            int64_t attrs[3];
            attrs[RLX_ATTR_TOPK_K] = 2;
            attrs[RLX_ATTR_TOPK_AXIS] = 1;
            attrs[RLX_ATTR_TOPK_LARGEST] = largest;
            c.attrs.n_ints = 3;
            c.attrs.ints = attrs;
            snprintf(what, sizeof what, "topk (largest %d) on %s",
                     (int)largest, rlx_dtype_name(wide[j]));
            check(rt, &c, 0, what);
        }
    rlx_runtime_destroy(rt);
}

TEST(quantize)
{
    rlx_runtime *rt = vulkan_runtime();
    /* x / scale lands on .5 ties and past the range */
    static const float x[12] = { 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 300.0f,
                                 -300.0f, NAN, 0.25f, 0.75f, 3.0f, 1e9f };
    static const float s[3] = { 1.0f, 0.5f, 2.0f };
    static const uint8_t zu[3] = { 128, 0, 255 };
    static const int8_t zi[3] = { 0, -3, 5 };
    tcase c = { .op = RLX_OP_QUANTIZE_LINEAR, .n_in = 3,
                .rank = { 2, 1, 1 }, .shape = { { 4, 3 }, { 3 }, { 3 } },
                .types = { RLX_DTYPE_F32, RLX_DTYPE_F32, RLX_DTYPE_U8 },
                .data = { x, s, zu },
                .attrs = { .n_ints = 1, .ints = (const int64_t[]){ 1 } } };
    check(rt, &c, 0, "quantize_linear to u8 per axis: ties, saturation");
    c.types[2] = RLX_DTYPE_I8;
    c.data[2] = zi;
    check(rt, &c, 0, "quantize_linear to i8 per axis");
    static const int32_t q[12] = { 0, 1, -1, 2147483647, -2147483647 - 1, 7,
                                   100, -100, 5, 6, 7, 8 };
    static const int32_t zq[3] = { 3, -2, 0 };
    tcase d = { .op = RLX_OP_DEQUANTIZE_LINEAR, .n_in = 3,
                .rank = { 2, 1, 1 }, .shape = { { 4, 3 }, { 3 }, { 3 } },
                .types = { RLX_DTYPE_I32, RLX_DTYPE_F32, RLX_DTYPE_I32 },
                .data = { q, s, zq },
                .attrs = { .n_ints = 1, .ints = (const int64_t[]){ 1 } } };
    check(rt, &d, 0, "dequantize_linear of i32 per axis");
    /* blocked: axis 0 of [4, 3] in blocks of 3, two blocks per column */
    static const float sb[6] = { 1, 2, 4, 0.5f, 0.25f, 8 };
    static const uint8_t zb[6] = { 1, 2, 3, 4, 5, 6 };
    tcase e = { .op = RLX_OP_QUANTIZE_LINEAR, .n_in = 3,
                .rank = { 2, 2, 2 }, .shape = { { 4, 3 }, { 2, 3 }, { 2, 3 } },
                .types = { RLX_DTYPE_F32, RLX_DTYPE_F32, RLX_DTYPE_U8 },
                .data = { x, sb, zb },
                .attrs = { .n_ints = 2, .ints = (const int64_t[]){ 0, 3 } } };
    check(rt, &e, 0, "quantize_linear blocked");
    rlx_runtime_destroy(rt);
}

TEST(matmul_integer)
{
    rlx_runtime *rt = vulkan_runtime();
    enum { B = 2, M = 37, K = 50, N = 21 };
    uint8_t *a = malloc(B * M * K);
    int8_t *b = malloc(K * N);
    uint8_t za[M];
    int8_t zb[N];
    unsigned s = 3;
    for (int i = 0; i < B * M * K; i++) {
        s = s * 1103515245u + 12345u;
        a[i] = (uint8_t)(s >> 16);
    }
    for (int i = 0; i < K * N; i++) {
        s = s * 1103515245u + 12345u;
        b[i] = (int8_t)(s >> 16);
    }
    for (int i = 0; i < M; i++)
        za[i] = (uint8_t)(i * 7);
    for (int i = 0; i < N; i++)
        zb[i] = (int8_t)(i * 13 - 128);
    tcase c = { .op = RLX_OP_MATMUL_INTEGER, .n_in = 4,
                .rank = { 3, 2, 1, 1 },
                .shape = { { B, M, K }, { K, N }, { M }, { N } },
                .types = { RLX_DTYPE_U8, RLX_DTYPE_I8, RLX_DTYPE_U8,
                           RLX_DTYPE_I8 },
                .data = { a, b, za, zb } };
    /* both paths: the packed dot products (where the device has
     * VK_KHR_shader_integer_dot_product) and plain integer products */
    static const char *const paths[2] = { "auto", "off" };
    for (int k = 0; k < 2; k++) {
        char what[128];
        setenv("RLX_VULKAN_INT_DOT", paths[k], 1);
        c.rank[2] = c.rank[3] = 1;
        c.types[0] = c.types[2] = RLX_DTYPE_U8;
        c.types[1] = c.types[3] = RLX_DTYPE_I8;
        snprintf(what, sizeof what, "matmul_integer u8 x i8, 2 batches of "
                 "37x50x21, per-row and per-column zero points (int_dot "
                 "%s)", paths[k]);
        check(rt, &c, 0, what);
        c.rank[2] = c.rank[3] = 0;
        snprintf(what, sizeof what, "matmul_integer with scalar zero "
                 "points (int_dot %s)", paths[k]);
        check(rt, &c, 0, what);
        /* every signedness pairing (the same bytes read as i8 or u8) */
        for (int t = 0; t < 4; t++) {
            c.types[0] = c.types[2] = t & 1 ? RLX_DTYPE_I8 : RLX_DTYPE_U8;
            c.types[1] = c.types[3] = t & 2 ? RLX_DTYPE_I8 : RLX_DTYPE_U8;
            snprintf(what, sizeof what, "matmul_integer %s x %s (int_dot "
                     "%s)", rlx_dtype_name(c.types[0]),
                     rlx_dtype_name(c.types[1]), paths[k]);
            check(rt, &c, 0, what);
        }
    }
    unsetenv("RLX_VULKAN_INT_DOT");
    free(a);
    free(b);
    rlx_runtime_destroy(rt);
}

/* N random bytes from SEED. */
static void fill_bytes(void *dst, size_t n, unsigned seed)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        d[i] = (unsigned char)(seed >> 16);
    }
}

/* conv_integer on N x C x H x W inputs and M x C/G x 3 x 3 weights, on
 * both its paths (packed dot products where the device has them, and
 * plain integer products, RLX_VULKAN_INT_DOT=off): the direct shader
 * (few output channels per group) and the implicit GEMM (16 or more,
 * tiles with tails in every direction), x and w in every signedness
 * pairing, zero points away from 0 so a wrong correction shows. */
TEST(conv_integer)
{
    rlx_runtime *rt = vulkan_runtime();
    static const struct {
        int64_t n, c, m, h, w, group;
        int64_t attrs[9];
        const char *what;
    } shapes[] = {
        { 2, 3, 4, 9, 7, 1, { 1, 2, 1, 1, 2, 1, 1, 1, 0 },
          "direct, stride 2, dilation 2, padding" },
        { 2, 5, 20, 9, 7, 1, { 1, 2, 1, 1, 2, 1, 1, 1, 0 },
          "GEMM, stride 2, dilation 2, padding" },
        { 1, 6, 36, 8, 8, 2, { 2, 1, 1, 1, 1, 1, 1, 1, 1 },
          "GEMM, 2 groups, padding 1" },
        { 2, 16, 70, 12, 11, 1, { 1, 1, 1, 1, 1, 1, 1, 1, 1 },
          "GEMM, 2 x 3 tiles, padding 1" },
    };
    static const char *const paths[2] = { "auto", "off" };
    enum { XMAX = 2 * 16 * 12 * 11, WMAX = 70 * 16 * 9 };
    uint8_t *x = malloc(XMAX), *w = malloc(WMAX), zw[70];
    uint8_t zx = 0;
    fill_bytes(x, XMAX, 9);
    fill_bytes(w, WMAX, 11);
    fill_bytes(zw, sizeof zw, 13);
    for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; sh++) {
        int64_t n = shapes[sh].n, c = shapes[sh].c, m = shapes[sh].m;
        for (int k = 0; k < 2; k++) {
            setenv("RLX_VULKAN_INT_DOT", paths[k], 1);
            for (int t = 0; t < 4; t++) {
                char what[192];
                rlx_dtype xt = t & 1 ? RLX_DTYPE_I8 : RLX_DTYPE_U8;
                rlx_dtype wt = t & 2 ? RLX_DTYPE_I8 : RLX_DTYPE_U8;
                zx = (uint8_t)(xt == RLX_DTYPE_I8 ? -3 : 131);
                tcase cs = {
                    .op = RLX_OP_CONV_INTEGER, .n_in = 4,
                    .rank = { 4, 4, 0, t == 3 ? 0 : 1 },
                    .shape = { { n, c, shapes[sh].h, shapes[sh].w },
                               { m, c / shapes[sh].group, 3, 3 },
                               { 0 },
                               { m } },
                    .types = { xt, wt, xt, wt },
                    .data = { x, w, &zx, zw },
                    .attrs = { .n_ints = 9, .ints = shapes[sh].attrs } };
                snprintf(what, sizeof what, "conv_integer %s x %s, %s, "
                         "%s w zero points (int_dot %s)",
                         rlx_dtype_name(xt), rlx_dtype_name(wt),
                         shapes[sh].what,
                         t == 3 ? "scalar" : "per-channel", paths[k]);
                check(rt, &cs, 0, what);
            }
        }
    }
    unsetenv("RLX_VULKAN_INT_DOT");
    free(x);
    free(w);
    rlx_runtime_destroy(rt);
}

TEST(vision_double)
{
    rlx_runtime *rt = vulkan_runtime();
    for (int64_t mode = 0; mode < 3; mode++) {
        char what[96];
        tcase c = { .op = RLX_OP_GRID_SAMPLE, .n_in = 2, .rank = { 5, 5 },
                    .shape = { { 1, 2, 3, 4, 5 }, { 1, 2, 3, 2, 3 } },
                    .types = { RLX_DTYPE_F32, RLX_DTYPE_F32 },
                    .attrs = { .n_ints = 3,
                               .ints = mode == 0
                                   ? (const int64_t[]){ 0, 2, 0 }
                                   : mode == 1 ? (const int64_t[]){ 1, 1, 1 }
                                               : (const int64_t[]){ 2, 0,
                                                                    0 } } };
        snprintf(what, sizeof what, "grid_sample 3-d, mode %d",
                 (int)mode);
        check(rt, &c, 1e-6, what);
    }
    tcase d = { .op = RLX_OP_DET, .n_in = 1, .rank = { 3 },
                .shape = { { 4, 6, 6 } }, .types = { RLX_DTYPE_F32 } };
    check(rt, &d, 1e-6, "det of 4 6x6 matrices");
    tcase p = { .op = RLX_OP_MAX_POOL_INDEX, .n_in = 1, .rank = { 4 },
                .shape = { { 2, 3, 7, 6 } }, .types = { RLX_DTYPE_F32 },
                .attrs = { .n_ints = 13,
                           .ints = (const int64_t[]){ 0, 0, 1, 3, 2, 2, 2,
                                                      1, 1, 1, 0, 0,
                                                      1 } } };
    check(rt, &p, 0, "max_pool_index column-major, padded windows");
    static const float rois[8] = { 0, 0, 3, 3, 1, 1, 5, 4 };
    static const int64_t bad[2] = { 0, 2 };
    tcase r = { .op = RLX_OP_ROI_ALIGN, .n_in = 3, .rank = { 4, 2, 1 },
                .shape = { { 2, 2, 6, 6 }, { 2, 4 }, { 2 } },
                .types = { RLX_DTYPE_F32, RLX_DTYPE_F32, RLX_DTYPE_I64 },
                .data = { NULL, rois, bad } };
    char *y = malloc(MAX_BYTES);
    size_t n = 0;
    rlx_dtype t = 0;
    rlx_status st = run_case(rt, "vulkan", &r, y, &n, &t);
    free(y);
    ok(st == RLX_ERR_INVALID_ARGUMENT && strstr(rlx_last_error(), "Fix:"),
       "roi_align with batch index 2 of 2 fails the run, with a Fix");
    static const int64_t good[2] = { 1, 0 };
    r.data[2] = good;
    check(rt, &r, 1e-6, "roi_align avg, i64 batch indices");
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(unsigned_32), TEST_ENTRY(narrow_16),
              TEST_ENTRY(unsigned_64), TEST_ENTRY(bit_shift),
              TEST_ENTRY(casts), TEST_ENTRY(inverse_functions),
              TEST_ENTRY(float64), TEST_ENTRY(float64_more),
              TEST_ENTRY(wide_reductions), TEST_ENTRY(quantize),
              TEST_ENTRY(matmul_integer), TEST_ENTRY(conv_integer),
              TEST_ENTRY(vision_double));
