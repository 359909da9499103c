/*
 * cuda_internal.h - types shared by the host files of the CUDA backend:
 * the backend object and its per-device state, the lazily loaded
 * cuBLASLt table, buffers, and the executable with its memory plan and
 * its list of steps.
 *
 * Life cycle: loading the plugin touches nothing of CUDA. probe calls
 * cudaGetDeviceCount only. The first compile or buffer_create on a
 * device creates its context (cudaSetDevice + cudaFree(0)); the first
 * compile with a matmul dlopens cuBLASLt. Everything an execute needs
 * (device memory, pinned staging, descriptors, the algorithm of each
 * matmul) is made at compile time; execute replays a CUDA graph.
 */
#ifndef RLX_CUDA_INTERNAL_H
#define RLX_CUDA_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <rlx/backend.h>
#include <rlx/plugin.h>

#include "cuda_kernels.h"

#if defined(__GNUC__) || defined(__clang__)
#define RLXC_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define RLXC_PRINTF(fmt, args)
#endif

/* ---- cuBLASLt, loaded with dlopen at first use -------------------------- */

typedef struct rlxc_blas {
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
} rlxc_blas;

/* ---- backend ------------------------------------------------------------ */

typedef struct rlxc_device {
    int open;                 /* context created */
    cublasLtHandle_t lt;      /* NULL until the first matmul */
} rlxc_device;

typedef struct rlxc_backend {
    const rlx_host *host;
    pthread_mutex_t lock;     /* guards devices, blas and their creation */
    int probed;               /* device details logged once */
    int n_devices;            /* -1: not counted yet */
    rlxc_device *devices;
    int blas_tried;
    int blas_ok;
    char blas_error[384];
    rlxc_blas blas;
} rlxc_backend;

rlx_status rlxc_fail(const rlx_host *host, rlx_status st, const char *fmt,
                     ...) RLXC_PRINTF(3, 4);
/* Report a failed CUDA call: "cuda: WHAT: cudaErrorX (text). Fix: ..." */
rlx_status rlxc_cuda_fail(const rlx_host *host, cudaError_t err,
                          const char *what);
void rlxc_log(const rlx_host *host, rlx_log_level level, const char *fmt,
              ...) RLXC_PRINTF(3, 4);

/* Make device INDEX current on this thread, creating its context the
 * first time. */
rlx_status rlxc_device_use(rlxc_backend *be, uint32_t index);
/* The device's cuBLASLt handle, loading the library the first time. */
rlx_status rlxc_device_blas(rlxc_backend *be, uint32_t index,
                            cublasLtHandle_t *out);
rlx_status rlxc_probe(void *backend, rlx_probe_result *out);
/* cuda_probe_key.c: the rlx.probe_key.v1 extension (probe cache). */
const void *rlxc_get_extension(void *backend, const char *name);
void rlxc_backend_free(rlxc_backend *be);

/* ---- buffers ------------------------------------------------------------ */

struct rlx_buffer {
    uint32_t device;
    rlx_dtype dtype;
    size_t nbytes;
    void *ptr;                /* device memory; NULL when nbytes is 0 */
};

rlx_status rlxc_buffer_create(void *backend, uint32_t device_index,
                              const rlx_tensor_desc *desc, const void *data,
                              rlx_buffer **out);
rlx_status rlxc_buffer_read(void *backend, rlx_buffer *buffer, void *dst,
                            size_t nbytes);
rlx_status rlxc_buffer_write(void *backend, rlx_buffer *buffer,
                             const void *src, size_t nbytes);
void rlxc_buffer_destroy(void *backend, rlx_buffer *buffer);

/* ---- executables -------------------------------------------------------- */

/* Where a value's bytes live, resolved to a pointer at capture time. */
typedef enum rlxc_loc_kind {
    RLXC_LOC_NONE = 0,   /* empty tensor, or never materialized (fused) */
    RLXC_LOC_ARENA = 1,  /* intermediate: planned offset in the arena */
    RLXC_LOC_PARAM = 2,  /* a param buffer (slot) */
    RLXC_LOC_CONST = 3   /* constant data uploaded at compile time */
} rlxc_loc_kind;

typedef struct rlxc_value {
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[RLXC_MAX_RANK];
    int64_t count;
    size_t nbytes;
    rlxc_loc_kind loc;
    int storage;          /* ARENA: index into storages; else -1 */
    uint32_t slot;        /* PARAM: slot */
    size_t offset;        /* CONST: byte offset */
    int64_t uses;         /* consumers among the graph's nodes */
    int is_output;
} rlxc_value;

typedef struct rlxc_storage {
    size_t nbytes;
    int first, last;      /* step interval during which it is live */
    size_t offset;        /* planned offset in the arena */
} rlxc_storage;

typedef enum rlxc_step_kind {
    RLXC_STEP_UNARY = 1,
    RLXC_STEP_BINARY,
    RLXC_STEP_MATMUL,
    RLXC_STEP_SOFTMAX,
    RLXC_STEP_NORM,
    RLXC_STEP_REDUCE,
    RLXC_STEP_COPY,
    RLXC_STEP_GATHER,
    RLXC_STEP_CAST,
    RLXC_STEP_FILL,
    RLXC_STEP_ZERO,
    RLXC_STEP_ATTENTION   /* fused q k^T, scale, softmax, p v */
} rlxc_step_kind;

/* Heuristic candidates, then split-K variants of the best few. */
#define RLXC_MAX_HEURISTIC 16
#define RLXC_MAX_ALGOS 64

