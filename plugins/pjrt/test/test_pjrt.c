/*
 * test_pjrt.c - the PJRT bridge without a real PJRT plugin:
 * - the probe with no plugin found, with a file that is not a PJRT
 *   plugin, and with a PJRT plugin of an unknown API major: each
 *   unavailable with a reason and a Fix;
 * - with the fake plugin (fake_pjrt.c): device listing, a PJRT error
 *   turned into a rlx error, and the StableHLO text of every op and of
 *   both example models, compared with the golden files in golden/ and
 *   checked for well-formedness (mlir_check.c).
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

static const char *bridge, *fake, *fake_major, *golden_dir;
static char dump_dir[256];

/* A runtime with only cpu-ref and the bridge, the bridge pointed at
 * PLUGIN (NULL: search the usual places, emptied out below). */
static rlx_runtime *runtime_with(const char *plugin)
{
    if (plugin)
        setenv("RLX_PJRT_PLUGIN", plugin, 1);
    else
        unsetenv("RLX_PJRT_PLUGIN");
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK)
        FAIL("runtime: %s", rlx_last_error());
    if (rlx_runtime_load_plugin(rt, bridge) != RLX_OK)
        FAIL("loading %s: %s", bridge, rlx_last_error());
    return rt;
}

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

/* ---- goldens -------------------------------------------------------- */

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static void clear_dump(void)
{
    DIR *d = opendir(dump_dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dump_dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
}

/* The one module in the dump directory. */
static char *dumped(void)
{
    DIR *d = opendir(dump_dir);
    struct dirent *e;
    char *text = NULL;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dump_dir, e->d_name);
        text = read_file(p);
    }
    if (d)
        closedir(d);
    return text;
}

/* Compile G on the bridge (fake plugin), check the text, compare it with
 * golden/NAME.mlir; returns 0 or fills WHY. */
