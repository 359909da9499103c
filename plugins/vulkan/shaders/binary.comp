#version 450
// binary.comp - broadcasting two-input float ops: each input is walked
// with its own strides (0 on a stretched dim).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, op, rnd, rank;
    uint dims[8], sa[8], sb[8];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float b[]; };

void main()
{
    uint i = rlx_gid();
    if (i >= p.count)
        return;
    uint rest = i, ia = 0u, ib = 0u;
    for (uint d = p.rank; d-- > 0u;) {
        uint c = rest % p.dims[d];
        rest /= p.dims[d];
        ia += c * p.sa[d];
        ib += c * p.sb[d];
    }
    float u = a[ia], v = b[ib], r;
    switch (p.op) {
    case 10u: r = u + v; break;
    case 11u: r = u - v; break;
    case 12u: r = u * v; break;
    case 13u: r = u / v; break;
    case 14u: r = isnan(u) || isnan(v) ? u + v : (u > v ? u : v); break;
    case 15u: r = isnan(u) || isnan(v) ? u + v : (u < v ? u : v); break;
    case 16u: r = rlx_pow(u, v); break;
    case 130u: r = u < 0.0 ? v * u : u; break;                    // prelu
    case 131u: r = rlx_fmod(u, v); break;
    default: r = RLX_NAN; break;
    }
    y[i] = rlx_round(r, p.rnd);
}
