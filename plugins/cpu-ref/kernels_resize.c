/*
 * kernels_resize.c - resize for the reference backend, as ONNX defines
 * it: each output coordinate maps back to an input coordinate (the
 * coordinate transform, in double), then nearest, linear or cubic
 * weights pick up to 4 inputs per axis. Axes are separable, so compile
 * works out every axis's taps once and execute sums their products.
 * Taps of weight 0 are left out; a tap outside the input reads the edge
 * (or, with exclude_outside, gets weight 0 and the rest are
 * renormalized).
 */
#include <math.h>
#include <stdlib.h>

#include <rlx/kit_spatial.h>

#include "cpu_ref_internal.h"


static void cubic_coeffs(double t, double a, double *c)
{
    double s = 1 - t;
    c[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
    c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
    c[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
    c[3] = ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a;
}

/* Taps of output index O on axis I into P's tables. */
static void axis_taps(rlx__cpu_ref_vision *p, uint32_t i, size_t o,
                      const int64_t *mode, double scale, double start,
                      double end, double cubic_a)
{
    double in = (double)p->r_in[i], out = (double)p->r_out[i];
    double x = rlx_kit_resize_source(mode[1], (double)o, in, out, scale, start, end);
    int64_t *idx = p->tap_idx[i] + o * RLX__CPU_REF_RESIZE_TAPS;
    double *w = p->tap_w[i] + o * RLX__CPU_REF_RESIZE_TAPS;
    int64_t last = (int64_t)p->r_in[i] - 1;
    int n = 0;

    if (mode[1] == RLX_RESIZE_TF_CROP_AND_RESIZE && (x < 0 || x > in - 1)) {
        p->tap_n[i][o] = 0; /* extrapolate */
        return;
    }
    /* far outside, every tap reads the edge (or is excluded) just as
     * a few elements outside; clamp so the integer conversions below
     * stay in range */
    if (x < -4)
        x = -4;
    if (x > in + 3)
        x = in + 3;
    if (mode[0] == RLX_RESIZE_NEAREST) {
        int64_t k = rlx_kit_resize_nearest(mode[2], x);
        idx[0] = k < 0 ? 0 : k > last ? last : k;
        w[0] = 1;
        p->tap_n[i][o] = 1;
        return;
    }
    double f = floor(x), t = x - f, c[4], sum = 0;
    int64_t first;
    int taps;
    if (mode[0] == RLX_RESIZE_LINEAR) {
        c[0] = 1 - t;
        c[1] = t;
        first = (int64_t)f;
        taps = 2;
    } else {
        cubic_coeffs(t, cubic_a, c);
        first = (int64_t)f - 1;
        taps = 4;
    }
    for (int k = 0; k < taps; k++) {
        int64_t j = first + k;
        if (j < 0 || j > last) {
            if (mode[3]) /* exclude_outside */
                c[k] = 0;
            j = j < 0 ? 0 : last;
        }
        sum += c[k];
        idx[k] = j;
    }
    for (int k = 0; k < taps; k++) {
        double wk = mode[3] && sum != 0 ? c[k] / sum : c[k];
        if (wk != 0) {
            idx[n] = idx[k];
            w[n++] = wk;
        }
    }
    if (n == 0) { /* every weight 0: read the nearest input */
        idx[0] = f < 0 ? 0 : (int64_t)f > last ? last : (int64_t)f;
        w[0] = 0;
        n = 1;
    }
    p->tap_n[i][o] = (unsigned char)n;
}

rlx_status rlx__cpu_ref_resize_prepare(const rlx_host *host,
                                       const rlx_graph_view *g,
                                       const rlx_node_view *v,
                                       const char *name,
                                       rlx__cpu_ref_vision **out)
{
    rlx__cpu_ref_vision *p = rlx__cpu_ref_vision_new(g, v);
    *out = p;
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    rlx__cpu_ref_attrs a = rlx__cpu_ref_attrs_of(v);
    uint32_t r = x->rank;
    if (!p)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning '%s'. "
                            "Fix: free memory", name);
    if (r == 0 || r > 8 || v->rank != r ||
        a.n_ints != RLX_ATTR_RESIZE_SHAPE + r)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: resize '%s' has rank %u and "
                            "%u integer attributes. Fix: report this as a "
                            "bug in the rlx core", name, (unsigned)r,
                            (unsigned)a.n_ints);
    int64_t mode[4];
    for (int k = 0; k < 4; k++)
        mode[k] = a.ints[k];
    double cubic_a = a.n_floats > RLX_ATTR_RESIZE_CUBIC_A
                         ? a.floats[RLX_ATTR_RESIZE_CUBIC_A] : -0.75;
    p->extrapolation = a.n_floats > RLX_ATTR_RESIZE_EXTRAPOLATION
                           ? a.floats[RLX_ATTR_RESIZE_EXTRAPOLATION] : 0;
    int has_scales = a.n_floats >= RLX_ATTR_RESIZE_SCALES + r;
    int has_roi = a.n_floats >= RLX_ATTR_RESIZE_SCALES + 3 * r;
    p->rank = r;
    for (uint32_t i = 0; i < r; i++) {
        p->r_in[i] = (size_t)x->shape[i];
        p->r_out[i] = (size_t)v->shape[i];
        if (v->shape[i] != a.ints[RLX_ATTR_RESIZE_SHAPE + i])
            return rlx_kit_fail(host, RLX_ERR_SHAPE,
                                "cpu-ref compile: resize '%s' axis %u is "
                                "%lld, its attribute says %lld. Fix: "
                                "report this as a bug in the rlx core",
                                name, (unsigned)i, (long long)v->shape[i],
                                (long long)a.ints[RLX_ATTR_RESIZE_SHAPE + i]);
        size_t n = p->r_out[i] ? p->r_out[i] : 1;
        p->tap_idx[i] = malloc(n * RLX__CPU_REF_RESIZE_TAPS *
                               sizeof *p->tap_idx[i]);
        p->tap_w[i] = malloc(n * RLX__CPU_REF_RESIZE_TAPS *
                             sizeof *p->tap_w[i]);
        p->tap_n[i] = malloc(n);
        if (!p->tap_idx[i] || !p->tap_w[i] || !p->tap_n[i])
            return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                                "cpu-ref compile: out of memory planning "
                                "resize '%s'. Fix: free memory", name);
        double scale = has_scales ? a.floats[RLX_ATTR_RESIZE_SCALES + i]
                       : p->r_in[i] ? (double)p->r_out[i] /
                                          (double)p->r_in[i]
                                    : 1;
        double start = has_roi ? a.floats[RLX_ATTR_RESIZE_SCALES + r + i]
                               : 0;
        double end = has_roi ? a.floats[RLX_ATTR_RESIZE_SCALES + 2 * r + i]
                             : 1;
        for (size_t o = 0; o < p->r_out[i]; o++)
            axis_taps(p, i, o, mode, scale, start, end, cubic_a);
    }
    return RLX_OK;
}

