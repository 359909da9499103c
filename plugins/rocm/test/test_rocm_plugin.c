/*
 * test_rocm_plugin.c - loads librlx-backend-rocm.so through the public
 * API and checks what every machine can check: the file loads quickly
 * without touching HIP (libamdhip64 is not even mapped), registers
 * backend "rocm" on device rocm, answers supports_op, and its probe
 * tells the truth. With the HIP runtime pointed at a missing file
 * (RLX_ROCM_HIP_LIBRARY) the probe must name the Debian package; with
 * the real runtime and no AMD GPU it must fail with RLX_ERR_UNAVAILABLE,
 * the runtime's error (hipErrorNoDevice) and a Fix, and a session on
 * rocm must fail the same way. With an AMD GPU a small graph must run
 * and match the CPU. The scenarios it shares with the CUDA plugin's
 * test are in plugins/gpu-common/test/gpu_plugin_check.h (on
 * test/harness.h).
 *
 * Then the rocBLAS loader and argument translation (test_rocm_rocblas.c)
 * against the fake librocblas builds that RLX_TEST_ROCM_FAKE_ROCBLAS and
 * RLX_TEST_ROCM_FAKE_ROCBLAS_PARTIAL name (plugins/rocm/test/meson.build).
 *
 * Whether a GPU is expected: RLX_TEST_ROCM_EXPECT=gpu|none, else the
 * presence of /dev/kfd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "gpu_plugin_check.h"

void rocm_rocblas_tests(void (*ok)(int, const char *, const char *),
                        const char *fake, const char *partial);

static int expect_gpu(void)
{
    const char *e = getenv("RLX_TEST_ROCM_EXPECT");
    if (e && !strcmp(e, "gpu"))
        return 1;
    if (e && !strcmp(e, "none"))
        return 0;
    return access("/dev/kfd", F_OK) == 0;
}

/* Is a library whose path holds NAME mapped into this process? */
static int mapped(const char *name)
{
    FILE *f = fopen("/proc/self/maps", "r");
    char line[1024];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, name) != NULL;
    if (f)
        fclose(f);
    return found;
}

static const char *rocm_plugin(void)
{
    return gpu_test_plugin("RLX_TEST_ROCM_PLUGIN");
}

/* The plugin loads quickly without touching HIP and registers "rocm". */
TEST(loads_and_registers)
{
    GPU_CHECKS_BEGIN();
    double dt;
    rlx_runtime *rt = gpu_load_timed(rocm_plugin(), &dt);
    if (!rt)
        FAIL("the plugin does not load: %s", rlx_last_error());
    char ms[64];
    snprintf(ms, sizeof ms, "%.2f ms", dt);
    gpu_check(dt < 200.0, "loading takes little time", ms);
    gpu_check(!mapped("libamdhip64"), "loading does not load the HIP runtime",
              "");
    const rlx_backend *b = rlx_runtime_find_backend(rt, "rocm");
    gpu_check_registered(b, "rocm", RLX_DEVICE_ROCM);
    if (b) {
        gpu_check(rlx_backend_get_extension(b, "rlx.probe_key.v1") != NULL,
                  "its probe can be cached (rlx.probe_key.v1)", "");
        gpu_check(rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_F32) &&
                      rlx_backend_supports_op(b, RLX_OP_MATMUL,
                                              RLX_DTYPE_BF16),
                  "matmul on f32 and bf16", "");
        gpu_check(!rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_I32),
                  "no float ops on integer dtypes", "");
    }
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

/* The probe tells the truth: without the HIP runtime it names the
 * package; with it and no AMD GPU it gives the runtime's reason and a
 * Fix, as does a session on rocm; with a GPU a small graph runs. */
TEST(probe_tells_the_truth)
{
    GPU_CHECKS_BEGIN();
    int gpu = expect_gpu();
    printf("# expecting %s\n", gpu ? "an AMD GPU" : "no AMD GPU");
    rlx_runtime *rt = NULL;
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    rlx_status st = rlx_runtime_load_plugin(rt, rocm_plugin());
    const rlx_backend *b = st == RLX_OK ? rlx_runtime_find_backend(rt, "rocm")
                                        : NULL;
    if (!b) {
        rlx_runtime_destroy(rt);
        FAIL("no backend 'rocm' registered: %s", rlx_last_error());
    }
    /* a HIP runtime that is not there: the message names the package */
    uint32_t count = 0;
    char detail[1024];
    setenv("RLX_ROCM_HIP_LIBRARY", "/nonexistent/libamdhip64.so.5", 1);
    st = rlx_backend_probe(b, &count);
    snprintf(detail, sizeof detail, "%s: %s", rlx_status_name(st),
             st ? rlx_last_error() : "");
    gpu_check(st == RLX_ERR_UNAVAILABLE &&
                  strstr(rlx_last_error(), "libamdhip64-5") &&
                  strstr(rlx_last_error(), "Fix:"),
              "without the HIP runtime: unavailable, naming its package",
              detail);
    unsetenv("RLX_ROCM_HIP_LIBRARY");

    st = gpu_probe_timed(b, &count, detail, sizeof detail);
    if (gpu) {
        gpu_check(st == RLX_OK && count >= 1, "probe finds a GPU", detail);
        gpu_check_runs(rt, "rocm", 0);
    } else if (strstr(rlx_last_error(), "could not be loaded")) {
        /* no HIP runtime installed on this machine */
        gpu_check(st == RLX_ERR_UNAVAILABLE &&
                      strstr(rlx_last_error(), "libamdhip64-5"),
                  "no HIP runtime here: unavailable, naming its package",
                  detail);
    } else {
        gpu_check_unavailable(rt, st, "rocm", detail,
                              "hipGetDeviceCount returned hipError",
                              "the message gives the runtime's reason");
    }
    rlx_runtime_destroy(rt);
    GPU_CHECKS_END();
}

/* rocm_rocblas.c against the fake librocblas builds. */
TEST(rocblas_loader)
{
    GPU_CHECKS_BEGIN();
    rocm_rocblas_tests(gpu_check,
                       gpu_test_plugin("RLX_TEST_ROCM_FAKE_ROCBLAS"),
                       gpu_test_plugin("RLX_TEST_ROCM_FAKE_ROCBLAS_PARTIAL"));
    GPU_CHECKS_END();
}

RLX_TEST_LIST(TEST_ENTRY(loads_and_registers),
              TEST_ENTRY(probe_tells_the_truth), TEST_ENTRY(rocblas_loader));
