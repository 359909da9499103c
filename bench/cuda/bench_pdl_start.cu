/*
 * bench_pdl_start.cu - when does a programmatic dependent of each of the
 * bf16 encoder block's cuBLASLt GEMMs start? The plugin launches its
 * norm and attention kernels as such dependents; if a GEMM lets its
 * dependents launch early (griddepcontrol.launch_dependents near its
 * start), their blocks sit on the SMs, waiting, for the whole GEMM.
 * A graph of: a one-thread kernel stamping the time (%globaltimer), the
 * GEMM (launched plainly, as cuBLASLt is), then a probe of 256 blocks of
 * 128 threads (the norm's grid) launched as its programmatic dependent,
 * each block stamping when it starts and when its griddepcontrol.wait
 * returns; then the same probe launched plainly, so that the two starts
 * differ by what a plain edge costs over a programmatic one. Two spin
 * kernels calibrate: one lets its dependents launch at once, one at its
 * end. The block's kernels of the plugin's own (its attention and an
 * add + layer_norm, launched plainly here) are primaries too: the edges
 * into cuBLASLt's kernels follow them. Times in µs after the stamp,
 * median of 9 runs.
 *
 *   bash scripts/gpu-kernel-bench.sh pdl_start
 */
#include "../../plugins/gpu-common/gk_launch.cu"
#include "../../plugins/gpu-common/gk_norm.cu"
#include "../../plugins/gpu-common/gk_attention.cu"
#include "../../plugins/gpu-common/gk_attention_mma.cu"
#include "../../plugins/gpu-common/gk_attention_tf32x3.cu"

#include "bench_attn_plan.cuh"
#include "bench_util.cuh"
#include "bench_lt.cuh"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

typedef unsigned long long u64;

