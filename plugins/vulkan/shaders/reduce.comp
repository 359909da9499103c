#version 450
// reduce.comp - reduce_sum / reduce_mean / reduce_max: one workgroup per
// output element walks its reduced elements (kept dims first in dims[],
// then reduced ones) and combines them in shared memory. Empty: sum 0,
// mean NaN, max -inf; a NaN wins max.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint out_count, red_count, op, rnd, nk, nr;
    uint dims[8], strides[8];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };

shared float red[64];

float combine(float a, float b)
{
    if (p.op == 66u)
        return isnan(b) || b > a ? b : a;
    return a + b;
}

void main()
{
    uint o = rlx_group();
    if (o >= p.out_count)
        return;
    uint lid = gl_LocalInvocationID.x;
    uint rest = o, base = 0u;
    for (uint d = p.nk; d-- > 0u;) {
        base += (rest % p.dims[d]) * p.strides[d];
        rest /= p.dims[d];
    }
    float acc = p.op == 66u ? -RLX_INF : 0.0;
    for (uint r = lid; r < p.red_count; r += 64u) {
        uint rr = r, off = base;
        for (uint d = p.nk + p.nr; d-- > p.nk;) {
            off += (rr % p.dims[d]) * p.strides[d];
            rr /= p.dims[d];
        }
        acc = combine(acc, x[off]);
    }
    red[lid] = acc;
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1u) {
        if (lid < s)
            red[lid] = combine(red[lid], red[lid + s]);
        barrier();
    }
    if (lid == 0u) {
        float v = red[0];
        if (p.op == 65u)
            v = p.red_count == 0u ? RLX_NAN : v / float(p.red_count);
        y[o] = rlx_round(v, p.rnd);
    }
}
