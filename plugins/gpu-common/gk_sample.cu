/*
 * gk_sample.cu - the ops that read their input at computed positions:
 * grid_sample (ONNX GridSample: nearest, linear or cubic taps per axis
 * with zeros, border or reflection padding, 1 to 3 spatial axes) and
 * roi_align (ONNX RoiAlign: bilinear samples averaged, or the largest
 * weighted corner value, per bin). One output element per thread, the
 * arithmetic of cpu-ref's kernels_grid.c and kernels_roi.c in double,
 * rounded once to the result, so the two agree.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"
#include "gk_value.cuh"
#include "gpu_kernels_more.h"

namespace {

/* ---- grid_sample ------------------------------------------------------- */

const double kFar = 1e15; /* coordinates kept within +-kFar */

__device__ double reflect(double x, double lo, double hi)
{
    double range = hi - lo;
    if (range <= 0)
        return lo;
    if (x < lo) {
        double dx = lo - x;
        double k = floor(dx / range), r = dx - k * range;
        return fmod(k, 2.0) == 0 ? lo + r : hi - r;
    }
    if (x > hi) {
        double dx = x - hi;
        double k = floor(dx / range), r = dx - k * range;
        return fmod(k, 2.0) == 0 ? hi - r : lo + r;
    }
    return x;
}

/* The pixel a tap at I of an axis of size D reads; -1: a zero. */
__device__ int64_t grid_tap(int64_t i, int64_t d, int pad, double lo,
                            double hi)
{
    if (i >= 0 && i < d)
        return i;
    if (pad == RLX_GRID_SAMPLE_ZEROS)
        return -1;
    if (pad == RLX_GRID_SAMPLE_BORDER)
        return i < 0 ? 0 : d - 1;
    int64_t r = (int64_t)reflect((double)i, lo, hi);
    return r < 0 ? 0 : r >= d ? d - 1 : r;
}

/* Taps and weights of one axis of size D at grid coordinate G: their
 * count, 0 for NaN. */
__device__ int grid_axis(double g, int64_t d, int mode, int pad, int align,
                         int64_t idx[4], double w[4])
{
    if (isnan(g))
        return 0;
    double lo = align ? 0.0 : -0.5, hi = align ? (double)d - 1 : d - 0.5;
    double v = align ? (g + 1) / 2 * ((double)d - 1)
                     : ((g + 1) * (double)d - 1) / 2;
    if (mode == RLX_GRID_SAMPLE_NEAREST)
        v = rint(v); /* half to even */
    if (v < lo || v > hi) {
        if (pad == RLX_GRID_SAMPLE_BORDER)
            v = v < 0 ? 0 : v > (double)d - 1 ? (double)d - 1 : v;
        else if (pad == RLX_GRID_SAMPLE_REFLECTION)
            v = reflect(v, lo, hi);
    }
    v = v < -kFar ? -kFar : v > kFar ? kFar : v;
    if (mode == RLX_GRID_SAMPLE_NEAREST) {
        idx[0] = grid_tap((int64_t)v, d, pad, lo, hi);
        w[0] = 1;
        return 1;
    }
    double f = floor(v), t = v - f;
    if (mode == RLX_GRID_SAMPLE_LINEAR) {
        idx[0] = grid_tap((int64_t)f, d, pad, lo, hi);
        idx[1] = grid_tap((int64_t)f + 1, d, pad, lo, hi);
        w[0] = 1 - t;
        w[1] = t;
        return 2;
    }
    const double a = -0.75; /* Keys' cubic, as resize's default */
    double x = t + 1, y = t, z = 1 - t, u = 2 - t;
    w[0] = ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
    w[1] = ((a + 2) * y - (a + 3)) * y * y + 1;
    w[2] = ((a + 2) * z - (a + 3)) * z * z + 1;
    w[3] = ((a * u - 5 * a) * u + 8 * a) * u - 4 * a;
    for (int k = 0; k < 4; k++)
        idx[k] = grid_tap((int64_t)f - 1 + k, d, pad, lo, hi);
    return 4;
}

/* x [N, C, D1..Ds] (in_dims), grid [N, O1..Os, s] (idx_dims), y [N, C,
 * O1..Os]; mode, n0 padding, n1 align_corners. */
__global__ void grid_sample_kernel(int dtype, const void *x,
                                   const void *grid, void *y,
                                   rlxg_index_plan p)
{
    const int s = (int)p.in_rank - 2;
    int64_t in_sp = 1, out_sp = 1;
    for (int i = 0; i < s; i++) {
        in_sp *= p.in_dims[2 + i];
        out_sp *= p.idx_dims[1 + i];
    }
    const int64_t ch = p.in_dims[1];
    GRID_LOOP(k, p.count)
    {
        int64_t o = k % out_sp, bc = k / out_sp, b = bc / ch;
        int64_t idx[3][4];
        double w[3][4];
        int cnt[3];
        bool nan = false;
        for (int i = 0; i < s; i++) {
            /* axis i (of D1..Ds) takes grid component s-1-i */
            double g = load_f(dtype, grid, (b * out_sp + o) * s + s - 1 - i);
            cnt[i] = grid_axis(g, p.in_dims[2 + i], p.mode, (int)p.n0,
                               (int)p.n1, idx[i], w[i]);
            nan = nan || cnt[i] == 0;
        }
        if (nan) {
            store_f(dtype, y, k, __longlong_as_double(0x7ff8000000000000LL));
            continue;
        }
        int64_t base = bc * in_sp;
        double sum = 0;
        int t[3] = { 0, 0, 0 };
        for (;;) { /* every combination of one tap per axis */
            double wt = 1;
            int64_t off = 0;
            bool zero = false;
            for (int i = 0; i < s; i++) {
                int64_t at = idx[i][t[i]];
                wt *= w[i][t[i]];
                zero = zero || at < 0;
                off = off * p.in_dims[2 + i] + (at < 0 ? 0 : at);
            }
            if (!zero)
                sum += wt * load_f(dtype, x, base + off);
            int i = s;
            while (i-- > 0 && ++t[i] == cnt[i])
                t[i] = 0;
            if (i < 0)
                break;
        }
        store_f(dtype, y, k, sum);
    }
}

