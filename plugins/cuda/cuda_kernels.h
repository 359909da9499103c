/*
 * cuda_kernels.h - the launchers of the CUDA backend's kernels, callable
 * from C. Kernels live in cuda_kernels.cu (compiled by nvcc); the host
 * code is C11. Every launcher enqueues work on STREAM (so it can be
 * captured into a CUDA graph) and returns the launch's cudaError_t.
 *
 * Float kernels take f32, f16 or bf16 (rlx_dtype values), compute in f32
 * (f64 for reductions) and round once when they store.
 */
#ifndef RLX_CUDA_KERNELS_H
#define RLX_CUDA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RLXC_MAX_RANK 8

/* Binary broadcast: how one side's element index follows from the
 * output's linear index i. mode 0: i itself (same shape); mode 1:
 * (i / div) % mod (the side's kept dims are one contiguous run of the
 * output's dims); mode 2: through dims and strides (general). */
typedef struct rlxc_bside {
    int32_t mode;
    int64_t div, mod;
    int64_t stride[RLXC_MAX_RANK]; /* mode 2: per output dim, 0 stretched */
} rlxc_bside;

typedef struct rlxc_bcast {
    uint32_t rank;                 /* of the output (mode 2 only) */
    int64_t dims[RLXC_MAX_RANK];
    rlxc_bside a, b;
} rlxc_bcast;

/* Strided copy of elements: for every index of DIMS, dst[dst_off +
 * sum idx*dst_stride] = src[src_off + sum idx*src_stride]. */
typedef struct rlxc_copy_plan {
    uint32_t rank;
    int64_t count;
    int64_t dims[RLXC_MAX_RANK];
    int64_t src_stride[RLXC_MAX_RANK];
    int64_t dst_stride[RLXC_MAX_RANK];
} rlxc_copy_plan;

/* Reduction: each output element walks the reduced dims. */
typedef struct rlxc_reduce_plan {
    uint32_t out_rank, red_rank;
    int64_t n_out, n_red;
    int64_t out_dims[RLXC_MAX_RANK], out_stride[RLXC_MAX_RANK];
    int64_t red_dims[RLXC_MAX_RANK], red_stride[RLXC_MAX_RANK];
} rlxc_reduce_plan;

cudaError_t rlxc_unary(cudaStream_t s, int dtype, int op, int approx,
                       const void *x, void *y, int64_t n);
cudaError_t rlxc_binary(cudaStream_t s, int dtype, int op, const void *a,
                        const void *b, void *y, int64_t n,
                        const rlxc_bcast *plan);
cudaError_t rlxc_copy(cudaStream_t s, size_t elem_size, const void *src,
                      void *dst, const rlxc_copy_plan *plan);
/* Softmax over the middle dim of [outer, len, inner]. CAUSAL_ROWS > 0
 * (inner == 1 only): row r is row (r % causal_rows) of a [rows, len]
 * matrix and column j is excluded when j > row + len - rows. */
cudaError_t rlxc_softmax(cudaStream_t s, int dtype, const void *x, void *y,
                         int64_t outer, int64_t len, int64_t inner,
                         int64_t causal_rows);
/* layer_norm (BETA non-NULL or IS_RMS 0) or rms_norm over rows of COLS.
 * RES non-NULL: the rows are x + res (same shape), the sum rounded to
 * DTYPE as an unfused add would store it. */
cudaError_t rlxc_norm(cudaStream_t s, int dtype, int is_rms, const void *x,
                      const void *res, const void *gamma, const void *beta,
                      void *y, int64_t rows, int64_t cols, float eps);

/* Fused attention: for every (batch, head) pair and query row i,
 * o[i] = softmax(scale * q[i] . k[j] over keys j) @ v, all in f32, each
 * operand read through element strides {batch, head, row, col} (so q, k
 * and v can be views into one qkv buffer) and o written likewise.
 * CAUSAL: key j is left out for j > i + sk - sq (weight 0). dh and dv at
 * most RLXC_ATTN_MAX_D. */
#define RLXC_ATTN_MAX_D 128
typedef struct rlxc_attn_plan {
    int64_t batch, heads, sq, sk, dh, dv;
    int64_t q_s[4], k_s[4], v_s[4], o_s[4];
    int64_t q_off, k_off, v_off;   /* elements */
    float scale;
    int32_t causal;
} rlxc_attn_plan;
cudaError_t rlxc_attention(cudaStream_t s, int dtype, const void *q,
                           const void *k, const void *v, void *o,
                           const rlxc_attn_plan *plan);
/* y[r, c] = sum_k x[r, k] w[c, k] (+ bias[c]; relu with RLXC_GEMV_RELU)
 * for ROWS <= RLXC_GEMV_MAX_ROWS rows of x [rows, k] and w [n, k]; BIAS
 * may be NULL. WPC: warps per output column, 1, 2, 4 or 8; 0 picks by
 * N. FLAGS: RLXC_GEMV_*. */
#define RLXC_GEMV_MAX_ROWS 8
#define RLXC_GEMV_RELU 0x1
/* W is never written by the graph: load it before x is ready */
#define RLXC_GEMV_EARLY 0x2
/* launch as a programmatic dependent of the previous kernel (CC >= 9.0;
 * the kernel waits for it before reading x) */
#define RLXC_GEMV_PDL 0x4
cudaError_t rlxc_gemv(cudaStream_t s, int dtype, const void *x,
                      const void *w, const void *bias, void *y, int64_t rows,
                      int64_t n, int64_t k, int wpc, int flags);
/* op: RLX_OP_REDUCE_SUM / _MEAN / _MAX */
cudaError_t rlxc_reduce(cudaStream_t s, int dtype, int op, const void *x,
                        void *y, const rlxc_reduce_plan *plan);
/* out[o, j, i] = data[o, idx[j], i]; a bad index sets *ERR to 1. */
cudaError_t rlxc_gather(cudaStream_t s, size_t elem_size, const void *data,
                        const void *idx, int idx_is_i64, void *y,
                        int64_t outer, int64_t dim, int64_t n_idx,
                        int64_t inner, int *err);
cudaError_t rlxc_cast(cudaStream_t s, int src_dtype, int dst_dtype,
                      const void *x, void *y, int64_t n);
cudaError_t rlxc_fill(cudaStream_t s, int dtype, void *y, int64_t n,
                      double value);

#ifdef __cplusplus
}
#endif

#endif /* RLX_CUDA_KERNELS_H */
