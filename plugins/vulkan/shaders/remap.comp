#version 450
// remap.comp - pad, expand, tile and strided_slice on 1- or 2-word
// elements: each axis has a table from result coordinate to input
// coordinate (worked out on the host, so the rules are the plugin
// kit's and the reference's), -1 meaning "the pad constant". Axis d's
// table starts at the sum of the result dims before it.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, words, rank, v0, v1;
    uint out_[8], in_stride[8];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 2) readonly buffer T { int t[]; };

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint rest = e, base = 0u, src = 0u;
    bool inside = true;
    for (uint d = 0u; d < p.rank; d++)
        base += p.out_[d];
    for (uint d = p.rank; d-- > 0u;) {
        uint c = rest % p.out_[d];
        rest /= p.out_[d];
        base -= p.out_[d];
        int s = t[base + c];
        inside = inside && s >= 0;
        src += uint(s) * p.in_stride[d];
    }
    if (!inside) {
        y[e * p.words] = p.v0;
        if (p.words == 2u)
            y[e * 2u + 1u] = p.v1;
        return;
    }
    for (uint w = 0u; w < p.words; w++)
        y[e * p.words + w] = x[src * p.words + w];
}
