/* test-blas-profile.c - the setting cpu-openblas.profile: with it, the
 * tenth run of a program logs its steps' times at info level, slowest
 * first, by node name and kernel (fused steps by the name of the node
 * that ended the chain); without it, nothing is logged. */
#include <fcntl.h>
#include <unistd.h>

#include "blas-test-util.h"

/* y = relu(x . w + b) -> softmax, QUANT: y = dequantize(quantize(x));
 * inputs x [4, 32], w [32, 8], b [8] either way. */
static rlx_graph *profile_graph(int quant)
{
    rlx_graph *g;
    rlx_value x, w, b, t, u, v, y;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2,
                              (int64_t[]){ 4, 32 }, &x));
    ASSERT_OK(rlx_graph_input(g, "w", RLX_DTYPE_F32, 2,
                              (int64_t[]){ 32, 8 }, &w));
    ASSERT_OK(rlx_graph_input(g, "b", RLX_DTYPE_F32, 1, (int64_t[]){ 8 },
                              &b));
    if (quant) {
        float scale = 0.05f;
        uint8_t zero = 128;
        rlx_value s, z;
        ASSERT_OK(rlx_graph_constant(g, "s", RLX_DTYPE_F32, 0, NULL, &scale,
                                     &s));
        ASSERT_OK(rlx_graph_constant(g, "z", RLX_DTYPE_U8, 0, NULL, &zero,
                                     &z));
        ASSERT_OK(rlx_graph_add_node(g, "quant", RLX_OP_QUANTIZE_LINEAR, 3,
                                     (rlx_value[]){ x, s, z }, NULL, &t));
        ASSERT_OK(rlx_graph_add_node(g, "dequant",
                                     RLX_OP_DEQUANTIZE_LINEAR, 3,
                                     (rlx_value[]){ t, s, z }, NULL, &y));
        ASSERT_OK(rlx_graph_output(g, "y", y));
        return g;
    }
    ASSERT_OK(rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2,
                                 (rlx_value[]){ x, w }, NULL, &t));
    ASSERT_OK(rlx_graph_add_node(g, "biased", RLX_OP_ADD, 2,
                                 (rlx_value[]){ t, b }, NULL, &u));
    ASSERT_OK(rlx_graph_add_node(g, "act", RLX_OP_RELU, 1, &u, NULL, &v));
    ASSERT_OK(rlx_graph_add_node(g, "probs", RLX_OP_SOFTMAX, 1, &v, NULL,
                                 &y));
    ASSERT_OK(rlx_graph_output(g, "y", y));
    return g;
}

/* Compile profile_graph(QUANT) on cpu-openblas, run it RUNS times with
 * RLX_LOG=info, return what the plugin logged. */
static const char *profile_log(int profile, int runs, int quant)
{
    static char log[65536];
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(blas_expected_suffix(&(int){ 0 }))));
    rlx_graph *g = profile_graph(quant);

    char path[] = "/tmp/rlx-blas-prof-XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    setenv("RLX_LOG", "info", 1);
    if (profile)
        setenv("RLX_CPU_OPENBLAS_PROFILE", "1", 1);
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(rt, "cpu-openblas", &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    static float in[4 * 32 + 32 * 8 + 8];
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        in[i] = (float)(i % 7) * 0.1f - 0.3f;
    if (st == RLX_OK)
        st = rlx_program_set_input(p, "x", in, 4 * 32 * sizeof(float));
    if (st == RLX_OK)
        st = rlx_program_set_input(p, "w", in + 128, 32 * 8 * sizeof(float));
    if (st == RLX_OK)
        st = rlx_program_set_input(p, "b", in + 384, 8 * sizeof(float));
    for (int r = 0; st == RLX_OK && r < runs; r++)
        st = rlx_program_run(p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    unsetenv("RLX_LOG");
    unsetenv("RLX_CPU_OPENBLAS_PROFILE");
    ASSERT_OK(st);
    memset(log, 0, sizeof log);
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, log, sizeof log - 1);
    close(fd);
    unlink(path);
    ASSERT(got >= 0);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
    return log;
}

TEST(profile_logs_after_ten_runs)
{
    const char *log = profile_log(1, 9, 0);
    ASSERT(!strstr(log, "cpu-openblas profile:"));
    log = profile_log(1, 10, 0);
    printf("# %.*s\n", (int)strcspn(strstr(log, "cpu-openblas profile:"),
                                     "\n"),
           strstr(log, "cpu-openblas profile:"));
    ASSERT_CONTAINS(log, "cpu-openblas profile: ");
    ASSERT_CONTAINS(log, "s a run of 7 nodes (mean of runs 2 to 10)");
    /* the fused chain shows under its last node, the softmax as itself */
    ASSERT_CONTAINS(log, "'act' (matmul with its epilogue)");
    ASSERT_CONTAINS(log, "'probs' (softmax)");
    ASSERT(!strstr(log, "'mm'"));
}

/* Every kind of step is named: the 8-bit steps printed "?" before */
TEST(profile_names_quantize_steps)
{
    const char *log = profile_log(1, 10, 1);
    ASSERT_CONTAINS(log, "s a run of 7 nodes");
    ASSERT_CONTAINS(log, "'quant' (quantize/dequantize)");
    ASSERT_CONTAINS(log, "'dequant' (quantize/dequantize)");
    ASSERT(!strstr(log, "(?)"));
    /* sub-millisecond steps in us with digits, not a column of 0.000 ms
     * (no " us" check: a preempted run can push a mean past 1 ms) */
    ASSERT(!strstr(log, " 0.000 ms"));
}

TEST(no_profile_by_default)
{
    const char *log = profile_log(0, 10, 0);
    ASSERT(!strstr(log, "cpu-openblas profile:"));
}

RLX_TEST_LIST(
    TEST_ENTRY(profile_logs_after_ten_runs),
    TEST_ENTRY(profile_names_quantize_steps),
    TEST_ENTRY(no_profile_by_default),
)
