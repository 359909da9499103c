/* test-blas-plugin.c - the cpu-openblas plugin as users meet it: the
 * loader keeps only the best variant for this host, `rlx devices` shows
 * its score, it exports only the two entry points, the memory plan's
 * peak shows in the debug log and reuses memory, and `rlx conformance`
 * finds every op and dtype PASS (no UNSUPPORTED), models included. */
#include <fcntl.h>
#include <math.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blas-test-util.h"

/* Run CMD through sh; its stdout+stderr into OUT (size N); exit code. */
static int run_cmd(const char *cmd, char *out, size_t n)
{
    char full[8200];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (!p)
        FAIL("popen %s", cmd);
    size_t used = 0, got;
    while (used + 1 < n && (got = fread(out + used, 1, n - 1 - used, p)) > 0)
        used += got;
    out[used] = '\0';
    char sink[4096];
    while (fread(sink, 1, sizeof sink, p) > 0) {
    }
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(best_variant_is_kept)
{
    int score;
    const char *suffix = blas_expected_suffix(&score);
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, blas_dir()));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cpu-openblas");
    ASSERT(b);
    ASSERT_EQ(rlx_backend_host_fit(b), score);
    ASSERT_STREQ(rlx_backend_plugin_path(b), blas_variant_path(suffix));
    ASSERT_EQ(rlx_backend_priority(b), RLX_PRIORITY_TUNED);
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")),
                 "cpu-openblas");
    /* every other variant that was built is listed, not loaded */
    const char *all[] = { "", "-avx2", "-avx512" };
    for (int i = 0; i < 3; i++) {
        const char *path = blas_variant_path(all[i]);
        if (!strcmp(all[i], suffix) || !blas_file_exists(path))
            continue;
        rlx_diag_kind kind;
        const char *reason = NULL;
        int found = 0;
        for (uint32_t d = 0; d < rlx_runtime_diag_count(rt); d++) {
            const char *p;
            rlx_runtime_diag(rt, d, &kind, &p, &reason, NULL);
            if (p && !strcmp(p, path)) {
                found = 1;
                break;
            }
        }
        ASSERT(found);
        ASSERT(kind == RLX_DIAG_VARIANT || kind == RLX_DIAG_REJECTED);
        ASSERT_CONTAINS(reason, "host-fit score");
    }
    printf("# chosen: %s (score %d)\n", rlx_backend_plugin_path(b), score);
    rlx_runtime_destroy(rt);
}

TEST(devices_shows_the_score)
{
    int score;
    const char *suffix = blas_expected_suffix(&score);
    char cmd[2048], out[16384], want[256];
    snprintf(cmd, sizeof cmd, "RLX_PLUGIN_PATH='%s' '%s' devices",
             blas_dir(), getenv("RLX_TEST_RLX_BIN"));
    ASSERT_EQ(run_cmd(cmd, out, sizeof out), 0);
    snprintf(want, sizeof want, "librlx-backend-cpu-openblas%s.so\n"
             "      score:  %d (best variant for this host)", suffix,
             score);
    ASSERT_CONTAINS(out, want);
    ASSERT_CONTAINS(out, "cpu -> cpu-openblas");
}

TEST(exports_only_the_entry_points)
{
    const char *all[] = { "", "-avx2", "-avx512" };
    for (int i = 0; i < 3; i++) {
        const char *path = blas_variant_path(all[i]);
        if (!blas_file_exists(path))
            continue;
        char cmd[2048], out[4096];
        snprintf(cmd, sizeof cmd,
                 "nm -D --defined-only '%s' | awk '{print $3}' | sort | "
                 "tr '\\n' ' '", path);
        ASSERT_EQ(run_cmd(cmd, out, sizeof out), 0);
        ASSERT_STREQ(out, "rlx_plugin_host_fit rlx_plugin_init ");
        snprintf(cmd, sizeof cmd, "readelf -d '%s' | grep NEEDED", path);
        run_cmd(cmd, out, sizeof out);
        ASSERT(!strstr(out, "librlx"));
    }
}

/* x -> 8 unary steps -> y, each [64, 256] f32 (64 KiB): at most two
 * results are alive at once, so the plan needs 128 KiB, not 512. */
