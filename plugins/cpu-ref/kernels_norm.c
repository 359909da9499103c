/*
 * kernels_norm.c - layer_norm and rms_norm over the last axis, in double.
 *
 * layer_norm: (x - mean) / sqrt(var + eps) * gamma + beta, with the
 * biased variance (divided by the count). rms_norm: x / sqrt(mean(x^2) +
 * eps) * gamma.
 */
#include <math.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_norm_prepare(const rlx_host *host,
                                     const rlx_graph_view *g,
                                     const rlx_node_view *v,
                                     const rlx__cpu_ref_attrs *a,
                                     rlx__cpu_ref_norm *plan)
{
    char sx[96], so[96];
    rlx__cpu_ref_shape x = { g->nodes[v->inputs[0]]->rank,
                             g->nodes[v->inputs[0]]->shape };
    rlx__cpu_ref_shape out = { v->rank, v->shape };
    int ok = x.rank >= 1 && rlx__cpu_ref_shape_equal(x, out);
    int64_t cols = ok ? x.dims[x.rank - 1] : 0;
    for (uint32_t j = 1; ok && j < v->n_inputs; j++) {
        const rlx_node_view *p = g->nodes[v->inputs[j]];
        ok = p->rank == 1 && p->shape[0] == cols;
    }
    if (!ok)
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: %s '%s' of %s cannot give "
                            "%s, or its gamma/beta are not [%lld]. Fix: "
                            "report this as a bug in the rlx core",
                            rlx_kit_op_name(v->op), v->name,
                            rlx__cpu_ref_shape_str(x, sx, sizeof sx),
                            rlx__cpu_ref_shape_str(out, so, sizeof so),
                            (long long)cols);
    size_t count = 0;
    rlx__cpu_ref_shape_count(x, 0, &count);
    plan->cols = (size_t)cols;
    plan->rows = cols ? count / (size_t)cols : 0;
    plan->eps = v->op == RLX_OP_LAYER_NORM ? 1e-5 : 1e-6;
    if (a->n_floats > RLX_ATTR_NORM_EPSILON)
        plan->eps = a->floats[RLX_ATTR_NORM_EPSILON];
    return RLX_OK;
}

void rlx__cpu_ref_norm_run(rlx_op op, const rlx__cpu_ref_norm *p,
                           const float *x, const float *gamma,
                           const float *beta, float *y)
{
    size_t n = p->cols;
    for (size_t r = 0; r < p->rows; r++) {
        const float *xs = x + r * n;
        float *ys = y + r * n;
        double mean = 0.0, ms = 0.0;
        if (op == RLX_OP_LAYER_NORM) {
            for (size_t j = 0; j < n; j++)
                mean += xs[j];
            mean /= (double)n;
        }
        /* centred second moment: the variance, or mean(x^2) for rms */
        for (size_t j = 0; j < n; j++) {
            double d = (double)xs[j] - mean;
            ms += d * d;
        }
        ms /= (double)n;
        double scale = 1.0 / sqrt(ms + p->eps);
        for (size_t j = 0; j < n; j++) {
            double t = ((double)xs[j] - mean) * scale * (double)gamma[j];
            if (op == RLX_OP_LAYER_NORM)
                t += (double)beta[j];
            ys[j] = rlx__cpu_ref_to_f32(t);
        }
    }
}
