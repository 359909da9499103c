/*
 * test_cuda_plugin.c - loads librlx-backend-cuda.so through the public
 * API and checks what every machine can check: the file loads quickly,
 * registers backend "cuda" on device cuda, answers supports_op, and its
 * probe tells the truth. Without a GPU the probe must fail with
 * RLX_ERR_UNAVAILABLE and a message holding "Fix:", and a session on
 * cuda must fail the same way; with a GPU it must succeed and a small
 * graph must run and match the CPU, and setting cuda.graph_dot must
 * write its captured graph (to a file, and into a folder). The
 * scenarios it shares with the ROCm plugin's test are in
 * plugins/gpu-common/test/gpu_plugin_check.h (on test/harness.h).
 *
 * Whether a GPU is expected: RLX_TEST_CUDA_EXPECT=gpu|none, else the
 * presence of /dev/nvidia0 (and CUDA_VISIBLE_DEVICES not hiding all).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "gpu_plugin_check.h"
#include "test_cuda_expect.h"

/* the file at PATH holds a Graphviz graph with a kernel node */
static int dot_written(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, "digraph") && strstr(buf, "KERNEL");
}

/* A relu run once with setting cuda.graph_dot DEST; 1 when it ran */
static int run_with_dot(rlx_runtime *rt, const char *dest)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    const float xs[4] = { -1.f, 2.f, -3.f, 4.f };
    rlx_status st = cuda_test_relu_graph(&g);
    if (st == RLX_OK)
        st = rlx_session_create(rt, "cuda", &s);
    if (st == RLX_OK)
        st = rlx_session_set_option(s, "cuda.graph_dot", dest);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    if (st == RLX_OK)
        st = rlx_program_set_input(p, "x", xs, sizeof xs);
    if (st == RLX_OK)
        st = rlx_program_run(p);
    const float *ys = st == RLX_OK ? rlx_program_output_data(p, 0, NULL)
                                   : NULL;
    int ran = ys && ys[0] == 0.f && ys[3] == 4.f;
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return ran;
}

/* setting cuda.graph_dot: a file path, then a folder (one file per
 * executable, graph-N.dot) */
static void graph_dot(rlx_runtime *rt)
{
    char dir[] = "/tmp/rlx-graph-dot-XXXXXX";
    if (!mkdtemp(dir)) {
        gpu_check(0, "cuda.graph_dot writes the captured graph",
                  "mkdtemp failed");
        return;
    }
    char file[512], folder[64];
    snprintf(file, sizeof file, "%s/one.dot", dir);
    snprintf(folder, sizeof folder, "%s/", dir);
    int ran = run_with_dot(rt, file);
    gpu_check(ran && dot_written(file),
              "cuda.graph_dot=FILE writes the captured graph there",
              ran ? file : rlx_last_error());
    remove(file);
    ran = run_with_dot(rt, folder);
    int found = 0;
    DIR *d = ran ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, "graph-", 6) || !strstr(e->d_name, ".dot"))
            continue;
        snprintf(file, sizeof file, "%s%s", folder, e->d_name);
        found |= dot_written(file);
        remove(file);
    }
    if (d)
        closedir(d);
    gpu_check(ran && found, "cuda.graph_dot=FOLDER/ writes graph-N.dot into it",
              ran ? folder : rlx_last_error());
    rmdir(dir);
}

/* A runtime with the plugin loaded, timed; fails the TEST if not. */
static rlx_runtime *load(double *ms)
{
    rlx_runtime *rt = gpu_load_timed(cuda_test_plugin(), ms);
    if (!rt)
        FAIL("the plugin does not load: %s", rlx_last_error());
    return rt;
}

