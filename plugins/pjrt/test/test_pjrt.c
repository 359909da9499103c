/*
 * test_pjrt.c - the PJRT bridge without a real PJRT plugin, up to the
 * StableHLO it emits:
 * - it registers four backends without opening anything;
 * - the probe with no plugin found, with a file that is not a PJRT
 *   plugin, and with a PJRT plugin of an unknown API major: each
 *   unavailable with a reason and a Fix; the fake plugin's device;
 * - the StableHLO text of every op and of both example models, compared
 *   with the golden files in golden/ and checked for well-formedness
 *   (mlir_check.c), whose checker is tested too.
 * Running through the bridge: test_pjrt_run.c.
 *
 * argv: the bridge plugin, the fake plugin, the fake of another major,
 * the golden directory. RLX_PJRT_GOLDEN_UPDATE=1 rewrites the goldens.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "../../../test/harness.h"
#include "mlir_check.h"
#include "pjrt_golden.h"
#include "pjrt_test_util.h"

static void expect_unavailable(const char *plugin, const char *id,
                               const char *reason)
{
    rlx_runtime *rt = runtime_with(plugin);
    const rlx_backend *b = rlx_runtime_find_backend(rt, id);
    ASSERT(b != NULL);
    uint32_t n = 0;
    rlx_status st = rlx_backend_probe(b, &n);
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", rlx_last_error());
    rlx_runtime_destroy(rt);
    if (st != RLX_ERR_UNAVAILABLE)
        FAIL("%s probe: %s, want RLX_ERR_UNAVAILABLE (%s)", id,
             rlx_status_name(st), msg);
    if (!strstr(msg, reason) || !strstr(msg, "Fix:"))
        FAIL("%s probe said '%s'; want '%s' and a Fix", id, msg, reason);
}

TEST(registers_four_backends_without_opening_anything)
{
    rlx_runtime *rt = runtime_with("/nonexistent/libtpu.so");
    const char *ids[4] = { "pjrt-tpu", "pjrt-cuda", "pjrt-rocm", "pjrt" };
    rlx_device_kind kinds[4] = { RLX_DEVICE_TPU, RLX_DEVICE_CUDA,
                                 RLX_DEVICE_ROCM, RLX_DEVICE_CUSTOM };
    for (int i = 0; i < 4; i++) {
        const rlx_backend *b = rlx_runtime_find_backend(rt, ids[i]);
        ASSERT(b != NULL);
        ASSERT_EQ(rlx_backend_device_kind(b), kinds[i]);
        ASSERT(rlx_backend_executes(b));
    }
    ASSERT_STREQ(rlx_backend_device_name(rlx_runtime_find_backend(rt,
                                                                  "pjrt")),
                 "pjrt");
    /* below the native CUDA backend's default priority */
    ASSERT(rlx_backend_priority(rlx_runtime_find_backend(rt, "pjrt-cuda")) <
           100);
    rlx_runtime_destroy(rt);
}

TEST(probe_without_any_plugin)
{
    /* nothing to find: no Python folders, no PATH, no libtpu */
    setenv("HOME", "/nonexistent", 1);
    setenv("PATH", "/nonexistent", 1);
    unsetenv("PYTHONPATH");
    unsetenv("VIRTUAL_ENV");
    unsetenv("CONDA_PREFIX");
    unsetenv("TPU_LIBRARY_PATH");
    if (access("/usr/lib/libtpu.so", F_OK) == 0 ||
        access("/usr/local/lib/libtpu.so", F_OK) == 0)
        SKIP("this machine has libtpu installed");
    expect_unavailable(NULL, "pjrt-tpu", "no PJRT plugin for this backend");
    expect_unavailable(NULL, "pjrt", "no PJRT plugin for this backend");
}

/* Automatic choice on a runtime that discovers a copy of the bridge in
 * DIR; the explanation into WHY. */
