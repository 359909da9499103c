#version 450
// gather_el.comp - gather_elements: y[c] = data[c with c[axis] =
// idx[c]], one thread per result element; an index outside
// [-dim, dim) writes zeros and raises the run's error flag.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, words, idx_words, rank, axis, axis_dim;
    uint dims[8], ds[8];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 2) readonly buffer I { uint idx[]; };
layout(std430, set = 0, binding = 4) buffer E { uint err[]; };

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    int k = rlx_index(idx[e * p.idx_words],
                      p.idx_words == 2u ? idx[e * 2u + 1u] : 0u,
                      p.idx_words, p.axis_dim);
    if (k < 0) {
        err[0] = 1u;
        for (uint w = 0u; w < p.words; w++)
            y[e * p.words + w] = 0u;
        return;
    }
    uint rest = e, src = 0u;
    for (uint d = p.rank; d-- > 0u;) {
        uint c = rest % p.dims[d];
        rest /= p.dims[d];
        src += (d == p.axis ? uint(k) : c) * p.ds[d];
    }
    for (uint w = 0u; w < p.words; w++)
        y[e * p.words + w] = x[src * p.words + w];
}
