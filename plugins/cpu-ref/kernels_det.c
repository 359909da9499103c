/*
 * kernels_det.c - det for the reference backend: each m x m matrix of a
 * stack copied into double and reduced by Gaussian elimination with
 * partial pivoting (the largest magnitude in the column), the
 * determinant the product of the pivots with the sign of the row swaps.
 * A zero column gives 0; NaN propagates; m = 0 gives 1.
 */
#include <math.h>
#include <stdlib.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_det_prepare(const rlx_host *host,
                                    const rlx_graph_view *g,
                                    const rlx_node_view *v,
                                    rlx__cpu_ref_node *n)
{
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    rlx__cpu_ref_arg *p = &n->plan.arg;
    int ok = x->rank >= 2 && v->rank == x->rank - 2 &&
             x->shape[x->rank - 1] == x->shape[x->rank - 2] &&
             x->dtype == v->dtype;
    if (!ok)
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: det '%s' has a shape or dtype "
                            "the core should have refused. Fix: report "
                            "this as a bug in the rlx core", v->name);
    p->len = (size_t)x->shape[x->rank - 1];
    p->outer = n->count;
    p->inner = 1;
    if (p->len > 46340) /* m * m must count in 32 bits of doubles */
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: det '%s' of %zu x %zu "
                            "matrices is too large. Fix: use smaller "
                            "matrices", v->name, p->len, p->len);
    n->acc = calloc(p->len ? p->len * p->len : 1, sizeof *n->acc);
    if (!n->acc)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning '%s'. "
                            "Fix: free memory", v->name);
    return RLX_OK;
}

/* The determinant of the M x M matrix at A (overwritten). */
static double det(double *a, size_t m)
{
    double d = 1;
    for (size_t c = 0; c < m; c++) {
        size_t piv = c;
        for (size_t r = c + 1; r < m; r++)
            if (fabs(a[r * m + c]) > fabs(a[piv * m + c]) ||
                isnan(a[r * m + c]))
                piv = r;
        double pv = a[piv * m + c];
        if (pv == 0)
            return 0 * d; /* singular: 0 (NaN stays NaN) */
        if (piv != c) {
            for (size_t k = 0; k < m; k++) {
                double t = a[c * m + k];
                a[c * m + k] = a[piv * m + k];
                a[piv * m + k] = t;
            }
            d = -d;
        }
        d *= pv;
        for (size_t r = c + 1; r < m; r++) {
            double f = a[r * m + c] / pv;
            for (size_t k = c; k < m; k++)
                a[r * m + k] -= f * a[c * m + k];
        }
    }
    return d;
}

void rlx__cpu_ref_det_run(const rlx_executable *exe, rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_node *x = &exe->nodes[n->inputs[0]];
    const rlx__cpu_ref_arg *p = &n->plan.arg;
    size_t mm = p->len * p->len;
    for (size_t b = 0; b < p->outer; b++) {
        for (size_t i = 0; i < mm; i++)
            n->acc[i] = rlx__cpu_ref_load_double(x, b * mm + i);
        rlx__cpu_ref_store_double(n, b, det(n->acc, p->len));
    }
    rlx__cpu_ref_node_narrow(n);
}
