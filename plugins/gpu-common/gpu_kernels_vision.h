/*
 * gpu_kernels_vision.h - the launchers of the vision ops' kernels (ABI
 * 1.4): conv and conv_transpose (gk_conv.cu), the pools (gk_pool.cu),
 * the per-channel norms (gk_chnorm.cu) and resize (gk_resize.cu). Kept apart from
 * gpu_kernels.h so each op family's interface is read in one place.
 * Float kernels take f32, f16 or bf16 and compute in f32 (statistics in
 * f64), rounding once on store; max_pool also takes i8 and u8.
 */
#ifndef RLX_GPU_KERNELS_VISION_H
#define RLX_GPU_KERNELS_VISION_H

#include <stdint.h>

#include "gpu_vendor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Spatial axes a window op may have (as rlx/kit_spatial.h). */
#define RLXG_MAX_SPATIAL 6

/* A window op over x [n, c, in...] giving y [n, m, out...] with s
 * spatial axes, each array one entry per axis: conv and conv_transpose
 * (group, weights' kernel sizes; m output channels) and the pools (m ==
 * c). pad is the begin padding; pad_end matters to avg_pool's
 * count_include_pad only. ACT: RLXG_GEMM_NONE or RLXG_GEMM_RELU, applied
 * after the bias and the residual (conv only). */
typedef struct rlxg_win_plan {
    int32_t s, op, count_include_pad, p, act;
    int64_t n, c, m, group;
    int64_t in[RLXG_MAX_SPATIAL], out[RLXG_MAX_SPATIAL];
    int64_t k[RLXG_MAX_SPATIAL], stride[RLXG_MAX_SPATIAL];
    int64_t dil[RLXG_MAX_SPATIAL], pad[RLXG_MAX_SPATIAL];
    int64_t pad_end[RLXG_MAX_SPATIAL];
    int64_t in_sp, out_sp, k_sp; /* products of in, out, k */
} rlxg_win_plan;

/* conv: y = conv(x, w) + bias (may be NULL) + res (may be NULL, y's
 * shape), then ACT. An implicit GEMM per group (the im2col matrix is
 * never stored); a direct kernel where a group has few output channels
 * (depthwise). */
gpuError_t rlxg_conv(gpuStream_t s, int dtype, const void *x, const void *w,
                     const void *bias, const void *res, void *y,
                     const rlxg_win_plan *p);
/* conv_transpose: each output gathers the inputs whose windows reach
 * it; bias may be NULL. */
gpuError_t rlxg_conv_transpose(gpuStream_t s, int dtype, const void *x,
                               const void *w, const void *bias, void *y,
                               const rlxg_win_plan *p);
/* p->op: RLX_OP_MAX_POOL (f32, f16, bf16, i8, u8), RLX_OP_AVG_POOL,
 * RLX_OP_LP_POOL (p->p the exponent). */
gpuError_t rlxg_pool(gpuStream_t s, int dtype, const void *x, void *y,
                     const rlxg_win_plan *p);
/* max_pool_index (f32, f16, bf16 x): each window's maximum's flat index
 * into x as i64 (-1: none), as cpu-ref's; p->p 1: storage order 1. */
gpuError_t rlxg_pool_index(gpuStream_t s, int dtype, const void *x,
                           int64_t *y, const rlxg_win_plan *p);

/* batch_norm over x [n, c, inner]: per channel, from the given mean and
 * variance. */
gpuError_t rlxg_batch_norm(gpuStream_t s, int dtype, const void *x,
                           const void *scale, const void *bias,
                           const void *mean, const void *var, void *y,
                           int64_t n, int64_t c, int64_t inner, float eps);
/* instance_norm (groups == c) and group_norm over x [n, c, inner]:
 * statistics per image and group of c / groups channels (two-pass, f64),
 * then scale and bias per channel, or per group with PER_GROUP. */
gpuError_t rlxg_group_norm(gpuStream_t s, int dtype, const void *x,
                           const void *scale, const void *bias, void *y,
                           int64_t n, int64_t c, int64_t inner,
                           int64_t groups, int per_group, float eps);

/* resize over any rank (up to 8): mode[0..3] the interpolation mode,
 * coordinate transform, nearest rounding and exclude_outside (rlx/ops.h
 * RLX_RESIZE_*); per axis the input and output sizes, the scale and the
 * roi (start, end). DTYPE f32, f16, bf16; i8 and u8 (nearest only). */
typedef struct rlxg_resize_plan {
    uint32_t rank;
    int32_t mode[4];
    int64_t count;
    int64_t in[8], out[8];
    double scale[8], start[8], end[8];
    double cubic_a, extrapolation;
} rlxg_resize_plan;
gpuError_t rlxg_resize(gpuStream_t s, int dtype, const void *x, void *y,
                       const rlxg_resize_plan *p);

#ifdef __cplusplus
}
#endif

#endif /* RLX_GPU_KERNELS_VISION_H */