typedef struct rlxc_matmul {
    cublasLtMatmulDesc_t desc;
    cublasLtMatrixLayout_t la, lb, ld; /* cuBLAS' A (our b), B (our a), D */
    cublasLtMatmulAlgo_t algo;
    int n_algos;          /* candidates from the heuristic, best first */
    cublasLtMatmulAlgo_t algos[RLXC_MAX_ALGOS];
    int64_t m, n, k, batch;
    int64_t n_calls;      /* 1, or one call per batch when not strided */
    int64_t *a_off, *b_off, *y_off; /* element offsets per call */
    int bias_value;       /* fused bias node, or -1 */
    int epilogue;         /* cublasLtEpilogue_t */
    int gemv_ok;          /* our rlxc_gemv can compute it (few rows) */
    int use_gemv;         /* ... and does: the autotuner found it faster */
    int gemv_wpc;         /* its warps per column; 0: by the output width */
    int gemv_flags;       /* RLXC_GEMV_* */
} rlxc_matmul;

typedef struct rlxc_step {
    rlxc_step_kind kind;
    int out;              /* value written */
    int in[4];            /* values read, -1 unused; NORM: in[3] the
                             residual added to in[0] (fused add) */
    size_t dst_offset;    /* COPY: byte offset into OUT */
    size_t src_offset;    /* COPY: byte offset into IN[0] */
    int op, approx;
    float eps;
    double fill;
    int64_t outer, len, inner, causal_rows, n_idx;
    int idx_is_i64;
    rlxc_bcast bcast;
    rlxc_copy_plan copy;
    rlxc_reduce_plan reduce;
    rlxc_attn_plan attn;  /* ATTENTION: in[0..2] the q, k, v bases */
    rlxc_matmul *mm;
} rlxc_step;

struct rlx_executable {
    rlxc_backend *be;
    uint32_t device;
    cudaStream_t stream;
    uint32_t n_values;
    rlxc_value *values;
    uint32_t n_steps, cap_steps;
    rlxc_step *steps;
    uint32_t n_storages;
    rlxc_storage *storages;
    uint32_t n_inputs, n_params, n_outputs;
    uint32_t *input_values, *param_values, *output_values;
    size_t *input_stage, *output_stage; /* byte offsets in the staging */
    void *arena;          /* intermediates, inputs and outputs */
    size_t arena_bytes;
    void *consts;         /* constants, uploaded once */
    size_t const_bytes;
    unsigned char *stage; /* pinned host staging: inputs, outputs, flag */
    size_t stage_bytes;
    size_t flag_stage;    /* offset of the gather error flag in stage */
    int *dev_flag;        /* device gather error flag; NULL without gather */
    void *workspace;      /* cuBLASLt workspace; NULL without matmul */
    size_t workspace_bytes;
    cublasLtHandle_t lt;
    cudaGraphExec_t graph;
    void **graph_params;  /* param pointers the graph was captured with */
    int profile;          /* RLX_CUDA_PROFILE set and not yet done */
    /* Large inputs and outputs: the caller's host memory, page-locked
     * with cudaHostRegister so the graph copies straight from and to it
     * (no staging copy); per input slot, then per output. */
    void **io_user;       /* caller pointer last seen */
    unsigned char *io_reg;/* 1 when io_user is registered by us */
    void **io_host;       /* host side the graph copies with; NULL for
                             a slot bound to a device buffer */
    void **graph_io;      /* io_host at capture */
    /* Slots bound to device buffers (ABI 1.2 device I/O): per input slot,
     * then per output, the buffer's device pointer or NULL. A bound
     * input's storage is the buffer itself; a bound output's storage is
     * too when the output is written by a step of its own, else the run
     * ends with a device-to-device copy into it. */
    void **io_dev;
    void **graph_dev;     /* io_dev at capture */
    void **storage_bind;  /* per storage: device pointer replacing its
                             arena place, or NULL */
    unsigned char *out_direct; /* per output: written in place */
};

rlx_status rlxc_compile(void *backend, const rlx_graph_view *graph,
                        const rlx_compile_options *options,
                        rlx_executable **out);
void rlxc_executable_destroy(void *backend, rlx_executable *exe);
rlx_status rlxc_execute(void *backend, rlx_executable *exe,
                        const rlx_execute_args *args);

/* Plan memory: assign arena offsets to storages by liveness. */
size_t rlxc_plan_memory(rlxc_storage *s, uint32_t n, size_t align);
/* Pointer to value V's bytes with PARAMS bound (capture time). */
void *rlxc_value_ptr(const rlx_executable *exe, int v, void *const *params);
/* Enqueue every step on the executable's stream. */
rlx_status rlxc_steps_enqueue(rlx_executable *exe, void *const *params);
/* Matmul planning (cuda_matmul.c). */
rlx_status rlxc_matmul_plan(rlx_executable *exe, rlxc_step *step,
                            const rlx_node_view *v, const rlx_node_view *a,
                            const rlx_node_view *b, int64_t transpose_a,
                            int64_t transpose_b, int precision);
rlx_status rlxc_matmul_enqueue(rlx_executable *exe, const rlxc_step *step,
                               void *const *params);
void rlxc_matmul_free(rlxc_backend *be, rlxc_matmul *mm);
/* Time the heuristic's candidates of every large matmul on scratch data
 * and keep the fastest (compile time, once). */
rlx_status rlxc_matmul_autotune(rlx_executable *exe);
/* RLX_CUDA_PROFILE=1: run the steps once, eagerly, timing each, and log
 * the times at info level. */
void rlxc_profile(rlx_executable *exe, void *const *params);

#endif /* RLX_CUDA_INTERNAL_H */
