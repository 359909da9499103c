/*
 * bench_attn_proj.cu - an experiment that lost, kept with its
 * measurement: the attention sub-layer of a transformer block as one
 * kernel (bench_attn_proj.cuh: attention, out-projection, bias, residual
 * add, layer_norm) against the three kernels the cuda plugin runs for it
 * unfused: the tensor-core attention (gk_attention_mma.cu),
 * cuBLASLt's fastest heuristic algorithm with its bias epilogue, and the
 * add + norm kernel (gk_norm.cu). bf16, q, k and v read from one
 * [b, s, 3 n] buffer as the encoder's plan does. Each side is timed
 * alone and after the qkv projection (cuBLASLt) that precedes it in the
 * encoder block, the fused kernel launched plainly and as a programmatic
 * dependent. The fused output is checked against the unfused one. What
 * each part of the fused kernel costs: the time with it left out
 * (APN_SKIP_*); and an empty kernel's launch with and without clusters
 * and the fused kernel's shared memory. Times: 20 launches (or pairs) captured in a CUDA graph, replayed,
 * event-timed; the median of 15 replays, per launch.
 *
 *   bash scripts/gpu-kernel-bench.sh attn_proj
 */
#include "../../plugins/gpu-common/gk_launch.cu"
#include "../../plugins/gpu-common/gk_norm.cu"
#include "../../plugins/gpu-common/gk_attention.cu"
#include "../../plugins/gpu-common/gk_attention_mma.cu"
#include "../../plugins/gpu-common/gk_attention_tf32x3.cu"

#include "bench_attn_plan.cuh"
#include "bench_attn_proj.cuh"
#include "bench_util.cuh"
#include "bench_lt.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

typedef __nv_bfloat16 bf;

static float bf2f(bf x) { return __bfloat162float(x); }

