#version 450
// norm.comp - layer norm (mode 0: (x - mean) / sqrt(var + eps) * gamma
// + beta) and RMS norm (mode 1: x / sqrt(mean(x^2) + eps) * gamma) over
// the last axis, one row per workgroup; two passes for the variance.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P { uint rows, len, mode, rnd, eps; } p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer G { float g[]; };
layout(std430, set = 0, binding = 3) readonly buffer Bt { float beta[]; };

shared float red[256];

float block_sum(float v)
{
    uint lid = gl_LocalInvocationID.x;
    red[lid] = v;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (lid < s)
            red[lid] += red[lid + s];
        barrier();
    }
    float r = red[0];
    barrier();
    return r;
}

void main()
{
    uint row = rlx_group();
    if (row >= p.rows)
        return;
    uint lid = gl_LocalInvocationID.x;
    uint base = row * p.len;
    float eps = uintBitsToFloat(p.eps);
    float n = float(p.len);
    float mean = 0.0;
    if (p.mode == 0u) {
        float s = 0.0;
        for (uint j = lid; j < p.len; j += 256u)
            s += x[base + j];
        mean = block_sum(s) / n;
    }
    float s2 = 0.0;
    for (uint j = lid; j < p.len; j += 256u) {
        float d = x[base + j] - mean;
        s2 += d * d;
    }
    float inv = 1.0 / rlx_sqrt(block_sum(s2) / n + eps);
    for (uint j = lid; j < p.len; j += 256u) {
        float v = (x[base + j] - mean) * inv * g[j];
        if (p.mode == 0u)
            v += beta[j];
        y[base + j] = rlx_round(v, p.rnd);
    }
}
