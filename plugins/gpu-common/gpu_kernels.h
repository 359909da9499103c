/*
 * gpu_kernels.h - the launchers of the GPU backends' kernels, callable
 * from C. Kernels live in gk_<family>.cu next to their launchers,
 * compiled by nvcc for the cuda plugin and by hipcc for the rocm one;
 * the host code is C11. Every launcher enqueues work on STREAM (so it
 * can be captured into a CUDA or HIP graph) and returns the launch's
 * gpuError_t.
 *
 * Float kernels take f32, f16 or bf16 (rlx_dtype values), compute in f32
 * (f64 for reductions) and round once when they store.
 */
#ifndef RLX_GPU_KERNELS_H
#define RLX_GPU_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_vendor.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RLXG_MAX_RANK 8

/* Programmatic dependent launch (CUDA on sm_90: a kernel may start while
 * the one before it finishes, and waits for it before reading its
 * output): whether the current device runs our kernels' code that waits
 * (their sm_90 build; not the compute_80 PTX a newer GPU compiles, nor
 * AMD's). Only the GEMV takes part (RLXG_GEMV_PDL). */
int rlxg_dep_launch_ok(void);

/* Binary broadcast: how one side's element index follows from the
 * output's linear index i. mode 0: i itself (same shape); mode 1:
 * (i / div) % mod (the side's kept dims are one contiguous run of the
 * output's dims); mode 2: through dims and strides (general). */
typedef struct rlxg_bside {
    int32_t mode;
    int64_t div, mod;
    int64_t stride[RLXG_MAX_RANK]; /* mode 2: per output dim, 0 stretched */
} rlxg_bside;

typedef struct rlxg_bcast {
    uint32_t rank;                 /* of the output (mode 2 only) */
    int64_t dims[RLXG_MAX_RANK];
    rlxg_bside a, b;
} rlxg_bcast;

/* Strided copy of elements: for every index of DIMS, dst[dst_off +
 * sum idx*dst_stride] = src[src_off + sum idx*src_stride]. */
typedef struct rlxg_copy_plan {
    uint32_t rank;
    int64_t count;
    int64_t dims[RLXG_MAX_RANK];
    int64_t src_stride[RLXG_MAX_RANK];
    int64_t dst_stride[RLXG_MAX_RANK];
} rlxg_copy_plan;

/* Reduction: each output element walks the reduced dims. */
typedef struct rlxg_reduce_plan {
    uint32_t out_rank, red_rank;
    int64_t n_out, n_red;
    int64_t out_dims[RLXG_MAX_RANK], out_stride[RLXG_MAX_RANK];
    int64_t red_dims[RLXG_MAX_RANK], red_stride[RLXG_MAX_RANK];
} rlxg_reduce_plan;

gpuError_t rlxg_unary(gpuStream_t s, int dtype, int op, int approx,
                       const void *x, void *y, int64_t n);
gpuError_t rlxg_binary(gpuStream_t s, int dtype, int op, const void *a,
                        const void *b, void *y, int64_t n,
                        const rlxg_bcast *plan);
gpuError_t rlxg_copy(gpuStream_t s, size_t elem_size, const void *src,
                      void *dst, const rlxg_copy_plan *plan);
/* Softmax over the middle dim of [outer, len, inner]. CAUSAL_ROWS > 0
 * (inner == 1 only): row r is row (r % causal_rows) of a [rows, len]
 * matrix and column j is excluded when j > row + len - rows. */
gpuError_t rlxg_softmax(gpuStream_t s, int dtype, const void *x, void *y,
                         int64_t outer, int64_t len, int64_t inner,
                         int64_t causal_rows);
/* layer_norm (BETA non-NULL or IS_RMS 0) or rms_norm over rows of COLS.
 * RES non-NULL: the rows are x + res (same shape), the sum rounded to
 * DTYPE as an unfused add would store it. PDL: launched as the
 * programmatic dependent of the kernel before it (CUDA, only where
 * rlxg_dep_launch_ok; the kernel waits before reading anything). */
gpuError_t rlxg_norm(gpuStream_t s, int dtype, int is_rms, const void *x,
                      const void *res, const void *gamma, const void *beta,
                      void *y, int64_t rows, int64_t cols, float eps,
                      int pdl);

/* Fused attention: for every (batch, head) pair and query row i,
 * o[i] = softmax(scale * q[i] . k[j] over keys j) @ v, all in f32, each
 * operand read through element strides {batch, head, row, col} (so q, k
 * and v can be views into one qkv buffer) and o written likewise.
 * CAUSAL: key j is left out for j > i + sk - sq (weight 0). dh and dv at
 * most RLXG_ATTN_MAX_D. PDL: the tensor-core kernels are launched as
 * programmatic dependents (as rlxg_norm's PDL); the others plainly. */
#define RLXG_ATTN_MAX_D 128
typedef struct rlxg_attn_plan {
    int64_t batch, heads, sq, sk, dh, dv;
    int64_t q_s[4], k_s[4], v_s[4], o_s[4];
    int64_t q_off, k_off, v_off;   /* elements */
    float scale;
    int32_t causal;
} rlxg_attn_plan;
gpuError_t rlxg_attention(gpuStream_t s, int dtype, const void *q,
                           const void *k, const void *v, void *o,
                           const rlxg_attn_plan *plan, int pdl);
