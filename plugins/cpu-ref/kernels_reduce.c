/*
 * kernels_reduce.c - reduce_sum, reduce_mean and reduce_max over a set of
 * axes, accumulating in double. Reducing an empty axis gives sum 0,
 * mean NaN and max -inf; max propagates NaN.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

#define MAX_RANK 64 /* beyond any rank the core allows */

rlx_status rlx__cpu_ref_reduce_prepare(const rlx_host *host,
                                       const rlx_graph_view *g,
                                       const rlx_node_view *v,
                                       const rlx__cpu_ref_attrs *a,
                                       rlx__cpu_ref_node *n)
{
    char sx[96], so[96];
    const rlx_node_view *in = g->nodes[v->inputs[0]];
    rlx__cpu_ref_shape x = { in->rank, in->shape }, out = { v->rank, v->shape };
    int64_t keep = a->n_ints > RLX_ATTR_REDUCE_KEEPDIMS
                       ? a->ints[RLX_ATTR_REDUCE_KEEPDIMS] : 0;
    unsigned char reduced[MAX_RANK] = { 0 };
    int ok = x.rank <= MAX_RANK && (keep == 0 || keep == 1);
    if (ok && a->n_ints <= RLX_ATTR_REDUCE_AXES)
        memset(reduced, 1, sizeof reduced);
    for (uint32_t i = RLX_ATTR_REDUCE_AXES; ok && i < a->n_ints; i++) {
        int64_t axis = rlx_kit_norm_axis(a->ints[i], x.rank);
        ok = axis >= 0 && !reduced[axis];
        if (ok)
            reduced[axis] = 1;
    }
    /* the result must be X without (or with 1 for) the reduced dims */
    uint32_t r = 0;
    for (uint32_t d = 0; ok && d < x.rank; d++) {
        if (reduced[d] && !keep)
            continue;
        ok = r < out.rank && out.dims[r] == (reduced[d] ? 1 : x.dims[d]);
        r++;
    }
    if (!ok || r != out.rank)
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: %s '%s' of %s cannot give "
                            "%s with these axes. Fix: report this as a "
                            "bug in the rlx core",
                            rlx_kit_op_name(v->op), v->name,
                            rlx__cpu_ref_shape_str(x, sx, sizeof sx),
                            rlx__cpu_ref_shape_str(out, so, sizeof so));

    rlx__cpu_ref_reduce *p = &n->plan.reduce;
    size_t *mem = calloc(x.rank ? x.rank : 1, 3 * sizeof(size_t));
    /* two per output: log-sum-exp keeps a maximum and a sum */
    n->acc = calloc(n->count ? n->count : 1, 2 * sizeof(double));
    n->scratch = mem;
    if (!mem || !n->acc)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning "
                            "'%s'. Fix: free memory", v->name);
    p->rank = x.rank;
    p->dims = mem;
    p->out_stride = mem + x.rank;
    p->index = mem + 2 * (size_t)x.rank;
    p->per_output = 1;
    size_t step = 1;
    for (uint32_t d = x.rank; d-- > 0;) {
        p->dims[d] = (size_t)x.dims[d];
        if (reduced[d]) {
            p->out_stride[d] = 0;
            p->per_output *= p->dims[d]; /* at most the input's count */
        } else {
            p->out_stride[d] = step;
            step *= p->dims[d]; /* wraps only when empty, never read */
        }
    }
    return RLX_OK;
}

void rlx__cpu_ref_reduce_walk(rlx__cpu_ref_node *n, size_t in_count,
                              rlx__cpu_ref_fold fold, const void *ctx)
{
    const rlx__cpu_ref_reduce *p = &n->plan.reduce;
    uint32_t r = p->rank;
    if (r)
        memset(p->index, 0, r * sizeof *p->index);
    size_t o = 0;
    for (size_t i = 0; i < in_count; i++) {
        fold(n, ctx, o, i);
        for (uint32_t d = r; d-- > 0;) {
            o += p->out_stride[d];
            if (++p->index[d] < p->dims[d])
                break;
            o -= p->out_stride[d] * p->dims[d];
            p->index[d] = 0;
        }
    }
}

/* Sum (and mean) or max of the f32 values at CTX into acc[O]. */
static void fold_f32(rlx__cpu_ref_node *n, const void *ctx, size_t o,
                     size_t i)
{
    double v = ((const float *)ctx)[i];
    if (n->op != RLX_OP_REDUCE_MAX)
        n->acc[o] += v;
    else if (v > n->acc[o] || isnan(v))
        n->acc[o] = v;
}

void rlx__cpu_ref_reduce_run(rlx__cpu_ref_node *n, const float *x,
                             size_t in_count)
{
    const rlx__cpu_ref_reduce *p = &n->plan.reduce;
    int is_max = n->op == RLX_OP_REDUCE_MAX;
    for (size_t o = 0; o < n->count; o++)
        n->acc[o] = is_max ? -INFINITY : 0.0;
    rlx__cpu_ref_reduce_walk(n, in_count, fold_f32, x);
    for (size_t k = 0; k < n->count; k++) {
        double v = n->acc[k];
        if (n->op == RLX_OP_REDUCE_MEAN)
            v = p->per_output ? v / (double)p->per_output : NAN;
        n->f32[k] = rlx__cpu_ref_to_f32(v);
    }
}