TEST(memory_plan_reuses_buffers)
{
    rlx_runtime *rt = blas_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(
        rt, blas_variant_path(blas_expected_suffix(&(int){ 0 }))));
    rlx_graph *g;
    rlx_value v;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2,
                              (int64_t[]){ 64, 256 }, &v));
    static const rlx_op chain[8] = { RLX_OP_NEG, RLX_OP_RELU, RLX_OP_NEG,
                                     RLX_OP_ABS, RLX_OP_NEG, RLX_OP_ABS,
                                     RLX_OP_SQRT, RLX_OP_NEG };
    for (int i = 0; i < 8; i++) {
        char name[16];
        snprintf(name, sizeof name, "s%d", i);
        rlx_value in = v;
        ASSERT_OK(rlx_graph_add_node(g, name, chain[i], 1, &in, NULL, &v));
    }
    ASSERT_OK(rlx_graph_output(g, "y", v));

    /* catch the plugin's debug log on stderr */
    char path[] = "/tmp/rlx-blas-log-XXXXXX";
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    setenv("RLX_LOG", "debug", 1);
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(rt, "cpu-openblas", &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    unsetenv("RLX_LOG");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ASSERT_OK(st);
    char log[8192] = { 0 };
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, log, sizeof log - 1);
    close(fd);
    unlink(path);
    ASSERT(got > 0);
    const char *line = strstr(log, "memory plan of ");
    ASSERT(line);
    unsigned nodes;
    size_t peak, live, total;
    ASSERT_EQ(sscanf(line, "memory plan of %u nodes: peak %zu bytes, "
                           "largest live set %zu bytes, %zu bytes without "
                           "reuse", &nodes, &peak, &live, &total), 4);
    printf("# %.*s\n", (int)strcspn(line, "\n"), line);
    ASSERT_EQ(nodes, 9);
    ASSERT_EQ(live, 2 * 65536);
    ASSERT_EQ(peak, live);
    ASSERT_EQ(total, 8 * 65536);

    /* and it computes: y = -sqrt(|-(|-(relu(-x))|)|) */
    static float x[64 * 256];
    for (int i = 0; i < 64 * 256; i++)
        x[i] = (float)((i % 37) - 18) / 7.0f;
    ASSERT_OK(rlx_program_set_input(p, "x", x, sizeof x));
    ASSERT_OK(rlx_program_run(p));
    const float *y = rlx_program_output_data(p, 0, NULL);
    for (int i = 0; i < 64 * 256; i++) {
        float want = -sqrtf(x[i] < 0 ? -x[i] : 0.0f);
        ASSERT_NEAR(y[i], want, 1e-6);
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    rlx_runtime_destroy(rt);
}

/* A param set again gets a new buffer (maybe at the old one's address):
 * the matmul's packed copy of the weights must follow it, run after
 * run, in every variant this host can run. */
TEST(param_set_again_is_repacked)
{
    enum { M = 3, K = 40, N = 50 };
    static float x[M * K], w[K * N];
    for (int i = 0; i < M * K; i++)
        x[i] = (float)((i % 11) - 5) / 4.0f;
    const char *all[] = { "", "-avx2", "-avx512" };
    __builtin_cpu_init();
    int can[3] = { 1,
                   __builtin_cpu_supports("avx2") &&
                       __builtin_cpu_supports("fma"),
                   __builtin_cpu_supports("avx512f") &&
                       __builtin_cpu_supports("avx512dq") &&
                       __builtin_cpu_supports("avx512bw") &&
                       __builtin_cpu_supports("avx512vl") };
    int ran = 0;
    for (int v = 0; v < 3; v++) {
        if (!can[v] || !blas_file_exists(blas_variant_path(all[v])))
            continue;
        ran++;
        rlx_runtime *rt = blas_runtime();
        ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(all[v])));
        rlx_graph *g;
        rlx_value xv, wv, y;
        ASSERT_OK(rlx_graph_create(&g));
        ASSERT_OK(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2,
                                  (int64_t[]){ M, K }, &xv));
        ASSERT_OK(rlx_graph_param(g, "w", RLX_DTYPE_F32, 2,
                                  (int64_t[]){ K, N }, &wv));
        ASSERT_OK(rlx_graph_add_node(g, "mm", RLX_OP_MATMUL, 2,
                                     (rlx_value[]){ xv, wv }, NULL, &y));
        ASSERT_OK(rlx_graph_output(g, "y", y));
        rlx_session *s = NULL;
        rlx_program *p = NULL;
        ASSERT_OK(rlx_session_create(rt, "cpu-openblas", &s));
        ASSERT_OK(rlx_session_compile(s, g, &p));
        ASSERT_OK(rlx_program_set_input(p, "x", x, sizeof x));
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < K * N; i++)
                w[i] = (float)(((i + round * 7) % 13) - 6) / 8.0f;
            ASSERT_OK(rlx_program_set_param(p, "w", w, sizeof w));
            for (int rep = 0; rep < 2; rep++) {
                ASSERT_OK(rlx_program_run(p));
                const float *out = rlx_program_output_data(p, 0, NULL);
                for (int i = 0; i < M; i++)
                    for (int j = 0; j < N; j++) {
                        double want = 0;
                        for (int q = 0; q < K; q++)
                            want += (double)x[i * K + q] * w[q * N + j];
                        ASSERT_NEAR(out[i * N + j], want, 1e-4);
                    }
            }
        }
        rlx_program_destroy(p);
        rlx_session_destroy(s);
        rlx_graph_destroy(g);
        rlx_runtime_destroy(rt);
    }
    ASSERT(ran > 0); /* at least the portable variant */
}

