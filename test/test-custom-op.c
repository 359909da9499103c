/*
 * test-custom-op.c - custom ops: foreign kernels called by C signature
 * through libffi. OpenBLAS's cblas_saxpy and cblas_sgemv and libm's erff,
 * expf and erf, called from YAML models, match rlx's own ops; an
 * application's function pointer runs; integer, float and double
 * arguments arrive intact; every bad signature, argument and library
 * gets its own message with a Fix and leaves nothing behind; a custom
 * node inside a graph for another device is placed on the host.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test-util.h"

#define OPENBLAS "libopenblas.so.0"
#define LIBM "libm.so.6"

/* ---- fixtures --------------------------------------------------------- */

static char tmp_dir[64];

static int rm_entry(const char *path, const struct stat *sb, int flag,
                    struct FTW *ftw)
{
    (void)sb; (void)flag; (void)ftw;
    return remove(path);
}

static void rm_tmp(void)
{
    if (tmp_dir[0])
        nftw(tmp_dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static const char *fx(const char *name)
{
    static char buf[8][512];
    static int next;
    if (!tmp_dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(tmp_dir, sizeof tmp_dir, "%s/rlx-custom-XXXXXX",
                 t && *t && strlen(t) < 40 ? t : "/tmp");
        if (!mkdtemp(tmp_dir))
            FAIL("mkdtemp failed");
        atexit(rm_tmp);
    }
    char *out = buf[next++ % 8];
    snprintf(out, sizeof buf[0], "%s/%s", tmp_dir, name);
    return out;
}

static const char *write_model(const char *name, const char *text)
{
    const char *path = fx(name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        FAIL("cannot write %s", path);
    return path;
}

/* The test kernel library (test/custom/kernels.c). */
static const char *kernels_dir(void)
{
    const char *d = getenv("RLX_TEST_KERNELS_DIR");
    if (!d || !*d)
        FAIL("RLX_TEST_KERNELS_DIR is not set (run through meson test)");
    return d;
}

static const char *kernels_path(void)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/librlx-test-kernels.so", kernels_dir());
    return buf;
}

#define ASSERT_MSG(...)                                                     \
    do {                                                                    \
        const char *needles_[] = { __VA_ARGS__ };                           \
        const char *e_ = rlx_last_error();                                  \
        for (size_t k_ = 0; k_ < sizeof needles_ / sizeof *needles_; k_++)  \
            if (!strstr(e_, needles_[k_]))                                  \
                FAIL("error lacks '%s': %s", needles_[k_], e_);             \
        if (!strstr(e_, "Fix:"))                                            \
            FAIL("error lacks a Fix: %s", e_);                              \
    } while (0)

/* ---- running ---------------------------------------------------------- */

typedef struct feed {
    const char *name;
    const void *data;
    size_t nbytes;
} feed;

/* Compile G on DEVICE, feed it, run it and copy output OUT (NBYTES). */
static rlx_status run_graph(rlx_runtime *rt, const rlx_graph *g,
                            const char *device, const feed *in, size_t n_in,
                            uint32_t out, void *dst, size_t nbytes)
{
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(rt, device, &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    for (size_t i = 0; st == RLX_OK && i < n_in; i++)
        st = rlx_program_set_input(p, in[i].name, in[i].data, in[i].nbytes);
    if (st == RLX_OK)
        st = rlx_program_run(p);
    if (st == RLX_OK) {
        size_t got = 0;
        const void *data = rlx_program_output_data(p, out, &got);
        if (!data || got != nbytes)
            FAIL("output %u: %zu bytes, expected %zu", out, got, nbytes);
        memcpy(dst, data, nbytes);
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    return st;
}

static void run_model(rlx_runtime *rt, const char *path, const char *device,
                      const feed *in, size_t n_in, uint32_t out, void *dst,
                      size_t nbytes)
{
    rlx_model *m = NULL;
    if (rlx_model_load(path, &m) != RLX_OK)
        FAIL("load %s: %s", path, rlx_last_error());
    rlx_status st = run_graph(rt, rlx_model_graph(m), device, in, n_in, out,
                              dst, nbytes);
    rlx_model_destroy(m);
    if (st != RLX_OK)
        FAIL("run %s on %s: %s", path, device, rlx_last_error());
}

static void assert_close(const float *a, const float *b, size_t n,
                         float tol)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(a[i] - b[i]) <= tol * (1.0f + fabsf(b[i]))))
            FAIL("element %zu: %.9g vs %.9g (tolerance %g)", i, a[i], b[i],
                 tol);
}

/* ---- OpenBLAS and libm from YAML, against rlx's own ops --------------- */

/* out0 = cblas_saxpy(n, 2.5, x, 1, y (in place), 1); out1 = 2.5*x + y. */
static const char saxpy_yaml[] =
    "rlx_model: 1\n"
    "inputs:\n"
    "  - {name: x, dtype: f32, shape: [3, 5]}\n"
    "  - {name: y, dtype: f32, shape: [3, 5]}\n"
    "constants:\n"
    "  - {name: alpha, dtype: f32, shape: [], value: 2.5}\n"
    "nodes:\n"
    "  - name: z\n"
    "    op: custom\n"
    "    library: " OPENBLAS "\n"
    "    symbol: cblas_saxpy\n"
    "    signature: \"void(i32, f32, f32*, i32, f32*, i32)\"\n"
    "    init: y\n"
    "    args: [$numel(x), 2.5, x, 1, z, 1]\n"
    "  - {name: ax, op: mul, inputs: [x, alpha]}\n"
    "  - {name: ref, op: add, inputs: [ax, y]}\n"
    "outputs: [z, ref]\n";

static void fill(float *v, size_t n, float scale, float shift)
{
    for (size_t i = 0; i < n; i++)
        v[i] = scale * (float)((i * 37 + 11) % 23) / 23.0f + shift;
}

TEST(openblas_saxpy_matches_add_mul)
{
    rlx_runtime *rt = test_runtime();
    const char *path = write_model("saxpy.yaml", saxpy_yaml);
    float x[15], y[15], z[15], ref[15];
    fill(x, 15, 2.0f, -1.0f);
    fill(y, 15, -3.0f, 0.5f);
    feed in[] = { { "x", x, sizeof x }, { "y", y, sizeof y } };
    run_model(rt, path, "cpu", in, 2, 0, z, sizeof z);
    run_model(rt, path, "cpu", in, 2, 1, ref, sizeof ref);
    assert_close(z, ref, 15, 1e-6f);
    /* y is an input: the in-place kernel worked on a copy */
    float y0[15];
    fill(y0, 15, -3.0f, 0.5f);
    ASSERT(memcmp(y, y0, sizeof y) == 0);
    rlx_runtime_destroy(rt);
}

/* y = A x through cblas_sgemv (row-major 101, no transpose 111), and the
 * same through matmul. */
static const char sgemv_yaml[] =
    "rlx_model: 1\n"
    "inputs:\n"
    "  - {name: a, dtype: f32, shape: [4, 6]}\n"
    "  - {name: x, dtype: f32, shape: [6, 1]}\n"
    "nodes:\n"
    "  - name: y\n"
    "    op: custom\n"
    "    library: " OPENBLAS "\n"
    "    symbol: cblas_sgemv\n"
    "    signature: \"void(i32, i32, i32, i32, f32, f32*, i32, f32*, i32,"
    " f32, f32*, i32)\"\n"
    "    inputs: [a, x]\n"
    "    dtype: f32\n"
    "    shape: [4, 1]\n"
    "    args: [101, 111, \"$dim(a, 0)\", \"$dim(a, 1)\", 1.0, a,"
    " \"$dim(a, -1)\", x, 1, 0.0, y, 1]\n"
    "  - {name: ref, op: matmul, inputs: [a, x]}\n"
    "outputs: [y, ref]\n";

TEST(openblas_sgemv_matches_matmul)
{
    rlx_runtime *rt = test_runtime();
    const char *path = write_model("sgemv.yaml", sgemv_yaml);
    float a[24], x[6], y[4], ref[4];
    fill(a, 24, 1.5f, -0.7f);
    fill(x, 6, -2.0f, 1.0f);
    feed in[] = { { "a", a, sizeof a }, { "x", x, sizeof x } };
    run_model(rt, path, "cpu", in, 2, 0, y, sizeof y);
    run_model(rt, path, "cpu", in, 2, 1, ref, sizeof ref);
    assert_close(y, ref, 4, 1e-5f);
    rlx_runtime_destroy(rt);
}

/* gelu(x) = x/2 (1 + erf(x / sqrt 2)) with libm's erff per element, and
 * rlx's own gelu (erf form). */
static const char gelu_yaml[] =
    "rlx_model: 1\n"
    "inputs:\n"
    "  - {name: x, dtype: f32, shape: [2, 50]}\n"
    "constants:\n"
    "  - {name: rsqrt2, dtype: f32, shape: [], value: 0.70710678118654752}\n"
    "  - {name: half, dtype: f32, shape: [], value: 0.5}\n"
    "  - {name: one, dtype: f32, shape: [], value: 1.0}\n"
    "nodes:\n"
    "  - {name: t, op: mul, inputs: [x, rsqrt2]}\n"
    "  - name: e\n"
    "    op: custom\n"
    "    library: " LIBM "\n"
    "    symbol: erff\n"
    "    signature: \"f32(f32)\"\n"
    "    elementwise: true\n"
    "    args: [t]\n"
    "  - {name: e1, op: add, inputs: [e, one]}\n"
    "  - {name: hx, op: mul, inputs: [x, half]}\n"
    "  - {name: g, op: mul, inputs: [hx, e1]}\n"
    "  - {name: ref, op: gelu, inputs: [x]}\n"
    "  - name: ex\n"
    "    op: custom\n"
    "    library: " LIBM "\n"
    "    symbol: expf\n"
    "    signature: \"float(float)\"\n"
    "    elementwise: true\n"
    "    args: [x]\n"
    "  - {name: exref, op: exp, inputs: [x]}\n"
    "outputs: [g, ref, ex, exref]\n";

TEST(libm_erff_gelu_and_expf_match_builtins)
{
    rlx_runtime *rt = test_runtime();
    const char *path = write_model("gelu.yaml", gelu_yaml);
    float x[100], g[100], ref[100], ex[100], exref[100];
    for (int i = 0; i < 100; i++)
        x[i] = -5.0f + 0.1f * (float)i;
    feed in[] = { { "x", x, sizeof x } };
    run_model(rt, path, "cpu", in, 1, 0, g, sizeof g);
    run_model(rt, path, "cpu", in, 1, 1, ref, sizeof ref);
    run_model(rt, path, "cpu", in, 1, 2, ex, sizeof ex);
    run_model(rt, path, "cpu", in, 1, 3, exref, sizeof exref);
    assert_close(g, ref, 100, 1e-5f);
    assert_close(ex, exref, 100, 1e-5f);
    ASSERT(fabsf(ex[50] - 1.0f) < 1e-6f); /* exp(0) */
    rlx_runtime_destroy(rt);
}

/* libm's double erf on an f64 tensor, with a one-element broadcast. */
TEST(libm_double_erf)
{
    rlx_runtime *rt = test_runtime();
    const char *path = write_model(
        "erf64.yaml",
        "rlx_model: 1\n"
        "inputs: [{name: x, dtype: f64, shape: [7]}]\n"
        "nodes:\n"
        "  - {name: e, op: custom, library: " LIBM ", symbol: erf,\n"
        "     signature: \"double(double)\", elementwise: true, args: [x]}\n"
        "  - {name: p, op: custom, library: " LIBM ", symbol: pow,\n"
        "     signature: \"f64(f64, f64)\", elementwise: true,\n"
        "     args: [x, 2.0]}\n"
        "outputs: [e, p]\n");
    double x[7] = { -3, -1, -0.25, 0, 0.5, 1, 2.5 }, e[7], p[7];
    feed in[] = { { "x", x, sizeof x } };
    run_model(rt, path, "cpu", in, 1, 0, e, sizeof e);
    run_model(rt, path, "cpu", in, 1, 1, p, sizeof p);
    for (int i = 0; i < 7; i++) {
        ASSERT(fabs(e[i] - erf(x[i])) < 1e-15);
        ASSERT(fabs(p[i] - x[i] * x[i]) < 1e-12);
    }
    rlx_runtime_destroy(rt);
}

/* Custom nodes are never asked about: the capability report marks them
 * "not asked", placement puts them on the host under every fallback
 * policy, and the program stays on its backend. */
TEST(custom_nodes_are_host_pieces_under_every_fallback)
{
    rlx_runtime *rt = test_runtime();
    rlx_model *m = NULL;
    ASSERT_EQ(rlx_model_load(write_model("gelu-p.yaml", gelu_yaml), &m),
              RLX_OK);
    const rlx_graph *g = rlx_model_graph(m);
    const rlx_backend *ref = rlx_runtime_find_backend(rt, "cpu-ref");
    rlx_capability *c = NULL;
    ASSERT_EQ(rlx_capability_create(ref, g, &c), RLX_OK);
    ASSERT_EQ(rlx_capability_unsupported_count(c), 0u);
    int supported = 2;
    const char *why = NULL;
    ASSERT_EQ(rlx_capability_node(c, 5 /* e: x, 3 constants, t, e */,
                                  &supported, &why), RLX_OK);
    ASSERT_EQ(supported, -1);
    ASSERT(strstr(why, "custom op"));
    rlx_capability_destroy(c);
    const rlx_fallback policies[] = { RLX_FALLBACK_SPLIT, RLX_FALLBACK_WHOLE,
                                      RLX_FALLBACK_NONE };
    for (int i = 0; i < 3; i++) {
        rlx_session *s = NULL;
        rlx_program *p = NULL;
        ASSERT_EQ(rlx_session_create(rt, "cpu-ref", &s), RLX_OK);
        ASSERT_EQ(rlx_session_set_fallback(s, policies[i]), RLX_OK);
        if (rlx_session_compile(s, g, &p) != RLX_OK)
            FAIL("fallback %d: %s", i, rlx_last_error());
        const rlx_backend *b = ref;
        uint32_t piece = 0;
        ASSERT_EQ(rlx_program_placement(p, 5, &b, NULL, &piece), RLX_OK);
        ASSERT(b == NULL); /* the core runs it */
        ASSERT(piece != RLX_PIECE_NONE);
        ASSERT_EQ(rlx_program_fallback_count(p), 2u); /* erff, expf */
        ASSERT(strstr(rlx_program_placement_summary(p),
                      "2 on the host (custom x2)"));
        ASSERT(rlx_session_backend(s) == ref);
        rlx_program_destroy(p);
        rlx_session_destroy(s);
    }
    rlx_model_destroy(m);
    rlx_runtime_destroy(rt);
}

/* ---- the test kernel library: int, float and double arguments --------- */

static char kernel_yaml[4096];

static const char *kernel_model(const char *library)
{
    snprintf(kernel_yaml, sizeof kernel_yaml,
             "rlx_model: 1\n"
             "inputs:\n"
             "  - {name: x, dtype: f32, shape: [2, 3]}\n"
             "  - {name: m, dtype: i64, shape: [3, 4]}\n"
             "nodes:\n"
             "  - name: y\n"
             "    op: custom\n"
             "    library: %s\n"
             "    symbol: rlxk_scale_shift\n"
             "    signature: \"i32(i32, f32, f64, f32*, f32*)\"\n"
             "    dtype: f32\n"
             "    shape: [2, 3]\n"
             "    args: [$numel(x), 3, 0.1, x, y]\n"
             "  - name: s\n"
             "    op: custom\n"
             "    library: %s\n"
             "    symbol: rlxk_row_sums\n"
             "    signature: \"void(u64, i8, i64*, i64*)\"\n"
             "    dtype: i64\n"
             "    shape: [3]\n"
             "    args: [\"$dim(m, 0)\", \"$dim(m, 1)\", m, s]\n"
             "outputs: [y, s]\n",
             library, library);
    return write_model("kernels.yaml", kernel_yaml);
}

static void check_kernel_model(rlx_runtime *rt, const char *path)
{
    float x[6] = { 1, -2, 0.5f, 4, 0, -0.25f }, y[6];
    int64_t m[12], s[3];
    for (int i = 0; i < 12; i++)
        m[i] = (int64_t)i * 1000000007LL;
    feed in[] = { { "x", x, sizeof x }, { "m", m, sizeof m } };
    run_model(rt, path, "cpu", in, 2, 0, y, sizeof y);
    run_model(rt, path, "cpu", in, 2, 1, s, sizeof s);
    for (int i = 0; i < 6; i++)
        ASSERT(fabsf(y[i] - (float)(3.0 * x[i] + 0.1)) < 1e-6f);
    for (int r = 0; r < 3; r++)
        ASSERT_EQ(s[r], m[4 * r] + m[4 * r + 1] + m[4 * r + 2] +
                            m[4 * r + 3]);
}

TEST(int_float_double_args_by_absolute_path)
{
    rlx_runtime *rt = test_runtime();
    check_kernel_model(rt, kernel_model(kernels_path()));
    rlx_runtime_destroy(rt);
}

TEST(bare_name_through_rlx_custom_op_path)
{
    rlx_runtime *rt = test_runtime();
    /* a name no loader path (meson sets LD_LIBRARY_PATH) can find */
    char cmd[2048], dir[600];
    fx("x");
    snprintf(dir, sizeof dir, "%s/opdir", tmp_dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s' "
             "'%s/librlx-test-kernels-env.so'", dir, kernels_path(), dir);
    ASSERT_EQ(system(cmd), 0);
    const char *path = kernel_model("librlx-test-kernels-env.so");
    rlx_model *m = NULL;
    setenv("RLX_CUSTOM_OP_PATH", "", 1);
    ASSERT_EQ(rlx_model_load(path, &m), RLX_ERR_NOT_FOUND);
    ASSERT(m == NULL);
    ASSERT_MSG("librlx-test-kernels-env.so", "rlxk_scale_shift",
               "i32(i32, f32, f64, f32*, f32*)", "failed to load",
               "RLX_CUSTOM_OP_PATH");
    char env[1400];
    snprintf(env, sizeof env, "/nonexistent::%s", dir);
    setenv("RLX_CUSTOM_OP_PATH", env, 1);
    check_kernel_model(rt, path);
    setenv("RLX_CUSTOM_OP_PATH", "", 1);
    rlx_runtime_destroy(rt);
}

TEST(relative_path_inside_the_model_directory)
{
    rlx_runtime *rt = test_runtime();
    /* copy the library into a subdirectory of the model's directory */
    fx("x");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/lib' && cp '%s' '%s/lib/'",
             tmp_dir, kernels_path(), tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    check_kernel_model(rt, kernel_model("lib/librlx-test-kernels.so"));
    /* a bare name is also found in the model's directory */
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/'", kernels_path(), tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    check_kernel_model(rt, kernel_model("librlx-test-kernels.so"));
    rlx_runtime_destroy(rt);
}

TEST(non_zero_status_fails_the_run)
{
    rlx_runtime *rt = test_runtime();
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
             "nodes:\n"
             "  - {name: y, op: custom, library: %s, symbol: rlxk_status,\n"
             "     signature: \"i64(i64, f32*)\", dtype: f32, shape: [1],\n"
             "     args: [-7, y]}\n"
             "outputs: [y]\n", kernels_path());
    rlx_model *m = NULL;
    ASSERT_EQ(rlx_model_load(write_model("status.yaml", yaml), &m), RLX_OK);
    float x = 0, y;
    feed in[] = { { "x", &x, sizeof x } };
    ASSERT_EQ(run_graph(rt, rlx_model_graph(m), "cpu", in, 1, 0, &y,
                        sizeof y),
              RLX_ERR_BACKEND);
    ASSERT_MSG("custom node 'y'", "rlxk_status", "returned status -7");
    rlx_model_destroy(m);
    rlx_runtime_destroy(rt);
}

