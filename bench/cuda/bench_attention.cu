/*
 * bench_attention.cu - the cuda plugin's fused attention (rlxg_attention:
 * the tensor-core kernel for f16/bf16, 3xTF32 for f32 from 128 keys,
 * the CUDA-core kernels elsewhere) timed on the encoder block's shape
 * (q, k and v read from one [b, s, 3d] buffer, the output written
 * [b, s, h, dh], as the encoder's fused plan does) and longer sequences,
 * each checked against a float64 host reference. Times: 20 launches
 * captured in a CUDA graph, replayed, event-timed; the median of 15
 * replays, per launch. The kernels come from the plugin's kernel library
 * (gpu_kernels.h). Built with -Dbench=true; run by bench/run.sh.
 * Exits 1 when an output is off by more than its dtype allows.
 */
#include <rlx/types.h>

#include "gpu_kernels.h"

#include "bench_util.cuh"

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

typedef __nv_bfloat16 bf;

static int failures;

/* the encoder's layout: q, k, v from one [b, s, 3 h 64] buffer, the
 * output [b, s, h, 64] */
static rlxg_attn_plan encoder_plan(int64_t B, int64_t H, int64_t S,
                                   int causal)
{
    const int64_t Dh = 64, D = H * Dh;
    rlxg_attn_plan p = {};
    p.batch = B, p.heads = H, p.sq = S, p.sk = S, p.dh = Dh, p.dv = Dh;
    int64_t in_s[4] = { S * 3 * D, Dh, 3 * D, 1 };
    int64_t out_s[4] = { S * D, Dh, D, 1 };
    for (int i = 0; i < 4; i++)
        p.q_s[i] = p.k_s[i] = p.v_s[i] = in_s[i], p.o_s[i] = out_s[i];
    p.q_off = 0, p.k_off = D, p.v_off = 2 * D;
    p.scale = 0.125f;
    p.causal = causal;
    return p;
}

/* An element of T from float and back. */
static float to_f(float x) { return x; }
static float to_f(bf x) { return __bfloat162float(x); }
template <typename T> static T from_f(float x);
template <> float from_f<float>(float x) { return x; }
template <> bf from_f<bf>(float x) { return __float2bfloat16(x); }

/* softmax(scale q k^T) v in float64 for every (batch, head, query row),
 * from the elements as the kernel reads them */
template <typename T>
static std::vector<double> reference(const std::vector<T> &qkv,
                                     const rlxg_attn_plan &p)
{
    const int64_t D = p.heads * p.dh;
    std::vector<double> o((size_t)(p.batch * p.sq * D)), w((size_t)p.sk);
    for (int64_t b = 0; b < p.batch; b++)
        for (int64_t h = 0; h < p.heads; h++)
            for (int64_t i = 0; i < p.sq; i++) {
                const T *q = &qkv[(size_t)(b * p.q_s[0] + h * p.q_s[1] +
                                           i * p.q_s[2] + p.q_off)];
                int64_t last = p.causal ? i + p.sk - p.sq : p.sk - 1;
                double mx = -1e300, sum = 0;
                for (int64_t j = 0; j <= last; j++) {
                    const T *k = &qkv[(size_t)(b * p.k_s[0] + h * p.k_s[1] +
                                               j * p.k_s[2] + p.k_off)];
                    double d = 0;
                    for (int64_t c = 0; c < p.dh; c++)
                        d += (double)to_f(q[c]) * to_f(k[c]);
                    w[(size_t)j] = d * p.scale;
                    mx = std::max(mx, w[(size_t)j]);
                }
                for (int64_t j = 0; j <= last; j++)
                    sum += w[(size_t)j] = exp(w[(size_t)j] - mx);
                double *out = &o[(size_t)(b * p.o_s[0] + h * p.o_s[1] +
                                          i * p.o_s[2])];
                for (int64_t c = 0; c < p.dv; c++)
                    out[c] = 0;
                for (int64_t j = 0; j <= last; j++) {
                    const T *v = &qkv[(size_t)(b * p.v_s[0] + h * p.v_s[1] +
                                               j * p.v_s[2] + p.v_off)];
                    for (int64_t c = 0; c < p.dv; c++)
                        out[c] += w[(size_t)j] / sum * to_f(v[c]);
                }
            }
    return o;
}

/* One shape in T: the plugin's dispatch timed, its output checked. */
template <typename T>
static void run_shape(int64_t B, int64_t H, int64_t S, int causal,
                      const char *dtype, int rdtype, double tol)
{
    const int64_t Dh = 64, D = H * Dh;
    const size_t es = sizeof(T);
    size_t nqkv = (size_t)(B * S * 3 * D), no = (size_t)(B * S * D);
    std::vector<T> hq(nqkv);
    unsigned long long st = 12345;
    for (auto &x : hq) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        x = from_f<T>((float)((st >> 40) / 16777216.0 * 4 - 2));
    }
    T *qkv, *o;
    CK(cudaMalloc(&qkv, nqkv * es));
    CK(cudaMalloc(&o, no * es));
    CK(cudaMemcpy(qkv, hq.data(), nqkv * es, cudaMemcpyHostToDevice));
    rlxg_attn_plan p = encoder_plan(B, H, S, causal);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    float us = time_us(s, [&] {
        CK(rlxg_attention(s, rdtype, qkv, qkv, qkv, o, &p, 0));
    });
    std::vector<T> got(no);
    CK(cudaMemcpy(got.data(), o, no * es, cudaMemcpyDeviceToHost));
    std::vector<double> ref = reference(hq, p);
    double md = 0;
    for (size_t i = 0; i < no; i++) {
        double d = fabs((double)to_f(got[i]) - ref[i]);
        md = d == d ? std::max(md, d) : 1e30;
    }
    bool ok = md <= tol;
    failures += !ok;
    double flop = 4.0 * B * H * S * S * Dh * (causal ? 0.5 : 1.0);
    printf("b%-2lld h%-2lld s%-5lld %-4s %-6s %9.2f us %7.1f TFLOPS  "
           "max|diff| %.1e%s\n",
           (long long)B, (long long)H, (long long)S, dtype,
           causal ? "causal" : "", us, flop * 1e-6 / us, md,
           ok ? "" : "  FAIL");
    CK(cudaFree(qkv));
    CK(cudaFree(o));
    CK(cudaStreamDestroy(s));
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("%s: rlxg_attention, dh 64, per launch\n", prop.name);
    /* the f32 encoder block's, then longer sequences */
    run_shape<float>(8, 8, 128, 0, "f32", RLX_DTYPE_F32, 1e-4);
    run_shape<float>(8, 8, 128, 1, "f32", RLX_DTYPE_F32, 1e-4);
    run_shape<float>(2, 8, 512, 0, "f32", RLX_DTYPE_F32, 1e-4);
    run_shape<float>(1, 8, 2048, 0, "f32", RLX_DTYPE_F32, 1e-4);
    /* the bf16 encoder block's, then longer ones */
    run_shape<bf>(8, 8, 128, 0, "bf16", RLX_DTYPE_BF16, 3e-2);
    run_shape<bf>(8, 8, 128, 1, "bf16", RLX_DTYPE_BF16, 3e-2);
    run_shape<bf>(1, 8, 2048, 0, "bf16", RLX_DTYPE_BF16, 3e-2);
    run_shape<bf>(4, 16, 1024, 1, "bf16", RLX_DTYPE_BF16, 3e-2);
    printf("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
