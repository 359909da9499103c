/*
 * conformance_compare.c - tolerances and the element-by-element
 * comparison of a backend's output with the reference's. Float ops may
 * differ in the last bits (another summation order, another exp); data
 * movement may not differ at all.
 */
#include <math.h>
#include <string.h>

#include "conformance.h"

conf_tol cli_conf_tolerance(rlx_dtype dtype, int exact, double reduce_len,
                            double scale)
{
    conf_tol t = { 0, 0, 1 };
    double grow = reduce_len > 1 ? reduce_len : 1;

    if (exact)
        return t;
    switch (dtype) {
    case RLX_DTYPE_F32: t.rtol = 1e-5; t.atol = 1e-6; break;
    case RLX_DTYPE_F16: t.rtol = 1e-3; t.atol = 1e-3; break;
    case RLX_DTYPE_BF16: t.rtol = 1e-2; t.atol = 1e-2; break;
    case RLX_DTYPE_F64: t.rtol = 1e-12; t.atol = 1e-13; break;
    default: return t; /* ints and bool: exact */
    }
    t.exact = 0;
    t.rtol *= scale;
    t.atol *= scale * grow;
    return t;
}

/* |got - want| when both are numbers; 0 for matching NaN or infinities;
 * +inf when exactly one side is NaN or an infinity differs. */
static double element_error(double got, double want)
{
    if (isnan(got) || isnan(want))
        return isnan(got) && isnan(want) ? 0 : INFINITY;
    if (isinf(got) || isinf(want))
        return got == want ? 0 : INFINITY;
    return fabs(got - want);
}

void cli_conf_compare(const cli_tensor *got, const cli_tensor *want,
                      conf_tol tol, conf_diff *d)
{
    memset(d, 0, sizeof *d);
    if (got->dtype != want->dtype || got->rank != want->rank ||
        (got->rank &&
         memcmp(got->dims, want->dims, got->rank * sizeof *got->dims))) {
        d->shape_differs = 1;
        d->n_bad = 1;
        return;
    }
    double worst_excess = -1;
    for (size_t i = 0; i < got->count; i++) {
        double g = cli_tensor_get(got, i), w = cli_tensor_get(want, i);
        double err = element_error(g, w);
        double allowed = tol.exact ? 0 : tol.atol + tol.rtol * fabs(w);
        int bad = tol.exact ? err != 0 : err > allowed;
        if (err > d->max_err || (isinf(err) && !isinf(d->max_err)))
            d->max_err = err;
        if (bad) {
            d->n_bad++;
            double excess = isinf(err) ? INFINITY : err - allowed;
            if (excess > worst_excess) {
                worst_excess = excess;
                d->where = i;
                d->got = g;
                d->want = w;
            }
        }
    }
}
