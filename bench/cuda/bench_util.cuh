/*
 * bench_util.cuh - what the stand-alone kernel benchmarks of bench/cuda
 * share: exiting with the place and the error when a CUDA (CK) or
 * cuBLAS (CKB) call fails, and timing a launch as rlx runs it, from a
 * CUDA graph (time_us).
 */
#ifndef RLX_BENCH_UTIL_CUH
#define RLX_BENCH_UTIL_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CK(x)                                                              \
    do {                                                                   \
        cudaError_t e_ = (x);                                              \
        if (e_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x,      \
                    cudaGetErrorString(e_));                               \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

/* for cuBLAS and cuBLASLt calls; the file includes their header */
#define CKB(x)                                                             \
    do {                                                                   \
        cublasStatus_t s_ = (x);                                           \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                 \
            fprintf(stderr, "%s:%d %s: cublas %d\n", __FILE__, __LINE__,   \
                    #x, (int)s_);                                          \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

/* µs per LAUNCH: once to check it, then 20 launches captured in a CUDA
 * graph, replayed 16 times (the first as warm-up), each replay
 * event-timed; the median replay over 20 */
static inline float time_us(cudaStream_t s,
                            const std::function<void()> &launch)
{
    launch();
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < 20; i++)
        launch();
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < 16; r++) {
        CK(cudaEventRecord(a, s));
        CK(cudaGraphLaunch(ge, s));
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (r)
            t.push_back(ms * 1e3f / 20);
    }
    std::sort(t.begin(), t.end());
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return t[t.size() / 2];
}

#endif
