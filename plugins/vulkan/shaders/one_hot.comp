#version 450
// one_hot.comp - y[o, d, i] = idx[o, i] == d (after counting a negative
// index from the end) ? on : off, on and off being values[1] and
// values[0]; an index outside [-depth, depth) gives an all-off row.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, words, idx_words, depth, inner;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer I { uint idx[]; };
layout(std430, set = 0, binding = 2) readonly buffer V { uint val[]; };

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint in_ = e % p.inner, d = (e / p.inner) % p.depth,
         o = e / (p.inner * p.depth);
    uint at = (o * p.inner + in_) * p.idx_words;
    int k = rlx_index(idx[at], p.idx_words == 2u ? idx[at + 1u] : 0u,
                      p.idx_words, p.depth);
    uint which = k == int(d) ? 1u : 0u;
    for (uint w = 0u; w < p.words; w++)
        y[e * p.words + w] = val[which * p.words + w];
}
