/*
 * gpu_vendor_state.h (cuda) - what the shared GPU host code leaves to
 * the vendor: the backend object with its per-device state, the lazily
 * loaded cuBLASLt table, and the per-step matmul plan. Included by
 * gpu_internal.h; the rocm plugin has its own file of this name.
 */
#ifndef RLX_GPU_VENDOR_STATE_H
#define RLX_GPU_VENDOR_STATE_H

#include <cublasLt.h>

/* ---- cuBLASLt, loaded with dlopen at first use -------------------------- */

typedef struct rlxg_blas {
    void *lib;
    cublasStatus_t (*create)(cublasLtHandle_t *);
    cublasStatus_t (*destroy)(cublasLtHandle_t);
    cublasStatus_t (*desc_create)(cublasLtMatmulDesc_t *, cublasComputeType_t,
                                  cudaDataType_t);
    cublasStatus_t (*desc_set)(cublasLtMatmulDesc_t,
                               cublasLtMatmulDescAttributes_t, const void *,
                               size_t);
    cublasStatus_t (*desc_destroy)(cublasLtMatmulDesc_t);
    cublasStatus_t (*layout_create)(cublasLtMatrixLayout_t *, cudaDataType,
                                    uint64_t, uint64_t, int64_t);
    cublasStatus_t (*layout_set)(cublasLtMatrixLayout_t,
                                 cublasLtMatrixLayoutAttribute_t,
                                 const void *, size_t);
    cublasStatus_t (*layout_destroy)(cublasLtMatrixLayout_t);
    cublasStatus_t (*pref_create)(cublasLtMatmulPreference_t *);
    cublasStatus_t (*pref_set)(cublasLtMatmulPreference_t,
                               cublasLtMatmulPreferenceAttributes_t,
                               const void *, size_t);
    cublasStatus_t (*pref_destroy)(cublasLtMatmulPreference_t);
    cublasStatus_t (*heuristic)(cublasLtHandle_t, cublasLtMatmulDesc_t,
                                cublasLtMatrixLayout_t,
                                cublasLtMatrixLayout_t,
                                cublasLtMatrixLayout_t,
                                cublasLtMatrixLayout_t,
                                cublasLtMatmulPreference_t, int,
                                cublasLtMatmulHeuristicResult_t *, int *);
    cublasStatus_t (*algo_check)(cublasLtHandle_t, cublasLtMatmulDesc_t,
                                 cublasLtMatrixLayout_t,
                                 cublasLtMatrixLayout_t,
                                 cublasLtMatrixLayout_t,
                                 cublasLtMatrixLayout_t,
                                 const cublasLtMatmulAlgo_t *,
                                 cublasLtMatmulHeuristicResult_t *);
    cublasStatus_t (*algo_cap_get)(const cublasLtMatmulAlgo_t *,
                                   cublasLtMatmulAlgoCapAttributes_t, void *,
                                   size_t, size_t *);
    cublasStatus_t (*algo_config_set)(cublasLtMatmulAlgo_t *,
                                      cublasLtMatmulAlgoConfigAttributes_t,
                                      const void *, size_t);
    cublasStatus_t (*algo_config_get)(const cublasLtMatmulAlgo_t *,
                                      cublasLtMatmulAlgoConfigAttributes_t,
                                      void *, size_t, size_t *);
    cublasStatus_t (*matmul)(cublasLtHandle_t, cublasLtMatmulDesc_t,
                             const void *, const void *,
                             cublasLtMatrixLayout_t, const void *,
                             cublasLtMatrixLayout_t, const void *,
                             const void *, cublasLtMatrixLayout_t, void *,
                             cublasLtMatrixLayout_t,
                             const cublasLtMatmulAlgo_t *, void *, size_t,
                             cudaStream_t);
    const char *(*status_name)(cublasStatus_t); /* may be NULL */
} rlxg_blas;

/* ---- backend ------------------------------------------------------------ */

typedef struct rlxg_device {
    int open;                 /* context created */
    cublasLtHandle_t lt;      /* NULL until the first matmul */
    gpuStream_t queue;        /* queued runs (gpu_queue.c); NULL: none */
    uint64_t queue_last;      /* serial of the executable that launched
                                 the queue's last run, 0: none or unknown
                                 (guarded by rlxg_queue_lock) */
} rlxg_device;

struct rlxg_backend {
    const rlx_host *host;
    pthread_mutex_t lock;     /* guards devices, blas and their creation */
    int probed;               /* device details logged once */
    int n_devices;            /* -1: not counted yet */
    rlxg_device *devices;
    int blas_tried;
    int blas_ok;
    char blas_error[384];
    rlxg_blas blas;
};

/* Heuristic candidates, then split-K variants of the best few. */
#define RLXG_MAX_HEURISTIC 16
#define RLXG_MAX_ALGOS 64

struct rlxg_matmul {
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, ld; /* cuBLAS' A (our b), B (our a), D */
    cublasLtMatmulAlgo_t algo;
    int n_algos;          /* candidates from the heuristic, best first */
    cublasLtMatmulAlgo_t algos[RLXG_MAX_ALGOS];
    int64_t m, n, k, batch;
    int64_t n_calls;      /* 1, or one call per batch when not strided */
    int64_t *a_off, *b_off, *y_off; /* element offsets per call */
    int bias_value;       /* fused bias node, or -1 */
    int epilogue;         /* rlxg_epilogue */
    int use_kernel;       /* our rlxg_gemm (RLX_CUDA_MATMUL=kernel), not
                             cuBLASLt */
    int ta, tb;           /* for rlxg_gemm: a, b stored transposed */
    int64_t sa, sb;       /* for rlxg_gemm: batch strides (elements) */
    int gemv_ok;          /* our rlxg_gemv can compute it (few rows) */
    int use_gemv;         /* ... and does: the autotuner found it faster */
    int gemv_wpc;         /* its warps per column; 0: by the output width */
    int gemv_flags;       /* RLXG_GEMV_* */
    int tf32x3_ok;        /* our 3xTF32 GEMM can compute it (f32, strict) */
    int use_tf32x3;       /* ... and does: the autotuner found it faster */
    int tf32x3_cfg;       /* its block tile (rlxg_gemm_tf32x3's CFG) */
    int chain;            /* 0, or its role in a chain of two GEMVs:
                             RLXG_CHAIN_* (cuda_gemv_chain.h) */
    float *chain_scratch; /* CHAIN_FIRST: the partial sums' device buffer */
};

/* cuda_probe_key.c: get_extension: rlx.probe_key.v1 (the probe cache)
 * and rlx.queue.v1 (gpu_queue.c). */
const void *rlxg_get_extension(void *backend, const char *name);
/* The device's cuBLASLt handle, loading the library the first time. */
rlx_status rlxg_device_blas(rlxg_backend *be, uint32_t index,
                            cublasLtHandle_t *out);

#endif /* RLX_GPU_VENDOR_STATE_H */
