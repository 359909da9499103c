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

typedef __nv_bfloat16 bf;

static float time_us(cudaStream_t s, const std::function<void()> &launch)
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
    return t[t.size() / 2];
}

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

static void run_shape(int64_t B, int64_t H, int64_t S, int causal)
{
    const int64_t Dh = 64, D = H * Dh;
    size_t nqkv = (size_t)(B * S * 3 * D), no = (size_t)(B * S * D);
    std::vector<bf> hq(nqkv);
    unsigned long long st = 12345;
    for (auto &x : hq) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        x = __float2bfloat16((float)((st >> 40) / 16777216.0 * 4 - 2));
    }
    bf *qkv, *o_ref, *o;
    CK(cudaMalloc(&qkv, nqkv * 2));
    CK(cudaMalloc(&o_ref, no * 2));
    CK(cudaMalloc(&o, no * 2));
    CK(cudaMemcpy(qkv, hq.data(), nqkv * 2, cudaMemcpyHostToDevice));
    rlxg_attn_plan p = encoder_plan(B, H, S, causal);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned bh = (unsigned)(B * H);
    printf("# b%lld h%lld s%lld dh64 bf16%s\n", (long long)B, (long long)H,
           (long long)S, causal ? " causal" : "");
    float t0 = time_us(s, [&] { AttnL<bf>::run(s, qkv, qkv, qkv, o_ref, &p); });
    printf("%-34s %8.2f us\n", "CUDA cores (gk_attention.cu)", t0);
    std::vector<bf> ref(no), got(no);
    CK(cudaMemcpy(ref.data(), o_ref, no * 2, cudaMemcpyDeviceToHost));
    auto check = [&](const char *name, float us) {
        CK(cudaMemcpy(got.data(), o, no * 2, cudaMemcpyDeviceToHost));
        double md = 0;
        for (size_t i = 0; i < no; i++) {
            double d = fabs((double)__bfloat162float(got[i]) -
                            __bfloat162float(ref[i]));
            md = d == d ? std::max(md, d) : 1e30;
        }
        printf("%-34s %8.2f us  %5.2fx  max|diff| %.1e\n", name, us, t0 / us,
               md);
        CK(cudaMemset(o, 0xff, no * 2));
    };
    const bf *qt = qkv;
#define VAR(W, KT)                                                          \
    check("mma W" #W " KT" #KT,                                            \
          time_us(s, [&] {                                                   \
              attn_mma_kernel<bf, 64, W, KT>                                 \
                  <<<dim3((unsigned)((S + 16 * W - 1) / (16 * W)), bh),      \
                     W * 32, 0, s>>>(qt, qt, qt, o, p);                      \
          }))
    VAR(4, 64);
    VAR(2, 64);
    VAR(1, 64);
    VAR(4, 32);
    VAR(2, 32);
    gpuError_t err;
    check("dispatch (rlxg_attention_mma)",
          time_us(s, [&] { rlxg_attention_mma(s, RLX_DTYPE_BF16, qkv, qkv,
                                              qkv, o, &p, &err); }));
    CK(cudaFree(qkv));
    CK(cudaFree(o_ref));
    CK(cudaFree(o));
    CK(cudaStreamDestroy(s));
}

/* f32: the CUDA-core register-tile kernel against 3xTF32's block shapes */
static void run_shape_f32(int64_t B, int64_t H, int64_t S, int causal)
{
    const int64_t Dh = 64, D = H * Dh;
    size_t nqkv = (size_t)(B * S * 3 * D), no = (size_t)(B * S * D);
    std::vector<float> hq(nqkv);
    unsigned long long st = 12345;
    for (auto &x : hq) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        x = (float)((st >> 40) / 16777216.0 * 4 - 2);
    }
    float *qkv, *o_ref, *o;
    CK(cudaMalloc(&qkv, nqkv * 4));
    CK(cudaMalloc(&o_ref, no * 4));
    CK(cudaMalloc(&o, no * 4));
    CK(cudaMemcpy(qkv, hq.data(), nqkv * 4, cudaMemcpyHostToDevice));
    rlxg_attn_plan p = encoder_plan(B, H, S, causal);
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned bh = (unsigned)(B * H);
    printf("# b%lld h%lld s%lld dh64 f32%s\n", (long long)B, (long long)H,
           (long long)S, causal ? " causal" : "");
    float t0 = time_us(s, [&] { AttnL<float>::run(s, qkv, qkv, qkv, o_ref, &p); });
    printf("%-34s %8.2f us\n", "CUDA cores (gk_attention.cu)", t0);
    std::vector<float> ref(no), got(no);
    CK(cudaMemcpy(ref.data(), o_ref, no * 4, cudaMemcpyDeviceToHost));
    auto check = [&](const char *name, float us) {
        CK(cudaMemcpy(got.data(), o, no * 4, cudaMemcpyDeviceToHost));
        double md = 0;
        for (size_t i = 0; i < no; i++) {
            double d = fabs((double)got[i] - ref[i]);
            md = d == d ? std::max(md, d) : 1e30;
        }
        printf("%-34s %8.2f us  %5.2fx  max|diff| %.1e\n", name, us, t0 / us,
               md);
        CK(cudaMemset(o, 0xff, no * 4));
    };
#define VAR32(W)                                                            \
    check("3xtf32 W" #W " KT32",                                            \
          time_us(s, [&] {                                                   \
              attn_tf32x3_kernel<64, W, 32>                                  \
                  <<<dim3((unsigned)((S + 16 * W - 1) / (16 * W)), bh),      \
                     W * 32, 0, s>>>(qkv, qkv, qkv, o, p);                   \
          }))
    VAR32(4);
    VAR32(2);
    VAR32(1);
    gpuError_t err;
    if (S >= 128) /* below, it declines (the CUDA-core kernel runs) */
        check("dispatch (rlxg_attention_tf32x3)",
              time_us(s, [&] { rlxg_attention_tf32x3(s, qkv, qkv, qkv, o,
                                                     &p, &err); }));
    CK(cudaFree(qkv));
    CK(cudaFree(o_ref));
    CK(cudaFree(o));
    CK(cudaStreamDestroy(s));
}

int main()
{
    run_shape_f32(8, 8, 128, 0); /* the f32 encoder block's */
    run_shape_f32(8, 8, 128, 1);
    run_shape_f32(2, 8, 512, 0);
    run_shape_f32(1, 8, 1024, 0);
    run_shape_f32(1, 8, 2048, 0);
    run_shape(8, 8, 128, 0);  /* the encoder block's */
    run_shape(8, 8, 128, 1);
    run_shape(1, 8, 2048, 0);
    run_shape(4, 16, 1024, 1);
    return 0;
}
