/*
 * gemm.c - matmul through OpenBLAS cblas_sgemm, row-major, transposes as
 * CblasTrans. A batch is a loop of sgemm calls (or one call, when
 * prepare.c stacked A's matrices into rows); broadcast batch dims were
 * turned into repeated offsets at compile time. sgemm runs on the
 * calling thread and parallelises itself with OpenBLAS's threads. The
 * fused epilogue (bias, activation, residual) runs after each product.
 */
#include <string.h>

#include <cblas.h>

#include "blas_internal.h"

static void epilogue_run(rlx__blas_pool *pool, const rlx__blas_gemm *p,
                         const float *const *in, float *y)
{
    const rlx__blas_epilogue *e = &p->epi;
    size_t rows = p->m * p->n_batch, n = p->n;
    if (e->bias_in >= 0) {
        const float *bias = in[e->bias_in];
        for (size_t r = 0; r < rows; r++)
            for (size_t j = 0; j < n; j++)
                y[r * n + j] += bias[j];
    }
    if (e->act != RLX_OP_INVALID)
        rlx__blas_unary(pool, e->act, e->approx, y, y, rows * n);
    if (e->res_in >= 0) {
        const float *res = in[e->res_in];
        for (size_t i = 0; i < rows * n; i++)
            y[i] += res[i];
    }
}

void rlx__blas_gemm_run(rlx__blas_pool *pool, rlx__blas_gemm *p,
                        const float *const *in, float *y)
{
    const float *a = in[0], *b = in[1];
    size_t mn = p->m * p->n;
    if (mn == 0 || p->n_batch == 0)
        return;
    if (p->k == 0) /* an empty sum: zeros (BLAS may skip C entirely) */
        memset(y, 0, mn * p->n_batch * sizeof *y);
    else
        for (size_t t = 0; t < p->n_batch; t++)
            cblas_sgemm(CblasRowMajor,
                        p->trans_a ? CblasTrans : CblasNoTrans,
                        p->trans_b ? CblasTrans : CblasNoTrans,
                        (blasint)p->m, (blasint)p->n, (blasint)p->k, 1.0f,
                        a + p->a_off[t], (blasint)p->lda, b + p->b_off[t],
                        (blasint)p->ldb, 0.0f, y + t * mn, (blasint)p->n);
    epilogue_run(pool, p, in, y);
}
