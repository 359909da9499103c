/*
 * test_cuda_expect.h - whether the cuda tests should expect a GPU:
 * RLX_TEST_CUDA_EXPECT (gpu or none) decides when set, else an empty or
 * -1 CUDA_VISIBLE_DEVICES means none, else the NVIDIA device node;
 * what a kernel test checks without one; and the smallest graph the
 * settings' checks compile. Include after
 * test/gpu_plugin_check.h (its ok()) and rlx/rlx.h.
 */
#ifndef RLX_TEST_CUDA_EXPECT_H
#define RLX_TEST_CUDA_EXPECT_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline int cuda_test_expect_gpu(void)
{
    const char *e = getenv("RLX_TEST_CUDA_EXPECT");
    if (e && !strcmp(e, "gpu"))
        return 1;
    if (e && !strcmp(e, "none"))
        return 0;
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    if (cvd && (!*cvd || !strcmp(cvd, "-1")))
        return 0;
    return access("/dev/nvidia0", F_OK) == 0;
}

/* Without a GPU: the plugin at PLUGIN loads and a session on it fails
 * with a reason and a Fix; WHAT, the kernels, is reported skipped. Ends
 * the TAP plan; returns the exit status. */
static inline int cuda_test_without_gpu(const char *plugin, const char *what)
{
    rlx_runtime *rt = NULL;
    rlx_session *s = NULL;
    int loaded = rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) ==
                     RLX_OK &&
                 rlx_runtime_load_plugin(rt, plugin) == RLX_OK;
    ok(loaded, "the cuda plugin loads without a GPU", rlx_last_error());
    rlx_status st = loaded ? rlx_session_create(rt, "cuda", &s)
                           : RLX_ERR_UNAVAILABLE;
    ok(loaded && st != RLX_OK && !s &&
           strstr(rlx_last_error(), "Fix:") != NULL,
       "a session on cuda fails with a Fix", rlx_last_error());
    if (s)
        rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    printf("ok %d - %s # SKIP no NVIDIA GPU here: the kernels need one. "
           "Fix: run scripts/gpu-test.sh on a machine with an NVIDIA "
           "GPU\n1..%d\n", n_test + 1, what, n_test + 1);
    return n_fail != 0;
}

/* A runtime with only the cuda plugin at PLUGIN loaded, or NULL after
 * a failed TAP line (the caller ends the plan). */
static inline rlx_runtime *cuda_test_runtime(const char *plugin)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) == RLX_OK &&
        rlx_runtime_load_plugin(rt, plugin) == RLX_OK)
        return rt;
    ok(0, "runtime with the cuda plugin", rlx_last_error());
    rlx_runtime_destroy(rt);
    return NULL;
}

/* *G: y = relu(x), x an f32 input of 4 values */
static inline rlx_status cuda_test_relu_graph(rlx_graph **g)
{
    rlx_value x, y;
    rlx_status st = rlx_graph_create(g);
    if (st == RLX_OK)
        st = rlx_graph_input(*g, "x", RLX_DTYPE_F32, 1, (int64_t[]){ 4 },
                             &x);
    if (st == RLX_OK)
        st = rlx_graph_add_node(*g, NULL, RLX_OP_RELU, 1, &x, NULL, &y);
    return st == RLX_OK ? rlx_graph_output(*g, "y", y) : st;
}

#endif
