/*
 * bench_util.cuh - what the stand-alone kernel benchmarks of bench/cuda
 * share: exiting with the place and the error when a CUDA (CK) or
 * cuBLAS (CKB) call fails, and timing a launch as rlx runs it, from a
 * CUDA graph (time_us: 20 launches per graph; time_queued_us: one per
 * graph, the graphs queued back to back), or launched straight onto the
 * stream with no graph (time_direct_us).
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

/* uniform in [-1, 1) from a fixed linear congruential sequence, so that
 * every run sees the same data */
struct bench_rng {
    unsigned long long st;
    float operator()()
    {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        return (float)((st >> 40) / 16777216.0 * 2 - 1);
    }
};

/* H copied into a new device buffer *D */
template <typename E>
static inline void bench_upload(E **d, const std::vector<E> &h)
{
    CK(cudaMalloc(d, h.size() * sizeof(E)));
    CK(cudaMemcpy(*d, h.data(), h.size() * sizeof(E),
                  cudaMemcpyHostToDevice));
}

/* LAUNCH captured N times in a CUDA graph (after one call to check it),
 * EDIT (where given) applied to the graph before it is instantiated; the
 * caller destroys the graph */
static inline cudaGraphExec_t capture(
    cudaStream_t s, const std::function<void()> &launch, int n,
    const std::function<void(cudaGraph_t)> &edit = nullptr)
{
    launch();
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < n; i++)
        launch();
    CK(cudaStreamEndCapture(s, &g));
    if (edit)
        edit(g);
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphDestroy(g));
    return ge;
}

/* µs per unit of work: BATCHES times BODY (UNITS units) between two
 * events on S; the median batch, the first (warm-up) left out */
static inline float median_us(cudaStream_t s, int batches, float units,
                              const std::function<void()> &body)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < batches; r++) {
        CK(cudaEventRecord(a, s));
        body();
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (r)
            t.push_back(ms * 1e3f / units);
    }
    std::sort(t.begin(), t.end());
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return t[t.size() / 2];
}

/* µs per launch: BATCHES times, GRAPHS launches of GE (PER launches
 * each) back to back; GE destroyed */
static inline float replay_us(cudaStream_t s, cudaGraphExec_t ge,
                              int graphs, int per, int batches)
{
    float us = median_us(s, batches, (float)graphs * per, [&] {
        for (int i = 0; i < graphs; i++)
            CK(cudaGraphLaunch(ge, s));
    });
    CK(cudaGraphExecDestroy(ge));
    return us;
}

/* µs per LAUNCH: 20 launches captured in a CUDA graph, replayed 16 times
 * (the first as warm-up); the median replay over 20 */
static inline float time_us(cudaStream_t s,
                            const std::function<void()> &launch)
{
    return replay_us(s, capture(s, launch, 20), 1, 20, 16);
}

/* µs per LAUNCH as rlx's queued runs go: one launch per CUDA graph, the
 * graph launched 200 times back to back; the median of 9 such batches
 * (after one warm-up batch) */
static inline float time_queued_us(cudaStream_t s,
                                   const std::function<void()> &launch)
{
    return replay_us(s, capture(s, launch, 1), 200, 1, 10);
}

/* µs per LAUNCH made straight onto the stream, no graph: 200 back to
 * back, so the kernels of one call may start while the previous call's
 * finish (programmatic dependents); the median of 9 such batches (after
 * one warm-up batch). The host must launch faster than the GPU runs. */
static inline float time_direct_us(cudaStream_t s,
                                   const std::function<void()> &launch)
{
    launch();
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s));
    return median_us(s, 10, 200, [&] {
        for (int i = 0; i < 200; i++)
            launch();
    });
}

#endif
