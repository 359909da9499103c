/*
 * gemm.c - a matmul step: batches, transposes, the packed-B cache and
 * the epilogue around the sgemm of this variant.
 *
 * AVX2 and AVX-512 variants run sgemm.c: B is packed into panels, once
 * when it is a param or a constant (kept in the plan, keyed by the
 * buffer's id, repacked only when another buffer is bound), else per
 * run; a transposed A is copied row-major first; the epilogue is fused
 * into the tiles. Several batches run one per thread. The portable
 * variant (and any allocation failure) goes through OpenBLAS
 * cblas_sgemm with the epilogue after the product.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cblas.h>

#include "sgemm.h"
#include "vmath.h"

/* The epilogue on ROWS rows of N, after the product. */
static void epilogue_rows(const rlxb_gemm *p, const float *const *in,
                          float *y, size_t row0, size_t rows)
{
    const rlxb_epilogue *e = &p->epi;
    size_t n = p->n;
    for (size_t r = row0; r < row0 + rows; r++) {
        float *yr = y + r * n;
        if (e->bias_in >= 0) {
            const float *bias = in[e->bias_in];
            for (size_t j = 0; j < n; j++)
                yr[j] += bias[j];
        }
        if (e->act == RLX_OP_RELU)
            for (size_t j = 0; j < n; j++)
                yr[j] = yr[j] > 0.0f || yr[j] != yr[j] ? yr[j] : 0.0f;
        else if (e->act == RLX_OP_GELU && e->approx == RLX_GELU_TANH)
            for (size_t j = 0; j < n; j++)
                yr[j] = rlxb_gelu_tanh(yr[j]);
        else if (e->act == RLX_OP_GELU)
            for (size_t j = 0; j < n; j++)
                yr[j] = rlxb_gelu_erf(yr[j]);
        if (e->res_in >= 0) {
            const float *res = in[e->res_in] + r * n;
            for (size_t j = 0; j < n; j++)
                yr[j] += res[j];
        }
    }
}

/* Batch T through OpenBLAS, epilogue after. */
static void blas_batch(const rlxb_gemm *p, const float *const *in,
                       float *y, size_t t)
{
    size_t mn = p->m * p->n;
    cblas_sgemm(CblasRowMajor, p->trans_a ? CblasTrans : CblasNoTrans,
                p->trans_b ? CblasTrans : CblasNoTrans, (blasint)p->m,
                (blasint)p->n, (blasint)p->k, 1.0f, in[0] + p->a_off[t],
                (blasint)p->lda, in[1] + p->b_off[t], (blasint)p->ldb, 0.0f,
                y + t * mn, (blasint)p->n);
    epilogue_rows(p, in, y, t * p->m, p->m);
}

void rlxb_gemm_free(rlxb_gemm *p)
{
    free(p->a_off);
    free(p->b_off);
    free(p->packed);
    p->a_off = p->b_off = NULL;
    p->packed = NULL;
    p->packed_key = 0;
}

#if RLX__SGEMM_NR

#define HUGE_PAGE ((size_t)2 << 20)