/* ---- an application's own function ------------------------------------ */

static int app_calls;

/* y = x * scale + k (k an int), counting calls. */
static int32_t app_kernel(int64_t n, double scale, int16_t k, const float *x,
                          float *y)
{
    app_calls++;
    for (int64_t i = 0; i < n; i++)
        y[i] = (float)(x[i] * scale) + (float)k;
    return 0;
}

static uint8_t app_each(uint8_t a, int32_t b)
{
    return (uint8_t)(a * 2 + b);
}

TEST(application_function_pointer)
{
    rlx_runtime *rt = test_runtime();
    rlx_graph *g = NULL;
    rlx_value x, y, u, w;
    int64_t dims[] = { 2, 4 };
    ASSERT_EQ(rlx_graph_create(&g), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, dims, &x), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "u", RLX_DTYPE_U8, 2, dims, &u), RLX_OK);
    rlx_custom_arg args[] = {
        { .kind = RLX_CUSTOM_ARG_NUMEL, .index = 0 },
        { .kind = RLX_CUSTOM_ARG_FLOAT, .f = -1.5 },
        { .kind = RLX_CUSTOM_ARG_INT, .i = -300 },
        { .kind = RLX_CUSTOM_ARG_TENSOR, .index = 0 },
        { .kind = RLX_CUSTOM_ARG_TENSOR, .index = RLX_CUSTOM_OUTPUT },
    };
    rlx_custom_op op = {
        .struct_size = sizeof op,
        .fn = (rlx_custom_fn)app_kernel,
        .signature = "i32(i64, f64, i16, f32*, f32*)",
        .n_args = 5, .args = args,
        .dtype = RLX_DTYPE_F32, .rank = 2, .dims = dims,
        .init_input = -1,
    };
    ASSERT_EQ(rlx_graph_add_custom(g, "y", 1, &x, &op, &y), RLX_OK);
    rlx_custom_arg eargs[] = {
        { .kind = RLX_CUSTOM_ARG_TENSOR, .index = 0 },
        { .kind = RLX_CUSTOM_ARG_INT, .i = 7 },
    };
    rlx_custom_op eop = {
        .struct_size = sizeof eop,
        .fn = (rlx_custom_fn)app_each,
        .signature = "u8(u8, i32)",
        .n_args = 2, .args = eargs,
        .dtype = RLX_DTYPE_U8, .rank = 2, .dims = dims,
        .init_input = -1, .flags = RLX_CUSTOM_ELEMENTWISE,
    };
    ASSERT_EQ(rlx_graph_add_custom(g, NULL, 1, &u, &eop, &w), RLX_OK);
    ASSERT_EQ(rlx_graph_output(g, "y", y), RLX_OK);
    ASSERT_EQ(rlx_graph_output(g, "w", w), RLX_OK);
    float xv[8] = { 1, 2, 3, 4, -1, -2, 0.5f, 8 }, yv[8];
    uint8_t uv[8] = { 0, 1, 2, 100, 124, 200, 3, 9 }, wv[8];
    feed in[] = { { "x", xv, sizeof xv }, { "u", uv, sizeof uv } };
    app_calls = 0;
    ASSERT_EQ(run_graph(rt, g, "cpu", in, 2, 0, yv, sizeof yv), RLX_OK);
    ASSERT_EQ(app_calls, 1);
    for (int i = 0; i < 8; i++)
        ASSERT(yv[i] == (float)(xv[i] * -1.5) - 300.0f);
    ASSERT_EQ(run_graph(rt, g, "cpu", in, 2, 1, wv, sizeof wv), RLX_OK);
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(wv[i], (uint8_t)(uv[i] * 2 + 7));
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* ---- bad signatures and arguments: checked when the node is added ---- */