/* ---- roi_align --------------------------------------------------------- */

/* One sample point's 4 corners and weights; false when the point is
 * more than a pixel outside and reads nothing. */
__device__ bool roi_corners(double y, double x, int64_t h, int64_t w,
                            int64_t at[4], double wt[4])
{
    if (y < -1.0 || y > (double)h || x < -1.0 || x > (double)w)
        return false;
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
    at[0] = yl * w + xl;
    at[1] = yl * w + xh;
    at[2] = yh * w + xl;
    at[3] = yh * w + xh;
    wt[0] = hy * hx;
    wt[1] = hy * lx;
    wt[2] = ly * hx;
    wt[3] = ly * lx;
    return true;
}

/* x [N, C, H, W] (in_dims), rois [R, 4], batch indices [R] (IDX64),
 * y [R, C, oh, ow] (dims); mode 1 max, n0 sampling_ratio, n1
 * half_pixel, f0 spatial_scale. A batch index outside [0, N) sets *ERR. */
__global__ void roi_align_kernel(int dtype, const void *x, const void *rois,
                                 const void *bidx, int idx64, void *y,
                                 rlxg_index_plan p, int *err)
{
    const int64_t nb = p.in_dims[0], ch = p.in_dims[1];
    const int64_t h = p.in_dims[2], w = p.in_dims[3];
    const int64_t oh = p.dims[2], ow = p.dims[3];
    const bool is_max = p.mode == 1, half = p.n1 == 1;
    const double scale = p.f0, off = half ? 0.5 : 0.0;
    GRID_LOOP(k, p.count)
    {
        int64_t px = k % ow, t = k / ow;
        int64_t py = t % oh;
        t /= oh;
        int64_t c = t % ch, r = t / ch;
        int64_t b = idx64 ? ((const int64_t *)bidx)[r]
                          : (int64_t)((const int32_t *)bidx)[r];
        if (b < 0 || b >= nb) {
            *err = 1;
            store_f(dtype, y, k, 0.0);
            continue;
        }
        double x0 = load_f(dtype, rois, 4 * r) * scale - off;
        double y0 = load_f(dtype, rois, 4 * r + 1) * scale - off;
        double rw = load_f(dtype, rois, 4 * r + 2) * scale - off - x0;
        double rh = load_f(dtype, rois, 4 * r + 3) * scale - off - y0;
        if (!half) { /* output_half_pixel: at least one pixel */
            rw = rw > 1 ? rw : 1;
            rh = rh > 1 ? rh : 1;
        }
        double bh = rh / (double)oh, bw = rw / (double)ow;
        double gh = p.n0 > 0 ? (double)p.n0 : ceil(rh / oh);
        double gw = p.n0 > 0 ? (double)p.n0 : ceil(rw / ow);
        int64_t sh = isfinite(gh) && gh > 0 ? (int64_t)fmin(gh, 65536.0) : 0;
        int64_t sw = isfinite(gw) && gw > 0 ? (int64_t)fmin(gw, 65536.0) : 0;
        double count = sh * sw > 0 ? (double)(sh * sw) : 1;
        int64_t base = (b * ch + c) * h * w;
        double acc = 0;
        bool first = true;
        for (int64_t iy = 0; iy < sh; iy++) {
            double yy = y0 + py * bh + (iy + 0.5) * bh / sh;
            for (int64_t ix = 0; ix < sw; ix++) {
                double xx = x0 + px * bw + (ix + 0.5) * bw / sw;
                int64_t at[4];
                double wt[4];
                bool in = roi_corners(yy, xx, h, w, at, wt);
                if (!is_max) {
                    for (int q = 0; in && q < 4; q++)
                        acc += wt[q] * load_f(dtype, x, base + at[q]);
                    continue;
                }
                for (int q = 0; q < 4; q++) {
                    double v = in ? wt[q] * load_f(dtype, x, base + at[q])
                                  : 0;
                    if (first || v > acc)
                        acc = v;
                    first = false;
                }
            }
        }
        store_f(dtype, y, k, is_max ? acc : acc / count);
    }
}

} /* namespace */

extern "C" gpuError_t rlxg_grid_sample(gpuStream_t s, int dtype,
                                       const void *x, const void *grid,
                                       void *y, const rlxg_index_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    grid_sample_kernel<<<grid_for(p->count), kThreads, 0, s>>>(dtype, x,
                                                               grid, y, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_roi_align(gpuStream_t s, int dtype, const void *x,
                                     const void *rois, const void *bidx,
                                     int idx64, void *y,
                                     const rlxg_index_plan *p, int *err)
{
    if (p->count == 0)
        return gpuSuccess;
    roi_align_kernel<<<grid_for(p->count), kThreads, 0, s>>>(
        dtype, x, rois, bidx, idx64, y, *p, err);
    return gpuGetLastError();
}
