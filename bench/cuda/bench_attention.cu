/*
 * bench_attention.cu - the fused attention kernels of plugins/gpu-common
 * timed one by one on the encoder block's shape (q, k and v read from
 * one [b, s, 3d] buffer, the output written [b, s, h, dh], as the
 * encoder's fused plan does) and longer sequences: the CUDA-core kernel
 * and each block shape of the tensor-core kernel (rows per block, key
 * tile), each checked against the CUDA-core kernel's output; for f32,
 * the CUDA-core register tiles against the 3xTF32 tensor-core kernel
 * (gk_attention_tf32x3.cu). Times: 20 launches captured in a CUDA graph, replayed,
 * event-timed; the median of 15 replays, per launch.
 *
 *   nvcc -std=c++17 -O2 -gencode=arch=compute_90,code=sm_90 \
 *     -Iplugins/gpu-common -Iplugin-abi -Iplugins/cuda \
 *     bench/cuda/bench_attention.cu -o bench_attention && ./bench_attention
 */
#include "../../plugins/gpu-common/gk_attention.cu"
#include "../../plugins/gpu-common/gk_attention_mma.cu"
#include "../../plugins/gpu-common/gk_attention_tf32x3.cu"
#include "bench_util.cuh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

typedef __nv_bfloat16 bf;

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

/* An element of T from float and back, and T's name. */
static float to_f(float x) { return x; }
static float to_f(bf x) { return __bfloat162float(x); }
template <typename T> static T from_f(float x);
template <> float from_f<float>(float x) { return x; }
template <> bf from_f<bf>(float x) { return __float2bfloat16(x); }

/* times LAUNCH and checks its output against the CUDA-core kernel's */
typedef std::function<void(const char *, const std::function<void()> &)>
    check_fn;

/* bf16: the tensor-core kernel's block shapes (rows per block, key tile)
 * and its dispatch */
static void variants_bf16(const check_fn &check, cudaStream_t s,
                          const bf *qkv, bf *o, const rlxg_attn_plan &p,
                          int64_t S, unsigned bh)
{
#define VAR(W, KT)                                                          \
    check("mma W" #W " KT" #KT, [&] {                                      \
        attn_mma_kernel<bf, 64, W, KT>                                       \
            <<<dim3((unsigned)((S + 16 * W - 1) / (16 * W)), bh), W * 32, 0, \
               s>>>(qkv, qkv, qkv, o, p);                                    \
    })
    VAR(4, 64);
    VAR(2, 64);
    VAR(1, 64);
    VAR(4, 32);
    VAR(2, 32);
#undef VAR
    gpuError_t err;
    check("dispatch (rlxg_attention_mma)", [&] {
        rlxg_attention_mma(s, RLX_DTYPE_BF16, qkv, qkv, qkv, o, &p, 0, &err);
    });
}

/* f32: the 3xTF32 tensor-core kernel's block shapes and its dispatch */
static void variants_f32(const check_fn &check, cudaStream_t s,
                         const float *qkv, float *o, const rlxg_attn_plan &p,
                         int64_t S, unsigned bh)
{
#define VAR32(W)                                                            \
    check("3xtf32 W" #W " KT32", [&] {                                      \
        attn_tf32x3_kernel<64, W, 32>                                        \
            <<<dim3((unsigned)((S + 16 * W - 1) / (16 * W)), bh), W * 32, 0, \
               s>>>(qkv, qkv, qkv, o, p);                                    \
    })
    VAR32(4);
    VAR32(2);
    VAR32(1);
#undef VAR32
    gpuError_t err;
    if (S >= 128) /* below, it declines (the CUDA-core kernel runs) */
        check("dispatch (rlxg_attention_tf32x3)", [&] {
            rlxg_attention_tf32x3(s, qkv, qkv, qkv, o, &p, 0, &err);
        });
}

/* One shape in T: the CUDA-core kernel, then each of VARIANTS timed and
 * checked against its output. */
template <typename T, typename V>
static void run_shape(int64_t B, int64_t H, int64_t S, int causal,
                      const char *dtype, V variants)
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
    T *qkv, *o_ref, *o;
    CK(cudaMalloc(&qkv, nqkv * es));
    CK(cudaMalloc(&o_ref, no * es));
    CK(cudaMalloc(&o, no * es));
    CK(cudaMemcpy(qkv, hq.data(), nqkv * es, cudaMemcpyHostToDevice));
    rlxg_attn_plan p = encoder_plan(B, H, S, causal);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    printf("# b%lld h%lld s%lld dh64 %s%s\n", (long long)B, (long long)H,
           (long long)S, dtype, causal ? " causal" : "");
    float t0 = time_us(s, [&] { AttnL<T>::run(s, qkv, qkv, qkv, o_ref, &p); });
    printf("%-34s %8.2f us\n", "CUDA cores (gk_attention.cu)", t0);
    std::vector<T> ref(no), got(no);
    CK(cudaMemcpy(ref.data(), o_ref, no * es, cudaMemcpyDeviceToHost));
    auto check = [&](const char *name, const std::function<void()> &launch) {
        float us = time_us(s, launch);
        CK(cudaMemcpy(got.data(), o, no * es, cudaMemcpyDeviceToHost));
        double md = 0;
        for (size_t i = 0; i < no; i++) {
            double d = fabs((double)to_f(got[i]) - to_f(ref[i]));
            md = d == d ? std::max(md, d) : 1e30;
        }
        printf("%-34s %8.2f us  %5.2fx  max|diff| %.1e\n", name, us, t0 / us,
               md);
        CK(cudaMemset(o, 0xff, no * es));
    };
    variants(check, s, qkv, o, p, S, (unsigned)(B * H));
    CK(cudaFree(qkv));
    CK(cudaFree(o_ref));
    CK(cudaFree(o));
    CK(cudaStreamDestroy(s));
}

int main()
{
    /* the f32 encoder block's, then longer sequences */
    run_shape<float>(8, 8, 128, 0, "f32", variants_f32);
    run_shape<float>(8, 8, 128, 1, "f32", variants_f32);
    run_shape<float>(2, 8, 512, 0, "f32", variants_f32);
    run_shape<float>(1, 8, 1024, 0, "f32", variants_f32);
    run_shape<float>(1, 8, 2048, 0, "f32", variants_f32);
    /* the bf16 encoder block's, then longer ones */
    run_shape<bf>(8, 8, 128, 0, "bf16", variants_bf16);
    run_shape<bf>(8, 8, 128, 1, "bf16", variants_bf16);
    run_shape<bf>(1, 8, 2048, 0, "bf16", variants_bf16);
    run_shape<bf>(4, 16, 1024, 1, "bf16", variants_bf16);
    return 0;
}