/* y[r, c] = sum_k x[r, k] w[c, k] (+ bias[c]; relu with RLXG_GEMV_RELU)
 * for ROWS <= RLXG_GEMV_MAX_ROWS rows of x [rows, k] and w [n, k]; BIAS
 * may be NULL. WPC: warps per output column, 1, 2, 4 or 8; 0 picks by
 * N. FLAGS: RLXG_GEMV_*. */
#define RLXG_GEMV_MAX_ROWS 8
#define RLXG_GEMV_RELU 0x1
/* W is never written by the graph: load it before x is ready */
#define RLXG_GEMV_EARLY 0x2
/* launch as a programmatic dependent of the previous kernel (CC >= 9.0;
 * the kernel waits for it before reading x) */
#define RLXG_GEMV_PDL 0x4
gpuError_t rlxg_gemv(gpuStream_t s, int dtype, const void *x,
                      const void *w, const void *bias, void *y, int64_t rows,
                      int64_t n, int64_t k, int wpc, int flags);
/* Two batch-1 Linear layers as one stream of both weights (CUDA on
 * sm_90 only: thread-block clusters; gk_gemv_chain.cu):
 * y[c] = act2(sum_j h[j] w2[c, j] + b2[c]) with
 * h[j] = act1(sum_k x[k] w1[j, k] + b1[j]), w1 [nh, k0] and w2 [n2, nh]
 * (Linear layout, params), biases may be NULL, act: relu when RELU1 /
 * RELU2. K0 and NH multiples of 4, x, w1 and w2 16-byte aligned.
 * SCRATCH: rlxg_gemv_chain_scratch(nh, n2) bytes for the partial sums.
 * PDL: the first of its two kernels may start while the previous
 * kernel finishes (it waits before reading x); PDL_SUM: the second,
 * while the first does. rlxg_gemv_chain_init once before the first
 * launch (its shared memory). */
size_t rlxg_gemv_chain_scratch(int64_t nh, int64_t n2);
gpuError_t rlxg_gemv_chain_init(void);
gpuError_t rlxg_gemv_chain(gpuStream_t s, const float *x, const float *w1,
                           const float *b1, int relu1, const float *w2,
                           const float *b2, float *scratch, int relu2,
                           float *y, int64_t k0, int64_t nh, int64_t n2,
                           int pdl, int pdl_sum);
/* op: RLX_OP_REDUCE_SUM / _MEAN / _MAX */
gpuError_t rlxg_reduce(gpuStream_t s, int dtype, int op, const void *x,
                        void *y, const rlxg_reduce_plan *plan);
/* out[o, j, i] = data[o, idx[j], i]; a bad index sets *ERR to 1. */
gpuError_t rlxg_gather(gpuStream_t s, size_t elem_size, const void *data,
                        const void *idx, int idx_is_i64, void *y,
                        int64_t outer, int64_t dim, int64_t n_idx,
                        int64_t inner, int *err);
gpuError_t rlxg_cast(gpuStream_t s, int src_dtype, int dst_dtype,
                      const void *x, void *y, int64_t n);
gpuError_t rlxg_fill(gpuStream_t s, int dtype, void *y, int64_t n,
                      double value);

/* Our own tiled GEMM (gk_gemm.cu), for GPUs without a vendor BLAS and
 * selectable on CUDA (RLX_CUDA_MATMUL=kernel): for each of BATCH
 * problems t, y + t*sy [m, n] = op(a + t*sa) [m, k] @ op(b + t*sb) [k, n],
 * row-major; TA: a is stored [k, m]; TB: b is stored [n, k]. Then
 * + bias[c] (BIAS may be NULL) and ACT (RLXG_GEMM_*), all in f32,
 * rounded once on store. */
#define RLXG_GEMM_NONE 0
#define RLXG_GEMM_RELU 1
#define RLXG_GEMM_GELU_TANH 2
gpuError_t rlxg_gemm(gpuStream_t s, int dtype, const void *a, const void *b,
                     const void *bias, void *y, int64_t m, int64_t n,
                     int64_t k, int ta, int tb, int64_t batch, int64_t sa,
                     int64_t sb, int64_t sy, int act);

/* f32 GEMM on tensor cores at f32 accuracy (3xTF32 split precision,
 * gk_gemm_tf32x3.cu): rlxg_gemm's contract for f32 only. CFG picks the
 * block tile, 0 .. RLXG_TF32X3_CONFIGS - 1; rlxg_gemm_tf32x3_splits(CFG)
 * says in how many parts it splits K (more than 1: batch 1 and act NONE
 * only, y's m * n elements contiguous; 0: no such CFG). It needs
 * sm_80+ and rows in whole 16-byte chunks: rlxg_gemm_tf32x3_ok says
 * whether the current device and the layout take it (never under HIP);
 * a and b must also be 16-byte aligned, else the launcher returns
 * gpuErrorInvalidValue and launches nothing. */
#define RLXG_TF32X3_CONFIGS 11
int rlxg_gemm_tf32x3_splits(int cfg);
int rlxg_gemm_tf32x3_ok(int64_t m, int64_t n, int64_t k, int ta, int tb,
                        int64_t batch, int64_t sa, int64_t sb);
gpuError_t rlxg_gemm_tf32x3(gpuStream_t s, const void *a, const void *b,
                            const void *bias, void *y, int64_t m, int64_t n,
                            int64_t k, int ta, int tb, int64_t batch,
                            int64_t sa, int64_t sb, int64_t sy, int act,
                            int cfg);

#ifdef __cplusplus
}
#endif

#endif /* RLX_GPU_KERNELS_H */
