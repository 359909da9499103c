#version 450
// gather_nd.comp - y[b, q, r] = data[b, idx[b, q, 0..last), r]: the
// result's rows (batch and index rows, flattened) each pick a block of
// RN elements; an index outside [-dim, dim) writes zeros and raises the
// run's error flag.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, words, idx_words, last, rn, qn, batch_block;
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
    uint r = e % p.rn, q = e / p.rn, b = q / p.qn;
    uint src = b * p.batch_block + r;
    for (uint k = 0u; k < p.last; k++) {
        uint at = (q * p.last + k) * p.idx_words;
        int i = rlx_index(idx[at], p.idx_words == 2u ? idx[at + 1u] : 0u,
                          p.idx_words, p.dims[k]);
        if (i < 0) {
            err[0] = 1u;
            for (uint w = 0u; w < p.words; w++)
                y[e * p.words + w] = 0u;
            return;
        }
        src += uint(i) * p.ds[k];
    }
    for (uint w = 0u; w < p.words; w++)
        y[e * p.words + w] = x[src * p.words + w];
}
