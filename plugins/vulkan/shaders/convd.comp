#version 450
// convd.comp - direct convolution, one thread per output element: the
// transposed form (each output gathers the inputs whose scatter reaches
// it) and convolutions with few output channels per group (depthwise),
// where conv.comp's 64-row tiles would sit mostly idle. Built a second
// time with INTEGER for conv_integer: i8/u8 x and w (one int word each)
// less their zero points (x's a scalar, w's scalar or per output
// channel, has_bias telling which), summed in 32 bits, which wraps as
// the i32 result does; padding adds nothing (x_zp, 0 after the shift).
// With EPI too, the requantization chain after it is fused
// (shaders/qepi.glsl: the zero points from the table at binding 3).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"
#include "conv_common.glsl"

#ifdef INTEGER
layout(std430, set = 0, binding = 0) writeonly buffer Y { int y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { int x[]; };
layout(std430, set = 0, binding = 2) readonly buffer W { int w[]; };
#ifdef EPI
#include "qepi.glsl"
#else
layout(std430, set = 0, binding = 3) readonly buffer XZ { int xz[]; };
layout(std430, set = 0, binding = 4) readonly buffer WZ { int wz[]; };
#endif
#else
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer W { float w[]; };
layout(std430, set = 0, binding = 3) readonly buffer Bias { float bias[]; };
#endif

// Input position on one axis under tap K of output O, or -1.
int src(uint o, uint k, uint a)
{
    if (p.transposed == 0u) {
        int i = int(o * p.stride[a] + k * p.dil[a]) - int(p.pb[a]);
        return i >= 0 && uint(i) < p.in_[a] ? i : -1;
    }
    int t = int(o + p.pb[a]) - int(k * p.dil[a]);
    if (t < 0 || uint(t) % p.stride[a] != 0u)
        return -1;
    uint i = uint(t) / p.stride[a];
    return i < p.in_[a] ? int(i) : -1;
}

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint pp = e % p.np, mm = (e / p.np) % p.m, n = e / (p.np * p.m);
    uint mg = p.m / p.group, cg = p.c / p.group;
    uint g = mm / mg, mo = mm % mg;
    uint o2 = pp % p.out_[2], o1 = (pp / p.out_[2]) % p.out_[1],
         o0 = pp / (p.out_[2] * p.out_[1]);
#ifdef INTEGER
#ifdef EPI
    int xzp = qepi_xz(), wzp = qepi_wz(mm);
#else
    int xzp = xz[0], wzp = wz[p.has_bias != 0u ? mm : 0u];
#endif
    int acc = 0;
#else
    float acc = p.has_bias != 0u ? bias[mm] : 0.0;
#endif
    for (uint k0 = 0u; k0 < p.ks[0]; k0++) {
        int i0 = src(o0, k0, 0u);
        if (i0 < 0)
            continue;
        for (uint k1 = 0u; k1 < p.ks[1]; k1++) {
            int i1 = src(o1, k1, 1u);
            if (i1 < 0)
                continue;
            for (uint k2 = 0u; k2 < p.ks[2]; k2++) {
                int i2 = src(o2, k2, 2u);
                if (i2 < 0)
                    continue;
                uint ip = (uint(i0) * p.in_[1] + uint(i1)) * p.in_[2] +
                          uint(i2);
                uint kp = (k0 * p.ks[1] + k1) * p.ks[2] + k2;
                for (uint ci = 0u; ci < cg; ci++) {
                    uint c = g * cg + ci;
                    // conv: w [M, C/group, k]; transposed: w [C, M/group, k]
                    uint wi = p.transposed == 0u
                                  ? (mm * cg + ci) * p.k_sp + kp
                                  : (c * mg + mo) * p.k_sp + kp;
#ifdef INTEGER
                    acc += (x[(n * p.c + c) * p.in_sp + ip] - xzp) *
                           (w[wi] - wzp);
#else
                    acc += x[(n * p.c + c) * p.in_sp + ip] * w[wi];
#endif
                }
            }
        }
    }
#if defined(EPI)
    y[e] = qepi_requant(acc, mm);
#elif defined(INTEGER)
    y[e] = acc;
#else
    y[e] = rlx_round(acc, p.rnd);
#endif
}
