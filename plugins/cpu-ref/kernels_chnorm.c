/*
 * kernels_chnorm.c - the per-channel norms of [N, C, ...] tensors for
 * the reference backend: batch_norm (inference: the given mean and
 * variance), instance_norm (statistics per image and channel) and
 * group_norm (per image and group of channels). Statistics are two-pass
 * in double: the mean, then the mean of squared deviations.
 */
#include <math.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_chnorm_prepare(const rlx_host *host,
                                       const rlx_graph_view *g,
                                       const rlx_node_view *v,
                                       const char *name,
                                       rlx__cpu_ref_vision **out)
{
    rlx__cpu_ref_vision *p = rlx__cpu_ref_vision_new(g, v);
    *out = p;
    if (!p)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning '%s'. "
                            "Fix: free memory", name);
    rlx__cpu_ref_attrs a = rlx__cpu_ref_attrs_of(v);
    if (v->rank < 2)
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: %s '%s' has rank %u. Fix: "
                            "report this as a bug in the rlx core",
                            rlx_kit_op_name(v->op), name,
                            (unsigned)v->rank);
    p->n = (size_t)v->shape[0];
    p->c = (size_t)v->shape[1];
    p->inner = 1;
    for (uint32_t i = 2; i < v->rank; i++)
        p->inner *= (size_t)v->shape[i];
    p->eps = a.n_floats > RLX_ATTR_NORM_EPSILON
                 ? a.floats[RLX_ATTR_NORM_EPSILON] : 1e-5;
    p->groups = p->c ? p->c : 1; /* instance_norm: one channel a group */
    if (v->op == RLX_OP_GROUP_NORM) {
        int64_t gr = a.n_ints > RLX_ATTR_GROUP_NORM_GROUPS
                         ? a.ints[RLX_ATTR_GROUP_NORM_GROUPS] : 0;
        if (gr < 1 || p->c % (size_t)gr)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref compile: group_norm '%s' has %lld "
                                "groups for %zu channels. Fix: report this "
                                "as a bug in the rlx core", name,
                                (long long)gr, p->c);
        p->groups = (size_t)gr;
        p->per_group = g->nodes[v->inputs[1]]->shape[0] != (int64_t)p->c;
    }
    return RLX_OK;
}

static void batch_norm(const rlx__cpu_ref_vision *p, const float *const *in,
                       float *y)
{
    const float *x = in[0];
    for (size_t n = 0; n < p->n; n++)
        for (size_t c = 0; c < p->c; c++) {
            double mul = in[1][c] / sqrt((double)in[4][c] + p->eps);
            double add = in[2][c] - in[3][c] * mul;
            size_t base = (n * p->c + c) * p->inner;
            for (size_t i = 0; i < p->inner; i++)
                y[base + i] = rlx__cpu_ref_to_f32(x[base + i] * mul + add);
        }
}

/* instance_norm and group_norm: statistics over each group's channels
 * and the spatial axes; then each channel's scale and bias. */
static void group_norm(const rlx__cpu_ref_vision *p, const float *const *in,
                       float *y)
{
    const float *x = in[0];
    size_t cg = p->c / p->groups, len = cg * p->inner;
    for (size_t n = 0; n < p->n; n++)
        for (size_t gi = 0; gi < p->groups; gi++) {
            size_t base = (n * p->c + gi * cg) * p->inner;
            double mean = 0, var = 0;
            for (size_t i = 0; i < len; i++)
                mean += x[base + i];
            mean /= (double)len;
            for (size_t i = 0; i < len; i++) {
                double d = x[base + i] - mean;
                var += d * d;
            }
            var /= (double)len;
            double inv = 1 / sqrt(var + p->eps);
            for (size_t ci = 0; ci < cg; ci++) {
                size_t pc = p->per_group ? gi : gi * cg + ci;
                double scale = in[1][pc], bias = in[2][pc];
                const float *xr = x + base + ci * p->inner;
                float *yr = y + base + ci * p->inner;
                for (size_t i = 0; i < p->inner; i++)
                    yr[i] = rlx__cpu_ref_to_f32((xr[i] - mean) * inv *
                                                    scale + bias);
            }
        }
}

void rlx__cpu_ref_chnorm_run(rlx_op op, const rlx__cpu_ref_vision *p,
                             const float *const *in, float *y)
{
    if (op == RLX_OP_BATCH_NORM)
        batch_norm(p, in, y);
    else
        group_norm(p, in, y);
}
