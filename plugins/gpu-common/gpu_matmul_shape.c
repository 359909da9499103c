/*
 * gpu_matmul_shape.c - a matmul node's GEMM problem, for every vendor's
 * matmul: m, n, k, transposes, and the batch as element offsets of a
 * and b per output batch (broadcast batch dims have stride 0). Batch
 * dims that only a carries fold into m (one large GEMM).
 */
#include <stdlib.h>

#include <rlx/kit_shape.h>

#include "gpu_internal.h"

/* One side's batch strides per output batch dim (elements; 0 stretched). */
static void batch_strides(const rlx_node_view *x, uint32_t br,
                          int64_t matrix, int64_t *stride)
{
    uint32_t xb = x->rank >= 2 ? x->rank - 2 : 0;
    rlx_kit_broadcast_strides(br, xb, x->shape, stride);
    for (uint32_t d = 0; d < br; d++)
        stride[d] *= matrix;
}

rlx_status rlxg_matmul_shape(const rlx_host *host, const rlx_node_view *v,
                             const rlx_node_view *a, const rlx_node_view *b,
                             int64_t transpose_a, int64_t transpose_b,
                             rlxg_mm_shape *out)
{
    int ta = a->rank >= 2 && transpose_a, tb = b->rank >= 2 && transpose_b;
    int64_t m, k, n;
    if (a->rank == 1) {
        m = 1;
        k = a->shape[0];
    } else {
        int64_t r = a->shape[a->rank - 2], c = a->shape[a->rank - 1];
        m = ta ? c : r;
        k = ta ? r : c;
    }
    if (b->rank == 1)
        n = 1;
    else
        n = tb ? b->shape[b->rank - 2] : b->shape[b->rank - 1];

    uint32_t ab = a->rank >= 2 ? a->rank - 2 : 0;
    uint32_t bb = b->rank >= 2 ? b->rank - 2 : 0;
    uint32_t br = ab > bb ? ab : bb;
    int64_t n_batch = 1, b_batch = 1;
    for (uint32_t d = 0; d < br; d++)
        n_batch *= v->shape[d];
    for (uint32_t d = 0; d < bb; d++)
        b_batch *= b->shape[d];
    if (b_batch == 1 && !ta && n_batch > 1) { /* fold a's batch into m */
        m *= n_batch;
        n_batch = 1;
    }

    int64_t sa[RLXG_MAX_RANK], sb[RLXG_MAX_RANK];
    int64_t *ao = calloc((size_t)n_batch, sizeof *ao);
    int64_t *bo = calloc((size_t)n_batch, sizeof *bo);
    if (!ao || !bo) {
        free(ao);
        free(bo);
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " compile: out of memory. Fix: "
                               "free memory");
    }
    if (n_batch > 1) {
        batch_strides(a, br, m * k, sa);
        batch_strides(b, br, k * n, sb);
        int64_t idx[RLXG_MAX_RANK] = { 0 }, ia = 0, ib = 0;
        for (int64_t t = 0; t < n_batch; t++) {
            ao[t] = ia;
            bo[t] = ib;
            for (uint32_t d = br; d-- > 0;) {
                ia += sa[d];
                ib += sb[d];
                if (++idx[d] < v->shape[d])
                    break;
                ia -= sa[d] * v->shape[d];
                ib -= sb[d] * v->shape[d];
                idx[d] = 0;
            }
        }
    }
    int regular = 1;
    for (int64_t t = 0; t < n_batch && regular; t++)
        regular = ao[t] == t * (n_batch > 1 ? ao[1] : 0) &&
                  bo[t] == t * (n_batch > 1 ? bo[1] : 0);

    out->ta = ta;
    out->tb = tb;
    out->m = m;
    out->n = n;
    out->k = k;
    out->n_batch = n_batch;
    out->a_off = ao;
    out->b_off = bo;
    out->regular = regular;
    return RLX_OK;
}
