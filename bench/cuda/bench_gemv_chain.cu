/*
 * bench_gemv_chain.cu - a batch-1 MLP (784-4096-4096-10) as three GEMVs
 * (the plugin's rlxg_gemv, launched as programmatic dependents) against
 * the plugin's chain (rlxg_gemv_chain): the first two layers as ONE
 * weight stream, layer 2 split over its input so a block multiplies its
 * hidden units into its slice of layer 2 with no wait for the rest of
 * layer 1, then layer 3's GEMV. Each row is timed three ways: 20
 * forwards in one CUDA graph (time_us), one forward per graph with the
 * graphs queued back to back (time_queued_us), and launched straight
 * onto the stream (time_direct_us), as the cuda plugin queues short
 * batch-1 chains; each checked against a float64 host reference. The
 * kernels come from the cuda plugin's kernel library (gpu_kernels.h).
 * Built with -Dbench=true; run by bench/run.sh.
 */
#include <rlx/types.h>

#include "gpu_kernels.h"
#include "bench_util.cuh"

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

/* how the plugin launches its GEMVs */
const int F = RLXG_GEMV_EARLY | RLXG_GEMV_PDL;

struct Net {
    int64_t k0 = 784, nh = 4096, n2 = 4096, n3 = 10;
    float *x, *w1, *b1, *w2, *b2, *w3, *b3, *y1, *y2, *y3, *P;
};

/* the plugin's batch-1 path: warps per column chosen by rlxg_gemv */
void three_gemvs(cudaStream_t s, const Net &m)
{
    CK(rlxg_gemv(s, RLX_DTYPE_F32, m.x, m.w1, m.b1, m.y1, 1, m.nh, m.k0, 0,
                 F | RLXG_GEMV_RELU));
    CK(rlxg_gemv(s, RLX_DTYPE_F32, m.y1, m.w2, m.b2, m.y2, 1, m.n2, m.nh, 0,
                 F | RLXG_GEMV_RELU));
    CK(rlxg_gemv(s, RLX_DTYPE_F32, m.y2, m.w3, m.b3, m.y3, 1, m.n3, m.n2, 0,
                 F));
}

std::vector<float> host_ref(const Net &m, const std::vector<float> &x,
                            const std::vector<float> &w1,
                            const std::vector<float> &b1,
                            const std::vector<float> &w2,
                            const std::vector<float> &b2,
                            const std::vector<float> &w3,
                            const std::vector<float> &b3)
{
    std::vector<double> h(m.nh), h2(m.n2);
    for (int64_t j = 0; j < m.nh; j++) {
        double v = b1[j];
        for (int64_t k = 0; k < m.k0; k++)
            v += (double)x[k] * w1[j * m.k0 + k];
        h[j] = v < 0 ? 0 : v;
    }
    for (int64_t c = 0; c < m.n2; c++) {
        double v = b2[c];
        for (int64_t j = 0; j < m.nh; j++)
            v += h[j] * w2[c * m.nh + j];
        h2[c] = v < 0 ? 0 : v;
    }
    std::vector<float> y(m.n3);
    for (int64_t o = 0; o < m.n3; o++) {
        double v = b3[o];
        for (int64_t c = 0; c < m.n2; c++)
            v += h2[c] * w3[o * m.n2 + c];
        y[o] = (float)v;
    }
    return y;
}

float *upload(const std::vector<float> &v)
{
    float *d;
    CK(cudaMalloc(&d, v.size() * sizeof(float)));
    CK(cudaMemcpy(d, v.data(), v.size() * sizeof(float),
                  cudaMemcpyHostToDevice));
    return d;
}

std::vector<float> random_vec(size_t n, float scale, unsigned seed)
{
    std::vector<float> v(n);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        v[i] = scale * ((float)(seed >> 8) / (float)(1u << 24) * 2.f - 1.f);
    }
    return v;
}

