/*
 * kernels_softmax.c - softmax along one axis, shifted by the maximum so
 * large inputs do not overflow; sums in double. Causal softmax (last
 * axis of a [..., rows, cols] tensor) gives weight 0 to the entries with
 * column j > i + (cols - rows) of row i; a row with every entry masked
 * (possible when cols < rows) is all zeros.
 */
#include <math.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_softmax_prepare(const rlx_host *host,
                                        const char *name,
                                        rlx__cpu_ref_shape in,
                                        rlx__cpu_ref_shape out, int64_t axis,
                                        int64_t causal,
                                        rlx__cpu_ref_softmax *plan)
{
    char si[96], so[96];
    if (!rlx__cpu_ref_shape_equal(in, out))
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: softmax '%s' maps %s to "
                            "%s. Fix: report this as a bug in the rlx "
                            "core", name,
                            rlx__cpu_ref_shape_str(in, si, sizeof si),
                            rlx__cpu_ref_shape_str(out, so, sizeof so));
    /* A rank-0 tensor is one element: axis 0 or -1 reaches it. */
    int64_t rank = in.rank ? (int64_t)in.rank : 1;
    int64_t at = rlx_kit_norm_axis(axis, (uint32_t)rank);
    if (at < 0)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: softmax '%s' axis %lld is "
                            "out of range for %s. Fix: use an axis in "
                            "[-%lld, %lld]", name, (long long)axis,
                            rlx__cpu_ref_shape_str(in, si, sizeof si),
                            (long long)rank, (long long)rank - 1);
    axis = at;
    if ((causal != 0 && causal != 1) ||
        (causal && (in.rank < 2 || axis != rank - 1)))
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: softmax '%s' is causal=%lld "
                            "along axis %lld of %s. Fix: causal must be "
                            "0 or 1, and needs rank >= 2 and the last "
                            "axis", name, (long long)causal,
                            (long long)axis,
                            rlx__cpu_ref_shape_str(in, si, sizeof si));
    plan->causal = (int)causal;
    plan->rows = causal ? (size_t)in.dims[in.rank - 2] : 1;
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

/* Causal: row I of [rows, len] keeps the first N columns. */
static void causal_row(const rlx__cpu_ref_softmax *p, size_t o,
                       const float *x, float *y)
{
    size_t i = o % p->rows;
    /* columns j with j + rows <= i + len, i.e. j < i + len + 1 - rows */
    size_t keep = i + p->len + 1 > p->rows ? i + p->len + 1 - p->rows : 0;
    if (keep > p->len)
        keep = p->len;
    double max = -INFINITY, sum = 0.0;
    for (size_t j = 0; j < keep; j++)
        if (x[j] > max || isnan(x[j]))
            max = x[j];
    for (size_t j = 0; j < keep; j++)
        sum += exp((double)x[j] - max);
    for (size_t j = 0; j < p->len; j++)
        y[j] = j < keep ? rlx__cpu_ref_to_f32(exp((double)x[j] - max) / sum)
                        : 0.0f;
}

void rlx__cpu_ref_softmax_run(const rlx__cpu_ref_softmax *p, const float *x,
                              float *y)
{
    if (p->causal) {
        for (size_t o = 0; o < p->outer; o++)
            causal_row(p, o, x + o * p->len, y + o * p->len);
        return;
    }
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
