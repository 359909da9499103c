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
 * and match the CPU. Prints TAP. The scenarios it shares with the CUDA
 * plugin's test are in test/gpu_plugin_check.h.
 *
 * Then the rocBLAS loader and argument translation (test_rocm_rocblas.c)
 * against the fake librocblas builds named by the second and third
 * arguments.
 *
 * Whether a GPU is expected: RLX_TEST_ROCM_EXPECT=gpu|none, else the
 * presence of /dev/kfd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "../../test/gpu_plugin_check.h"

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

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s PLUGIN.so FAKE-ROCBLAS.so "
                "FAKE-ROCBLAS-NO-SGEMM.so\n", argv[0]);
        return 2;
    }
    int gpu = expect_gpu();
    printf("# expecting %s\n", gpu ? "an AMD GPU" : "no AMD GPU");
    rlx_runtime *rt = NULL;
    ok(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) == RLX_OK,
       "runtime created without discovery", rlx_last_error());
    if (!rt) {
        printf("1..%d\n", n_test);
        return 1;
    }
    double t0 = now_ms();
    rlx_status st = rlx_runtime_load_plugin(rt, argv[1]);
    double dt = now_ms() - t0;
    ok(st == RLX_OK, "plugin loads", st ? rlx_last_error() : "");
    char ms[64];
    snprintf(ms, sizeof ms, "%.2f ms", dt);
    ok(dt < 200.0, "loading takes little time", ms);
    ok(!mapped("libamdhip64"), "loading does not load the HIP runtime", "");

    const rlx_backend *b = rlx_runtime_find_backend(rt, "rocm");
    gpu_check_registered(b, "rocm", RLX_DEVICE_ROCM);
    if (b) {
        ok(rlx_backend_get_extension(b, "rlx.probe_key.v1") != NULL,
           "its probe can be cached (rlx.probe_key.v1)", "");
        ok(rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_F32) &&
               rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_BF16),
           "matmul on f32 and bf16", "");
        ok(!rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_I32),
           "no float ops on integer dtypes", "");

        /* a HIP runtime that is not there: the message names the package */
        uint32_t count = 0;
        char detail[1024];
        setenv("RLX_ROCM_HIP_LIBRARY", "/nonexistent/libamdhip64.so.5", 1);
        st = rlx_backend_probe(b, &count);
        snprintf(detail, sizeof detail, "%s: %s", rlx_status_name(st),
                 st ? rlx_last_error() : "");
        ok(st == RLX_ERR_UNAVAILABLE &&
               strstr(rlx_last_error(), "libamdhip64-5") &&
               strstr(rlx_last_error(), "Fix:"),
           "without the HIP runtime: unavailable, naming its package",
           detail);
        unsetenv("RLX_ROCM_HIP_LIBRARY");

        t0 = now_ms();
        st = rlx_backend_probe(b, &count);
        dt = now_ms() - t0;
        snprintf(detail, sizeof detail, "%s, %u devices, %.1f ms: %s",
                 rlx_status_name(st), (unsigned)count, dt,
                 st ? rlx_last_error() : "");
        if (gpu) {
            ok(st == RLX_OK && count >= 1, "probe finds a GPU", detail);
            gpu_check_runs(rt, "rocm", 0);
        } else if (strstr(rlx_last_error(), "could not be loaded")) {
            /* no HIP runtime installed on this machine */
            ok(st == RLX_ERR_UNAVAILABLE &&
                   strstr(rlx_last_error(), "libamdhip64-5"),
               "no HIP runtime here: unavailable, naming its package",
               detail);
        } else {
            gpu_check_unavailable(rt, st, "rocm", detail,
                                  "hipGetDeviceCount returned hipError",
                                  "the message gives the runtime's reason");
        }
    }
    rlx_runtime_destroy(rt);
    rocm_rocblas_tests(ok, argv[2], argv[3]);
    printf("1..%d\n", n_test);
    return n_fail != 0;
}