__device__ __forceinline__ u64 gtime()
{
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* t[0]: the stamp; t[1], t[2]: the probe's first and last block start;
 * t[3]: its first return from the wait */
__global__ void stamp_kernel(u64 *t)
{
    t[1] = t[3] = ~0ull;
    t[2] = 0;
    t[0] = gtime();
}

__global__ void probe_kernel(u64 *t)
{
    const u64 a = gtime();
    grid_dep_wait();
    const u64 b = gtime();
    if (threadIdx.x == 0) {
        atomicMin(&t[1], a);
        atomicMax(&t[2], a);
        atomicMin(&t[3], b);
    }
}

/* a primary that spins US microseconds on one block per SM, letting its
 * dependents launch at its start (EARLY) or only as it ends */
__global__ void spin_kernel(int us, int early)
{
    if (early)
        grid_dep_release();
    const u64 end = gtime() + (u64)us * 1000;
    while (gtime() < end) {
    }
}

/* the medians over 9 runs of PRIMARY's graph, in µs after the stamp,
 * the probe launched as its programmatic dependent (PDL) or plainly */
static void time_primary(cudaStream_t s, u64 *t, const char *name,
                         const std::function<void()> &primary,
                         bool pdl = true)
{
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    stamp_kernel<<<1, 1, 0, s>>>(t);
    primary();
    CK(launch_dep(pdl, probe_kernel, dim3(256), dim3(128), s, t));
    CK(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    std::vector<double> first, last, wait;
    for (int r = 0; r < 10; r++) {
        CK(cudaGraphLaunch(ge, s));
        CK(cudaStreamSynchronize(s));
        u64 h[4];
        CK(cudaMemcpy(h, t, sizeof h, cudaMemcpyDeviceToHost));
        if (r == 0)
            continue; /* warm-up */
        first.push_back((double)(h[1] - h[0]) / 1e3);
        last.push_back((double)(h[2] - h[0]) / 1e3);
        wait.push_back((double)(h[3] - h[0]) / 1e3);
    }
    auto med = [](std::vector<double> &v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    printf("%-36s %-6s %9.2f %9.2f %9.2f\n", name, pdl ? "PDL" : "plain",
           med(first), med(last), med(wait));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
}

int main()
{
    CK(cudaFree(0));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    u64 *t;
    CK(cudaMalloc(&t, 4 * sizeof(u64)));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("%-36s %-6s %9s %9s %9s\n", "primary", "probe", "1st start",
           "last start", "wait ret");
    time_primary(s, t, "spin 5 us, releases at its start", [&] {
        spin_kernel<<<sms, 32, 0, s>>>(5, 1);
    });
    time_primary(s, t, "spin 5 us, releases at its end", [&] {
        spin_kernel<<<sms, 32, 0, s>>>(5, 0);
    });
    time_primary(
        s, t, "spin 5 us", [&] { spin_kernel<<<sms, 32, 0, s>>>(5, 0); },
        false);
    /* the encoder block's four GEMMs (m x n x k, act), as bench_encoder.cuh */
    const int M = 1024, D = 512, FF = 2048;
    {
        /* the plugin's attention (b8 s128, 8 heads) and add + layer_norm */
        __nv_bfloat16 *qkv = bf_upload_rand((size_t)M * 3 * D, 1.f, 41);
        __nv_bfloat16 *x = bf_upload_rand((size_t)M * D, 1.f, 42);
        __nv_bfloat16 *r = bf_upload_rand((size_t)M * D, 1.f, 43);
        __nv_bfloat16 *g = bf_upload_rand(D, 0.2f, 44);
        __nv_bfloat16 *be = bf_upload_rand(D, 0.2f, 45);
        __nv_bfloat16 *o;
        CK(cudaMalloc(&o, (size_t)M * D * 2));
        const rlxg_attn_plan plan = bench_attn_plan(8, 128, 8);
        for (int pdl = 1; pdl >= 0; pdl--) {
            time_primary(s, t, "attention b8 s128 h8 (tensor cores)", [&] {
                CK(rlxg_attention(s, RLX_DTYPE_BF16, qkv, qkv, qkv, o, &plan,
                                  0));
            }, pdl);
            time_primary(s, t, "add + layer_norm 1024 x 512", [&] {
                CK(rlxg_norm(s, RLX_DTYPE_BF16, 0, x, r, g, be, o, M, D,
                             1e-5f, 0));
            }, pdl);
        }
        for (__nv_bfloat16 *p : { qkv, x, r, g, be, o })
            CK(cudaFree(p));
    }
    const struct {
        const char *name;
        int n, k, relu;
    } gemms[4] = { { "cuBLASLt qkv 1024x1536x512", 3 * D, D, 0 },
                   { "cuBLASLt out-proj 1024x512x512", D, D, 0 },
                   { "cuBLASLt ff1 1024x2048x512 relu", FF, D, 1 },
                   { "cuBLASLt ff2 1024x512x2048", D, FF, 0 } };
    for (int i = 0; i < 4; i++) {
        const int n = gemms[i].n, k = gemms[i].k;
        __nv_bfloat16 *a = bf_upload_rand((size_t)M * k, 1.f, 11 + i);
        __nv_bfloat16 *w = bf_upload_rand((size_t)n * k, 0.05f, 21 + i);
        __nv_bfloat16 *b = bf_upload_rand((size_t)n, 0.2f, 31 + i);
        __nv_bfloat16 *y;
        CK(cudaMalloc(&y, (size_t)M * n * 2));
        Lt lt;
        printf("# ");
        lt.setup(s, M, n, k, a, w, b, y, gemms[i].relu);
        time_primary(s, t, gemms[i].name, [&] { lt.run(s); });
        time_primary(s, t, gemms[i].name, [&] { lt.run(s); }, false);
        lt.done();
        CK(cudaFree(a));
        CK(cudaFree(w));
        CK(cudaFree(b));
        CK(cudaFree(y));
    }
    CK(cudaFree(t));
    CK(cudaStreamDestroy(s));
    return 0;
}