typedef struct bad_case {
    const char *signature;
    rlx_custom_arg args[4];
    uint32_t n_args;
    uint32_t flags;
    rlx_status status;
    const char *expect;
} bad_case;

#define T_IN(i) { .kind = RLX_CUSTOM_ARG_TENSOR, .index = (i) }
#define T_OUT { .kind = RLX_CUSTOM_ARG_TENSOR, .index = RLX_CUSTOM_OUTPUT }
#define A_INT(v) { .kind = RLX_CUSTOM_ARG_INT, .i = (v) }
#define A_FLT(v) { .kind = RLX_CUSTOM_ARG_FLOAT, .f = (v) }
#define A_DIM(t, a) { .kind = RLX_CUSTOM_ARG_DIM, .index = (t), .axis = (a) }

static const bad_case bad_cases[] = {
    { "void(i32, ptr", { A_INT(1), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "expected ',' or ')'" },
    { "void(i33, ptr)", { A_INT(1), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "'i33', is not a type" },
    { "ptr(ptr)", { T_OUT }, 1, 0, RLX_ERR_INVALID_ARGUMENT,
      "return type 'ptr' is not allowed" },
    { "void(ptr) extra", { T_OUT }, 1, 0, RLX_ERR_INVALID_ARGUMENT,
      "unexpected text after ')'" },
    { "", { T_OUT }, 1, 0, RLX_ERR_INVALID_ARGUMENT, "signature is empty" },
    /* arity */
    { "void(i32, ptr, ptr)", { A_INT(1), T_OUT }, 2, 0,
      RLX_ERR_INVALID_ARGUMENT, "takes 3 arguments but 2 are given" },
    /* types */
    { "void(i32, ptr)", { A_FLT(2.5), T_OUT }, 2, 0,
      RLX_ERR_INVALID_ARGUMENT, "the floating-point literal 2.5" },
    { "void(ptr, ptr)", { A_INT(4), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "a pointer parameter with no tensor behind it" },
    { "void(i32, ptr)", { T_IN(0), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "the parameter is i32 but the argument is the tensor x" },
    { "void(i32*, ptr)", { T_IN(0), T_OUT }, 2, 0, RLX_ERR_DTYPE,
      "the parameter is i32* but x is f32 [2,3]" },
    { "void(u8, ptr)", { A_INT(300), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "the value 300 does not fit the parameter type u8" },
    { "void(i32, ptr)", { A_DIM(0, 5), T_OUT }, 2, 0, RLX_ERR_SHAPE,
      "dimension 5 of x, which has shape [2,3]" },
    { "void(ptr, ptr)", { T_IN(0), T_IN(3) }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "tensor index 3 is neither an input" },
    { "void(ptr)", { T_IN(0) }, 1, 0, RLX_ERR_INVALID_ARGUMENT,
      "no argument points at the output" },
    { "f32(ptr)", { T_OUT }, 1, 0, RLX_ERR_INVALID_ARGUMENT,
      "a whole-tensor kernel returns void or an integer status" },
    /* elementwise */
    { "f64(f32)", { T_IN(0) }, 1, RLX_CUSTOM_ELEMENTWISE, RLX_ERR_DTYPE,
      "returns the output element, which is f32" },
    { "f32(f64)", { T_IN(0) }, 1, RLX_CUSTOM_ELEMENTWISE, RLX_ERR_DTYPE,
      "the parameter is f64 but 'x' is f32" },
    { "f32(ptr)", { T_OUT }, 1, RLX_CUSTOM_ELEMENTWISE,
      RLX_ERR_INVALID_ARGUMENT, "the output is not an argument" },
    { "f32(f32)", { T_IN(0) }, 1, 0x80, RLX_ERR_INVALID_ARGUMENT,
      "unknown flags 0x80" },
};

static void add_one(const bad_case *c, rlx_custom_fn fn, const char *lib,
                    const char *sym, int32_t init, rlx_status want,
                    const char *expect)
{
    rlx_graph *g = NULL;
    rlx_value x, v = 0;
    int64_t dims[] = { 2, 3 }, odims[] = { 3, 2 };
    ASSERT_EQ(rlx_graph_create(&g), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, dims, &x), RLX_OK);
    rlx_custom_op op = {
        .struct_size = sizeof op,
        .library = lib, .symbol = sym, .fn = fn,
        .signature = c->signature,
        .n_args = c->n_args, .args = c->args,
        .dtype = RLX_DTYPE_F32, .rank = 2,
        .dims = init >= 0 ? odims : dims,
        .init_input = init, .flags = c->flags,
    };
    rlx_status st = rlx_graph_add_custom(g, "k", 1, &x, &op, &v);
    if (st != want)
        FAIL("signature \"%s\": status %s, expected %s (%s)", c->signature,
             rlx_status_name(st), rlx_status_name(want), rlx_last_error());
    ASSERT_EQ(v, RLX_VALUE_NONE);
    ASSERT_EQ(rlx_graph_node_count(g), 1u); /* nothing added */
    ASSERT_MSG("custom node 'k'", expect);
    rlx_graph_destroy(g);
}

TEST(bad_signatures_and_arguments)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++)
        add_one(&bad_cases[i], (rlx_custom_fn)app_kernel, NULL, NULL, -1,
                bad_cases[i].status, bad_cases[i].expect);
}

TEST(bad_specs)
{
    bad_case ok = { "void(ptr, ptr)", { T_IN(0), T_OUT }, 2, 0, 0, NULL };
    add_one(&ok, (rlx_custom_fn)app_kernel, OPENBLAS, "cblas_saxpy", -1,
            RLX_ERR_INVALID_ARGUMENT, "give either a library and a symbol");
    add_one(&ok, NULL, NULL, NULL, -1, RLX_ERR_INVALID_ARGUMENT,
            "(got neither)");
    add_one(&ok, NULL, OPENBLAS, "", -1, RLX_ERR_INVALID_ARGUMENT,
            "the library or the symbol is empty");
    /* the output [3,2] cannot start as a copy of x [2,3] */
    add_one(&ok, (rlx_custom_fn)app_kernel, NULL, NULL, 0, RLX_ERR_SHAPE,
            "starts as a copy of 'x', which is f32 [2,3]");
}

/* ---- bad libraries: found when the model loads (and at compile) ------ */

static void load_fails(const char *name, const char *node_yaml,
                       rlx_status want, const char *const *expect,
                       size_t n_expect)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs: [{name: x, dtype: f32, shape: [4]}]\n"
             "nodes:\n"
             "%s"
             "outputs: [y]\n", node_yaml);
    rlx_model *m = (rlx_model *)1;
    rlx_status st = rlx_model_load(write_model(name, yaml), &m);
    if (st != want)
        FAIL("%s: status %s, expected %s (%s)", name, rlx_status_name(st),
             rlx_status_name(want), rlx_last_error());
    ASSERT(m == NULL);
    for (size_t i = 0; i < n_expect; i++)
        if (!strstr(rlx_last_error(), expect[i]))
            FAIL("%s: error lacks '%s': %s", name, expect[i],
                 rlx_last_error());
    ASSERT(strstr(rlx_last_error(), "Fix:"));
}