static void choose_with_bridge_in(const char *dir, char *why, size_t size)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK ||
        rlx_runtime_discover(rt, dir) != RLX_OK)
        FAIL("runtime: %s", rlx_last_error());
    rlx_session *s = NULL;
    if (rlx_session_create(rt, NULL, &s) != RLX_OK)
        FAIL("session: %s", rlx_last_error());
    snprintf(why, size, "%s", rlx_session_explain(s));
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

/* Nothing found: the answer is cached under a key of the search's
 * inputs, so the next start does not even open the bridge; a plugin
 * named in RLX_PJRT_PLUGIN makes the bridge probe live. */
TEST(no_plugin_found_is_cached_and_the_bridge_left_closed)
{
    char dir[300], xdg[300], cmd[1200], why[8192];
    snprintf(dir, sizeof dir, "%s/plugins", dump_dir);
    snprintf(xdg, sizeof xdg, "%s/xdg", dump_dir);
    snprintf(cmd, sizeof cmd, "/bin/mkdir -p '%s' && /bin/cp '%s' '%s/'",
             dir, bridge, dir);
    ASSERT_EQ(system(cmd), 0);
    const char *old = getenv("XDG_CACHE_HOME");
    char *saved = old ? strdup(old) : NULL;
    setenv("XDG_CACHE_HOME", xdg, 1);
    unsetenv("RLX_PROBE_CACHE");
    unsetenv("RLX_PJRT_PLUGIN");
    choose_with_bridge_in(dir, why, sizeof why);
    ASSERT(strstr(why, "'pjrt-tpu' unavailable: no PJRT plugin") != NULL);
    choose_with_bridge_in(dir, why, sizeof why);
    if (!strstr(why, "'pjrt-tpu' unavailable (cached probe; plugin not "
                     "loaded") ||
        !strstr(why, "'pjrt-cuda' unavailable (cached probe; plugin not "
                     "loaded"))
        FAIL("want cached answers, the bridge unopened: %s", why);
    setenv("RLX_PJRT_PLUGIN", fake, 1);
    choose_with_bridge_in(dir, why, sizeof why);
    unsetenv("RLX_PJRT_PLUGIN");
    if (strstr(why, "plugin not loaded") || !strstr(why, "'pjrt' available"))
        FAIL("want the fake plugin found live: %s", why);
    /* as it was, so that later runtimes write no cache in DUMP_DIR */
    if (saved)
        setenv("XDG_CACHE_HOME", saved, 1);
    else
        unsetenv("XDG_CACHE_HOME");
    free(saved);
    snprintf(cmd, sizeof cmd, "/bin/rm -rf '%s' '%s'", dir, xdg);
    ASSERT_EQ(system(cmd), 0);
}

TEST(probe_file_that_is_not_a_pjrt_plugin)
{
    /* the bridge itself: a shared object without GetPjrtApi */
    expect_unavailable(bridge, "pjrt", "not a PJRT plugin");
}

TEST(probe_unknown_api_major)
{
    expect_unavailable(fake_major, "pjrt", "speaks PJRT C API 7.");
}

TEST(probe_and_describe_fake_device)
{
    rlx_runtime *rt = runtime_with(fake);
    const rlx_backend *b = rlx_runtime_find_backend(rt, "pjrt");
    uint32_t n = 0;
    if (rlx_backend_probe(b, &n) != RLX_OK)
        FAIL("probe: %s", rlx_last_error());
    ASSERT_EQ(n, 1);
    rlx_device_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (rlx_backend_device(b, 0, &info) != RLX_OK)
        FAIL("describe: %s", rlx_last_error());
    ASSERT_STREQ(info.name, "Fake Accelerator");
    ASSERT(strstr(info.detail, "PJRT C API 0.") != NULL);
    ASSERT(strstr(info.detail, "fake") != NULL);
    ASSERT_EQ(info.memory_total, (uint64_t)1 << 30);
    rlx_runtime_destroy(rt);
}

