#version 450
// where.comp - y = cond ? a : b, the three broadcast together; elements
// of 1 or 2 words (any dtype).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, words, rank;
    uint dims[7], sc[7], sa[7], sb[7];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer C { uint c[]; };
layout(std430, set = 0, binding = 2) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 3) readonly buffer B { uint b[]; };

void main()
{
    uint i = rlx_gid();
    if (i >= p.count)
        return;
    uint rest = i, ic = 0u, ia = 0u, ib = 0u;
    for (uint d = p.rank; d-- > 0u;) {
        uint k = rest % p.dims[d];
        rest /= p.dims[d];
        ic += k * p.sc[d];
        ia += k * p.sa[d];
        ib += k * p.sb[d];
    }
    bool t = c[ic] != 0u;
    for (uint w = 0u; w < p.words; w++)
        y[i * p.words + w] = t ? a[ia * p.words + w] : b[ib * p.words + w];
}
