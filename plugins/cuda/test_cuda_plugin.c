/*
 * test_cuda_plugin.c - loads librlx-backend-cuda.so through the public
 * API and checks what every machine can check: the file loads quickly,
 * registers backend "cuda" on device cuda, answers supports_op, and its
 * probe tells the truth. Without a GPU the probe must fail with
 * RLX_ERR_UNAVAILABLE and a message holding "Fix:", and a session on
 * cuda must fail the same way; with a GPU it must succeed and a small
 * graph must run and match the CPU. Prints TAP. The scenarios it shares
 * with the ROCm plugin's test are in test/gpu_plugin_check.h.
 *
 * Whether a GPU is expected: RLX_TEST_CUDA_EXPECT=gpu|none, else the
 * presence of /dev/nvidia0 (and CUDA_VISIBLE_DEVICES not hiding all).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "../../test/gpu_plugin_check.h"
#include "test_cuda_expect.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PLUGIN.so\n", argv[0]);
        return 2;
    }
    int gpu = cuda_test_expect_gpu();
    printf("# expecting %s\n", gpu ? "a GPU" : "no GPU");
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
    ok(dt < 200.0, "loading takes little time (no CUDA context)", ms);

    const rlx_backend *b = rlx_runtime_find_backend(rt, "cuda");
    gpu_check_registered(b, "cuda", RLX_DEVICE_CUDA);
    if (b) {
        ok(rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_F32) &&
               rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_F16) &&
               rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_BF16),
           "matmul on f32, f16 and bf16", "");
        ok(!rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_I32) &&
               !rlx_backend_supports_op(b, RLX_OP_EXP, RLX_DTYPE_F64),
           "no float ops on integer or f64 dtypes", "");
        ok(rlx_backend_supports_op(b, RLX_OP_TRANSPOSE, RLX_DTYPE_I64) &&
               rlx_backend_supports_op(b, RLX_OP_GATHER, RLX_DTYPE_U8),
           "data movement on any dtype", "");
        ok(!rlx_backend_supports_op(b, (rlx_op)9999, RLX_DTYPE_F32) &&
               !rlx_backend_supports_op(b, RLX_OP_ADD, (rlx_dtype)999),
           "unknown op and dtype answer 0", "");
        ok(rlx_backend_device_io(b) && rlx_backend_queues(b),
           "device I/O and queued runs (rlx.queue.v1)", "");

        uint32_t count = 0;
        t0 = now_ms();
        st = rlx_backend_probe(b, &count);
        dt = now_ms() - t0;
        char detail[1024];
        snprintf(detail, sizeof detail, "%s, %u devices, %.1f ms: %s",
                 rlx_status_name(st), (unsigned)count, dt,
                 st ? rlx_last_error() : "");
        if (gpu) {
            ok(st == RLX_OK && count >= 1, "probe finds a GPU", detail);
            gpu_check_runs(rt, "cuda", 1);
        } else {
            gpu_check_unavailable(rt, st, "cuda", detail, "cuda",
                                  "the message names the CUDA error");
        }
    }
    rlx_runtime_destroy(rt);
    printf("1..%d\n", n_test);
    return n_fail != 0;
}
