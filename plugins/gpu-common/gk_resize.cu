/*
 * gk_resize.cu - resize as ONNX defines it, one output per thread: per
 * axis the output coordinate maps back to an input coordinate (the
 * coordinate transform, in f64), then nearest, linear or cubic weights
 * pick up to 4 inputs; the axes are separable, so the output sums the
 * products over every combination of one tap per axis. The same rules
 * as cpu-ref's kernels_resize.c, step by step (taps of weight 0 left
 * out, the edge read outside the input or excluded and renormalized,
 * tf_crop_and_resize's extrapolation value past the input).
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_value.cuh"
#include "gpu_kernels_vision.h"

namespace {

__device__ double source_coord(int coord, double o, double in, double out,
                               double scale, double start, double end)
{
    double len = in * scale;
    switch (coord) {
    case RLX_RESIZE_HALF_PIXEL_SYMMETRIC: {
        double offset = in / 2 * (1 - out / len);
        return offset + (o + 0.5) / scale - 0.5;
    }
    case RLX_RESIZE_PYTORCH_HALF_PIXEL:
        return len > 1 ? (o + 0.5) / scale - 0.5 : 0;
    case RLX_RESIZE_ALIGN_CORNERS:
        return len > 1 ? o * (in - 1) / (len - 1) : 0;
    case RLX_RESIZE_ASYMMETRIC:
        return o / scale;
    case RLX_RESIZE_TF_CROP_AND_RESIZE:
        return len > 1 ? start * (in - 1) + o * (end - start) * (in - 1) /
                                                (len - 1)
                       : 0.5 * (start + end) * (in - 1);
    default: /* half_pixel */
        return (o + 0.5) / scale - 0.5;
    }
}

__device__ long long nearest(int mode, double x)
{
    double f = floor(x);
    switch (mode) {
    case RLX_RESIZE_FLOOR: return (long long)f;
    case RLX_RESIZE_CEIL: return (long long)ceil(x);
    case RLX_RESIZE_ROUND_PREFER_CEIL:
        return (long long)(x - f >= 0.5 ? f + 1 : f);
    default: /* round_prefer_floor */
        return (long long)(x - f > 0.5 ? f + 1 : f);
    }
}

/* Axis I's taps for output index O: their count (0: extrapolate). */
__device__ int axis_taps(const rlxg_resize_plan &p, int i, int64_t o,
                         long long *idx, double *w)
{
    double in = (double)p.in[i], out = (double)p.out[i];
    double x = source_coord(p.mode[1], (double)o, in, out, p.scale[i],
                            p.start[i], p.end[i]);
    long long last = p.in[i] - 1;
    if (p.mode[1] == RLX_RESIZE_TF_CROP_AND_RESIZE && (x < 0 || x > in - 1))
        return 0;
    if (x < -4)
        x = -4;
    if (x > in + 3)
        x = in + 3;
    if (p.mode[0] == RLX_RESIZE_NEAREST) {
        long long k = nearest(p.mode[2], x);
        idx[0] = k < 0 ? 0 : k > last ? last : k;
        w[0] = 1;
        return 1;
    }
    double f = floor(x), t = x - f, c[4], sum = 0;
    long long first;
    int taps;
    if (p.mode[0] == RLX_RESIZE_LINEAR) {
        c[0] = 1 - t;
        c[1] = t;
        first = (long long)f;
        taps = 2;
    } else {
        double a = p.cubic_a, s = 1 - t;
        c[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
        c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
        c[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
        c[3] = ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a;
        first = (long long)f - 1;
        taps = 4;
    }
    for (int k = 0; k < taps; k++) {
        long long j = first + k;
        if (j < 0 || j > last) {
            if (p.mode[3])
                c[k] = 0;
            j = j < 0 ? 0 : last;
        }
        sum += c[k];
        idx[k] = j;
    }
    int n = 0;
    for (int k = 0; k < taps; k++) {
        double wk = p.mode[3] && sum != 0 ? c[k] / sum : c[k];
        if (wk != 0) {
            idx[n] = idx[k];
            w[n++] = wk;
        }
    }
    if (n == 0) {
        idx[0] = f < 0 ? 0 : (long long)f > last ? last : (long long)f;
        w[0] = 0;
        n = 1;
    }
    return n;
}

__global__ void resize_kernel(int dtype, const void *x, void *y,
                              rlxg_resize_plan p)
{
    const bool ints = dtype == RLX_DTYPE_I8 || dtype == RLX_DTYPE_U8;
    GRID_LOOP(o, p.count)
    {
        long long idx[8][4];
        double w[8][4];
        int n[8];
        int64_t stride[8];
        bool extrapolate = false;
        int64_t rest = o;
        for (int d = (int)p.rank - 1; d >= 0; d--) {
            int64_t q = rest / p.out[d];
            n[d] = axis_taps(p, d, rest - q * p.out[d], idx[d], w[d]);
            extrapolate = extrapolate || n[d] == 0;
            stride[d] = d + 1 < (int)p.rank ? stride[d + 1] * p.in[d + 1] : 1;
            rest = q;
        }
        if (extrapolate) {
            if (ints)
                store_i(dtype, y, o, (long long)p.extrapolation);
            else
                store_f(dtype, y, o, p.extrapolation);
            continue;
        }
        int t[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
        double sum = -0.0; /* a lone -0 tap stays -0 */
        for (;;) {
            int64_t off = 0;
            double wt = 1;
            for (int d = 0; d < (int)p.rank; d++) {
                off += idx[d][t[d]] * stride[d];
                wt *= w[d][t[d]];
            }
            sum += wt * (ints ? (double)load_i(dtype, x, off)
                              : load_f(dtype, x, off));
            int d = (int)p.rank - 1;
            for (; d >= 0; d--) {
                if (++t[d] < n[d])
                    break;
                t[d] = 0;
            }
            if (d < 0)
                break;
        }
        if (ints)
            store_i(dtype, y, o, (long long)sum);
        else
            store_f(dtype, y, o, sum);
    }
}

} /* namespace */

extern "C" gpuError_t rlxg_resize(gpuStream_t s, int dtype, const void *x,
                                  void *y, const rlxg_resize_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    resize_kernel<<<grid_for(p->count), kThreads, 0, s>>>(dtype, x, y, *p);
    return gpuGetLastError();
}
