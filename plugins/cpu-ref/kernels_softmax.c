/*
 * kernels_softmax.c - softmax along one axis, shifted by the maximum so
 * large inputs do not overflow; sums in double.
 */
#include <math.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_softmax_prepare(const rlx_host *host,
                                        const char *name,
                                        rlx__cpu_ref_shape in,
                                        rlx__cpu_ref_shape out, int64_t axis,
                                        rlx__cpu_ref_softmax *plan)
{
    char si[96], so[96];
    if (!rlx__cpu_ref_shape_equal(in, out))
        return rlx__cpu_ref_fail(host, RLX_ERR_SHAPE,
                                 "cpu-ref compile: softmax '%s' maps %s to "
                                 "%s. Fix: report this as a bug in the rlx "
                                 "core", name,
                                 rlx__cpu_ref_shape_str(in, si, sizeof si),
                                 rlx__cpu_ref_shape_str(out, so, sizeof so));
    /* A rank-0 tensor is one element: axis 0 or -1 reaches it. */
    int64_t rank = in.rank ? (int64_t)in.rank : 1;
    if (axis < -rank || axis >= rank)
        return rlx__cpu_ref_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                 "cpu-ref compile: softmax '%s' axis %lld is "
                                 "out of range for %s. Fix: use an axis in "
                                 "[-%lld, %lld]", name, (long long)axis,
                                 rlx__cpu_ref_shape_str(in, si, sizeof si),
                                 (long long)rank, (long long)rank - 1);
    if (axis < 0)
        axis += rank;
    plan->outer = plan->len = plan->inner = 1;
    for (uint32_t d = 0; d < in.rank; d++) {
        size_t n = (size_t)in.dims[d];
        if (n == 0) { /* empty: the kernel does nothing */
            plan->outer = plan->len = plan->inner = 0;
            return RLX_OK;
        }
    }
    for (uint32_t d = 0; d < in.rank; d++) {
        size_t n = (size_t)in.dims[d];
        if ((int64_t)d < axis)
            plan->outer *= n;
        else if ((int64_t)d == axis)
            plan->len = n;
        else
            plan->inner *= n;
    }
    return RLX_OK;
}

void rlx__cpu_ref_softmax_run(const rlx__cpu_ref_softmax *p, const float *x,
                              float *y)
{
    for (size_t o = 0; o < p->outer; o++) {
        for (size_t i = 0; i < p->inner; i++) {
            const float *xs = x + o * p->len * p->inner + i;
            float *ys = y + o * p->len * p->inner + i;
            double max = -INFINITY, sum = 0.0;
            for (size_t j = 0; j < p->len; j++)
                if (xs[j * p->inner] > max || isnan(xs[j * p->inner]))
                    max = xs[j * p->inner];
            for (size_t j = 0; j < p->len; j++)
                sum += exp((double)xs[j * p->inner] - max);
            for (size_t j = 0; j < p->len; j++)
                ys[j * p->inner] = rlx__cpu_ref_to_f32(
                    exp((double)xs[j * p->inner] - max) / sum);
        }
    }
}
