/*
 * kernels_binary.c - elementwise two-input ops with NumPy broadcasting:
 * shapes align from the right and a dim of 1 stretches to the other.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_binary_prepare(const rlx_host *host,
                                       const char *name,
                                       rlx__cpu_ref_shape a,
                                       rlx__cpu_ref_shape b,
                                       rlx__cpu_ref_shape out,
                                       rlx__cpu_ref_bcast *plan,
                                       size_t **scratch)
{
    char sa[96], sb[96], so[96];
    uint32_t r = out.rank;

    if (!rlx_kit_broadcasts(a.rank, a.dims, r, out.dims) ||
        !rlx_kit_broadcasts(b.rank, b.dims, r, out.dims))
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: '%s' cannot broadcast %s and "
                            "%s to %s. Fix: report this as a bug in the rlx "
                            "core", name,
                            rlx__cpu_ref_shape_str(a, sa, sizeof sa),
                            rlx__cpu_ref_shape_str(b, sb, sizeof sb),
                            rlx__cpu_ref_shape_str(out, so, sizeof so));
    /* one block: the two stride arrays (int64_t, first for alignment),
     * then dims and the counter; calloc checks the product itself */
    int64_t *mem = calloc(r ? r : 1, 2 * sizeof(int64_t) + 2 * sizeof(size_t));
    if (!mem)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning '%s'. "
                            "Fix: free memory", name);
    *scratch = (size_t *)(void *)mem;
    plan->rank = r;
    plan->a_stride = mem;
    plan->b_stride = mem + r;
    plan->dims = (size_t *)(void *)(mem + 2 * (size_t)r);
    plan->index = plan->dims + r;
    for (uint32_t d = 0; d < r; d++)
        plan->dims[d] = (size_t)out.dims[d];
    rlx_kit_broadcast_strides(r, a.rank, a.dims, plan->a_stride);
    rlx_kit_broadcast_strides(r, b.rank, b.dims, plan->b_stride);
    return RLX_OK;
}

static double op_add(double a, double b) { return a + b; }
static double op_sub(double a, double b) { return a - b; }
static double op_mul(double a, double b) { return a * b; }
static double op_div(double a, double b) { return a / b; }
static double op_pow(double a, double b) { return pow(a, b); }
/* NumPy's maximum and minimum: a NaN on either side wins. */
static double op_max(double a, double b)
{
    return isnan(a) || isnan(b) ? a + b : (a > b ? a : b);
}
static double op_min(double a, double b)
{
    return isnan(a) || isnan(b) ? a + b : (a < b ? a : b);
}

void rlx__cpu_ref_binary(rlx_op op, rlx__cpu_ref_bcast *plan,
                         const float *a, const float *b, float *y,
                         size_t count)
{
    double (*f)(double, double);
    switch (op) {
    case RLX_OP_ADD: f = op_add; break;
    case RLX_OP_SUB: f = op_sub; break;
    case RLX_OP_MUL: f = op_mul; break;
    case RLX_OP_DIV: f = op_div; break;
    case RLX_OP_MAX: f = op_max; break;
    case RLX_OP_MIN: f = op_min; break;
    case RLX_OP_POW: f = op_pow; break;
    default: return; /* compile admits no other op here */
    }
    if (count == 0)
        return;

    uint32_t r = plan->rank;
    size_t ia = 0, ib = 0;
    if (r)
        memset(plan->index, 0, r * sizeof *plan->index);
    for (size_t i = 0; i < count; i++) {
        y[i] = rlx__cpu_ref_to_f32(f((double)a[ia], (double)b[ib]));
        /* Step the output index like an odometer, last dim fastest. */
        for (uint32_t d = r; d-- > 0;) {
            ia += (size_t)plan->a_stride[d];
            ib += (size_t)plan->b_stride[d];
            if (++plan->index[d] < plan->dims[d])
                break;
            ia -= (size_t)plan->a_stride[d] * plan->dims[d];
            ib -= (size_t)plan->b_stride[d] * plan->dims[d];
            plan->index[d] = 0;
        }
    }
}
