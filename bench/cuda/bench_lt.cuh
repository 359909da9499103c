/*
 * bench_lt.cuh - the unfused baseline's GEMM in the kernel benchmarks of
 * bench/cuda: a bf16 Linear layer through cuBLASLt with its bias
 * epilogue, the fastest of its heuristic's algorithms on the shape, as
 * the cuda plugin's autotuner would pick, and bf_upload_rand for its
 * operands. After bench_util.cuh.
 */
#ifndef RLX_BENCH_LT_CUH
#define RLX_BENCH_LT_CUH

#include <cublasLt.h>
#include <cuda_bf16.h>

#include <string>
#include <vector>

#include "bench_util.cuh"

/* COUNT bf16 values uniform in [-SCALE, SCALE) from SEED, in a new
 * device buffer */
static inline __nv_bfloat16 *bf_upload_rand(size_t count, float scale,
                                            unsigned long long seed)
{
    std::vector<__nv_bfloat16> h(count);
    bench_rng rnd = { seed };
    for (auto &e : h)
        e = __float2bfloat16(scale * rnd());
    __nv_bfloat16 *d;
    bench_upload<__nv_bfloat16>(&d, h);
    return d;
}

/* y = a @ w^T + bias (then relu where RELU) through cuBLASLt (row-major a [m, k], w [n, k], y
 * [m, n]: column-major y^T = w^T' a^T'), the fastest of its heuristic's
 * algorithms on this shape */
struct Lt {
    cublasLtHandle_t h;
    cublasLtMatmulDesc_t op;
    cublasLtMatrixLayout_t la, lb, lc;
    cublasLtMatmulAlgo_t algo;
    void *ws;
    size_t wss = 32u << 20;
    const __nv_bfloat16 *a, *w, *bias;
    __nv_bfloat16 *y;
    std::vector<cublasLtMatmulAlgo_t> cands; /* the heuristic's, in order */

    void run(cudaStream_t s)
    {
        float one = 1.f, zero = 0.f;
        CKB(cublasLtMatmul(h, op, &one, w, la, a, lb, &zero, y, lc, y, lc,
                           &algo, ws, wss, s));
    }

    float setup(cudaStream_t s, int m, int n, int k, const __nv_bfloat16 *a_,
                const __nv_bfloat16 *w_, const __nv_bfloat16 *bias_, __nv_bfloat16 *y_,
                int relu = 0)
    {
        a = a_, w = w_, bias = bias_, y = y_;
        CKB(cublasLtCreate(&h));
        CK(cudaMalloc(&ws, wss));
        CKB(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
        cublasOperation_t tt = CUBLAS_OP_T, tn = CUBLAS_OP_N;
        CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA,
                                           &tt, sizeof tt));
        CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB,
                                           &tn, sizeof tn));
        cublasLtEpilogue_t epi =
            relu ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_BIAS;
        CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                           &epi, sizeof epi));
        CKB(cublasLtMatmulDescSetAttribute(
            op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias));
        CKB(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, k, n, k));
        CKB(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, k, m, k));
        CKB(cublasLtMatrixLayoutCreate(&lc, CUDA_R_16BF, n, m, n));
        cublasLtMatmulPreference_t pref;
        CKB(cublasLtMatmulPreferenceCreate(&pref));
        CKB(cublasLtMatmulPreferenceSetAttribute(
            pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &wss, sizeof wss));
        cublasLtMatmulHeuristicResult_t res[32];
        int got = 0;
        CKB(cublasLtMatmulAlgoGetHeuristic(h, op, la, lb, lc, lc, pref, 32,
                                           res, &got));
        for (int i = 0; i < got; i++)
            cands.push_back(res[i].algo);
        CKB(cublasLtMatmulPreferenceDestroy(pref));
        float best = 1e30f;
        for (int i = 0; i < got; i++) {
            algo = res[i].algo;
            float us = time_us(s, [&] { run(s); });
            if (us < best) {
                best = us;
                res[0].algo = res[i].algo;
            }
        }
        algo = res[0].algo;
        printf("cuBLASLt: best of %d algorithms %.2f us (%s)\n", got, best,
               name().c_str());
        return best;
    }

    /* the chosen algorithm: id, tile, stages, split-k, cluster shape */
    std::string name() const
    {
        int v[5] = { 0, 0, 0, 1, 0 };
        const cublasLtMatmulAlgoConfigAttributes_t at[5] = {
            CUBLASLT_ALGO_CONFIG_ID, CUBLASLT_ALGO_CONFIG_TILE_ID,
            CUBLASLT_ALGO_CONFIG_STAGES_ID, CUBLASLT_ALGO_CONFIG_SPLITK_NUM,
            CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID
        };
        for (int i = 0; i < 5; i++) {
            size_t got = 0;
            cublasLtMatmulAlgoConfigGetAttribute(&algo, at[i], &v[i],
                                                 sizeof v[i], &got);
        }
        char b[96];
        snprintf(b, sizeof b, "algo %d tile %d stages %d split %d cluster %d",
                 v[0], v[1], v[2], v[3], v[4]);
        return b;
    }

    void done()
    {
        cublasLtMatrixLayoutDestroy(la);
        cublasLtMatrixLayoutDestroy(lb);
        cublasLtMatrixLayoutDestroy(lc);
        cublasLtMatmulDescDestroy(op);
        cublasLtDestroy(h);
        CK(cudaFree(ws));
    }
};

#endif
