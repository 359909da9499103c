/*
 * test-custom-op.c - custom ops: foreign kernels called by C signature
 * through libffi. OpenBLAS's cblas_saxpy and cblas_sgemv and libm's erff,
 * expf and erf, called from YAML models, match rlx's own ops; an
 * application's function pointer runs; integer, float and double
 * arguments arrive intact; an allowed kernel library is found by absolute
 * path, in an allowed directory or the model's directory; a custom node
 * inside a
 * graph for another device is placed on the host. Refusals and errors:
 * test-custom-op-errors.c; what a model may not load: test-model-security.c.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test-util.h"
#include "custom-op-util.h"

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
    rlx_runtime *rt = allowed_runtime();
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
    rlx_runtime *rt = allowed_runtime();
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
    rlx_runtime *rt = allowed_runtime();
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
    rlx_runtime *rt = allowed_runtime();
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
    rlx_runtime *rt = allowed_runtime();
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
    rlx_runtime *rt = allowed_runtime();
    check_kernel_model(rt, kernel_model(kernels_path()));
    rlx_runtime_destroy(rt);
}

TEST(bare_name_through_an_allowed_directory)
{
    rlx_runtime *rt = test_runtime();
    /* a name no loader path (meson sets LD_LIBRARY_PATH) can find */
    char cmd[4096], dir[600];
    const char *tmp_dir = rlx_test_dir();
    snprintf(dir, sizeof dir, "%s/opdir", tmp_dir);
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s' "
             "'%s/librlx-test-kernels-env.so'", dir, kernels_path(), dir);
    ASSERT_EQ(system(cmd), 0);
    const char *path = kernel_model("librlx-test-kernels-env.so");
    rlx_model *m = NULL;
    ASSERT_EQ(rlx_model_load(path, &m), RLX_OK); /* loading opens nothing */
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_EQ(rlx_session_create(rt, "cpu", &s), RLX_OK);
    ASSERT_EQ(rlx_session_compile(s, rlx_model_graph(m), &p),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("librlx-test-kernels-env.so", "rlxk_scale_shift",
               "i32(i32, f32, f64, f32*, f32*)", "allowed no custom-op",
               "--allow-custom-ops");
    /* the session's own allowance */
    ASSERT_EQ(rlx_session_allow_custom_ops(s, dir), RLX_OK);
    if (rlx_session_compile(s, rlx_model_graph(m), &p) != RLX_OK)
        FAIL("compile with %s allowed: %s", dir, rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    /* and the runtime's, for every session */
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, dir), RLX_OK);
    check_kernel_model(rt, path);
    rlx_runtime_destroy(rt);
}

TEST(relative_path_inside_the_model_directory)
{
    rlx_runtime *rt = allowed_runtime();
    /* copy the library into a subdirectory of the model's directory */
    const char *tmp_dir = rlx_test_dir();
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/lib' && cp '%s' '%s/lib/'",
             tmp_dir, kernels_path(), tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    check_kernel_model(rt, kernel_model("lib/librlx-test-kernels.so"));
    /* a bare name is found in an allowed directory (here the model's) */
    snprintf(cmd, sizeof cmd, "cp '%s' '%s/'", kernels_path(), tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    check_kernel_model(rt, kernel_model("librlx-test-kernels.so"));
    rlx_runtime_destroy(rt);
}

TEST(non_zero_status_fails_the_run)
{
    rlx_runtime *rt = allowed_runtime();
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
    rlx_runtime *rt = allowed_runtime();
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

/* ---- inside a graph for another device: placed on the host ------------ */

TEST(vulkan_graph_places_custom_node_on_host)
{
    rlx_runtime *rt = allowed_runtime();
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
              TEST_ENTRY(bare_name_through_an_allowed_directory),
              TEST_ENTRY(relative_path_inside_the_model_directory),
              TEST_ENTRY(non_zero_status_fails_the_run),
              TEST_ENTRY(application_function_pointer),
              TEST_ENTRY(vulkan_graph_places_custom_node_on_host));
