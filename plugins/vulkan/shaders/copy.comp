#version 450
// copy.comp - strided copy of 1- or 2-word elements: transpose, slice
// and each input of a concat.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, words, rank, src_off, dst_off;
    uint dims[8], ss[8], ds[8];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };

void main()
{
    uint i = rlx_gid();
    if (i >= p.count)
        return;
    uint rest = i, is = p.src_off, id = p.dst_off;
    for (uint d = p.rank; d-- > 0u;) {
        uint c = rest % p.dims[d];
        rest /= p.dims[d];
        is += c * p.ss[d];
        id += c * p.ds[d];
    }
    if (p.words == 1u) {
        y[id] = x[is];
    } else {
        y[2u * id] = x[2u * is];
        y[2u * id + 1u] = x[2u * is + 1u];
    }
}
