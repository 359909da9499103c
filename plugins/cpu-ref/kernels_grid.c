/*
 * kernels_grid.c - grid_sample for the reference backend, as ONNX's
 * GridSample defines it: each output element reads x at the position its
 * grid entry gives. The grid's coordinates in [-1, 1] are mapped to the
 * input (align_corners: -1 and 1 are the centres of the corner pixels;
 * else their outer edges); a coordinate outside the input is clamped
 * (border) or mirrored (reflection) first; then nearest takes one pixel,
 * linear 2 per axis and cubic 4 per axis, each tap again clamped,
 * mirrored or (zeros) read as 0 when it falls outside. Separable weights,
 * accumulated in double.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

#define MAX_S 3
#define FAR 1e15 /* coordinates are kept within +-FAR: whole numbers fit */

rlx_status rlx__cpu_ref_grid_prepare(const rlx_host *host,
                                     const rlx_graph_view *g,
                                     const rlx_node_view *v,
                                     const rlx__cpu_ref_attrs *a,
                                     rlx__cpu_ref_node *n)
{
    rlx__cpu_ref_index *p = &n->plan.index;
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    const rlx_node_view *grid = g->nodes[v->inputs[1]];
    uint32_t s = x->rank >= 3 ? x->rank - 2 : 0;
    int ok = s >= 1 && s <= MAX_S && grid->rank == s + 2 &&
             v->rank == x->rank && grid->dtype == x->dtype &&
             rlx_kit_dtype_is_float(x->dtype) && x->dtype == v->dtype;
    for (uint32_t i = 0; ok && i < 3; i++)
        ok = (i < a->n_ints ? a->ints[i] : 0) >= 0 &&
             (i < a->n_ints ? a->ints[i] : 0) <= (i == 2 ? 1 : 2);
    if (!ok)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: grid_sample '%s' has inputs "
                            "or attributes the core should have refused. "
                            "Fix: report this as a bug in the rlx core",
                            v->name);
    memset(p, 0, sizeof *p);
    p->rank[0] = x->rank;
    p->rank[1] = grid->rank;
    for (uint32_t i = 0; i < x->rank; i++)
        p->dims[0][i] = x->shape[i];
    for (uint32_t i = 0; i < grid->rank; i++)
        p->dims[1][i] = grid->shape[i];
    p->n_ints = 3;
    for (uint32_t i = 0; i < 3; i++)
        p->ints[i] = i < a->n_ints ? a->ints[i] : 0;
    return RLX_OK;
}

/* ONNX's reflection of X into [LO, HI] (a point, for a range of 0). */
static double reflect(double x, double lo, double hi)
{
    double range = hi - lo;
    if (range <= 0)
        return lo;
    if (x < lo) {
        double dx = lo - x;
        double k = floor(dx / range), r = dx - k * range;
        return fmod(k, 2) == 0 ? lo + r : hi - r;
    }
    if (x > hi) {
        double dx = x - hi;
        double k = floor(dx / range), r = dx - k * range;
        return fmod(k, 2) == 0 ? hi - r : lo + r;
    }
    return x;
}

/* The pixel a tap at integer I of an axis of size D reads, or -1 for a
 * zero (zeros padding outside the axis). */
static int64_t tap(int64_t i, int64_t d, int64_t pad, double lo, double hi)
{
    if (i >= 0 && i < d)
        return i;
    if (pad == RLX_GRID_SAMPLE_ZEROS)
        return -1;
    if (pad == RLX_GRID_SAMPLE_BORDER)
        return i < 0 ? 0 : d - 1;
    int64_t r = (int64_t)reflect((double)i, lo, hi); /* truncated, as ONNX */
    return r < 0 ? 0 : r >= d ? d - 1 : r;
}

/* Keys' cubic weights at fraction T of the 4 taps floor(x)-1 .. +2. */
static void cubic(double t, double w[4])
{
    const double a = -0.75;
    double x = t + 1, y = t, z = 1 - t, u = 2 - t;
    w[0] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
    w[1] = ((a + 2) * y - (a + 3)) * y * y + 1;
    w[2] = ((a + 2) * z - (a + 3)) * z * z + 1;
    w[3] = ((a * u - 5 * a) * u + 8 * a) * u - 4 * a;
}