static float *alloc_floats(size_t n)
{
    size_t bytes = (n * sizeof(float) + RLXB_ALIGN - 1) /
                   RLXB_ALIGN * RLXB_ALIGN;
    if (bytes < 2 * HUGE_PAGE)
        return aligned_alloc(RLXB_ALIGN,
                             bytes ? bytes : RLXB_ALIGN);
    /* big packed weights are streamed front to back every run: on huge
     * pages the stream does not miss the TLB every 4 KiB */
    bytes = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    float *p = aligned_alloc(HUGE_PAGE, bytes);
#ifdef MADV_HUGEPAGE
    if (p)
        (void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint: may fail */
#endif
    return p;
}

typedef struct gemm_ctx {
    const rlxb_gemm *p;
    const float *const *in;
    float *y;
    const float *packed;      /* B packed for every batch, or NULL */
    rlxb_pool *pool;     /* for a single batch */
} gemm_ctx;

/* Batches [begin, end) on this thread (the pool's, when one batch). */
static void run_batches(void *arg, size_t begin, size_t end)
{
    const gemm_ctx *x = arg;
    const rlxb_gemm *p = x->p;
    const rlxb_epilogue *pe = &p->epi;
    size_t mn = p->m * p->n;
    float *bp = NULL, *at = NULL;
    if ((!x->packed &&
         !(bp = alloc_floats(rlx__sgemm_packed_floats(p->k, p->n)))) ||
        (p->trans_a && !(at = alloc_floats(p->m * p->k)))) {
        free(bp);
        for (size_t t = begin; t < end; t++)
            blas_batch(p, x->in, x->y, t);
        return;
    }
    for (size_t t = begin; t < end; t++) {
        const float *a = x->in[0] + p->a_off[t];
        size_t lda = p->lda;
        if (p->trans_a) { /* A(i, q) = a[q * lda + i]: make it row-major */
            for (size_t q = 0; q < p->k; q++)
                for (size_t i = 0; i < p->m; i++)
                    at[i * p->k + q] = a[q * lda + i];
            a = at;
            lda = p->k;
        }
        if (bp)
            rlx__sgemm_pack_b(x->in[1] + p->b_off[t], p->ldb, p->trans_b,
                              p->k, p->n, bp);
        rlx__sgemm_epi e = {
            .bias = pe->bias_in >= 0 ? x->in[pe->bias_in] : NULL,
            .act = pe->act,
            .approx = pe->approx,
            .res = pe->res_in >= 0 ? x->in[pe->res_in] + t * mn : NULL,
        };
        rlx__sgemm_run(x->pool, p->m, p->n, p->k, a, lda,
                       bp ? bp : x->packed, x->y + t * mn, p->n, &e);
    }
    free(bp);
    free(at);
}

/* B packed once for every batch and run, when B is the same bytes every
 * run (a param's buffer, a constant) and every batch shares it. */
static const float *cached_b(rlxb_gemm *p, const float *b)
{
    if (p->packed && p->packed_key == p->b_key)
        return p->packed;
    free(p->packed);
    p->packed_key = 0;
    p->packed = alloc_floats(rlx__sgemm_packed_floats(p->k, p->n));
    if (!p->packed)
        return NULL; /* packed per run instead (or OpenBLAS) */
    rlx__sgemm_pack_b(b + p->b_off[0], p->ldb, p->trans_b, p->k, p->n,
                      p->packed);
    p->packed_key = p->b_key;
    return p->packed;
}

static void own_run(rlxb_pool *pool, rlxb_gemm *p,
                    const float *const *in, float *y)
{
    gemm_ctx x = { .p = p, .in = in, .y = y };
    int shared = 1;
    for (size_t t = 1; shared && t < p->n_batch; t++)
        shared = p->b_off[t] == p->b_off[0];
    float *once = NULL; /* a shared B that changes between runs */
    if (shared && p->b_key)
        x.packed = cached_b(p, in[1]);
    else if (shared && p->n_batch > 1 &&
             (once = alloc_floats(rlx__sgemm_packed_floats(p->k, p->n)))) {
        rlx__sgemm_pack_b(in[1] + p->b_off[0], p->ldb, p->trans_b, p->k,
                          p->n, once);
        x.packed = once;
    }
    size_t macs = p->m * p->n * p->k;
    if (p->n_batch > 1 && macs * p->n_batch >= ((size_t)1 << 17) &&
        rlxb_pool_threads(pool) > 1)
        rlxb_parallel_for(pool, p->n_batch, 1, run_batches, &x);
    else {
        x.pool = pool;
        run_batches(&x, 0, p->n_batch);
    }
    free(once);
}

#endif /* RLX__SGEMM_NR */

void rlxb_gemm_run(rlxb_pool *pool, rlxb_gemm *p,
                        const float *const *in, float *y)
{
    size_t mn = p->m * p->n;
    if (mn == 0 || p->n_batch == 0)
        return;
    if (p->k == 0) { /* an empty sum: zeros (BLAS may skip C entirely) */
        memset(y, 0, mn * p->n_batch * sizeof *y);
        epilogue_rows(p, in, y, 0, p->m * p->n_batch);
        return;
    }
#if RLX__SGEMM_NR
    own_run(pool, p, in, y);
#else
    (void)pool;
    for (size_t t = 0; t < p->n_batch; t++)
        blas_batch(p, in, y, t);
#endif
}
