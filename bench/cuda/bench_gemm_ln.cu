/*
 * bench_gemm_ln.cu - an experiment that lost twice, kept with its
 * measurement: a Linear layer + residual add + layer_norm in bf16 as one
 * kernel (bench_gemm_ln.cuh: wgmma tiles fed by cp.async; the blocks that
 * share rows form a thread-block cluster and exchange their rows' sums,
 * and with K split their partial products, through distributed shared
 * memory), against what the cuda plugin runs unfused: the fastest of
 * cuBLASLt's heuristic algorithms with its bias epilogue, then
 * gk_norm.cu's add + norm kernel. Each tile shape is timed launched
 * plainly and as a programmatic dependent of the launch before (its
 * weight tiles copied before it waits). Shapes: the encoder block's
 * out-proj (1024 x 512 x 512) and ff2 (1024 x 512 x 2048), a partial
 * last row block, and a cluster of 8 column blocks. Everything is checked
 * against a float64 reference of the same steps (bf16 rounding where a
 * step stores). Times: 20 launches captured in a CUDA graph, replayed,
 * event-timed; the median of 15 replays, per launch.
 *
 * On an H200 the sixth session's mma.sync form of the kernel was 2.4x to
 * 3.6x slower than the two unfused kernels, bound by the instructions
 * mma.sync needs; this wgmma form (ninth session) is still 1.5x to 2.3x
 * slower: its product alone takes about twice cuBLASLt's time, and the
 * cluster-wide statistics add more than the norm kernel costs
 * (bench/cuda/RESULTS.md). A fused kernel worth having would need
 * cuBLASLt's TMA-fed, warp-specialized mainloop first.
 *
 *   bash scripts/gpu-kernel-bench.sh gemm_ln
 */
#include "../../plugins/gpu-common/gk_launch.cu"
#include "../../plugins/gpu-common/gk_norm.cu"

#include <cublasLt.h>

#include "bench_gemm_ln.cuh"
#include "bench_util.cuh"
#include "bench_lt.cuh"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

typedef __nv_bfloat16 bf;

static float bf2f(bf x) { return __bfloat162float(x); }
static double rbf(double v) { return (double)bf2f(__float2bfloat16((float)v)); }

static void run_shape(int m, int n, int k)
{
    const float eps = 1e-5f;
    printf("# bf16 m %d n %d k %d: y = layer_norm(x @ w^T + bias + res)\n",
           m, n, k);
    std::vector<bf> ha((size_t)m * k), hw((size_t)n * k), hb(n),
        hr((size_t)m * n), hg(n), hbe(n);
    bench_rng rnd = { 987654321ull };
    for (auto &x : ha) x = __float2bfloat16(rnd());
    for (auto &x : hw) x = __float2bfloat16(rnd() / sqrtf((float)k) * 1.7f);
    for (auto &x : hb) x = __float2bfloat16(0.2f * rnd());
    for (auto &x : hr) x = __float2bfloat16(rnd());
    for (auto &x : hg) x = __float2bfloat16(1.f + 0.2f * rnd());
    for (auto &x : hbe) x = __float2bfloat16(0.2f * rnd());
    /* float64 reference of the same steps */
    std::vector<double> ref((size_t)m * n), v(n);
    for (int r = 0; r < m; r++) {
        double mean = 0, var = 0;
        for (int c = 0; c < n; c++) {
            double s = 0;
            for (int i = 0; i < k; i++)
                s += (double)bf2f(ha[(size_t)r * k + i]) *
                     bf2f(hw[(size_t)c * k + i]);
            v[c] = rbf(rbf(s + bf2f(hb[c])) + bf2f(hr[(size_t)r * n + c]));
            mean += v[c];
        }
        mean /= n;
        for (int c = 0; c < n; c++)
            var += (v[c] - mean) * (v[c] - mean);
        var /= n;
        for (int c = 0; c < n; c++)
            ref[(size_t)r * n + c] =
                (v[c] - mean) / sqrt(var + eps) * bf2f(hg[c]) + bf2f(hbe[c]);
    }
    bf *a, *w, *b, *r, *g, *be, *tmp, *y;
    auto up = bench_upload<bf>;
    up(&a, ha), up(&w, hw), up(&b, hb), up(&r, hr), up(&g, hg), up(&be, hbe);
    CK(cudaMalloc(&tmp, (size_t)m * n * sizeof(bf)));
    CK(cudaMalloc(&y, (size_t)m * n * sizeof(bf)));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    std::vector<bf> hy((size_t)m * n);
    auto check = [&](const char *name, float us, float base) {
        CK(cudaMemcpy(hy.data(), y, hy.size() * sizeof(bf),
                      cudaMemcpyDeviceToHost));
        double num = 0, den = 0, md = 0;
        for (size_t i = 0; i < hy.size(); i++) {
            double d = bf2f(hy[i]) - ref[i];
            num += d * d, den += ref[i] * ref[i];
            md = d == d ? std::max(md, fabs(d)) : 1e30;
        }
        double rel = sqrt(num / den);
        printf("%-34s %8.2f us  %5.2fx  rel.err %.1e  max|diff| %.1e%s\n",
               name, us, base / us, rel, md, rel < 1e-2 ? "" : "  FAIL");
        CK(cudaMemset(y, 0xff, hy.size() * sizeof(bf)));
        return rel < 1e-2;
    };
    Lt lt;
    float t_mm = lt.setup(s, m, n, k, a, w, b, tmp);
    float t_norm = time_us(s, [&] {
        CK(rlxg_norm(s, RLX_DTYPE_BF16, 0, tmp, r, g, be, y, m, n, eps, 0));
    });
    float t_un = time_us(s, [&] {
        lt.run(s);
        CK(rlxg_norm(s, RLX_DTYPE_BF16, 0, tmp, r, g, be, y, m, n, eps, 0));
    });
    printf("add + layer_norm kernel alone       %8.2f us\n", t_norm);
    bool ok = check("unfused (cuBLASLt, then norm)", t_un, t_un);
    for (int cfg = 0; cfg < GLN_CONFIGS; cfg++) {
        if (!gemm_ln_ok(m, n, k, cfg)) {
            printf("%-34s declined\n", kGlnNames[cfg]);
            continue;
        }
        for (int dep = 0; dep < 2; dep++) {
            float us = time_us(s, [&] {
                CK(gemm_ln(s, a, w, b, r, g, be, y, m, n, k, eps, cfg,
                           dep));
            });
            char name[64];
            snprintf(name, sizeof name, "%s%s", kGlnNames[cfg],
                     dep ? ", PDL" : "");
            ok &= check(name, us, t_un);
        }
    }
    (void)t_mm;
    lt.done();
    for (bf *p : { a, w, b, r, g, be, tmp, y })
        CK(cudaFree(p));
    CK(cudaStreamDestroy(s));
    if (!ok)
        exit(1);
}

int main()
{
    run_shape(1024, 512, 512);  /* the encoder's out-proj */
    run_shape(1024, 512, 2048); /* the encoder's ff2 */
    run_shape(1000, 512, 768);  /* a last, partial row block */
    run_shape(256, 1024, 1024); /* a cluster of 8 column blocks */
    return 0;
}
