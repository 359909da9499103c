/*
 * conv_internal.h - what the two files of the 2-d convolution share:
 * kernels_conv.c (planning, weight packing, im2col + sgemm, dispatch)
 * and kernels_dw.c (the depthwise kernels): the job context, the
 * epilogue and the scratch slots.
 */
#ifndef RLXB_CONV_INTERNAL_H
#define RLXB_CONV_INTERNAL_H

#include "blas_internal.h"
#include "sgemm.h"

#if RLX__SGEMM_NR

/* One conv run, as the pool's tasks see it. */
typedef struct rlxb_conv_ctx {
    rlxb_conv *p;        /* its scratch slots are taken per task */
    const float *x, *res;
    float *y;
    size_t panels, block, n_blocks; /* the gemm path's column blocks */
} rlxb_conv_ctx;

/* Bias, residual and activation on ROWS x COLS of Y (row step LD),
 * row r being output channel CH0 + r; RES at the same place or NULL. */
void rlxb_conv_epilogue(const rlxb_conv *p, float *y,
                             const float *res, size_t ld, size_t ch0,
                             size_t rows, size_t cols);
/* A free scratch slot (p->scratch + slot * p->slot_floats), taken until
 * its busy flag is cleared: at most n_slots tasks run at once. */
unsigned rlxb_conv_take_slot(rlxb_conv *p);
/* SLOTS scratch slots of FLOATS each (kept across runs while big
 * enough): 0, or -1 when out of memory. */
int rlxb_conv_ensure_scratch(rlxb_conv *p, unsigned slots, size_t floats);

/* Image IMG's packed weights: its own scaled copy when a channel scale
 * is fused (scale_in), else the shared ones. */
static inline const float *rlxb_conv_packed(const rlxb_conv *p, size_t img)
{
    return p->scale_in >= 0 ? p->spacked + img * p->spacked_floats
                            : p->packed;
}

/* The K slice the packed weights are cut into (at most KC rows). */
size_t rlxb_conv_slice(size_t k);

/* ---- kernels_igemm.c --------------------------------------------------- */

/* 1 when the implicit-GEMM kernel runs P (stride 1, no padding, not
 * depthwise; the AVX-512 variant only). */
int rlxb_igemm_fits(const rlxb_conv *p);
/* P on input X (residual RES or NULL) into Y, weights packed; threads
 * from POOL when PAR. 0, or -1 when out of memory. */
int rlxb_igemm_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
                   const float *res, float *y, int par);

/* A 0/1 setting of the conv kernels (kernels_conv.c): 0 or 1 as set,
 * UNSET when it is not, -1 when bad (reported, ending with FIX). */
int rlxb_conv_setting(const rlx_compile_options *o, const rlx_host *host,
                      const char *name, const char *env, int unset,
                      const char *fix);

/* ---- kernels_wino.c --------------------------------------------------- */

/* The setting cpu-openblas.winograd: 0 never, 1 always where it fits, 2
 * (unset) where it pays; -1 when bad (reported). */
int rlxb_wino_setting(const rlx_compile_options *o, const rlx_host *host);
/* 1 when the Winograd kernel can run P (3x3, stride 1, no dilation, one
 * group; the AVX-512 variant only). */
int rlxb_wino_fits(const rlxb_conv *p);
/* 1 when P, which fits, is expected to run faster by Winograd. */
int rlxb_wino_pays(const rlxb_conv *p);
/* Floats of P's transformed packed weights. */
size_t rlxb_wino_packed_floats(const rlxb_conv *p);
/* Transform and pack weights W [m, c, 3, 3], row m scaled by SCALE[m],
 * into p->packed. */
void rlxb_wino_pack(rlxb_conv *p, const float *w, const float *scale);
/* P on input X (residual RES or NULL) into Y, weights packed; threads
 * from POOL when PAR. 0, or -1 when out of memory. */
int rlxb_wino_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
                  const float *res, float *y, int par);

/* ---- kernels_chlane.c ------------------------------------------------ */

/* The setting cpu-openblas.chlane: 0 never, 1 (unset) where it fits; -1
 * when bad (reported). */
int rlxb_chlane_setting(const rlx_compile_options *o, const rlx_host *host);
/* 1 when P has few output pixels per image and runs with the output
 * channels on the lanes (the AVX-512 variant only). */
int rlxb_chlane_fits(const rlxb_conv *p);
/* Floats of P's packed weights (the micro-kernel's B panels). */
size_t rlxb_chlane_packed_floats(const rlxb_conv *p);
/* Pack weights W [m, K], row m scaled by SCALE[m], into p->packed. */
void rlxb_chlane_pack(rlxb_conv *p, const float *w, const float *scale);
/* P on input X (residual RES or NULL) into Y, weights packed; threads
 * from POOL when PAR. 0, or -1 when out of memory. */
int rlxb_chlane_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
                    const float *res, float *y, int par);

/* ---- kernels_dw.c ------------------------------------------------------ */

/* 1 when the phase-plane kernel runs P (stride 1 or 2, no dilation). */
int rlxb_dw_phased(const rlxb_conv *p);
/* Floats of one scratch slot of the phase-plane kernel. */
size_t rlxb_dw_scratch_floats(const rlxb_conv *p);
/* Output planes (image-channel) [begin, end): pool tasks on a
 * rlxb_conv_ctx. */
void rlxb_dw_phase_jobs(void *arg, size_t begin, size_t end);
void rlxb_dw_jobs(void *arg, size_t begin, size_t end);

/* ---- kernels_dw16.c ---------------------------------------------------- */

/* 1 when the 16-channel kernel runs P (depthwise, stride 1 or 2, no
 * dilation; the AVX-512 variant only). */
int rlxb_dw16_fits(const rlxb_conv *p);
/* Output rows per job: a band whose padded input fits in L2, cut into
 * at least WANT_BANDS bands when that is more than 1. */
size_t rlxb_dw16_band_rows(const rlxb_conv *p, size_t want_bands);
/* Floats of one scratch slot for bands of BAND_ROWS rows. */
size_t rlxb_dw16_scratch_floats(const rlxb_conv *p, size_t band_rows);
/* Jobs (image, group of 16 channels, band of cx->block output rows;
 * cx->n_blocks bands per group) [begin, end) on a rlxb_conv_ctx. */
void rlxb_dw16_jobs(void *arg, size_t begin, size_t end);
/* The same for convs of at most 4 input channels and K <= 32 (a
 * network's stem): lanes are 16 output channels. */
int rlxb_c16_fits(const rlxb_conv *p);
size_t rlxb_c16_band_rows(const rlxb_conv *p, size_t want_bands);
size_t rlxb_c16_scratch_floats(const rlxb_conv *p, size_t band_rows);
void rlxb_c16_jobs(void *arg, size_t begin, size_t end);

#endif /* RLX__SGEMM_NR */

#endif /* RLXB_CONV_INTERNAL_H */
