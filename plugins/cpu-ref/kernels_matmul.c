/*
 * kernels_matmul.c - numpy.matmul after optional transposes of the last
 * two dims: a rank-1 side is a vector (its dim dropped from the result)
 * and batch dims broadcast. Products accumulate in double.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

static rlx_status bad_shape(const rlx_host *host, const char *name,
                            rlx__cpu_ref_shape a, rlx__cpu_ref_shape b,
                            rlx__cpu_ref_shape out)
{
    char sa[96], sb[96], so[96];
    return rlx_kit_fail(host, RLX_ERR_SHAPE,
                        "cpu-ref compile: matmul '%s' of %s and %s "
                        "cannot give %s. Fix: report this as a bug in "
                        "the rlx core", name,
                        rlx__cpu_ref_shape_str(a, sa, sizeof sa),
                        rlx__cpu_ref_shape_str(b, sb, sizeof sb),
                        rlx__cpu_ref_shape_str(out, so, sizeof so));
}

rlx_status rlx__cpu_ref_matmul_prepare(const rlx_host *host,
                                       const char *name,
                                       rlx__cpu_ref_shape a,
                                       rlx__cpu_ref_shape b,
                                       rlx__cpu_ref_shape out,
                                       int transpose_a, int transpose_b,
                                       rlx__cpu_ref_matmul *plan,
                                       size_t **scratch)
{
    if (a.rank == 0 || b.rank == 0)
        return bad_shape(host, name, a, b, out);
    rlx_kit_matmul_operand sa, sb;
    rlx_kit_matmul_operand_init(a.rank, a.dims, transpose_a, 0, &sa);
    rlx_kit_matmul_operand_init(b.rank, b.dims, transpose_b, 1, &sb);
    if (sa.cols != sb.rows)
        return bad_shape(host, name, a, b, out);

    uint32_t br = sa.batch_rank > sb.batch_rank ? sa.batch_rank
                                                : sb.batch_rank;
    uint32_t want = br + (a.rank >= 2) + (b.rank >= 2);
    if (out.rank != want)
        return bad_shape(host, name, a, b, out);
    if (a.rank >= 2 && out.dims[br] != sa.rows)
        return bad_shape(host, name, a, b, out);
    if (b.rank >= 2 && out.dims[out.rank - 1] != sb.cols)
        return bad_shape(host, name, a, b, out);
    /* Batch dims: each side's dim equals the result's or is 1. */
    if (!rlx_kit_broadcasts(sa.batch_rank, sa.batch, br, out.dims) ||
        !rlx_kit_broadcasts(sb.batch_rank, sb.batch, br, out.dims))
        return bad_shape(host, name, a, b, out);

    /* one block: the two stride arrays (int64_t, first for alignment),
     * then dims and the counter; calloc checks the product itself */
    int64_t *mem = calloc(br ? br : 1,
                          2 * sizeof(int64_t) + 2 * sizeof(size_t));
    if (!mem)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning "
                            "'%s'. Fix: free memory", name);
    *scratch = (size_t *)(void *)mem;
    plan->m = (size_t)sa.rows;
    plan->k = (size_t)sa.cols;
    plan->n = (size_t)sb.cols;
    plan->a_row = (size_t)sa.row;
    plan->a_col = (size_t)sa.col;
    plan->b_row = (size_t)sb.row;
    plan->b_col = (size_t)sb.col;
    plan->batch_rank = br;
    plan->a_batch_stride = mem;
    plan->b_batch_stride = mem + br;
    plan->batch_dims = (size_t *)(void *)(mem + 2 * (size_t)br);
    plan->index = plan->batch_dims + br;
    plan->n_batch = 1;
    for (uint32_t d = 0; d < br; d++) {
        plan->batch_dims[d] = (size_t)out.dims[d];
        plan->n_batch *= plan->batch_dims[d]; /* bounded unless empty */
    }
    rlx_kit_matmul_batch_strides(&sa, br, plan->a_batch_stride);
    rlx_kit_matmul_batch_strides(&sb, br, plan->b_batch_stride);
    return RLX_OK;
}

void rlx__cpu_ref_matmul_run(rlx__cpu_ref_matmul *p, const float *a,
                             const float *b, float *y, size_t count)
{
    if (count == 0)
        return; /* an empty result: some of m, n, batch are 0 */
    size_t ia = 0, ib = 0, iy = 0;
    uint32_t r = p->batch_rank;
    if (r)
        memset(p->index, 0, r * sizeof *p->index);
    for (size_t t = 0; t < p->n_batch; t++) {
        const float *A = a + ia, *B = b + ib;
        for (size_t i = 0; i < p->m; i++) {
            for (size_t j = 0; j < p->n; j++) {
                double acc = 0.0;
                for (size_t q = 0; q < p->k; q++)
                    acc += (double)A[i * p->a_row + q * p->a_col] *
                           (double)B[q * p->b_row + j * p->b_col];
                y[iy++] = rlx__cpu_ref_to_f32(acc);
            }
        }
        for (uint32_t d = r; d-- > 0;) {
            ia += (size_t)p->a_batch_stride[d];
            ib += (size_t)p->b_batch_stride[d];
            if (++p->index[d] < p->batch_dims[d])
                break;
            ia -= (size_t)p->a_batch_stride[d] * p->batch_dims[d];
            ib -= (size_t)p->b_batch_stride[d] * p->batch_dims[d];
            p->index[d] = 0;
        }
    }
}
