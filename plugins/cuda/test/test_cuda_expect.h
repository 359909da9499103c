/*
 * test_cuda_expect.h - whether the cuda tests should expect a GPU:
 * RLX_TEST_CUDA_EXPECT (gpu or none) decides when set, else an empty or
 * -1 CUDA_VISIBLE_DEVICES means none, else the NVIDIA device node;
 * what a kernel test checks without one; and the smallest graph the
 * settings' checks compile. Include after gpu_plugin_check.h
 * (plugins/gpu-common/test/, on test/harness.h) and rlx/rlx.h.
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

/* In a TEST that needs a GPU: skip it, saying why, where there is none
 * (scripts/gpu-test.sh fails on this reason where a GPU is present). */
#define CUDA_TEST_NEED_GPU()                                                \
    do {                                                                    \
        if (!cuda_test_expect_gpu())                                        \
            SKIP("no NVIDIA GPU here: the kernels need one. Fix: run "      \
                 "scripts/gpu-test.sh on a machine with an NVIDIA GPU");    \
    } while (0)

/* The cuda plugin the test loads (RLX_TEST_CUDA_PLUGIN, set by
 * plugins/cuda/test/meson.build). */
static inline const char *cuda_test_plugin(void)
{
    return gpu_test_plugin("RLX_TEST_CUDA_PLUGIN");
}

/* Without a GPU: the plugin loads and a session on it fails with a
 * reason and a Fix. Skipped where a GPU is present. */
static inline void cuda_test_without_gpu(void)
{
    if (cuda_test_expect_gpu())
        SKIP("an NVIDIA GPU is here: the other tests run the kernels");
    rlx_runtime *rt = NULL;
    rlx_session *s = NULL;
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    rlx_status st = rlx_runtime_load_plugin(rt, cuda_test_plugin());
    if (st != RLX_OK) {
        rlx_runtime_destroy(rt);
        FAIL("the cuda plugin does not load without a GPU: %s",
             rlx_last_error());
    }
    st = rlx_session_create(rt, "cuda", &s);
    int failed_with_fix = st != RLX_OK && !s &&
                          strstr(rlx_last_error(), "Fix:") != NULL;
    char why[1024];
    snprintf(why, sizeof why, "%s", rlx_last_error());
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    if (!failed_with_fix)
        FAIL("a session on cuda without a GPU should fail with a Fix: %s",
             why);
}

/* A runtime with only the cuda plugin loaded; fails the TEST if not. */
static inline rlx_runtime *cuda_test_runtime(void)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) == RLX_OK &&
        rlx_runtime_load_plugin(rt, cuda_test_plugin()) == RLX_OK)
        return rt;
    rlx_runtime_destroy(rt);
    FAIL("runtime with the cuda plugin: %s", rlx_last_error());
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
