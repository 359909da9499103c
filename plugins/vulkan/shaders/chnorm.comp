#version 450
// chnorm.comp - the per-channel norms of [N, C, ...] tensors, in three
// modes:
//   0 instance_norm / group_norm: one workgroup per (image, group)
//     computes the mean, then the mean of squared deviations (two
//     passes, as the reference does), then writes the normalized group;
//   1 batch_norm's per-channel factors: f[c] = scale / sqrt(var + eps),
//     f[C + c] = bias - mean * f[c], one thread per channel;
//   2 batch_norm itself: y = x * f[c] + f[C + c], one thread per element.
// Bindings: 0 y (mode 1: the factors), 1 x (mode 1: scale), 2 scale
// (mode 1: bias; mode 2: the factors), 3 bias (mode 1: mean), 4 (mode
// 1: var).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint mode, count, c, inner, groups, per_group, rnd;
    float eps;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer S { float s[]; };
layout(std430, set = 0, binding = 3) readonly buffer B { float b[]; };
layout(std430, set = 0, binding = 4) readonly buffer V { float v4[]; };

shared float red[256];

float total(float v)
{
    uint lid = gl_LocalInvocationID.x;
    red[lid] = v;
    barrier();
    for (uint h = 128u; h > 0u; h >>= 1u) {
        if (lid < h)
            red[lid] += red[lid + h];
        barrier();
    }
    float t = red[0];
    barrier();
    return t;
}

void main()
{
    if (p.mode == 1u) {
        uint c = rlx_gid();
        if (c >= p.c)
            return;
        float f = x[c] / rlx_sqrt(v4[c] + p.eps);
        y[c] = f;
        y[p.c + c] = s[c] - b[c] * f;
        return;
    }
    if (p.mode == 2u) {
        uint i = rlx_gid();
        if (i >= p.count)
            return;
        uint c = (i / p.inner) % p.c;
        y[i] = rlx_round(x[i] * s[c] + s[p.c + c], p.rnd);
        return;
    }
    uint grp = rlx_group();
    if (grp >= p.count)
        return;
    uint lid = gl_LocalInvocationID.x;
    uint cg = p.c / p.groups, len = cg * p.inner;
    uint gi = grp % p.groups;
    uint base = grp * len;
    float acc = 0.0;
    for (uint i = lid; i < len; i += 256u)
        acc += x[base + i];
    float mean = total(acc) / float(len);
    acc = 0.0;
    for (uint i = lid; i < len; i += 256u) {
        float d = x[base + i] - mean;
        acc += d * d;
    }
    float inv = 1.0 / rlx_sqrt(total(acc) / float(len) + p.eps);
    for (uint i = lid; i < len; i += 256u) {
        uint ci = i / p.inner;
        uint pc = p.per_group != 0u ? gi : gi * cg + ci;
        y[base + i] = rlx_round((x[base + i] - mean) * inv * s[pc] + b[pc],
                                p.rnd);
    }
}