#define LOAD_FAILS(name, yaml, st, ...)                                     \
    do {                                                                    \
        const char *e_[] = { __VA_ARGS__ };                                 \
        load_fails(name, yaml, st, e_, sizeof e_ / sizeof *e_);             \
    } while (0)

#define SAXPY_NODE(lib, sym, sig, args)                                     \
    "  - {name: y, op: custom, library: " lib ", symbol: " sym ",\n"        \
    "     signature: \"" sig "\", init: x,\n"                               \
    "     args: " args "}\n"

TEST(bad_models)
{
    LOAD_FAILS("nosym.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpyy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, x, 1, y, 1]"),
               RLX_ERR_NOT_FOUND, "nosym.yaml:4:", "custom node 'y'",
               OPENBLAS, "cblas_saxpyy",
               "void(i32, f32, f32*, i32, f32*, i32)",
               "has no function 'cblas_saxpyy'", "nm -D");
    LOAD_FAILS("nolib.yaml",
               SAXPY_NODE("libnot-a-real-blas.so.9", "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, x, 1, y, 1]"),
               RLX_ERR_NOT_FOUND, "nolib.yaml:4:",
               "libnot-a-real-blas.so.9", "cblas_saxpy",
               "the library failed to load");
    LOAD_FAILS("escape.yaml",
               SAXPY_NODE("../../etc/libx.so", "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, x, 1, y, 1]"),
               RLX_ERR_NOT_FOUND, "../../etc/libx.so",
               "the library failed to load");
    LOAD_FAILS("arity.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, x, 1, y]"),
               RLX_ERR_INVALID_ARGUMENT, "arity.yaml:",
               "takes 6 arguments but 5 are given");
    LOAD_FAILS("noptr.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, 5, 1, y, 1]"),
               RLX_ERR_INVALID_ARGUMENT,
               "argument 3 of signature",
               "a pointer parameter with no tensor behind it");
    LOAD_FAILS("type.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, x, 1.5, y, 1]"),
               RLX_ERR_INVALID_ARGUMENT, "argument 4",
               "the parameter is i32 but the argument is the "
               "floating-point literal 1.5");
    LOAD_FAILS("undef.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(q), 2.0, x, 1, y, 1]"),
               RLX_ERR_NOT_FOUND, "'q' is not defined");
    LOAD_FAILS("dim.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[\"$dim(x)\", 2.0, x, 1, y, 1]"),
               RLX_ERR_INVALID_ARGUMENT, "malformed '$dim(x)'");
    LOAD_FAILS("sig.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32",
                          "[$numel(x), 2.0, x, 1, y, 1]"),
               RLX_ERR_INVALID_ARGUMENT, "sig.yaml:5:",
               "expected ',' or ')'");
    LOAD_FAILS("nokey.yaml",
               "  - {name: y, op: custom, library: " OPENBLAS ",\n"
               "     signature: \"void(ptr)\", init: x, args: [y]}\n",
               RLX_ERR_INVALID_ARGUMENT, "has no 'symbol'");
    LOAD_FAILS("badkey.yaml",
               "  - {name: y, op: custom, library: " OPENBLAS ",\n"
               "     symbol: s, signature: \"void(ptr)\", init: x,\n"
               "     args: [y], attrs: {}}\n",
               RLX_ERR_INVALID_ARGUMENT, "unknown key 'attrs'");
    LOAD_FAILS("noshape.yaml",
               "  - {name: y, op: custom, library: " OPENBLAS ",\n"
               "     symbol: s, signature: \"void(ptr)\", dtype: f32,\n"
               "     args: [y]}\n",
               RLX_ERR_INVALID_ARGUMENT, "has no 'shape'");
    /* a relative path may not lead out of the model's directory, even
     * to a library that exists */
    char cmd[2048], yaml[2048];
    fx("x");
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/m' && cp '%s' '%s/'", tmp_dir,
             kernels_path(), tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
             "nodes:\n"
             "  - {name: y, op: custom, library: ../librlx-test-kernels.so,\n"
             "     symbol: rlxk_status, signature: \"i64(i64, f32*)\",\n"
             "     init: x, args: [0, y]}\n"
             "outputs: [y]\n");
    rlx_model *m = NULL;
    ASSERT_EQ(rlx_model_load(write_model("m/up.yaml", yaml), &m),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("up.yaml:4:", "leads out of the model's directory");
}

