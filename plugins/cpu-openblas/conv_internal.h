/*
 * conv_internal.h - what the two files of the 2-d convolution share:
 * kernels_conv.c (planning, weight packing, im2col + sgemm, dispatch)
 * and kernels_dw.c (the depthwise kernels): the job context, the
 * epilogue and the scratch slots.
 */
#ifndef RLX_BLAS_CONV_INTERNAL_H
#define RLX_BLAS_CONV_INTERNAL_H

#include "blas_internal.h"
#include "sgemm.h"

#if RLX__SGEMM_NR

/* One conv run, as the pool's tasks see it. */
typedef struct rlx__blas_conv_ctx {
    rlx__blas_conv *p;        /* its scratch slots are taken per task */
    const float *x, *res;
    float *y;
    size_t panels, block, n_blocks; /* the gemm path's column blocks */
} rlx__blas_conv_ctx;

/* Bias, residual and activation on ROWS x COLS of Y (row step LD),
 * row r being output channel CH0 + r; RES at the same place or NULL. */
void rlx__blas_conv_epilogue(const rlx__blas_conv *p, float *y,
                             const float *res, size_t ld, size_t ch0,
                             size_t rows, size_t cols);
/* A free scratch slot (p->scratch + slot * p->slot_floats), taken until
 * its busy flag is cleared: at most n_slots tasks run at once. */
unsigned rlx__blas_conv_take_slot(rlx__blas_conv *p);

/* ---- kernels_dw.c ------------------------------------------------------ */

/* 1 when the phase-plane kernel runs P (stride 1 or 2, no dilation). */
int rlx__blas_dw_phased(const rlx__blas_conv *p);
/* Floats of one scratch slot of the phase-plane kernel. */
size_t rlx__blas_dw_scratch_floats(const rlx__blas_conv *p);
/* Output planes (image-channel) [begin, end): pool tasks on a
 * rlx__blas_conv_ctx. */
void rlx__blas_dw_phase_jobs(void *arg, size_t begin, size_t end);
void rlx__blas_dw_jobs(void *arg, size_t begin, size_t end);

#endif /* RLX__SGEMM_NR */

#endif /* RLX_BLAS_CONV_INTERNAL_H */