TEST(conformance_all_pass)
{
    char cmd[8192], out[65536];
    const char *ex = getenv("RLX_TEST_EXAMPLES_DIR");
    char models[2100] = "";
    char mlp[1024], enc[1024];
    snprintf(mlp, sizeof mlp, "%s/mlp/mlp.yaml", ex ? ex : ".");
    snprintf(enc, sizeof enc, "%s/transformer/encoder.yaml", ex ? ex : ".");
    if (blas_file_exists(mlp) && blas_file_exists(enc))
        snprintf(models, sizeof models, "--models '%s' '%s'", mlp, enc);
    else
        printf("# example models not generated: ops only\n");
    snprintf(cmd, sizeof cmd,
             "RLX_PLUGIN_PATH='%s' '%s' conformance --backend cpu-openblas "
             "%s", blas_dir(), getenv("RLX_TEST_RLX_BIN"), models);
    int rc = run_cmd(cmd, out, sizeof out);
    const char *sum = strstr(out, "Summary:");
    printf("# %.*s\n", sum ? (int)strcspn(sum, "\n") : 0, sum ? sum : "");
    if (rc != 0)
        printf("%s", out);
    ASSERT_EQ(rc, 0);
    ASSERT(sum);
    ASSERT_CONTAINS(sum, " 0 FAIL, 0 UNSUPPORTED, 0 SKIPPED");
    ASSERT_CONTAINS(out, "librlx-backend-cpu-openblas");
}

/* A bad thread count or fuse value fails the compile, naming the setting,
 * its variable, the value and the valid ones: it used to be dropped with
 * a log line nobody saw. Good values still compile. */
TEST(bad_settings_fail_the_compile)
{
    static const struct {
        const char *env, *want;
    } bad[] = {
        { "RLX_CPU_OPENBLAS_THREADS=0", "(RLX_CPU_OPENBLAS_THREADS) is '0'" },
        { "RLX_CPU_OPENBLAS_THREADS=-1",
          "(RLX_CPU_OPENBLAS_THREADS) is '-1'" },
        { "RLX_CPU_OPENBLAS_THREADS=100000",
          "(RLX_CPU_OPENBLAS_THREADS) is '100000'" },
        { "RLX_CPU_OPENBLAS_FUSE=garbage",
          "(RLX_CPU_OPENBLAS_FUSE) is 'garbage'" },
    };
    char cmd[2048], out[16384];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(cmd, sizeof cmd, "%s RLX_PLUGIN_PATH='%s' '%s' demo "
                 "--device cpu-openblas", bad[i].env, blas_dir(),
                 getenv("RLX_TEST_RLX_BIN"));
        ASSERT_EQ(run_cmd(cmd, out, sizeof out), 1);
        ASSERT_CONTAINS(out, bad[i].want);
        ASSERT_CONTAINS(out, "Fix: set it to ");
    }
    snprintf(cmd, sizeof cmd, "RLX_CPU_OPENBLAS_THREADS=2 "
             "RLX_CPU_OPENBLAS_FUSE=0 RLX_PLUGIN_PATH='%s' '%s' demo "
             "--device cpu-openblas", blas_dir(), getenv("RLX_TEST_RLX_BIN"));
    ASSERT_EQ(run_cmd(cmd, out, sizeof out), 0);
}

RLX_TEST_LIST(
    TEST_ENTRY(bad_settings_fail_the_compile),
    TEST_ENTRY(param_set_again_is_repacked),
    TEST_ENTRY(best_variant_is_kept),
    TEST_ENTRY(devices_shows_the_score),
    TEST_ENTRY(exports_only_the_entry_points),
    TEST_ENTRY(memory_plan_reuses_buffers),
    TEST_ENTRY(conformance_all_pass),
)
