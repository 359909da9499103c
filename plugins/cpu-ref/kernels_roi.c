/*
 * kernels_roi.c - roi_align for the reference backend, as ONNX's RoiAlign
 * (and its reference) computes it: each region of interest, scaled and
 * (half_pixel) shifted by -0.5, is cut into oh x ow bins; each bin
 * samples a grid of points (sampling_ratio per axis, or ceil of the
 * bin's size when 0) bilinearly, a point more than one pixel outside the
 * image reading 0, and averages them (avg) or keeps the largest of the
 * points' weighted corner values (max, as the reference does).
 */
#include <math.h>
#include <string.h>

#include "cpu_ref_internal.h"
#include "kernels_value.h"

rlx_status rlx__cpu_ref_roi_prepare(const rlx_host *host,
                                    const rlx_graph_view *g,
                                    const rlx_node_view *v,
                                    const rlx__cpu_ref_attrs *a,
                                    rlx__cpu_ref_node *n)
{
    rlx__cpu_ref_index *p = &n->plan.index;
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    const rlx_node_view *r = g->nodes[v->inputs[1]];
    const rlx_node_view *b = g->nodes[v->inputs[2]];
    int ok = x->rank == 4 && r->rank == 2 && b->rank == 1 && v->rank == 4 &&
             rlx_kit_dtype_is_float(x->dtype) &&
             (b->dtype == RLX_DTYPE_I32 || b->dtype == RLX_DTYPE_I64);
    if (!ok)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: roi_align '%s' has inputs the "
                            "core should have refused. Fix: report this as "
                            "a bug in the rlx core", v->name);
    memset(p, 0, sizeof *p);
    p->rank[0] = 4;
    for (uint32_t i = 0; i < 4; i++)
        p->dims[0][i] = x->shape[i];
    p->dtype[2] = b->dtype;
    p->out_rank = 4;
    for (uint32_t i = 0; i < 4; i++)
        p->out_dims[i] = v->shape[i];
    static const int64_t dflt[5] = { 0, 1, 1, 0, 1 };
    p->n_ints = 5;
    for (uint32_t i = 0; i < 5; i++)
        p->ints[i] = i < a->n_ints ? a->ints[i] : dflt[i];
    p->f[0] = a->n_floats ? a->floats[0] : 1.0;
    return RLX_OK;
}

/* One sample point's 4 corners and weights (ONNX's pre_calc); 0 when
 * the point is more than a pixel outside and reads nothing. */
static int corners(double y, double x, int64_t h, int64_t w, size_t at[4],
                   double wt[4])
{
    if (y < -1.0 || y > (double)h || x < -1.0 || x > (double)w)
        return 0;
    if (y <= 0)
        y = 0;
    if (x <= 0)
        x = 0;
    int64_t yl = (int64_t)y, xl = (int64_t)x, yh, xh;
    if (yl >= h - 1) {
        yh = yl = h - 1;
        y = (double)yl;
    } else {
        yh = yl + 1;
    }
    if (xl >= w - 1) {
        xh = xl = w - 1;
        x = (double)xl;
    } else {
        xh = xl + 1;
    }
    double ly = y - (double)yl, lx = x - (double)xl;
    double hy = 1 - ly, hx = 1 - lx;
    at[0] = (size_t)(yl * w + xl);
    at[1] = (size_t)(yl * w + xh);
    at[2] = (size_t)(yh * w + xl);
    at[3] = (size_t)(yh * w + xh);
    wt[0] = hy * hx;
    wt[1] = hy * lx;
    wt[2] = ly * hx;
    wt[3] = ly * lx;
    return 1;
}

rlx_status rlx__cpu_ref_roi_run(const rlx_host *host,
                                const rlx_executable *exe,
                                rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    const rlx__cpu_ref_node *xn = &exe->nodes[n->inputs[0]];
    const rlx__cpu_ref_node *rn = &exe->nodes[n->inputs[1]];
    const rlx__cpu_ref_node *bn = &exe->nodes[n->inputs[2]];
    int64_t nb = p->dims[0][0], ch = p->dims[0][1];
    int64_t h = p->dims[0][2], w = p->dims[0][3];
    int64_t oh = p->out_dims[2], ow = p->out_dims[3];
    int is_max = p->ints[0] == 1, half = p->ints[4] == 1;
    double scale = p->f[0], off = half ? 0.5 : 0.0;
    for (int64_t r = 0; r < p->out_dims[0]; r++) {
        int64_t b = rlx__cpu_ref_load_i(p->dtype[2], bn->data, (size_t)r);
        if (b < 0 || b >= nb)
            return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                                "cpu-ref execute: roi_align '%s': roi %lld "
                                "names batch %lld of %lld. Fix: give batch "
                                "indices in [0, N)", n->name, (long long)r,
                                (long long)b, (long long)nb);
        const float *roi = rn->f32 + 4 * r;
        double x0 = roi[0] * scale - off, y0 = roi[1] * scale - off;
        double rw = roi[2] * scale - off - x0, rh = roi[3] * scale - off - y0;
        if (!half) { /* output_half_pixel: at least one pixel */
            rw = rw > 1 ? rw : 1;
            rh = rh > 1 ? rh : 1;
        }
        double bh = rh / (double)oh, bw = rw / (double)ow;
        /* samples per bin: bounded, so a huge roi cannot run forever */
        double gh = p->ints[3] > 0 ? (double)p->ints[3] : ceil(rh / oh);
        double gw = p->ints[3] > 0 ? (double)p->ints[3] : ceil(rw / ow);
        int64_t sh = isfinite(gh) && gh > 0 ? (int64_t)fmin(gh, 65536) : 0;
        int64_t sw = isfinite(gw) && gw > 0 ? (int64_t)fmin(gw, 65536) : 0;
        double count = sh * sw > 0 ? (double)(sh * sw) : 1;
        for (int64_t c = 0; c < ch; c++) {
            const float *xc = xn->f32 + ((size_t)b * ch + c) * h * w;
            for (int64_t py = 0; py < oh; py++)
                for (int64_t px = 0; px < ow; px++) {
                    double acc = 0;
                    int first = 1;
                    for (int64_t iy = 0; iy < sh; iy++) {
                        double y = y0 + py * bh + (iy + 0.5) * bh / sh;
                        for (int64_t ix = 0; ix < sw; ix++) {
                            double x = x0 + px * bw + (ix + 0.5) * bw / sw;
                            size_t at[4];
                            double wt[4];
                            int in = corners(y, x, h, w, at, wt);
                            if (!is_max) {
                                for (int k = 0; in && k < 4; k++)
                                    acc += wt[k] * xc[at[k]];
                                continue;
                            }
                            for (int k = 0; k < 4; k++) {
                                double v = in ? wt[k] * xc[at[k]] : 0;
                                if (first || v > acc)
                                    acc = v;
                                first = 0;
                            }
                        }
                    }
                    size_t o = (((size_t)r * ch + c) * oh + py) * ow + px;
                    n->f32[o] = rlx__cpu_ref_to_f32(is_max ? acc
                                                           : acc / count);
                }
        }
    }
    return RLX_OK;
}
