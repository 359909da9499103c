/*
 * sgemm.h - cpu-openblas's own single-precision matmul for the AVX2 and
 * AVX-512 variants: B packed into NR-wide column panels (once, for
 * weights), A read in place, register-blocked micro-kernels, the fused
 * epilogue applied to each tile while it is in L1, and the work split
 * over N panels (and M blocks) on the backend's pool.
 *
 * The portable variant has no kernel (RLX__SGEMM_NR is 0) and keeps
 * OpenBLAS for everything (gemm.c).
 */
#ifndef RLXB_SGEMM_H
#define RLXB_SGEMM_H

#include <stddef.h>

#include "blas_internal.h"

/* Panel width and the rows of one micro-kernel call, per variant. */
#if defined(__AVX512F__)
#define RLX__SGEMM_NR 32
#define RLX__SGEMM_MR 12
#elif defined(__AVX2__) && defined(__FMA__)
#define RLX__SGEMM_NR 16
#define RLX__SGEMM_MR 6
#else
#define RLX__SGEMM_NR 0
#define RLX__SGEMM_MR 0
#endif

/* y = act(a . b + bias) + res, each part optional. */
typedef struct rlx__sgemm_epi {
    const float *bias;        /* [n], or NULL */
    rlx_op act;               /* RLX_OP_RELU, RLX_OP_GELU, RLX_OP_INVALID */
    int64_t approx;           /* GELU form */
    const float *res;         /* [m, n] with row step ldc, or NULL */
} rlx__sgemm_epi;

#if RLX__SGEMM_NR

/* Floats of B (K x N) packed: ceil(N / NR) panels of K x NR, zero
 * padded on the right. */
size_t rlx__sgemm_packed_floats(size_t k, size_t n);
/* Pack B(q, j) = trans_b ? b[j * ldb + q] : b[q * ldb + j] into DST
 * (64-byte aligned, rlx__sgemm_packed_floats long). */
void rlx__sgemm_pack_b(const float *b, size_t ldb, int trans_b, size_t k,
                       size_t n, float *dst);

/* C[m x n] (row step ldc) = epilogue(A . B): A row-major with row step
 * lda, B packed by rlx__sgemm_pack_b. Threads from POOL when the product
 * is big enough to pay for waking them (POOL may be NULL). */
void rlx__sgemm_run(rlxb_pool *pool, size_t m, size_t n, size_t k,
                    const float *a, size_t lda, const float *packed_b,
                    float *c, size_t ldc, const rlx__sgemm_epi *epi);

/* ---- sgemm_kern.c: one tile ---------------------------------------- */

/* C[mr x nr] (mr <= MR, nr <= NR) = (ACCUMULATE ? C : 0) + A[mr x kc] .
 * BP[kc x NR] (+ BIAS[0..nr) when BIAS is not NULL). A(i, q) is at
 * a[i * lda + q], or with A_PACKED at a[q * MR + i] (rlx__sgemm_pack_a).
 * With A_PACKED, the kernel also prefetches PF_LINES 64-byte lines from
 * PF on (one per K step; the AVX-512 kernel only). */
void rlx__sgemm_tile(size_t mr, size_t nr, size_t kc, const float *a,
                     size_t lda, int a_packed, const float *bp, float *c,
                     size_t ldc, int accumulate, const float *bias,
                     const char *pf, size_t pf_lines);

#endif /* RLX__SGEMM_NR */

#endif /* RLXB_SGEMM_H */