/* ---- goldens (pjrt_golden.h) ---------------------------------------- */
typedef struct op_case {
    const char *name;
    rlx_op op;
    rlx_dtype dt;
    int n_in;
    int64_t shape[3][4];
    uint32_t rank[3];
    int64_t ints[8];
    uint32_t n_ints;
    double f;
    uint32_t n_floats;
    rlx_dtype in1_dt; /* gather indices; 0: DT */
    rlx_dtype in0_dt; /* cast source; 0: DT */
} op_case;

#define S2(a, b) { a, b }
static const op_case cases[] = {
    { "add_broadcast", RLX_OP_ADD, RLX_DTYPE_F32, 2, { S2(2, 3), { 3 } }, { 2, 1 }, { 0 }, 0, 0, 0, 0, 0 },
    { "sub", RLX_OP_SUB, RLX_DTYPE_F32, 2, { S2(2, 3), S2(2, 3) }, { 2, 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "mul_f16", RLX_OP_MUL, RLX_DTYPE_F16, 2, { S2(2, 3), S2(1, 3) }, { 2, 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "div_bf16", RLX_OP_DIV, RLX_DTYPE_BF16, 2, { S2(2, 3), S2(2, 3) }, { 2, 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "max", RLX_OP_MAX, RLX_DTYPE_F32, 2, { S2(2, 3), S2(2, 3) }, { 2, 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "min", RLX_OP_MIN, RLX_DTYPE_F32, 2, { S2(2, 3), S2(2, 3) }, { 2, 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "pow", RLX_OP_POW, RLX_DTYPE_F32, 2, { S2(2, 3), S2(2, 3) }, { 2, 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "relu", RLX_OP_RELU, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "gelu_erf", RLX_OP_GELU, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "gelu_tanh_bf16", RLX_OP_GELU, RLX_DTYPE_BF16, 1, { S2(2, 3) }, { 2 }, { 1 }, 1, 0, 0, 0, 0 },
    { "sigmoid", RLX_OP_SIGMOID, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "tanh", RLX_OP_TANH, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "exp", RLX_OP_EXP, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "sin", RLX_OP_SIN, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "cos", RLX_OP_COS, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "neg", RLX_OP_NEG, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "abs", RLX_OP_ABS, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "log", RLX_OP_LOG, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "sqrt", RLX_OP_SQRT, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "rsqrt", RLX_OP_RSQRT, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "silu_f16", RLX_OP_SILU, RLX_DTYPE_F16, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "tan", RLX_OP_TAN, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "atan", RLX_OP_ATAN, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "matmul", RLX_OP_MATMUL, RLX_DTYPE_F32, 2, { S2(2, 3), S2(3, 4) }, { 2, 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "matmul_batched", RLX_OP_MATMUL, RLX_DTYPE_F32, 2, { { 2, 4, 3 }, { 2, 3, 5 } }, { 3, 3 }, { 0 }, 0, 0, 0, 0, 0 },
    { "matmul_transpose_b", RLX_OP_MATMUL, RLX_DTYPE_F32, 2, { { 2, 3, 4 }, S2(5, 4) }, { 3, 2 }, { 0, 1 }, 2, 0, 0, 0, 0 },
    { "matmul_transpose_a_bcast", RLX_OP_MATMUL, RLX_DTYPE_F32, 2, { S2(4, 3), { 2, 4, 5 } }, { 2, 3 }, { 1, 0 }, 2, 0, 0, 0, 0 },
    { "matmul_vector_bf16", RLX_OP_MATMUL, RLX_DTYPE_BF16, 2, { { 3 }, S2(3, 4) }, { 1, 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "softmax", RLX_OP_SOFTMAX, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { -1 }, 1, 0, 0, 0, 0 },
    { "softmax_axis0_f16", RLX_OP_SOFTMAX, RLX_DTYPE_F16, 1, { S2(2, 3) }, { 2 }, { 0 }, 1, 0, 0, 0, 0 },
    { "softmax_causal", RLX_OP_SOFTMAX, RLX_DTYPE_F32, 1, { { 2, 3, 4 } }, { 3 }, { -1, 1 }, 2, 0, 0, 0, 0 },
    { "layer_norm", RLX_OP_LAYER_NORM, RLX_DTYPE_F32, 3, { S2(2, 4), { 4 }, { 4 } }, { 2, 1, 1 }, { 0 }, 0, 1e-5, 1, 0, 0 },
    { "rms_norm_bf16", RLX_OP_RMS_NORM, RLX_DTYPE_BF16, 2, { S2(2, 4), { 4 } }, { 2, 1 }, { 0 }, 0, 1e-6, 1, 0, 0 },
    { "reduce_sum_keepdims", RLX_OP_REDUCE_SUM, RLX_DTYPE_F32, 1, { { 2, 3, 4 } }, { 3 }, { 1, 1 }, 2, 0, 0, 0, 0 },
    { "reduce_mean_all", RLX_OP_REDUCE_MEAN, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0 }, 0, 0, 0, 0, 0 },
    { "reduce_max_axis0", RLX_OP_REDUCE_MAX, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 0, 0 }, 2, 0, 0, 0, 0 },
    { "reshape", RLX_OP_RESHAPE, RLX_DTYPE_F32, 1, { S2(2, 3) }, { 2 }, { 3, -1 }, 2, 0, 0, 0, 0 },
    { "transpose", RLX_OP_TRANSPOSE, RLX_DTYPE_I32, 1, { { 2, 3, 4 } }, { 3 }, { 0, 2, 1 }, 3, 0, 0, 0, 0 },
    { "concat", RLX_OP_CONCAT, RLX_DTYPE_F32, 2, { S2(2, 3), S2(2, 2) }, { 2, 2 }, { 1 }, 1, 0, 0, 0, 0 },
    { "slice", RLX_OP_SLICE, RLX_DTYPE_F32, 1, { S2(4, 3) }, { 2 }, { 0, 1, -1, 1, 1, 3 }, 6, 0, 0, 0, 0 },
    { "gather", RLX_OP_GATHER, RLX_DTYPE_F32, 2, { S2(4, 3), S2(2, 2) }, { 2, 2 }, { 0 }, 1, 0, 0, RLX_DTYPE_I64, 0 },
    { "gather_axis1_i32", RLX_OP_GATHER, RLX_DTYPE_BF16, 2, { S2(4, 3), { 5 } }, { 2, 1 }, { 1 }, 1, 0, 0, RLX_DTYPE_I32, 0 },
    { "cast_f32_i32", RLX_OP_CAST, RLX_DTYPE_I32, 1, { S2(2, 3) }, { 2 }, { RLX_DTYPE_I32 }, 1, 0, 0, 0, RLX_DTYPE_F32 },
    { "cast_i64_u8", RLX_OP_CAST, RLX_DTYPE_U8, 1, { S2(2, 3) }, { 2 }, { RLX_DTYPE_U8 }, 1, 0, 0, 0, RLX_DTYPE_I64 },
    { "cast_f32_bool", RLX_OP_CAST, RLX_DTYPE_BOOL, 1, { S2(2, 3) }, { 2 }, { RLX_DTYPE_BOOL }, 1, 0, 0, 0, RLX_DTYPE_F32 },
    { "cast_f32_f16", RLX_OP_CAST, RLX_DTYPE_F16, 1, { S2(2, 3) }, { 2 }, { RLX_DTYPE_F16 }, 1, 0, 0, 0, RLX_DTYPE_F32 },
    { "fill", RLX_OP_FILL, RLX_DTYPE_F32, 0, { { 0 } }, { 0 }, { RLX_DTYPE_F32, 2, 3 }, 3, 1.5, 1, 0, 0 },
};

static rlx_graph *build_case(const op_case *c)
{
    rlx_graph *g = NULL;
    if (rlx_graph_create(&g) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    rlx_value in[3];
    for (int i = 0; i < c->n_in; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        rlx_dtype dt = i == 1 && c->in1_dt ? c->in1_dt
                     : i == 0 && c->in0_dt ? c->in0_dt : c->dt;
        /* norms: gamma and beta as params, as models have them */
        rlx_status st = c->op == RLX_OP_LAYER_NORM ||
                        c->op == RLX_OP_RMS_NORM
                            ? (i ? rlx_graph_param : rlx_graph_input)(
                                  g, name, dt, c->rank[i], c->shape[i],
                                  &in[i])
                            : rlx_graph_input(g, name, dt, c->rank[i],
                                              c->shape[i], &in[i]);
        if (st != RLX_OK)
            FAIL("%s: input %d: %s", c->name, i, rlx_last_error());
    }
    rlx_attrs attrs = { c->n_ints, c->ints, c->n_floats, &c->f };
    rlx_value y;
    if (rlx_graph_add_node(g, "y", c->op, (uint32_t)c->n_in, in, &attrs,
                           &y) != RLX_OK)
        FAIL("%s: node: %s", c->name, rlx_last_error());
    if (rlx_graph_output(g, "y", y) != RLX_OK)
        FAIL("%s: output: %s", c->name, rlx_last_error());
    return g;
}

TEST(golden_stablehlo_for_every_op)
{
    rlx_runtime *rt = runtime_with(fake);
    int failures = 0;
    char first[1024] = "";
    int covered[128] = { 0 };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rlx_graph *g = build_case(&cases[i]);
        char why[1024];
        if (golden(rt, cases[i].name, g, why, sizeof why) != 0) {
            if (!failures++)
                snprintf(first, sizeof first, "%s", why);
            fprintf(stderr, "# %s\n", why);
        }
        covered[cases[i].op] = 1;
        rlx_graph_destroy(g);
    }
    rlx_runtime_destroy(rt);
    if (failures)
        FAIL("%d of %zu cases failed; first: %s", failures,
             sizeof cases / sizeof *cases, first);
    /* every compute op of rlx/ops.h has a case */
    for (int op = RLX_OP_ADD; op <= RLX_OP_FILL; op++)
        if (rlx_op_name((rlx_op)op) && strcmp(rlx_op_name((rlx_op)op), "?") &&
            rlx_op_name((rlx_op)op)[0] && !covered[op] &&
            rlx_op_from_name(rlx_op_name((rlx_op)op), &(rlx_op){ 0 }) ==
                RLX_OK)
            FAIL("op %s has no golden case", rlx_op_name((rlx_op)op));
}

TEST(golden_stablehlo_with_a_constant)
{
    rlx_runtime *rt = runtime_with(fake);
    rlx_graph *g = NULL;
    ASSERT_EQ(rlx_graph_create(&g), RLX_OK);
    int64_t dims[2] = { 2, 2 };
    float data[4] = { 1.0f, -2.5f, 0.0f, 3.0f };
    unsigned char flags[4] = { 1, 0, 0, 1 };
    rlx_value x, c, m, y, z;
    ASSERT_EQ(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, dims, &x), RLX_OK);
    ASSERT_EQ(rlx_graph_constant(g, "c", RLX_DTYPE_F32, 2, dims, data, &c),
              RLX_OK);
    ASSERT_EQ(rlx_graph_constant(g, "m", RLX_DTYPE_BOOL, 2, dims, flags, &m),
              RLX_OK);
    rlx_value xc[2] = { x, c };
    ASSERT_EQ(rlx_graph_add_node(g, "y", RLX_OP_ADD, 2, xc, NULL, &y),
              RLX_OK);
    int64_t to_f32 = RLX_DTYPE_F32;
    rlx_attrs a = { 1, &to_f32, 0, NULL };
    ASSERT_EQ(rlx_graph_add_node(g, "z", RLX_OP_CAST, 1, &m, &a, &z),
              RLX_OK);
    ASSERT_EQ(rlx_graph_output(g, "y", y), RLX_OK);
    ASSERT_EQ(rlx_graph_output(g, "z", z), RLX_OK);
    char why[1024];
    int rc = golden(rt, "constants", g, why, sizeof why);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    if (rc)
        FAIL("%s", why);
}

static void model_golden(const char *rel, const char *name)
{
    const char *ex = getenv("RLX_TEST_EXAMPLES_DIR");
    if (!ex)
        FAIL("RLX_TEST_EXAMPLES_DIR unset");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ex, rel);
    rlx_model *m = NULL;
    if (rlx_model_load(path, &m) != RLX_OK)
        FAIL("%s: %s", path, rlx_last_error());
    rlx_runtime *rt = runtime_with(fake);
    char why[1024];
    int rc = golden(rt, name, rlx_model_graph(m), why, sizeof why);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
    if (rc)
        FAIL("%s", why);
}

TEST(golden_stablehlo_mlp_example) { model_golden("mlp/mlp.yaml", "mlp"); }

TEST(golden_stablehlo_encoder_example)
{
    model_golden("transformer/encoder.yaml", "encoder");
}
TEST(structural_checker_rejects_bad_text)
{
    char why[256];
    const char *undefined =
        "module @m {\n  func.func public @main(%0: tensor<f32>) -> "
        "(tensor<f32>) {\n    %1 = \"stablehlo.add\"(%0, %2) : "
        "(tensor<f32>, tensor<f32>) -> tensor<f32>\n    \"func.return\"(%1)"
        " : (tensor<f32>) -> ()\n  }\n}\n";
    ASSERT(mlir_check(undefined, why, sizeof why) != 0);
    ASSERT(strstr(why, "before it is defined") != NULL);
    const char *mistyped =
        "module @m {\n  func.func public @main(%0: tensor<2xf32>) -> "
        "(tensor<2xf32>) {\n    %1 = \"stablehlo.negate\"(%0) : "
        "(tensor<3xf32>) -> tensor<2xf32>\n    \"func.return\"(%1)"
        " : (tensor<2xf32>) -> ()\n  }\n}\n";
    ASSERT(mlir_check(mistyped, why, sizeof why) != 0);
    ASSERT(strstr(why, "typed") != NULL);
    const char *open_brace = "module @m {\n";
    ASSERT(mlir_check(open_brace, why, sizeof why) != 0);
    const char *good =
        "module @m {\n  func.func public @main(%0: tensor<2xf32>) -> "
        "(tensor<2xf32>) {\n    %1 = \"stablehlo.negate\"(%0) : "
        "(tensor<2xf32>) -> tensor<2xf32>\n    \"func.return\"(%1)"
        " : (tensor<2xf32>) -> ()\n  }\n}\n";
    if (mlir_check(good, why, sizeof why) != 0)
        FAIL("good text rejected: %s", why);
}

static const rlx_test_case cases_list[] = {
    TEST_ENTRY(registers_four_backends_without_opening_anything),
    TEST_ENTRY(probe_without_any_plugin),
    TEST_ENTRY(no_plugin_found_is_cached_and_the_bridge_left_closed),
    TEST_ENTRY(probe_file_that_is_not_a_pjrt_plugin),
    TEST_ENTRY(probe_unknown_api_major),
    TEST_ENTRY(probe_and_describe_fake_device),
    TEST_ENTRY(golden_stablehlo_for_every_op),
    TEST_ENTRY(golden_stablehlo_with_a_constant),
    TEST_ENTRY(golden_stablehlo_mlp_example),
    TEST_ENTRY(golden_stablehlo_encoder_example),
    TEST_ENTRY(structural_checker_rejects_bad_text),
};

int main(int argc, char **argv)
{
    return pjrt_test_main(cases_list, sizeof cases_list / sizeof *cases_list,
                          argc, argv);
}