TEST(loads_and_registers)
{
    GPU_CHECKS_BEGIN();
    double ms;
    rlx_runtime *rt = load(&ms);
    char detail[64];
    snprintf(detail, sizeof detail, "%.2f ms", ms);
    gpu_check(ms < 200.0, "loading takes little time (no CUDA context)",
              detail);
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cuda");
    gpu_check_registered(b, "cuda", RLX_DEVICE_CUDA);
    if (b) {
        gpu_check(rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_F32) &&
                      rlx_backend_supports_op(b, RLX_OP_MATMUL,
                                              RLX_DTYPE_F16) &&
                      rlx_backend_supports_op(b, RLX_OP_MATMUL,
                                              RLX_DTYPE_BF16),
                  "matmul on f32, f16 and bf16", "");
        gpu_check(!rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_I32) &&
                      !rlx_backend_supports_op(b, RLX_OP_MATMUL,
                                               RLX_DTYPE_F64) &&
                      !rlx_backend_supports_op(b, RLX_OP_EXP, RLX_DTYPE_I32),
                  "no matmul on integers or f64, no exp on integers", "");
        int every = 1;
        for (rlx_dtype t = RLX_DTYPE_I16; t <= RLX_DTYPE_U64; t++)
            every = every && rlx_backend_supports_op(b, RLX_OP_ADD, t) &&
                    rlx_backend_supports_op(b, RLX_OP_REDUCE_MIN, t) &&
                    rlx_backend_supports_op(b, RLX_OP_CAST, t);
        gpu_check(every && rlx_backend_supports_op(b, RLX_OP_EXP,
                                                   RLX_DTYPE_F64) &&
                      rlx_backend_supports_op(b, RLX_OP_DET, RLX_DTYPE_F64) &&
                      rlx_backend_supports_op(b, RLX_OP_BIT_SHIFT,
                                              RLX_DTYPE_U64) &&
                      !rlx_backend_supports_op(b, RLX_OP_BIT_SHIFT,
                                               RLX_DTYPE_I64),
                  "arithmetic, reductions and casts on i16, u16, u32 and "
                  "u64; exp and det on f64; bit_shift on unsigned only", "");
        gpu_check(rlx_backend_supports_op(b, RLX_OP_TRANSPOSE,
                                          RLX_DTYPE_I64) &&
                      rlx_backend_supports_op(b, RLX_OP_GATHER, RLX_DTYPE_U8),
                  "data movement on any dtype", "");
        gpu_check(!rlx_backend_supports_op(b, (rlx_op)9999, RLX_DTYPE_F32) &&
                      !rlx_backend_supports_op(b, RLX_OP_ADD,
                                               (rlx_dtype)999),
                  "unknown op and dtype answer 0", "");
        gpu_check(rlx_backend_device_io(b) && rlx_backend_queues(b),
                  "device I/O and queued runs (rlx.queue.v1)", "");
    }
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

/* The probe tells the truth: with a GPU it finds one, a small graph
 * runs and matches cpu-ref and cuda.graph_dot writes the captured graph;
 * without one it fails with RLX_ERR_UNAVAILABLE and a Fix, as does a
 * session on cuda. */
TEST(probe_tells_the_truth)
{
    GPU_CHECKS_BEGIN();
    int gpu = cuda_test_expect_gpu();
    printf("# expecting %s\n", gpu ? "a GPU" : "no GPU");
    double ms;
    rlx_runtime *rt = load(&ms);
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cuda");
    if (!b) {
        rlx_runtime_destroy(rt);
        FAIL("no backend 'cuda' registered");
    }
    uint32_t count = 0;
    char detail[1024];
    rlx_status st = gpu_probe_timed(b, &count, detail, sizeof detail);
    if (gpu) {
        gpu_check(st == RLX_OK && count >= 1, "probe finds a GPU", detail);
        gpu_check_runs(rt, "cuda", 1);
        graph_dot(rt);
    } else {
        gpu_check_unavailable(rt, st, "cuda", detail, "cuda",
                              "the message names the CUDA error");
    }
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

RLX_TEST_LIST(TEST_ENTRY(loads_and_registers),
              TEST_ENTRY(probe_tells_the_truth));