double rel_err(const Net &m, const std::vector<float> &ref)
{
    std::vector<float> y(m.n3);
    CK(cudaMemcpy(y.data(), m.y3, m.n3 * sizeof(float),
                  cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (int64_t o = 0; o < m.n3; o++) {
        num += (y[o] - ref[o]) * (double)(y[o] - ref[o]);
        den += (double)ref[o] * ref[o];
    }
    return std::sqrt(num / (den > 0 ? den : 1));
}

} /* namespace */

int main()
{
    CK(rlxg_gemv_chain_init());
    Net m;
    auto x = random_vec(m.k0, 1.f, 1);
    auto w1 = random_vec(m.nh * m.k0, 1.f / 28, 2);
    auto b1 = random_vec(m.nh, 0.03f, 3);
    auto w2 = random_vec(m.n2 * m.nh, 1.f / 64, 4);
    auto b2 = random_vec(m.n2, 0.015f, 5);
    auto w3 = random_vec(m.n3 * m.n2, 1.f / 64, 6);
    auto b3 = random_vec(m.n3, 0.015f, 7);
    auto ref = host_ref(m, x, w1, b1, w2, b2, w3, b3);
    m.x = upload(x), m.w1 = upload(w1), m.b1 = upload(b1);
    m.w2 = upload(w2), m.b2 = upload(b2), m.w3 = upload(w3);
    m.b3 = upload(b3);
    CK(cudaMalloc(&m.y1, m.nh * 4));
    CK(cudaMalloc(&m.y2, m.n2 * 4));
    CK(cudaMalloc(&m.y3, m.n3 * 4));
    CK(cudaMalloc(&m.P, 256 * m.n2 * 4));
    CK(cudaMemset(m.P, 0, 256 * m.n2 * 4));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("%s, MLP %lld-%lld-%lld-%lld at batch 1, f32, us per forward "
           "(20 forwards per CUDA graph; one per graph, queued; launched "
           "directly, no graph)\n",
           p.name, (long long)m.k0, (long long)m.nh, (long long)m.n2,
           (long long)m.n3);

    auto row = [&](const char *name, const std::function<void()> &f) {
        CK(cudaMemset(m.y3, 0, m.n3 * 4));
        float t = time_us(s, f);
        CK(cudaMemset(m.y3, 0, m.n3 * 4));
        float q = time_queued_us(s, f);
        CK(cudaMemset(m.y3, 0, m.n3 * 4));
        float d = time_direct_us(s, f);
        printf("  %-56s %7.2f %7.2f %7.2f  rel.err %.1e\n", name, t, q, d,
               rel_err(m, ref));
    };
    for (int rep = 0; rep < 2; rep++) {
        row("three GEMVs (the plugin's batch-1 path)",
            [&] { three_gemvs(s, m); });
        row("  the same, layer 1's GEMV waits for the previous forward", [&] {
            CK(rlxg_gemv(s, RLX_DTYPE_F32, m.x, m.w1, m.b1, m.y1, 1, m.nh,
                         m.k0, 0, RLXG_GEMV_EARLY | RLXG_GEMV_RELU));
            CK(rlxg_gemv(s, RLX_DTYPE_F32, m.y1, m.w2, m.b2, m.y2, 1, m.n2,
                         m.nh, 0, F | RLXG_GEMV_RELU));
            CK(rlxg_gemv(s, RLX_DTYPE_F32, m.y2, m.w3, m.b3, m.y3, 1, m.n3,
                         m.n2, 0, F));
        });
        row("the plugin's chain (rlxg_gemv_chain) + layer 3's GEMV", [&] {
            CK(rlxg_gemv_chain(s, m.x, m.w1, m.b1, 1, m.w2, m.b2, m.P, 1,
                               m.y2, m.k0, m.nh, m.n2, 1, 1));
            CK(rlxg_gemv(s, RLX_DTYPE_F32, m.y2, m.w3, m.b3, m.y3, 1, m.n3,
                         m.n2, 8, F));
        });
        row("  probe: the plugin's chain alone", [&] {
            CK(rlxg_gemv_chain(s, m.x, m.w1, m.b1, 1, m.w2, m.b2, m.P, 1,
                               m.y2, m.k0, m.nh, m.n2, 1, 1));
        });
    }
    return 0;
}
