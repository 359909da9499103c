/*
 * bench_stream.cu - the floor under a batch-1 run on this GPU: how long
 * one kernel takes to read N MiB once (the weights of a batch-1 MLP are
 * read once per run), replayed from a CUDA graph as rlx runs, with and
 * without an L2 access-policy window keeping part of the buffer in L2
 * across replays; and how long an empty graph takes to launch and
 * synchronize (what rlx_program_run pays on top of its kernels). Then
 * ways of reading (`--ways`): how many loads each thread keeps in flight,
 * the L2 prefetch-size hint, a warp per 16 KB row as the GEMV reads its
 * weight, bulk copies into shared memory (sm_90's tensor memory
 * accelerator), and the MLP's three reads as three kernels of one graph.
 *
 *   nvcc -O2 -arch=sm_90 bench/cuda/bench_stream.cu -o bench_stream
 *   (or: bash bench/run.sh cuda)
 *   ./bench_stream [MIB...]     (default: 12.25 64 76.4, the MLP's layers)
 *   ./bench_stream --ways
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#include "bench_util.cuh"


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

/* U loads of 16 bytes in flight per thread, L1 bypassed (as the GEMV
 * loads its weight); HINT: also ask L2 to fetch 256-byte blocks. */
template <int U, bool HINT>
__global__ void __launch_bounds__(256) read_unrolled(const float4 *p,
                                                     size_t n, float *out)
{
    float s = 0.f;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += U * stride) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const float4 *a = p + i + u * stride;
            if (i + u * stride >= n)
                v[u] = make_float4(0.f, 0.f, 0.f, 0.f);
            else if (HINT)
                asm("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 "
                    "{%0, %1, %2, %3}, [%4];"
                    : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w)
                    : "l"(a));
            else
                asm("ld.global.nc.L1::no_allocate.v4.f32 "
                    "{%0, %1, %2, %3}, [%4];"
                    : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z), "=f"(v[u].w)
                    : "l"(a));
        }
#pragma unroll
        for (int u = 0; u < U; u++)
            s += v[u].x + v[u].y + v[u].z + v[u].w;
    }
    if (s == 1234.5f)
        *out = s;
}

/* A warp per row of ROW float4 (a GEMV's weight row), 8 loads in flight
 * per lane; HINT as above. */
template <bool HINT>
__global__ void __launch_bounds__(256) read_rows(const float4 *p, size_t n,
                                                 int row, float *out)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    const float4 *r = p + w * row;
    float s = 0.f;
    if ((w + 1) * row <= n)
        for (int i = lane; i < row; i += 8 * 32) {
            float4 v[8];
#pragma unroll
            for (int u = 0; u < 8; u++) {
                const float4 *a = r + i + u * 32;
                if (i + u * 32 >= row)
                    v[u] = make_float4(0.f, 0.f, 0.f, 0.f);
                else if (HINT)
                    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 "
                        "{%0, %1, %2, %3}, [%4];"
                        : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z),
                          "=f"(v[u].w)
                        : "l"(a));
                else
                    asm("ld.global.nc.L1::no_allocate.v4.f32 "
                        "{%0, %1, %2, %3}, [%4];"
                        : "=f"(v[u].x), "=f"(v[u].y), "=f"(v[u].z),
                          "=f"(v[u].w)
                        : "l"(a));
            }
#pragma unroll
            for (int u = 0; u < 8; u++)
                s += v[u].x + v[u].y + v[u].z + v[u].w;
        }
    if (s == 1234.5f)
        *out = s;
}

/* The tensor memory accelerator's bulk copies (sm_90): one thread per
 * block streams CH-byte chunks into a ring of S stages in shared memory,
 * each completing on its stage's mbarrier; the block sums each chunk
 * from shared memory, then the stage is refilled. Few instructions per
 * byte and up to S * CH bytes in flight per block, with no registers
 * held by loads. */
__device__ __forceinline__ unsigned sa(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

template <int CH, int S>
__global__ void __launch_bounds__(128) read_bulk(const float4 *p, size_t n,
                                                 float *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    extern __shared__ __align__(128) unsigned char ring[];
    __shared__ __align__(8) unsigned long long full[S];
    const size_t chunks = n * 16 / CH;
    auto issue = [&](size_t c, int st) {
        unsigned bar = sa(&full[st]);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                     ::"r"(bar), "r"(CH) : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::"
                     "complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(sa(ring + (size_t)st * CH)),
                     "l"((const char *)p + c * CH), "r"(CH), "r"(bar)
                     : "memory");
    };
    if (threadIdx.x == 0) {
        for (int i = 0; i < S; i++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;"
                         ::"r"(sa(&full[i])));
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    float s = 0.f;
    size_t c0 = blockIdx.x, step = gridDim.x;
    if (threadIdx.x == 0)
        for (int i = 0; i < S && c0 + i * step < chunks; i++)
            issue(c0 + i * step, i);
    int i = 0;
    for (size_t c = c0; c < chunks; c += step, i++) {
        int st = i % S;
        unsigned ph = (unsigned)(i / S) & 1;
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred q; mbarrier.try_wait.parity.shared::"
                         "cta.b64 q, [%1], %2; selp.u32 %0, 1, 0, q; }"
                         : "=r"(done) : "r"(sa(&full[st])), "r"(ph)
                         : "memory");
        const float4 *v = (const float4 *)(ring + (size_t)st * CH);
        for (int j = threadIdx.x; j < CH / 16; j += 128)
            s += v[j].x + v[j].y + v[j].z + v[j].w;
        __syncthreads();
        if (threadIdx.x == 0 && c + S * step < chunks)
            issue(c + S * step, st);
    }
    if (s == 1234.5f)
        *out = s;
#else
    (void)p, (void)n, (void)out;
#endif
}

