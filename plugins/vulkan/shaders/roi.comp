#version 450
// roi.comp - roi_align, one thread per output element, as the reference
// (ONNX's) computes it, in double (shaderFloat64): the roi, scaled and
// (half_pixel) shifted by -0.5, is cut into oh x ow bins; each bin
// samples sh x sw points bilinearly (a point more than a pixel outside
// reads 0) and averages them (avg) or keeps the largest weighted corner
// value (max). A batch index outside [0, N) sets the run's error flag
// to 2.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, nb, ch, h, w, oh, ow, is_max, half_, sampling, idx64, rnd;
    uvec2 scale;                // spatial_scale, a double
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer R { float rois[]; };
layout(std430, set = 0, binding = 3) readonly buffer B { int bidx[]; };
layout(std430, set = 0, binding = 4) buffer E { uint err[]; };

// one sample point's corners and weights; false more than a pixel out
bool corners(double yy, double xx, int h, int w, out uint at[4],
             out double wt[4])
{
    for (int k = 0; k < 4; k++) {
        at[k] = 0u;
        wt[k] = 0.0lf;
    }
    if (yy < -1.0lf || yy > double(h) || xx < -1.0lf || xx > double(w))
        return false;
    if (yy <= 0.0lf)
        yy = 0.0lf;
    if (xx <= 0.0lf)
        xx = 0.0lf;
    int yl = int(yy), xl = int(xx), yh, xh;
    if (yl >= h - 1) {
        yh = yl = h - 1;
        yy = double(yl);
    } else {
        yh = yl + 1;
    }
    if (xl >= w - 1) {
        xh = xl = w - 1;
        xx = double(xl);
    } else {
        xh = xl + 1;
    }
    double ly = yy - double(yl), lx = xx - double(xl);
    double hy = 1.0lf - ly, hx = 1.0lf - lx;
    at[0] = uint(yl * w + xl);
    at[1] = uint(yl * w + xh);
    at[2] = uint(yh * w + xl);
    at[3] = uint(yh * w + xh);
    wt[0] = hy * hx;
    wt[1] = hy * lx;
    wt[2] = ly * hx;
    wt[3] = ly * lx;
    return true;
}

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint px = e % p.ow, py = (e / p.ow) % p.oh, c = (e / (p.ow * p.oh)) % p.ch;
    uint r = e / (p.ow * p.oh * p.ch);
    int b = bidx[p.idx64 != 0u ? 2u * r : r];
    bool bad = b < 0 || uint(b) >= p.nb ||
               (p.idx64 != 0u && bidx[2u * r + 1u] != (b < 0 ? -1 : 0));
    if (bad) {
        err[0] = 2u;
        y[e] = 0.0;
        return;
    }
    double scale = packDouble2x32(p.scale), off = p.half_ != 0u ? 0.5lf : 0.0lf;
    double x0 = double(rois[4u * r]) * scale - off;
    double y0 = double(rois[4u * r + 1u]) * scale - off;
    double rw = double(rois[4u * r + 2u]) * scale - off - x0;
    double rh = double(rois[4u * r + 3u]) * scale - off - y0;
    if (p.half_ == 0u) { // output_half_pixel: at least one pixel
        rw = rw > 1.0lf ? rw : 1.0lf;
        rh = rh > 1.0lf ? rh : 1.0lf;
    }
    double bh = rh / double(p.oh), bw = rw / double(p.ow);
    double gh = p.sampling > 0u ? double(p.sampling) : ceil(rh / double(p.oh));
    double gw = p.sampling > 0u ? double(p.sampling) : ceil(rw / double(p.ow));
    int sh = !isinf(gh) && !isnan(gh) && gh > 0.0lf ? int(min(gh, 65536.0lf)) : 0;
    int sw = !isinf(gw) && !isnan(gw) && gw > 0.0lf ? int(min(gw, 65536.0lf)) : 0;
    double count = sh * sw > 0 ? double(sh * sw) : 1.0lf;
    uint xc = (uint(b) * p.ch + c) * p.h * p.w;
    double acc = 0.0lf;
    bool first = true;
    for (int iy = 0; iy < sh; iy++) {
        double yy = y0 + double(py) * bh + (double(iy) + 0.5lf) * bh / double(sh);
        for (int ix = 0; ix < sw; ix++) {
            double xx = x0 + double(px) * bw + (double(ix) + 0.5lf) * bw / double(sw);
            uint at[4];
            double wt[4];
            bool inside = corners(yy, xx, int(p.h), int(p.w), at, wt);
            for (int k = 0; k < 4; k++) {
                if (p.is_max == 0u) {
                    if (inside)
                        acc += wt[k] * double(x[xc + at[k]]);
                    continue;
                }
                double v = inside ? wt[k] * double(x[xc + at[k]]) : 0.0lf;
                if (first || v > acc)
                    acc = v;
                first = false;
            }
        }
    }
    y[e] = rlx_round(float(p.is_max != 0u ? acc : acc / count), p.rnd);
}
