/*
 * bench_stream.cu - the floor under a batch-1 run on this GPU: how long
 * one kernel takes to read N MiB once (the weights of a batch-1 MLP are
 * read once per run), replayed from a CUDA graph as rlx runs, with and
 * without an L2 access-policy window keeping part of the buffer in L2
 * across replays; and how long an empty graph takes to launch and
 * synchronize (what rlx_program_run pays on top of its kernels).
 *
 *   nvcc -O2 -arch=sm_90 bench/cuda/bench_stream.cu -o bench_stream
 *   ./bench_stream [MIB...]     (default: 12.25 64 76.4, the MLP's layers)
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x)                                                            \
    do {                                                                 \
        cudaError_t e_ = (x);                                            \
        if (e_ != cudaSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,           \
                    cudaGetErrorString(e_));                             \
            exit(1);                                                     \
        }                                                                \
    } while (0)

/* Sums the buffer; the store never happens, but the compiler cannot know. */
__global__ void read_all(const float4 *p, size_t n, float *out)
{
    float s = 0.f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = __ldg(p + i);
        s += v.x + v.y + v.z + v.w;
    }
    if (s == 1234.5f)
        *out = s;
}

__global__ void nothing() {}

static cudaGraphExec_t capture(cudaStream_t s, const float4 *p, size_t n,
                               float *out, int sms)
{
    cudaGraph_t g;
    cudaGraphExec_t x;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    if (p)
        read_all<<<sms * 8, 256, 0, s>>>(p, n, out);
    else
        nothing<<<1, 32, 0, s>>>();
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphDestroy(g));
    return x;
}

static int cmp(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

/* Median µs per replay: SYNC 0 times 200 back-to-back replays between
 * two events (as PyTorch's graph column does), in 9 blocks; SYNC 1
 * launches and synchronizes each replay, timed on the host. */
static float replay_us(cudaStream_t s, cudaGraphExec_t x, int sync)
{
    float t[9];
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 50; i++)
        CK(cudaGraphLaunch(x, s));
    CK(cudaStreamSynchronize(s));
    for (int blk = 0; blk < 9; blk++) {
        CK(cudaEventRecord(a, s));
        for (int i = 0; i < 200; i++) {
            CK(cudaGraphLaunch(x, s));
            if (sync)
                CK(cudaStreamSynchronize(s));
        }
        CK(cudaEventRecord(b, s));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&t[blk], a, b));
        t[blk] *= 1000.f / 200;
    }
    qsort(t, 9, sizeof *t, cmp);
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return t[4];
}

int main(int argc, char **argv)
{
    int dev = 0, sms, l2, persist, window;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    CK(cudaDeviceGetAttribute(&persist, cudaDevAttrMaxPersistingL2CacheSize, dev));
    CK(cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, dev));
    printf("# %s, %d SMs, L2 %.1f MiB (persisting up to %.1f MiB)\n",
           prop.name, sms, l2 / 1048576.0, persist / 1048576.0);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraphExec_t empty = capture(s, NULL, 0, NULL, sms);
    printf("empty graph: %.2f µs per replay queued, %.2f µs launched and "
           "synchronized one by one\n",
           replay_us(s, empty, 0), replay_us(s, empty, 1));
    printf("| MiB | read µs | GB/s | with L2 window µs | GB/s |\n"
           "|---:|---:|---:|---:|---:|\n");
    static const double dflt[] = {12.25, 64.0, 76.4};
    int n = argc > 1 ? argc - 1 : 3;
    for (int i = 0; i < n; i++) {
        double mib = argc > 1 ? atof(argv[i + 1]) : dflt[i];
        size_t bytes = (size_t)(mib * 1048576.0) / 16 * 16;
        float4 *buf;
        float *out;
        CK(cudaMalloc(&buf, bytes));
        CK(cudaMalloc(&out, sizeof *out));
        CK(cudaMemset(buf, 0, bytes));
        cudaGraphExec_t plain = capture(s, buf, bytes / 16, out, sms);
        float t0 = replay_us(s, plain, 0);
        /* the window: as much of the buffer as the set-aside holds */
        CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, persist));
        cudaStreamAttrValue a = {};
        size_t w = bytes < (size_t)window ? bytes : (size_t)window;
        a.accessPolicyWindow.base_ptr = buf;
        a.accessPolicyWindow.num_bytes = w;
        a.accessPolicyWindow.hitRatio =
            (size_t)persist >= w ? 1.f : (float)persist / (float)w;
        a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        CK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &a));
        cudaGraphExec_t kept = capture(s, buf, bytes / 16, out, sms);
        float t1 = replay_us(s, kept, 0);
        cudaStreamAttrValue none = {};
        CK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &none));
        CK(cudaCtxResetPersistingL2Cache());
        CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
        printf("| %.2f | %.2f | %.0f | %.2f | %.0f |\n", mib, t0,
               bytes / (t0 * 1e3), t1, bytes / (t1 * 1e3));
        CK(cudaGraphExecDestroy(plain));
        CK(cudaGraphExecDestroy(kept));
        CK(cudaFree(buf));
        CK(cudaFree(out));
    }
    return 0;
}
