/*
 * kernels_matmul.c - numpy.matmul after optional transposes of the last
 * two dims: a rank-1 side is a vector (its dim dropped from the result)
 * and batch dims broadcast. Products accumulate in double.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

/* One side's matrix, as read by the kernel. */
typedef struct side {
    size_t rows, cols;      /* after transpose: m x k for a, k x n for b */
    size_t row, col;        /* element strides */
    size_t size;            /* elements of one stored matrix */
    uint32_t batch_rank;
    const int64_t *batch;   /* dims before the last two */
} side;

static void side_init(rlx__cpu_ref_shape s, int transpose, int is_b, side *o)
{
    if (s.rank == 1) {
        /* a: [k] as [1, k]; b: [k] as [k, 1]. Transpose does not apply. */
        size_t k = (size_t)s.dims[0];
        o->rows = is_b ? k : 1;
        o->cols = is_b ? 1 : k;
        o->row = is_b ? 1 : 0;
        o->col = is_b ? 0 : 1;
        o->size = k;
        o->batch_rank = 0;
        o->batch = s.dims;
        return;
    }
    size_t r = (size_t)s.dims[s.rank - 2], c = (size_t)s.dims[s.rank - 1];
    o->rows = transpose ? c : r;
    o->cols = transpose ? r : c;
    o->row = transpose ? 1 : c;
    o->col = transpose ? c : 1;
    o->size = r * c; /* wraps only for empty tensors, never read */
    o->batch_rank = s.rank - 2;
    o->batch = s.dims;
}

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
    side sa, sb;
    side_init(a, transpose_a, 0, &sa);
    side_init(b, transpose_b, 1, &sb);
    if (sa.cols != sb.rows)
        return bad_shape(host, name, a, b, out);

    uint32_t br = sa.batch_rank > sb.batch_rank ? sa.batch_rank
                                                : sb.batch_rank;
    uint32_t want = br + (a.rank >= 2) + (b.rank >= 2);
    if (out.rank != want)
        return bad_shape(host, name, a, b, out);
    if (a.rank >= 2 && (size_t)out.dims[br] != sa.rows)
        return bad_shape(host, name, a, b, out);
    if (b.rank >= 2 && (size_t)out.dims[out.rank - 1] != sb.cols)
        return bad_shape(host, name, a, b, out);
    /* Batch dims: each side's dim equals the result's or is 1. */
    for (uint32_t d = 0; d < br; d++) {
        int64_t o = out.dims[d];
        uint32_t from_right = br - 1 - d;
        if (from_right < sa.batch_rank) {
            int64_t x = sa.batch[sa.batch_rank - 1 - from_right];
            if (x != o && x != 1)
                return bad_shape(host, name, a, b, out);
        }
        if (from_right < sb.batch_rank) {
            int64_t x = sb.batch[sb.batch_rank - 1 - from_right];
            if (x != o && x != 1)
                return bad_shape(host, name, a, b, out);
        }
    }

    size_t *mem = NULL;
    /* calloc checks the product for overflow itself. */
    if (!(mem = calloc(br ? br : 1, 4 * sizeof(size_t))))
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning "
                            "'%s'. Fix: free memory", name);
    *scratch = mem;
    plan->m = sa.rows;
    plan->k = sa.cols;
    plan->n = sb.cols;
    plan->a_row = sa.row;
    plan->a_col = sa.col;
    plan->b_row = sb.row;
    plan->b_col = sb.col;
    plan->batch_rank = br;
    plan->batch_dims = mem;
    plan->a_batch_stride = mem + br;
    plan->b_batch_stride = mem + 2 * (size_t)br;
    plan->index = mem + 3 * (size_t)br;
    plan->n_batch = 1;
    for (uint32_t d = 0; d < br; d++) {
        plan->batch_dims[d] = (size_t)out.dims[d];
        plan->n_batch *= plan->batch_dims[d]; /* bounded unless empty */
    }
    for (int s = 0; s < 2; s++) {
        const side *x = s == 0 ? &sa : &sb;
        size_t *stride = s == 0 ? plan->a_batch_stride : plan->b_batch_stride;
        size_t step = x->size;
        for (uint32_t d = br; d-- > 0;) {
            uint32_t from_right = br - 1 - d;
            if (from_right >= x->batch_rank) {
                stride[d] = 0;
                continue;
            }
            size_t di = (size_t)x->batch[x->batch_rank - 1 - from_right];
            stride[d] = di == 1 ? 0 : step;
            step *= di;
        }
    }
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
            ia += p->a_batch_stride[d];
            ib += p->b_batch_stride[d];
            if (++p->index[d] < p->batch_dims[d])
                break;
            ia -= p->a_batch_stride[d] * p->batch_dims[d];
            ib -= p->b_batch_stride[d] * p->batch_dims[d];
            p->index[d] = 0;
        }
    }
}