/* Taps and weights of one axis of size D for grid coordinate G: the
 * count (1, 2 or 4), or 0 when G is NaN. */
static int axis_taps(double g, int64_t d, const int64_t *mode_pad_align,
                     int64_t idx[4], double w[4])
{
    int64_t mode = mode_pad_align[0], pad = mode_pad_align[1];
    int align = mode_pad_align[2] != 0;
    if (isnan(g))
        return 0;
    double lo = align ? 0.0 : -0.5, hi = align ? (double)d - 1 : d - 0.5;
    double v = align ? (g + 1) / 2 * ((double)d - 1)
                     : ((g + 1) * (double)d - 1) / 2;
    if (mode == RLX_GRID_SAMPLE_NEAREST)
        v = nearbyint(v); /* half to even */
    if (v < lo || v > hi) {
        if (pad == RLX_GRID_SAMPLE_BORDER)
            v = v < 0 ? 0 : v > (double)d - 1 ? (double)d - 1 : v;
        else if (pad == RLX_GRID_SAMPLE_REFLECTION)
            v = reflect(v, lo, hi);
    }
    v = v < -FAR ? -FAR : v > FAR ? FAR : v; /* zeros: far outside is 0 */
    if (mode == RLX_GRID_SAMPLE_NEAREST) {
        idx[0] = tap((int64_t)v, d, pad, lo, hi);
        w[0] = 1;
        return 1;
    }
    double f = floor(v), t = v - f;
    if (mode == RLX_GRID_SAMPLE_LINEAR) {
        idx[0] = tap((int64_t)f, d, pad, lo, hi);
        idx[1] = tap((int64_t)f + 1, d, pad, lo, hi);
        w[0] = 1 - t;
        w[1] = t;
        return 2;
    }
    cubic(t, w);
    for (int k = 0; k < 4; k++)
        idx[k] = tap((int64_t)f - 1 + k, d, pad, lo, hi);
    return 4;
}

void rlx__cpu_ref_grid_run(const rlx__cpu_ref_node *n, const float *x,
                           const float *grid, float *y)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    uint32_t s = p->rank[0] - 2;
    size_t batch = (size_t)p->dims[0][0], ch = (size_t)p->dims[0][1];
    size_t in_sp = 1, out_sp = 1;
    for (uint32_t i = 0; i < s; i++) {
        in_sp *= (size_t)p->dims[0][2 + i];
        out_sp *= (size_t)p->dims[1][1 + i];
    }
    for (size_t b = 0; b < batch; b++)
        for (size_t o = 0; o < out_sp; o++) {
            const float *gc = grid + (b * out_sp + o) * s;
            int64_t idx[MAX_S][4];
            double w[MAX_S][4];
            int cnt[MAX_S], nan = 0;
            for (uint32_t i = 0; i < s; i++) {
                /* axis i (of D1..Ds) takes grid component s-1-i */
                cnt[i] = axis_taps(gc[s - 1 - i], p->dims[0][2 + i],
                                   p->ints, idx[i], w[i]);
                nan = nan || cnt[i] == 0;
            }
            for (size_t c = 0; c < ch; c++) {
                const float *xc = x + (b * ch + c) * in_sp;
                double sum = 0;
                int k[MAX_S] = { 0 };
                /* every combination of one tap per axis */
                while (!nan) {
                    double wt = 1;
                    size_t off = 0;
                    int zero = 0;
                    for (uint32_t i = 0; i < s; i++) {
                        wt *= w[i][k[i]];
                        zero = zero || idx[i][k[i]] < 0;
                        off = off * (size_t)p->dims[0][2 + i] +
                              (size_t)(idx[i][k[i]] < 0 ? 0 : idx[i][k[i]]);
                    }
                    if (!zero)
                        sum += wt * xc[off];
                    uint32_t i = s;
                    while (i-- > 0 && ++k[i] == cnt[i])
                        k[i] = 0;
                    if (i == (uint32_t)-1)
                        break;
                }
                y[(b * ch + c) * out_sp + o] =
                    nan ? NAN : rlx__cpu_ref_to_f32(sum);
            }
        }
}
