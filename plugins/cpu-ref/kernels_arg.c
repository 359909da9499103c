/*
 * kernels_arg.c - argmax and argmin along one axis: the index (i64) of
 * the largest or smallest element of each line. NaN counts as the
 * extreme for both; among equal extremes the first wins, or the last
 * with select_last_index. -0 and +0 are equal.
 */
#include <math.h>
#include <string.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_arg_prepare(const rlx_host *host,
                                    const rlx_graph_view *g,
                                    const rlx_node_view *v,
                                    const rlx__cpu_ref_attrs *a,
                                    rlx__cpu_ref_node *n)
{
    const rlx_node_view *in = g->nodes[v->inputs[0]];
    int64_t axis = rlx_kit_norm_axis(
        a->n_ints > RLX_ATTR_ARG_AXIS ? a->ints[RLX_ATTR_ARG_AXIS] : 0,
        in->rank);
    int64_t last = a->n_ints > RLX_ATTR_ARG_SELECT_LAST_INDEX
                       ? a->ints[RLX_ATTR_ARG_SELECT_LAST_INDEX] : 0;
    size_t in_count = 0;
    int ok = axis >= 0 && (last == 0 || last == 1) &&
             in->dtype != RLX_DTYPE_BOOL &&
             (rlx__cpu_ref_is_int(in->dtype) ||
              rlx_kit_dtype_is_float(in->dtype) ||
              in->dtype == RLX_DTYPE_F64) &&
             rlx__cpu_ref_shape_count(rlx__cpu_ref_shape_of(in), 1,
                                      &in_count) > 0;
    rlx__cpu_ref_arg *p = &n->plan.arg;
    if (ok) {
        p->outer = p->inner = 1;
        for (int64_t d = 0; d < axis; d++)
            p->outer *= (size_t)in->shape[d];
        for (uint32_t d = (uint32_t)axis + 1; d < in->rank; d++)
            p->inner *= (size_t)in->shape[d];
        p->len = (size_t)in->shape[axis];
        p->last = (int)last;
        /* the result holds one index per line; lines are not empty */
        ok = p->len > 0 && p->outer * p->inner == n->count;
    }
    if (!ok)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: %s '%s' has a bad axis, "
                            "select_last_index, input dtype or result "
                            "shape. Fix: report this as a bug in the rlx "
                            "core", rlx_kit_op_name(v->op), v->name);
    return RLX_OK;
}

/* Sign of how much more extreme V is than BEST: NaN first, then the
 * larger (argmax) or smaller (argmin) number. */
static int more_extreme(int is_max, double v, double best)
{
    if (isnan(v) || isnan(best))
        return isnan(v) - isnan(best);
    if (v == best)
        return 0;
    return (v > best) == is_max ? 1 : -1;
}

/* Integers; U64 compares the bits as unsigned. */
static int more_extreme_int(int is_max, int64_t v, int64_t best, int u64)
{
    if (v == best)
        return 0;
    int more = u64 ? (uint64_t)v > (uint64_t)best : v > best;
    return more == is_max ? 1 : -1;
}

void rlx__cpu_ref_arg_run(const rlx_executable *exe, rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_node *x = &exe->nodes[n->inputs[0]];
    const rlx__cpu_ref_arg *p = &n->plan.arg;
    int is_max = n->op == RLX_OP_ARGMAX, ints = rlx__cpu_ref_is_int(x->dtype);
    for (size_t o = 0; o < p->outer; o++)
        for (size_t in = 0; in < p->inner; in++) {
            size_t base = o * p->len * p->inner + in, best = 0;
            for (size_t k = 1; k < p->len; k++) {
                size_t i = base + k * p->inner, b = base + best * p->inner;
                int c = ints ? more_extreme_int(is_max,
                                                rlx__cpu_ref_load_int(x, i),
                                                rlx__cpu_ref_load_int(x, b),
                                                x->dtype == RLX_DTYPE_U64)
                             : more_extreme(is_max,
                                            rlx__cpu_ref_load_double(x, i),
                                            rlx__cpu_ref_load_double(x, b));
                if (c > 0 || (c == 0 && p->last))
                    best = k;
            }
            rlx__cpu_ref_store_int(n, o * p->inner + in, (int64_t)best);
        }
}
