/*
 * gpu_kernels_more.h - the launchers of the ABI 1.4 elementwise,
 * reduction and indexing kernels (gk_ew_more.cu, gk_index.cu): the ops
 * that take the integer dtypes and bool as well as the floats, so they
 * work from each element's dtype rather than by_float's three. Integer
 * arithmetic wraps and stores truncate to the result's width, as
 * cpu-ref's (docs/ops.md).
 */
#ifndef RLX_GPU_KERNELS_MORE_H
#define RLX_GPU_KERNELS_MORE_H

#include <stdint.h>

#include "gpu_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Elementwise op over up to three broadcasting inputs: element k of the
 * result (dims, row-major) reads input j at sum idx[d] * stride[j][d]
 * (0 on a stretched dim). IN_DTYPE: the data inputs' dtype (where: a
 * and b's; its condition is bool). f0, f1: the float attributes
 * (clip's bounds, alphas); i0, i1: the integer ones (clip's bounds
 * rounded for integers, mod's fmod, isinf's detect flags). */
typedef struct rlxg_ew_plan {
    int32_t op, n_in, in_dtype, out_dtype;
    uint32_t rank;
    int64_t count;
    int64_t dims[RLXG_MAX_RANK];
    int64_t stride[3][RLXG_MAX_RANK];
    double f0, f1;
    int64_t i0, i1;
} rlxg_ew_plan;
gpuError_t rlxg_ew(gpuStream_t s, const void *a, const void *b,
                   const void *c, void *y, const rlxg_ew_plan *p);

/* The 1.4 reductions (min, prod, l1, l2, log_sum_exp, sum_square) and
 * sum/mean/max/min/prod on integers: OP over PLAN (as rlxg_reduce's). */
gpuError_t rlxg_reduce_more(gpuStream_t s, int dtype, int op, const void *x,
                            void *y, const rlxg_reduce_plan *plan);
/* argmax (IS_MAX) or argmin of x [outer, len, inner] along len into
 * i64 y [outer, inner]; LAST: select_last_index. NaN is the extreme. */
gpuError_t rlxg_arg(gpuStream_t s, int dtype, int is_max, int last,
                    const void *x, int64_t *y, int64_t outer, int64_t len,
                    int64_t inner);

/* det of each of BATCH m x m matrices at x into y (one per matrix):
 * Gaussian elimination with partial pivoting in double, as cpu-ref's.
 * m at most RLXG_DET_MAX_M (its matrix fits a block's shared memory;
 * supports_node declines larger ones). */
#define RLXG_DET_MAX_M 76
gpuError_t rlxg_det(gpuStream_t s, int dtype, const void *x, void *y,
                    int64_t batch, int64_t m);

/* Index plans: a result of rank dims, its input's dims, per-axis
 * numbers (pad: begins and ends; one_hot: the axis in a; trilu: upper
 * and k in a). */
typedef struct rlxg_index_plan {
    int32_t op, mode, elem, axis;
    uint32_t rank, in_rank, idx_rank;
    int64_t count;
    int64_t dims[RLXG_MAX_RANK], in_dims[RLXG_MAX_RANK];
    int64_t idx_dims[RLXG_MAX_RANK];
    int64_t a[RLXG_MAX_RANK], b[RLXG_MAX_RANK];
    int64_t n0, n1, n2;
    double f0, f1;   /* range's float start and delta */
    uint64_t value;  /* pad's constant, as the element's bytes */
} rlxg_index_plan;
/* pad (mode RLX_PAD_*, a = begins, b = ends; tile: wrap, a = 0, b = the
 * extra) and trilu (n0 upper, n1 k): by element bytes. */
gpuError_t rlxg_layout(gpuStream_t s, const void *x, void *y,
                       const rlxg_index_plan *p);
/* gather_elements (axis), gather_nd (n0 batch_dims, n1 the indices'
 * last dim) and one_hot (axis, n0 depth; x the (off, on) pair): indices
 * i32 or i64 (IDX64); a bad index sets *ERR to 1. */
gpuError_t rlxg_gather_more(gpuStream_t s, const void *x, const void *idx,
                            int idx64, void *y, const rlxg_index_plan *p,
                            int *err);
/* scatter_elements / scatter_nd into y (already a copy of data): n0
 * the reduction, the updates in order of their row-major index (one
 * thread: duplicates apply in that order). dtype: the data's. */
gpuError_t rlxg_scatter(gpuStream_t s, int dtype, const void *idx, int idx64,
                        const void *upd, void *y, const rlxg_index_plan *p,
                        int *err);
/* cumsum along len of [outer, len, inner]: n0 exclusive, n1 reverse. */
gpuError_t rlxg_cumsum(gpuStream_t s, int dtype, const void *x, void *y,
                       const rlxg_index_plan *p);
/* topk's i64 indices along len of [outer, len, inner]: n0 k, n1
 * largest; ties by lower index, NaN above every number. */
gpuError_t rlxg_topk(gpuStream_t s, int dtype, const void *x, int64_t *y,
                     const rlxg_index_plan *p);
/* non_zero: the coordinates of x's nonzero elements (count of them,
 * in_rank and in_dims its shape) into y [in_rank, n0] in row-major
 * order, -1 past the last; more than n0 sets *ERR to 1. One block. */
gpuError_t rlxg_non_zero(gpuStream_t s, int dtype, const void *x, int64_t *y,
                         const rlxg_index_plan *p, int *err);
/* grid_sample: x [N, C, D1..Ds] (in_rank, in_dims; s 1 to 3), grid
 * [N, O1..Os, s] (idx_rank, idx_dims), y [N, C, O1..Os] (count its
 * elements); mode RLX_GRID_SAMPLE_*, n0 the padding, n1 align_corners. */
gpuError_t rlxg_grid_sample(gpuStream_t s, int dtype, const void *x,
                            const void *grid, void *y,
                            const rlxg_index_plan *p);
/* roi_align: x [N, C, H, W] (in_dims), rois [R, 4] (x's dtype), batch
 * indices [R] (i32, or i64 with IDX64), y [R, C, oh, ow] (dims, count);
 * mode 1 max (else avg), n0 sampling_ratio, n1 half_pixel, f0
 * spatial_scale. A batch index outside [0, N) sets *ERR to 1. */
gpuError_t rlxg_roi_align(gpuStream_t s, int dtype, const void *x,
                          const void *rois, const void *bidx, int idx64,
                          void *y, const rlxg_index_plan *p, int *err);
/* range: y[i] = start + i * delta (floats from f, integers from i). */
gpuError_t rlxg_range(gpuStream_t s, int dtype, void *y, int64_t n,
                      double f_start, double f_delta, int64_t i_start,
                      int64_t i_delta);

#ifdef __cplusplus
}
#endif

#endif /* RLX_GPU_KERNELS_MORE_H */