void rlx__cpu_ref_resize_run(const rlx__cpu_ref_vision *p, const float *x,
                             float *y)
{
    uint32_t r = p->rank;
    size_t stride[8], oidx[8] = { 0 }, total = 1;
    for (uint32_t i = r; i-- > 0;) {
        stride[i] = i + 1 < r ? stride[i + 1] * p->r_in[i + 1] : 1;
        total *= p->r_out[i];
    }
    for (size_t o = 0; o < total; o++) {
        if (o) /* oidx counts through the output, last axis fastest */
            for (uint32_t d = r; d-- > 0;) {
                if (++oidx[d] < p->r_out[d])
                    break;
                oidx[d] = 0;
            }
        const int64_t *idx[8];
        const double *w[8];
        unsigned n[8];
        int extrapolate = 0;
        for (uint32_t d = 0; d < r; d++) {
            idx[d] = p->tap_idx[d] + oidx[d] * RLX__CPU_REF_RESIZE_TAPS;
            w[d] = p->tap_w[d] + oidx[d] * RLX__CPU_REF_RESIZE_TAPS;
            n[d] = p->tap_n[d][oidx[d]];
            extrapolate |= n[d] == 0;
        }
        if (extrapolate) {
            y[o] = rlx__cpu_ref_to_f32(p->extrapolation);
            continue;
        }
        /* every combination of one tap per axis */
        unsigned t[8] = { 0 };
        double sum = -0.0; /* so a lone -0 tap stays -0 */
        for (;;) {
            size_t off = 0;
            double wt = 1;
            for (uint32_t d = 0; d < r; d++) {
                off += (size_t)idx[d][t[d]] * stride[d];
                wt *= w[d][t[d]];
            }
            sum += wt * x[off];
            uint32_t d = r;
            while (d-- > 0) {
                if (++t[d] < n[d])
                    break;
                t[d] = 0;
            }
            if (d == UINT32_MAX)
                break;
        }
        y[o] = rlx__cpu_ref_to_f32(sum);
    }
}