static bool run_shape(int B, int S, int H)
{
    const int n = H * 64, rows = B * S;
    const float eps = 1e-5f;
    printf("# bf16 batch %d, seq %d, heads %d (n %d)\n", B, S, H, n);
    const rlxg_attn_plan p = bench_attn_plan(B, S, H);
    if (!apn_ok(p)) {
        printf("declined: needs the sm_90 code\n");
        return false;
    }

    std::vector<bf> hx((size_t)rows * n), hwi((size_t)3 * n * n),
        hbi(3 * n), hw((size_t)n * n), hb(n), hg(n), hbe(n);
    bench_rng rnd = { 1234567ull };
    for (auto &e : hx) e = __float2bfloat16(rnd());
    for (auto &e : hwi) e = __float2bfloat16(rnd() / sqrtf((float)n) * 1.7f);
    for (auto &e : hbi) e = __float2bfloat16(0.2f * rnd());
    for (auto &e : hw) e = __float2bfloat16(rnd() / sqrtf((float)n) * 1.7f);
    for (auto &e : hb) e = __float2bfloat16(0.2f * rnd());
    for (auto &e : hg) e = __float2bfloat16(1.f + 0.2f * rnd());
    for (auto &e : hbe) e = __float2bfloat16(0.2f * rnd());
    auto up = bench_upload<bf>;
    bf *x, *wi, *bi, *w, *b, *g, *be, *qkv, *o, *t, *y, *yf;
    up(&x, hx), up(&wi, hwi), up(&bi, hbi), up(&w, hw), up(&b, hb);
    up(&g, hg), up(&be, hbe);
    for (bf **d : { &qkv, &o, &t, &y, &yf })
        CK(cudaMalloc(d, (size_t)rows * 3 * n * sizeof(bf)));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    Lt lqkv, lo;
    lqkv.setup(s, rows, 3 * n, n, x, wi, bi, qkv);
    lqkv.run(s);
    lo.setup(s, rows, n, n, o, w, b, t);
    auto unfused = [&] {
        CK(rlxg_attention(s, RLX_DTYPE_BF16, qkv, qkv, qkv, o, &p, 0));
        lo.run(s);
        CK(rlxg_norm(s, RLX_DTYPE_BF16, 0, t, x, g, be, y, rows, n, eps, 0));
    };
    auto fused = [&](int pdl, int skip = 0) {
        CK(apn_run(s, qkv, qkv, qkv, o, w, b, x, g, be, yf, p, eps, pdl,
                   skip));
    };

    /* the fused output against the unfused one */
    std::vector<bf> hy((size_t)rows * n), hyf((size_t)rows * n);
    bool ok = true;
    auto check = [&](const char *name) {
        CK(cudaStreamSynchronize(s));
        CK(cudaMemcpy(hy.data(), y, hy.size() * sizeof(bf),
                      cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(hyf.data(), yf, hyf.size() * sizeof(bf),
                      cudaMemcpyDeviceToHost));
        double num = 0, den = 0, md = 0;
        for (size_t i = 0; i < hy.size(); i++) {
            double d = (double)bf2f(hyf[i]) - bf2f(hy[i]);
            num += d * d, den += (double)bf2f(hy[i]) * bf2f(hy[i]);
            md = d == d ? std::max(md, fabs(d)) : 1e30;
        }
        double rel = sqrt(num / den);
        printf("  %-44s rel.diff %.1e  max|diff| %.1e%s\n", name, rel, md,
               rel < 1e-2 ? "" : "  FAIL");
        ok &= rel < 1e-2;
        CK(cudaMemset(yf, 0xff, hyf.size() * sizeof(bf)));
    };
    unfused();
    fused(0);
    check("fused vs unfused");
    fused(1);
    check("fused (PDL) vs unfused");

    float tu = time_us(s, unfused);
    float tf = time_us(s, [&] { fused(0); });
    float tp = time_us(s, [&] { fused(1); });
    printf("  alone:      unfused %7.2f us   fused %7.2f (%.2fx)   fused, "
           "PDL %7.2f (%.2fx)\n", tu, tf, tu / tf, tp, tu / tp);
    static const struct {
        int skip;
        const char *what;
    } parts[] = {
        { APN_SKIP_ATTENTION, "attention" },
        { APN_SKIP_PROJECTION, "projection" },
        { APN_SKIP_EXCHANGE, "stats exchange + its cluster barrier" },
        { APN_SKIP_O_SYNC, "cluster barrier after attention" },
        { 15, "all four (what is left: launch, o/res/y traffic, norm)" },
    };
    for (const auto &pt : parts) {
        float us = time_us(s, [&] { fused(0, pt.skip); });
        printf("  fused without %-54s %7.2f us (%s%.2f)\n", pt.what, us,
               pt.skip == 15 ? "that part: " : "costs ",
               pt.skip == 15 ? us : tf - us);
    }
    float tq = time_us(s, [&] { lqkv.run(s); });
    float tqu = time_us(s, [&] { lqkv.run(s); unfused(); });
    float tqf = time_us(s, [&] { lqkv.run(s); fused(0); });
    float tqp = time_us(s, [&] { lqkv.run(s); fused(1); });
    printf("  after qkv:  qkv alone %7.2f   qkv + unfused %7.2f   qkv + "
           "fused %7.2f (saves %.2f)   qkv + fused, PDL %7.2f (saves %.2f)\n",
           tq, tqu, tqf, tqu - tqf, tqp, tqu - tqp);
    fused(1);
    check("fused (PDL) after the timing runs");
    lqkv.done();
    lo.done();
    for (bf *d : { x, wi, bi, w, b, g, be, qkv, o, t, y, yf })
        CK(cudaFree(d));
    CK(cudaStreamDestroy(s));
    return ok;
}

/* an empty kernel: what a launch alone costs */
__global__ void empty_kernel() {}

/* An empty kernel's launch, 128 blocks of 128 threads as the encoder's
 * fused launch, plain and in clusters of 8, with no dynamic shared memory
 * and with the fused kernel's */
static void launch_costs()
{
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    const int smem = (int)smem_bytes<gpu_bf16>();
    CK(cudaFuncSetAttribute(empty_kernel,
                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                            smem));
    printf("# an empty kernel, 128 blocks of 128 threads (µs per launch)\n");
    for (int cl = 1; cl <= 8; cl *= 8)
        for (int sm = 0; sm <= smem; sm += smem) {
            cudaLaunchAttribute attr;
            attr.id = cudaLaunchAttributeClusterDimension;
            attr.val.clusterDim.x = (unsigned)cl;
            attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
            cudaLaunchConfig_t cfg = {};
            cfg.gridDim = dim3(8, 2, 8);
            cfg.blockDim = dim3(128);
            cfg.dynamicSmemBytes = (size_t)sm;
            cfg.stream = s;
            cfg.attrs = &attr;
            cfg.numAttrs = cl > 1;
            float us = time_us(s, [&] {
                CK(cudaLaunchKernelEx(&cfg, empty_kernel));
            });
            printf("  %s, %2d KB of shared memory: %6.2f us\n",
                   cl > 1 ? "clusters of 8" : "no cluster   ", sm >> 10, us);
        }
    CK(cudaStreamDestroy(s));
}

int main()
{
    launch_costs();
    bool ok = run_shape(8, 128, 8); /* the encoder block's */
    ok &= run_shape(1, 512, 8);
    ok &= run_shape(4, 64, 4);
    ok &= run_shape(2, 256, 2);
    ok &= run_shape(8, 128, 2);
    return ok ? 0 : 1;
}
