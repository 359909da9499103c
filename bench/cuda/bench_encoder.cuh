/*
 * bench_encoder.cuh - the bf16 encoder block that bench_gemm_wg.cu and
 * bench_lt_pdl.cu time whole: d 512, 8 heads of 64, ff 2048, batch 8 x
 * seq 128, weights drawn from fixed seeds; its four GEMMs' shapes and
 * operands, and its three steps of the plugin's own (tensor-core
 * attention, two add + norms, all launched as programmatic dependents,
 * as the plugin launches them). Also a bf16 comparison both use. After
 * the kernel sources, bench_attn_plan.cuh and bench_lt.cuh (whose
 * bf_upload_rand makes the operands).
 */
#ifndef RLX_BENCH_ENCODER_CUH
#define RLX_BENCH_ENCODER_CUH

#include <cmath>
#include <vector>

typedef __nv_bfloat16 bf;

/* rel. difference of COUNT bf16 values of P against REF (device) */
static inline double bf_rel_diff(const bf *p, const bf *ref, size_t count)
{
    std::vector<bf> a(count), b(count);
    CK(cudaMemcpy(a.data(), p, count * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(b.data(), ref, count * 2, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (size_t i = 0; i < count; i++) {
        double d = (double)__bfloat162float(a[i]) - __bfloat162float(b[i]);
        num += d == d ? d * d : 1e30;
        den += (double)__bfloat162float(b[i]) * __bfloat162float(b[i]);
    }
    return sqrt(num / den);
}

struct bench_encoder {
    static const int B = 8, S = 128, H = 8, D = 512, FF = 2048, M = B * S;
    static constexpr float eps = 1e-5f;
    bf *x, *wqkv, *bqkv, *wo, *bo, *w1, *b1, *w2, *b2, *g1, *be1, *g2, *be2;
    /* activations, each big enough for any of them; y2ref: a reference
     * output */
    bf *qkv, *o, *t1, *y1, *h, *t2, *y2, *y2ref;
    rlxg_attn_plan plan;

    bench_encoder()
    {
        const float ws = 1.7f / sqrtf((float)D), ws2 = 1.7f / sqrtf((float)FF);
        x = bf_upload_rand((size_t)M * D, 1.f, 11);
        wqkv = bf_upload_rand((size_t)3 * D * D, ws, 12);
        bqkv = bf_upload_rand(3 * D, 0.2f, 13);
        wo = bf_upload_rand((size_t)D * D, ws, 14);
        bo = bf_upload_rand(D, 0.2f, 15);
        w1 = bf_upload_rand((size_t)FF * D, ws, 16);
        b1 = bf_upload_rand(FF, 0.2f, 17);
        w2 = bf_upload_rand((size_t)D * FF, ws2, 18);
        b2 = bf_upload_rand(D, 0.2f, 19);
        g1 = bf_upload_rand(D, 0.2f, 20), be1 = bf_upload_rand(D, 0.2f, 21);
        g2 = bf_upload_rand(D, 0.2f, 22), be2 = bf_upload_rand(D, 0.2f, 23);
        for (bf **p : { &qkv, &o, &t1, &y1, &h, &t2, &y2, &y2ref })
            CK(cudaMalloc(p, (size_t)M * FF * 2));
        plan = bench_attn_plan(B, S, H);
    }

    /* GEMM I (qkv, out-proj, ff1 with relu, ff2): y = act(x w^T + b) */
    struct linear {
        int m, n, k, act;
        bf *x, *w, *b, *y;
    };
    linear gemm(int i) const
    {
        const linear g[4] = {
            { M, 3 * D, D, 0, x, wqkv, bqkv, qkv },
            { M, D, D, 0, o, wo, bo, t1 },
            { M, FF, D, RLXG_GEMM_RELU, y1, w1, b1, h },
            { M, D, FF, 0, h, w2, b2, t2 },
        };
        return g[i];
    }
    static const char *gemm_name(int i)
    {
        static const char *names[4] = { "qkv", "out-proj", "ff1", "ff2" };
        return names[i];
    }

    /* the steps between the GEMMs, as the plugin launches them */
    void attention(cudaStream_t s) const
    {
        CK(rlxg_attention(s, RLX_DTYPE_BF16, qkv, qkv, qkv, o, &plan, 1));
    }
    void norm1(cudaStream_t s) const
    {
        CK(rlxg_norm(s, RLX_DTYPE_BF16, 0, t1, x, g1, be1, y1, M, D, eps, 1));
    }
    void norm2(cudaStream_t s, bf *out) const
    {
        CK(rlxg_norm(s, RLX_DTYPE_BF16, 0, t2, y1, g2, be2, out, M, D, eps,
                     1));
    }
};

#endif
