/*
 * gemm.c - matmul through OpenBLAS cblas_sgemm, row-major, transposes as
 * CblasTrans. A batch is a loop of sgemm calls (or one call, when
 * prepare.c stacked A's matrices into rows); broadcast batch dims were
 * turned into repeated offsets at compile time. sgemm runs on the
 * calling thread and parallelises itself with OpenBLAS's threads.
 */
#include <string.h>

#include <cblas.h>

#include "blas_internal.h"

void rlx__blas_gemm_run(const rlx__blas_gemm *p, const float *a,
                        const float *b, float *y)
{
    size_t mn = p->m * p->n;
    if (mn == 0 || p->n_batch == 0)
        return;
    if (p->k == 0) { /* an empty sum: zeros (BLAS may skip C entirely) */
        memset(y, 0, mn * p->n_batch * sizeof *y);
        return;
    }
    for (size_t t = 0; t < p->n_batch; t++)
        cblas_sgemm(CblasRowMajor, p->trans_a ? CblasTrans : CblasNoTrans,
                    p->trans_b ? CblasTrans : CblasNoTrans, (blasint)p->m,
                    (blasint)p->n, (blasint)p->k, 1.0f, a + p->a_off[t],
                    (blasint)p->lda, b + p->b_off[t], (blasint)p->ldb, 0.0f,
                    y + t * mn, (blasint)p->n);
}