static int golden(rlx_runtime *rt, const char *name, const rlx_graph *g,
                  char *why, size_t why_size)
{
    rlx_session *s = NULL;
    if (rlx_session_create(rt, "pjrt", &s) != RLX_OK)
        return snprintf(why, why_size, "session: %s", rlx_last_error()), -1;
    clear_dump();
    rlx_program *p = NULL;
    rlx_status st = rlx_session_compile(s, g, &p);
    if (st != RLX_OK) {
        snprintf(why, why_size, "%s: compile: %s", name, rlx_last_error());
        rlx_session_destroy(s);
        return -1;
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    char *text = dumped();
    if (!text)
        return snprintf(why, why_size, "%s: no module dumped", name), -1;
    char problem[512];
    if (mlir_check(text, problem, sizeof problem) != 0) {
        snprintf(why, why_size, "%s: malformed StableHLO: %s", name,
                 problem);
        free(text);
        return -1;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s.mlir", golden_dir, name);
    const char *upd = getenv("RLX_PJRT_GOLDEN_UPDATE");
    if (upd && upd[0] == '1') {
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
    }
    char *want = read_file(path);
    int rc = 0;
    if (!want) {
        snprintf(why, why_size, "%s: no golden %s (run with "
                 "RLX_PJRT_GOLDEN_UPDATE=1 to write it)", name, path);
        rc = -1;
    } else if (strcmp(want, text) != 0) {
        size_t i = 0;
        while (want[i] && want[i] == text[i])
            i++;
        snprintf(why, why_size, "%s: differs from %s at byte %zu: got "
                 "'%.60s'", name, path, i, text + i);
        rc = -1;
    }
    free(want);
    free(text);
    return rc;
}

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
static rlx_graph *one_node_shape(const int64_t *xs, const int64_t *ys)
{
    rlx_graph *g = NULL;
    rlx_value x, y;
    rlx_attrs a = { 2, ys, 0, NULL };
    if (rlx_graph_create(&g) != RLX_OK ||
        rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, xs, &x) != RLX_OK ||
        rlx_graph_add_node(g, "y", RLX_OP_RESHAPE, 1, &x, &a, &y) != RLX_OK ||
        rlx_graph_output(g, "y", y) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    return g;
}

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

TEST(pjrt_error_becomes_rlx_error_with_fix)
{
    rlx_runtime *rt = runtime_with(fake);
    rlx_graph *g = build_case(&cases[0]);
    rlx_session *s = NULL;
    ASSERT_EQ(rlx_session_create(rt, "pjrt", &s), RLX_OK);
    rlx_program *p = NULL;
    if (rlx_session_compile(s, g, &p) != RLX_OK)
        FAIL("compile: %s", rlx_last_error());
    float x[6] = { 0 }, b[3] = { 0 };
    ASSERT_EQ(rlx_program_set_input(p, "x0", x, sizeof x), RLX_OK);
    ASSERT_EQ(rlx_program_set_input(p, "x1", b, sizeof b), RLX_OK);
    rlx_status st = rlx_program_run(p);
    char msg[2048];
    snprintf(msg, sizeof msg, "%s", rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    ASSERT(st != RLX_OK);
    if (!strstr(msg, "executes nothing") || !strstr(msg, "Fix:"))
        FAIL("run said '%s'; want the PJRT message and a Fix", msg);
}

/* y = reshape(x): the fake plugin runs it as a copy. */
static rlx_graph *reshape_graph(void)
{
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    return one_node_shape(xs, ys);
}

TEST(host_and_device_io_through_the_bridge)
{
    rlx_runtime *rt = runtime_with(fake);
    ASSERT(rlx_backend_device_io(rlx_runtime_find_backend(rt, "pjrt")));
    rlx_graph *g = reshape_graph();
    rlx_session *s = NULL;
    ASSERT_EQ(rlx_session_create(rt, "pjrt", &s), RLX_OK);
    rlx_program *p = NULL;
    if (rlx_session_compile(s, g, &p) != RLX_OK)
        FAIL("compile: %s", rlx_last_error());
    float x[6] = { 1, 2, 3, 4, 5, 6 }, x2[6] = { -1, -2, -3, -4, -5, -6 };
    float y[6] = { 0 };
    /* host in, host out */
    ASSERT_EQ(rlx_program_set_input(p, "x", x, sizeof x), RLX_OK);
    if (rlx_program_run(p) != RLX_OK)
        FAIL("run: %s", rlx_last_error());
    size_t n = 0;
    const void *o = rlx_program_output_data(p, 0, &n);
    ASSERT(o != NULL && n == sizeof x && memcmp(o, x, n) == 0);
    /* device tensors bound to both */
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    rlx_tensor *tx = NULL, *ty = NULL;
    ASSERT_EQ(rlx_tensor_create(p, RLX_DTYPE_F32, 2, xs, x, &tx), RLX_OK);
    ASSERT_EQ(rlx_tensor_create(p, RLX_DTYPE_F32, 2, ys, NULL, &ty), RLX_OK);
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(y[0] == 0 && y[5] == 0);
    ASSERT_EQ(rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", ty), RLX_OK);
    if (rlx_program_run(p) != RLX_OK)
        FAIL("bound run: %s", rlx_last_error());
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(memcmp(y, x, sizeof y) == 0);
    ASSERT_EQ(rlx_tensor_write(tx, x2, sizeof x2), RLX_OK);
    ASSERT_EQ(rlx_program_run(p), RLX_OK);
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(memcmp(y, x2, sizeof y) == 0);
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(ty);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}


/* Sessions on one bridge backend compiling and running at once (the
 * client is created once, under the backend's lock). */
typedef struct worker {
    rlx_runtime *rt;
    int ok;
    char msg[512];
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    rlx_graph *g = NULL;
    rlx_value x, y;
    rlx_attrs a = { 2, ys, 0, NULL };
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    float in[6] = { 1, 2, 3, 4, 5, 6 };
    w->ok = rlx_graph_create(&g) == RLX_OK &&
            rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, xs, &x) == RLX_OK &&
            rlx_graph_add_node(g, "y", RLX_OP_RESHAPE, 1, &x, &a, &y) ==
                RLX_OK &&
            rlx_graph_output(g, "y", y) == RLX_OK &&
            rlx_session_create(w->rt, "pjrt", &s) == RLX_OK &&
            rlx_session_compile(s, g, &p) == RLX_OK;
    for (int i = 0; w->ok && i < 20; i++) {
        in[0] = (float)i;
        size_t n = 0;
        w->ok = rlx_program_set_input(p, "x", in, sizeof in) == RLX_OK &&
                rlx_program_run(p) == RLX_OK;
        const float *o = w->ok ? rlx_program_output_data(p, 0, &n) : NULL;
        w->ok = o && n == sizeof in && o[0] == (float)i && o[5] == 6.0f;
    }
    if (!w->ok)
        snprintf(w->msg, sizeof w->msg, "%s", rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return NULL;
}

TEST(concurrent_sessions_share_one_client)
{
    rlx_runtime *rt = runtime_with(fake);
    unsetenv("RLX_PJRT_DUMP"); /* keep the dump directory for goldens */
    worker w[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        w[i].rt = rt;
        w[i].ok = 0;
        w[i].msg[0] = '\0';
        ASSERT_EQ(pthread_create(&t[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    setenv("RLX_PJRT_DUMP", dump_dir, 1);
    rlx_runtime_destroy(rt);
    for (int i = 0; i < 4; i++)
        if (!w[i].ok)
            FAIL("thread %d: %s", i, w[i].msg);
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


/* ---- with a real PJRT plugin (scripts/gpu-pjrt.sh sets
 * RLX_TEST_PJRT_REAL to one): rlx's edge-case semantics, which XLA alone
 * would not give, against cpu-ref ------------------------------------ */

typedef struct real_run {
    rlx_status st;
    char msg[1024];
    unsigned char out[256];
    size_t nbytes;
} real_run;

/* Run G (one input "x" of XB bytes, optional "i" of IB bytes, one
 * output) on DEVICE. */
static real_run run_on(rlx_runtime *rt, const char *device,
                       const rlx_graph *g, const void *x, size_t xb,
                       const void *i, size_t ib)
{
    real_run r;
    memset(&r, 0, sizeof r);
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    r.st = rlx_session_create(rt, device, &s);
    if (r.st == RLX_OK)
        r.st = rlx_session_compile(s, g, &p);
    if (r.st == RLX_OK)
        r.st = rlx_program_set_input(p, "x", x, xb);
    if (r.st == RLX_OK && i)
        r.st = rlx_program_set_input(p, "i", i, ib);
    if (r.st == RLX_OK)
        r.st = rlx_program_run(p);
    if (r.st == RLX_OK) {
        const void *o = rlx_program_output_data(p, 0, &r.nbytes);
        if (o && r.nbytes <= sizeof r.out)
            memcpy(r.out, o, r.nbytes);
    }
    if (r.st != RLX_OK)
        snprintf(r.msg, sizeof r.msg, "%s", rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    return r;
}

static const char *real_device(void)
{
    const char *d = getenv("RLX_TEST_PJRT_DEVICE");
    return d && d[0] ? d : "pjrt-cuda";
}

static rlx_runtime *real_runtime(void)
{
    const char *plugin = getenv("RLX_TEST_PJRT_REAL");
    if (!plugin || !plugin[0])
        SKIP("RLX_TEST_PJRT_REAL names no PJRT plugin (scripts/gpu-pjrt.sh "
             "sets it on a GPU machine)");
    return runtime_with(plugin);
}

/* One-node graph: x (XDT, XSHAPE) -> OP -> y. */
static rlx_graph *one_node(rlx_op op, rlx_dtype xdt, uint32_t rank,
                           const int64_t *shape, const int64_t *ints,
                           uint32_t n_ints)
{
    rlx_graph *g = NULL;
    rlx_value x, y;
    if (rlx_graph_create(&g) != RLX_OK ||
        rlx_graph_input(g, "x", xdt, rank, shape, &x) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    rlx_attrs a = { n_ints, ints, 0, NULL };
    if (rlx_graph_add_node(g, "y", op, 1, &x, &a, &y) != RLX_OK ||
        rlx_graph_output(g, "y", y) != RLX_OK)
        FAIL("node: %s", rlx_last_error());
    return g;
}

static void same_as_cpu_ref(rlx_runtime *rt, const char *what,
                            const rlx_graph *g, const void *x, size_t xb)
{
    real_run want = run_on(rt, "cpu-ref", g, x, xb, NULL, 0);
    real_run got = run_on(rt, real_device(), g, x, xb, NULL, 0);
    if (want.st != RLX_OK)
        FAIL("%s on cpu-ref: %s", what, want.msg);
    if (got.st != RLX_OK)
        FAIL("%s on %s: %s", what, real_device(), got.msg);
    ASSERT_EQ(got.nbytes, want.nbytes);
    if (memcmp(got.out, want.out, want.nbytes) != 0) {
        /* floats: allow the last bit or two */
        const float *a = (const float *)got.out, *b = (const float *)want.out;
        for (size_t k = 0; k < want.nbytes / 4; k++)
            if (!(a[k] == b[k] || (a[k] != a[k] && b[k] != b[k]) ||
                  (a[k] - b[k] < 1e-6f && b[k] - a[k] < 1e-6f)))
                FAIL("%s: element %zu is %g on %s, %g on cpu-ref", what, k,
                     (double)a[k], real_device(), (double)b[k]);
    }
}

TEST(real_cast_saturates_and_zeroes_nan)
{
    rlx_runtime *rt = real_runtime();
    int64_t shape[1] = { 6 };
    float x[6] = { 0.0f / 0.0f, 3e9f, -3e9f, -1.7f, 2.9f, 1.0f / 0.0f };
    int64_t to_i32 = RLX_DTYPE_I32, to_u8 = RLX_DTYPE_U8,
            to_bool = RLX_DTYPE_BOOL;
    rlx_graph *g = one_node(RLX_OP_CAST, RLX_DTYPE_F32, 1, shape, &to_i32, 1);
    same_as_cpu_ref(rt, "cast f32->i32", g, x, sizeof x);
    rlx_graph_destroy(g);
    g = one_node(RLX_OP_CAST, RLX_DTYPE_F32, 1, shape, &to_u8, 1);
    same_as_cpu_ref(rt, "cast f32->u8", g, x, sizeof x);
    rlx_graph_destroy(g);
    g = one_node(RLX_OP_CAST, RLX_DTYPE_F32, 1, shape, &to_bool, 1);
    same_as_cpu_ref(rt, "cast f32->bool", g, x, sizeof x);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(real_causal_softmax_fully_masked_rows_and_empty_mean)
{
    rlx_runtime *rt = real_runtime();
    int64_t shape[2] = { 4, 2 };
    float x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    int64_t causal[2] = { -1, 1 };
    rlx_graph *g = one_node(RLX_OP_SOFTMAX, RLX_DTYPE_F32, 2, shape, causal,
                            2);
    same_as_cpu_ref(rt, "causal softmax, rows > cols", g, x, sizeof x);
    rlx_graph_destroy(g);
    int64_t empty[2] = { 2, 0 };
    int64_t axis1[2] = { 0, 1 };
    g = one_node(RLX_OP_REDUCE_MEAN, RLX_DTYPE_F32, 2, empty, axis1, 2);
    same_as_cpu_ref(rt, "mean over an empty axis", g, x, 0);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

TEST(real_gather_checks_its_indices)
{
    rlx_runtime *rt = real_runtime();
    rlx_graph *g = NULL;
    rlx_value x, i, y;
    int64_t ds[2] = { 3, 2 }, is[1] = { 2 };
    ASSERT_EQ(rlx_graph_create(&g), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, ds, &x), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "i", RLX_DTYPE_I32, 1, is, &i), RLX_OK);
    rlx_value xi[2] = { x, i };
    ASSERT_EQ(rlx_graph_add_node(g, "y", RLX_OP_GATHER, 2, xi, NULL, &y),
              RLX_OK);
    ASSERT_EQ(rlx_graph_output(g, "y", y), RLX_OK);
    float data[6] = { 1, 2, 3, 4, 5, 6 };
    int32_t good[2] = { 2, 0 }, bad[2] = { 1, 3 };
    real_run r = run_on(rt, real_device(), g, data, sizeof data, good,
                        sizeof good);
    if (r.st != RLX_OK)
        FAIL("gather: %s", r.msg);
    const float *o = (const float *)r.out;
    ASSERT(o[0] == 5 && o[1] == 6 && o[2] == 1 && o[3] == 2);
    r = run_on(rt, real_device(), g, data, sizeof data, bad, sizeof bad);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    ASSERT_EQ(r.st, RLX_ERR_INVALID_ARGUMENT);
    if (!strstr(r.msg, "outside") || !strstr(r.msg, "Fix:"))
        FAIL("gather out of range said '%s'", r.msg);
}

TEST(real_device_io)
{
    rlx_runtime *rt = real_runtime();
    rlx_graph *g = reshape_graph();
    rlx_session *s = NULL;
    ASSERT_EQ(rlx_session_create(rt, real_device(), &s), RLX_OK);
    rlx_program *p = NULL;
    if (rlx_session_compile(s, g, &p) != RLX_OK)
        FAIL("compile: %s", rlx_last_error());
    float x[6] = { 1, 2, 3, 4, 5, 6 }, x2[6] = { 6, 5, 4, 3, 2, 1 }, y[6];
    int64_t xs[2] = { 2, 3 }, ys[2] = { 3, 2 };
    rlx_tensor *tx = NULL, *ty = NULL;
    ASSERT_EQ(rlx_tensor_create(p, RLX_DTYPE_F32, 2, xs, x, &tx), RLX_OK);
    ASSERT_EQ(rlx_tensor_create(p, RLX_DTYPE_F32, 2, ys, NULL, &ty), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx), RLX_OK);
    ASSERT_EQ(rlx_program_bind(p, RLX_SLOT_OUTPUT, "y", ty), RLX_OK);
    if (rlx_program_run(p) != RLX_OK)
        FAIL("bound run: %s", rlx_last_error());
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(memcmp(y, x, sizeof y) == 0);
    ASSERT_EQ(rlx_tensor_write(tx, x2, sizeof x2), RLX_OK);
    ASSERT_EQ(rlx_program_run(p), RLX_OK);
    ASSERT_EQ(rlx_tensor_read(ty, y, sizeof y), RLX_OK);
    ASSERT(memcmp(y, x2, sizeof y) == 0);
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(ty);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

static int setup(int argc, char **argv)
{
    if (argc < 5)
        return -1;
    bridge = argv[1];
    fake = argv[2];
    fake_major = argv[3];
    golden_dir = argv[4];
    snprintf(dump_dir, sizeof dump_dir, "/tmp/rlx-pjrt-test-XXXXXX");
    if (!mkdtemp(dump_dir))
        return -1;
    setenv("RLX_PJRT_DUMP", dump_dir, 1);
    return 0;
}

static const rlx_test_case rlx_test__cases[] = {
    TEST_ENTRY(registers_four_backends_without_opening_anything),
    TEST_ENTRY(probe_without_any_plugin),
    TEST_ENTRY(probe_file_that_is_not_a_pjrt_plugin),
    TEST_ENTRY(probe_unknown_api_major),
    TEST_ENTRY(probe_and_describe_fake_device),
    TEST_ENTRY(golden_stablehlo_for_every_op),
    TEST_ENTRY(golden_stablehlo_with_a_constant),
    TEST_ENTRY(golden_stablehlo_mlp_example),
    TEST_ENTRY(golden_stablehlo_encoder_example),
    TEST_ENTRY(pjrt_error_becomes_rlx_error_with_fix),
    TEST_ENTRY(host_and_device_io_through_the_bridge),
    TEST_ENTRY(concurrent_sessions_share_one_client),
    TEST_ENTRY(structural_checker_rejects_bad_text),
    TEST_ENTRY(real_device_io),
    TEST_ENTRY(real_cast_saturates_and_zeroes_nan),
    TEST_ENTRY(real_causal_softmax_fully_masked_rows_and_empty_mean),
    TEST_ENTRY(real_gather_checks_its_indices),
};

int main(int argc, char **argv)
{
    if (setup(argc, argv) != 0) {
        fprintf(stderr, "usage: test-pjrt BRIDGE.so FAKE.so FAKE-MAJOR.so "
                        "GOLDEN-DIR\n");
        return 2;
    }
    int rc = rlx_test_main(rlx_test__cases,
                           sizeof rlx_test__cases / sizeof *rlx_test__cases,
                           1, argv);
    clear_dump();
    rmdir(dump_dir);
    return rc;
}