template <int CH, int S, int BPS>
static void launch_bulk(cudaStream_t s, const float4 *p, size_t n,
                        float *out, int sms)
{
    static bool set;
    if (!set) {
        CK(cudaFuncSetAttribute(read_bulk<CH, S>,
                                cudaFuncAttributeMaxDynamicSharedMemorySize,
                                CH * S));
        set = true;
    }
    read_bulk<CH, S><<<sms * BPS, 128, CH * S, s>>>(p, n, out);
}

typedef void (*launch_fn)(cudaStream_t, const float4 *, size_t, float *,
                          int);

template <int U, bool HINT>
static void launch_unrolled(cudaStream_t s, const float4 *p, size_t n,
                            float *out, int sms)
{
    read_unrolled<U, HINT><<<sms * 8, 256, 0, s>>>(p, n, out);
}

/* rows of 16 KB (4096 floats, the MLP's layer 2), 8 warps a block */
template <bool HINT>
static void launch_rows(cudaStream_t s, const float4 *p, size_t n,
                        float *out, int sms)
{
    (void)sms;
    size_t rows = n / 1024;
    read_rows<HINT><<<(unsigned)((rows + 7) / 8), 256, 0, s>>>(p, n, 1024,
                                                              out);
}

/* A graph of the reads FN makes of each of N buffers, in order. */
static cudaGraphExec_t capture_fn(cudaStream_t s, launch_fn fn, int nb,
                                  float4 *const *bufs, const size_t *n,
                                  float *out, int sms)
{
    cudaGraph_t g;
    cudaGraphExec_t x;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < nb; i++)
        fn(s, bufs[i], n[i], out, sms);
    CK(cudaStreamEndCapture(s, &g));
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphDestroy(g));
    return x;
}

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

static float replay_us(cudaStream_t s, cudaGraphExec_t x, int sync);

/* --ways: each way of reading 12.25, 64 and 76.4 MiB, and the MLP's
 * three reads (12.25 + 64 + 0.16 MiB) as three kernels of one graph. */
static int ways(cudaStream_t s, int sms)
{
    static const struct {
        const char *name;
        launch_fn fn;
    } way[] = {
        { "1 load in flight (__ldg loop)", NULL },
        { "4 loads in flight", launch_unrolled<4, false> },
        { "8 loads in flight", launch_unrolled<8, false> },
        { "8 in flight, L2::256B", launch_unrolled<8, true> },
        { "16 in flight", launch_unrolled<16, false> },
        { "a warp per 16 KB row", launch_rows<false> },
        { "a warp per 16 KB row, L2::256B", launch_rows<true> },
        { "bulk copies 16 KB x 4, 1 block/SM", launch_bulk<16384, 4, 1> },
        { "bulk copies 16 KB x 8, 1 block/SM", launch_bulk<16384, 8, 1> },
        { "bulk copies 8 KB x 8, 2 blocks/SM", launch_bulk<8192, 8, 2> },
        { "bulk copies 4 KB x 8, 4 blocks/SM", launch_bulk<4096, 8, 4> },
        { "bulk copies 32 KB x 4, 1 block/SM", launch_bulk<32768, 4, 1> },
    };
    static const double mib[] = { 12.25, 64.0, 76.4, 0.16 };
    float4 *buf[4];
    size_t n[4];
    float *out;
    CK(cudaMalloc(&out, sizeof *out));
    for (int i = 0; i < 4; i++) {
        size_t bytes = (size_t)(mib[i] * 1048576.0) / 16384 * 16384;
        n[i] = bytes / 16;
        CK(cudaMalloc(&buf[i], bytes));
        CK(cudaMemset(buf[i], 0, bytes));
    }
    printf("\n| way | 12.25 MiB µs | 64 MiB µs | GB/s | 76.4 MiB µs | "
           "GB/s | 12.25 + 64 + 0.16 in 3 kernels µs |\n"
           "|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t w = 0; w < sizeof way / sizeof *way; w++) {
        float t[4];
        for (int i = 0; i < 4; i++) {
            cudaGraphExec_t x =
                way[w].fn ? capture_fn(s, way[w].fn, 1, &buf[i], &n[i], out,
                                       sms)
                          : capture(s, buf[i], n[i], out, sms);
            t[i] = i < 3 ? replay_us(s, x, 0) : 0.f;
            CK(cudaGraphExecDestroy(x));
        }
        float chain = 0.f;
        if (way[w].fn) {
            float4 *b3[3] = { buf[0], buf[1], buf[3] };
            size_t n3[3] = { n[0], n[1], n[3] };
            cudaGraphExec_t x = capture_fn(s, way[w].fn, 3, b3, n3, out, sms);
            chain = replay_us(s, x, 0);
            CK(cudaGraphExecDestroy(x));
        }
        printf("| %s | %.2f | %.2f | %.0f | %.2f | %.0f | %.2f |\n",
               way[w].name, t[0], t[1], n[1] * 16 / (t[1] * 1e3), t[2],
               n[2] * 16 / (t[2] * 1e3), chain);
    }
    for (int i = 0; i < 4; i++)
        CK(cudaFree(buf[i]));
    CK(cudaFree(out));
    return 0;
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
    if (argc > 1 && strcmp(argv[1], "--ways") == 0)
        return ways(s, sms);
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
