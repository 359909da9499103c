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
    const rlx__cpu_ref_shape in[2] = { a, b };
    uint32_t r = out.rank;
    size_t *mem = NULL;

    for (int s = 0; s < 2; s++) {
        int ok = in[s].rank <= r;
        for (uint32_t d = 0; ok && d < in[s].rank; d++) {
            int64_t di = in[s].dims[in[s].rank - 1 - d];
            ok = di == out.dims[r - 1 - d] || di == 1;
        }
        if (!ok)
            return rlx__cpu_ref_fail(
                host, RLX_ERR_SHAPE,
                "cpu-ref compile: '%s' cannot broadcast %s and %s to %s. "
                "Fix: report this as a bug in the rlx core", name,
                rlx__cpu_ref_shape_str(a, sa, sizeof sa),
                rlx__cpu_ref_shape_str(b, sb, sizeof sb),
                rlx__cpu_ref_shape_str(out, so, sizeof so));
    }
    /* calloc checks the product for overflow itself. */
    if (!(mem = calloc(r ? r : 1, 4 * sizeof(size_t))))
        return rlx__cpu_ref_fail(host, RLX_ERR_OUT_OF_MEMORY,
                                 "cpu-ref compile: out of memory planning "
                                 "'%s'. Fix: free memory", name);
    *scratch = mem;
    plan->rank = r;
    plan->dims = mem;
    plan->a_stride = mem + r;
    plan->b_stride = mem + 2 * (size_t)r;
    plan->index = mem + 3 * (size_t)r;

    for (uint32_t d = 0; d < r; d++)
        plan->dims[d] = (size_t)out.dims[d];
    for (int s = 0; s < 2; s++) {
        size_t *stride = s == 0 ? plan->a_stride : plan->b_stride;
        size_t step = 1; /* contiguous stride of the input's dim */
        for (uint32_t d = r; d-- > 0;) {
            uint32_t from_right = r - 1 - d;
            if (from_right >= in[s].rank) {
                stride[d] = 0;
                continue;
            }
            size_t di = (size_t)in[s].dims[in[s].rank - 1 - from_right];
            stride[d] = di == 1 ? 0 : step;
            step *= di; /* wraps only for empty tensors, never read */
        }
    }
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
            ia += plan->a_stride[d];
            ib += plan->b_stride[d];
            if (++plan->index[d] < plan->dims[d])
                break;
            ia -= plan->a_stride[d] * plan->dims[d];
            ib -= plan->b_stride[d] * plan->dims[d];
            plan->index[d] = 0;
        }
    }
}