/* A library that loads at model time but is gone at compile time: the
 * compile fails, naming it, and nothing runs. */
TEST(library_gone_at_compile)
{
    rlx_runtime *rt = test_runtime();
    char cmd[2048];
    fx("x");
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/gone' && cp '%s' '%s/gone/'",
             tmp_dir, kernels_path(), tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    const char *path = write_model(
        "gone/g.yaml",
        "rlx_model: 1\n"
        "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
        "nodes:\n"
        "  - {name: y, op: custom, library: ./librlx-test-kernels.so,\n"
        "     symbol: rlxk_status, signature: \"i64(i64, f32*)\",\n"
        "     init: x, args: [0, y]}\n"
        "outputs: [y]\n");
    rlx_model *m = NULL;
    ASSERT_EQ(rlx_model_load(path, &m), RLX_OK);
    snprintf(cmd, sizeof cmd, "rm '%s/gone/librlx-test-kernels.so'",
             tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    rlx_session *s = NULL;
    rlx_program *p = (rlx_program *)1;
    ASSERT_EQ(rlx_session_create(rt, "cpu", &s), RLX_OK);
    ASSERT(rlx_session_compile(s, rlx_model_graph(m), &p) != RLX_OK);
    ASSERT(p == NULL);
    ASSERT_MSG("./librlx-test-kernels.so", "rlxk_status", "i64(i64, f32*)",
               "failed to load");
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    rlx_runtime_destroy(rt);
}

/* ---- set-user-ID processes: absolute paths under the plugin dir only --- */

/* Run the set-user-ID copy HELPER of secure-load as user nobody on MODEL,
 * with RLX_CUSTOM_OP_PATH set to ENV; its output into OUT. */
static int run_secure(const char *helper, const char *model, const char *env,
                      char *out, size_t size)
{
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        setenv("RLX_CUSTOM_OP_PATH", env, 1);
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(3);
        execl(helper, helper, model, (char *)NULL);
        _exit(4);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t n;
    while (got + 1 < size && (n = read(fds[0], out + got, size - 1 - got)) > 0)
        got += (size_t)n;
    out[got] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(set_user_id_loads_only_under_the_plugin_dir)
{
    const char *src = getenv("RLX_TEST_SECURE_LOAD");
    if (!src || !*src)
        FAIL("RLX_TEST_SECURE_LOAD is not set (run through meson test)");
    if (geteuid() != 0)
        SKIP("making a set-user-ID copy needs root");
    fx("x");
    char helper[600], cmd[2048], dir[600], out[4096];
    snprintf(helper, sizeof helper, "%s/secure-load", tmp_dir);
    snprintf(dir, sizeof dir, "%s/opdir", tmp_dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && mkdir -p '%s' && cp '%s' "
             "'%s/librlx-test-kernels-env.so'", src, helper, dir,
             kernels_path(), dir);
    ASSERT_EQ(system(cmd), 0);
    ASSERT_EQ(chown(helper, 0, 0), 0);
    ASSERT_EQ(chmod(helper, 04755), 0);
    ASSERT_EQ(chmod(tmp_dir, 0755), 0);
    /* an absolute path outside the plugin directory is refused (it loads
     * in a normal process: int_float_double_args_by_absolute_path) */
    const char *abs_model = kernel_model(kernels_path());
    char copy[600];
    snprintf(copy, sizeof copy, "%s/abs.yaml", tmp_dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 644 '%s'", abs_model,
             copy, copy);
    ASSERT_EQ(system(cmd), 0);
    int rc = run_secure(helper, copy, "", out, sizeof out);
    if (rc == 3 || rc == 4 || (rc != 1 && rc != 0))
        SKIP("cannot run a set-user-ID program here (exit %d)", rc);
    ASSERT_EQ(rc, 1);
    if (!strstr(out, "set-user-ID process") || !strstr(out, "Fix:") ||
        !strstr(out, rlx_plugin_dir()))
        FAIL("absolute path outside the plugin dir: %s", out);
    /* a bare name through RLX_CUSTOM_OP_PATH is refused too */
    const char *env_model = kernel_model("librlx-test-kernels-env.so");
    snprintf(copy, sizeof copy, "%s/env.yaml", tmp_dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 644 '%s'", env_model,
             copy, copy);
    ASSERT_EQ(system(cmd), 0);
    ASSERT_EQ(run_secure(helper, copy, dir, out, sizeof out), 1);
    if (!strstr(out, "set-user-ID process"))
        FAIL("bare name in a set-user-ID process: %s", out);
    /* the same model loads in a normal process */
    setenv("RLX_CUSTOM_OP_PATH", dir, 1);
    rlx_model *m = NULL;
    ASSERT_EQ(rlx_model_load(copy, &m), RLX_OK);
    rlx_model_destroy(m);
    setenv("RLX_CUSTOM_OP_PATH", "", 1);
}

/* ---- inside a graph for another device: placed on the host ------------ */

TEST(vulkan_graph_places_custom_node_on_host)
{
    rlx_runtime *rt = test_runtime();
    const char *vk = getenv("RLX_TEST_VULKAN_PLUGIN");
    if (!vk || !*vk) {
        rlx_runtime_destroy(rt);
        SKIP("the Vulkan plugin was not built (needs libvulkan-dev, glslc)");
    }
    ASSERT_EQ(rlx_runtime_load_plugin(rt, vk), RLX_OK);
    ASSERT(rlx_runtime_find_backend(rt, "vulkan") != NULL);
    uint32_t devices = 0;
    if (rlx_backend_probe(rlx_runtime_find_backend(rt, "vulkan"),
                          &devices) != RLX_OK || devices == 0) {
        char why[512];
        snprintf(why, sizeof why, "no Vulkan device: %s", rlx_last_error());
        rlx_runtime_destroy(rt);
        SKIP("%s", why);
    }
    const char *path = write_model("gelu-vk.yaml", gelu_yaml);
    float x[100], g_vk[100], g_ref[100], ex_vk[100], ex_ref[100];
    for (int i = 0; i < 100; i++)
        x[i] = -5.0f + 0.1f * (float)i;
    feed in[] = { { "x", x, sizeof x } };
    run_model(rt, path, "vulkan", in, 1, 0, g_vk, sizeof g_vk);
    run_model(rt, path, "cpu-ref", in, 1, 0, g_ref, sizeof g_ref);
    run_model(rt, path, "vulkan", in, 1, 2, ex_vk, sizeof ex_vk);
    run_model(rt, path, "cpu-ref", in, 1, 2, ex_ref, sizeof ex_ref);
    assert_close(g_vk, g_ref, 100, 1e-5f);
    assert_close(ex_vk, ex_ref, 100, 1e-6f);
    /* the program stays on vulkan, the custom nodes go to the host */
    rlx_model *m = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_EQ(rlx_model_load(path, &m), RLX_OK);
    ASSERT_EQ(rlx_session_create(rt, "vulkan", &s), RLX_OK);
    ASSERT_EQ(rlx_session_compile(s, rlx_model_graph(m), &p), RLX_OK);
    ASSERT(strcmp(rlx_backend_id(rlx_session_backend(s)), "vulkan") == 0);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(openblas_saxpy_matches_add_mul),
              TEST_ENTRY(openblas_sgemv_matches_matmul),
              TEST_ENTRY(libm_erff_gelu_and_expf_match_builtins),
              TEST_ENTRY(libm_double_erf),
              TEST_ENTRY(custom_nodes_are_host_pieces_under_every_fallback),
              TEST_ENTRY(int_float_double_args_by_absolute_path),
              TEST_ENTRY(bare_name_through_rlx_custom_op_path),
              TEST_ENTRY(relative_path_inside_the_model_directory),
              TEST_ENTRY(non_zero_status_fails_the_run),
              TEST_ENTRY(application_function_pointer),
              TEST_ENTRY(bad_signatures_and_arguments),
              TEST_ENTRY(bad_specs),
              TEST_ENTRY(bad_models),
              TEST_ENTRY(library_gone_at_compile),
              TEST_ENTRY(set_user_id_loads_only_under_the_plugin_dir),
              TEST_ENTRY(vulkan_graph_places_custom_node_on_host));
