#version 450
// gather.comp - out[o, j, r] = data[o, idx[j], r]; an index outside
// [0, dim) writes zeros and raises the run's error flag.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, words, axis_dim, inner, n_idx, idx_words;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 2) readonly buffer I { uint idx[]; };
layout(std430, set = 0, binding = 4) buffer E { uint err[]; };

void main()
{
    uint i = rlx_gid();
    if (i >= p.count)
        return;
    uint r = i % p.inner;
    uint j = (i / p.inner) % p.n_idx;
    uint o = i / (p.inner * p.n_idx);
    uint lo = idx[j * p.idx_words];
    bool ok = p.idx_words == 1u ? (int(lo) >= 0 && lo < p.axis_dim)
                                : (idx[j * 2u + 1u] == 0u && lo < p.axis_dim);
    if (!ok) {
        err[0] = 1u;
        for (uint w = 0u; w < p.words; w++)
            y[i * p.words + w] = 0u;
        return;
    }
    uint s = (o * p.axis_dim + lo) * p.inner + r;
    for (uint w = 0u; w < p.words; w++)
        y[i * p.words + w] = x[s * p.words + w];
}
