#version 450
// grid.comp - grid_sample, one thread per output element: the grid's
// coordinates in [-1, 1] map onto x (align_corners: onto the corner
// pixels' centres, else their outer edges); outside, a coordinate is
// clamped (border) or mirrored (reflection) first; nearest (half to
// even) reads one pixel, linear 2 taps per axis, cubic 4 (a = -0.75),
// each tap again clamped, mirrored or (zeros) read as 0 outside. As the
// reference, positions and weights in double (shaderFloat64), so ties
// and edges fall the same way.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"
#include "common64.glsl"

// mode 0 linear, 1 nearest, 2 cubic; pad 0 zeros, 1 border, 2 reflection
layout(push_constant) uniform P {
    uint count, s, mode, pad, align, ch, out_sp, in_sp, rnd;
    uint in_[3];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer G { float grid[]; };

const double FAR = 1e15lf; // whole numbers stay exact within +-FAR

double reflect_(double v, double lo, double hi)
{
    double range = hi - lo;
    if (range <= 0.0lf)
        return lo;
    if (v < lo) {
        double dx = lo - v, k = floor(dx / range), r = dx - k * range;
        return mod(k, 2.0lf) == 0.0lf ? lo + r : hi - r;
    }
    if (v > hi) {
        double dx = v - hi, k = floor(dx / range), r = dx - k * range;
        return mod(k, 2.0lf) == 0.0lf ? hi - r : lo + r;
    }
    return v;
}

int tap(double i, int d, double lo, double hi)
{
    if (i >= 0.0lf && i < double(d))
        return int(i);
    if (p.pad == 0u)
        return -1;
    if (p.pad == 1u)
        return i < 0.0lf ? 0 : d - 1;
    double r = trunc(reflect_(i, lo, hi));
    return r < 0.0lf ? 0 : (r >= double(d) ? d - 1 : int(r));
}

// taps idx[] and weights w[] of one axis; the count, 0 for NaN
int axis_taps(double g, int d, out int idx[4], out double w[4])
{
    for (int k = 0; k < 4; k++) {
        idx[k] = -1;
        w[k] = 0.0lf;
    }
    if (isnan(g))
        return 0;
    bool al = p.align != 0u;
    double lo = al ? 0.0lf : -0.5lf;
    double hi = al ? double(d) - 1.0lf : double(d) - 0.5lf;
    double v = al ? (g + 1.0lf) / 2.0lf * (double(d) - 1.0lf)
                  : ((g + 1.0lf) * double(d) - 1.0lf) / 2.0lf;
    if (p.mode == 1u)
        v = roundEven(v);
    if (v < lo || v > hi) {
        if (p.pad == 1u)
            v = v < 0.0lf ? 0.0lf : (v > double(d) - 1.0lf ? double(d) - 1.0lf : v);
        else if (p.pad == 2u)
            v = reflect_(v, lo, hi);
    }
    v = v < -FAR ? -FAR : (v > FAR ? FAR : v);
    if (p.mode == 1u) {
        idx[0] = tap(trunc(v), d, lo, hi);
        w[0] = 1.0lf;
        return 1;
    }
    double f = floor(v), t = v - f;
    if (p.mode == 0u) {
        idx[0] = tap(f, d, lo, hi);
        idx[1] = tap(f + 1.0lf, d, lo, hi);
        w[0] = 1.0lf - t;
        w[1] = t;
        return 2;
    }
    const double a = -0.75lf;
    double x0 = t + 1.0lf, y0 = t, z0 = 1.0lf - t, u0 = 2.0lf - t;
    w[0] = ((a * x0 - 5.0lf * a) * x0 + 8.0lf * a) * x0 - 4.0lf * a;
    w[1] = ((a + 2.0lf) * y0 - (a + 3.0lf)) * y0 * y0 + 1.0lf;
    w[2] = ((a + 2.0lf) * z0 - (a + 3.0lf)) * z0 * z0 + 1.0lf;
    w[3] = ((a * u0 - 5.0lf * a) * u0 + 8.0lf * a) * u0 - 4.0lf * a;
    for (int k = 0; k < 4; k++)
        idx[k] = tap(f - 1.0lf + double(k), d, lo, hi);
    return 4;
}

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint o = e % p.out_sp, c = (e / p.out_sp) % p.ch, b = e / (p.out_sp * p.ch);
    uint gbase = (b * p.out_sp + o) * p.s;
    int idx[3][4];
    double w[3][4];
    int cnt[3] = int[3](1, 1, 1);
    for (int k = 0; k < 4; k++) {
        idx[1][k] = idx[2][k] = 0;
        w[1][k] = w[2][k] = 1.0lf;
    }
    bool nan = false;
    for (uint i = 0u; i < p.s; i++) {
        // axis i (of D1..Ds) takes grid component s-1-i
        int ii[4];
        double ww[4];
        cnt[i] = axis_taps(double(grid[gbase + p.s - 1u - i]),
                           int(p.in_[i]), ii, ww);
        idx[i] = ii;
        w[i] = ww;
        nan = nan || cnt[i] == 0;
    }
    if (nan) {
        y[e] = RLX_NAN;
        return;
    }
    uint xbase = (b * p.ch + c) * p.in_sp;
    double sum = 0.0lf;
    for (int k0 = 0; k0 < cnt[0]; k0++)
        for (int k1 = 0; k1 < cnt[1]; k1++)
            for (int k2 = 0; k2 < cnt[2]; k2++) {
                int i0 = idx[0][k0], i1 = p.s > 1u ? idx[1][k1] : 0,
                    i2 = p.s > 2u ? idx[2][k2] : 0;
                if (i0 < 0 || i1 < 0 || i2 < 0)
                    continue;
                double wt = w[0][k0] * (p.s > 1u ? w[1][k1] : 1.0lf) *
                            (p.s > 2u ? w[2][k2] : 1.0lf);
                uint off = uint(i0);
                if (p.s > 1u)
                    off = off * p.in_[1] + uint(i1);
                if (p.s > 2u)
                    off = off * p.in_[2] + uint(i2);
                sum += wt * double(x[xbase + off]);
            }
    y[e] = rlx_round(float(sum), p.rnd);
}
