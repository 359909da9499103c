/*
 * cuda_matmul.h - what cuda_matmul.c lends the autotuner
 * (cuda_autotune.c): one call of a matmul step's own kernels with the
 * configuration its rlxg_matmul holds now.
 */
#ifndef RLX_CUDA_MATMUL_H
#define RLX_CUDA_MATMUL_H

#include "gpu_internal.h"

/* Our batch-1 GEMV with mm->gemv_wpc warps per column; DEP: launched as
 * the programmatic dependent of the kernel before (where planned so) */
cudaError_t rlxg_matmul_gemv(rlx_executable *exe, const rlxg_step *step,
                             const void *a, const void *b, const void *bias,
                             void *y, cudaStream_t stream, int dep);
/* Our 3xTF32 GEMM with block tile mm->tf32x3_cfg */
cudaError_t rlxg_matmul_tf32x3(const rlxg_matmul *mm, const void *a,
                               const void *b, const void *bias, void *y,
                               cudaStream_t stream);

#endif
