#version 450
// softmax.comp - softmax of one row per workgroup, shifted by the row's
// maximum. Rows are [outer, len, inner] walked with stride inner. With
// the causal flag, column j of row i is excluded when j > i + shift
// (shift = cols - rows); a fully excluded row is all zeros.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint outer, len, inner, causal, rows;
    int shift;
    uint rnd;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };

shared float red[256];

void main()
{
    uint row = rlx_group();
    if (row >= p.outer * p.inner)
        return;
    uint lid = gl_LocalInvocationID.x;
    uint o = row / p.inner, in_ = row % p.inner;
    uint base = o * p.len * p.inner + in_;
    uint n = p.len;
    if (p.causal != 0u) {
        int lim = int(o % p.rows) + p.shift + 1;
        n = lim <= 0 ? 0u : min(uint(lim), p.len);
    }
    float m = -RLX_INF;
    for (uint j = lid; j < n; j += 256u) {
        float v = x[base + j * p.inner];
        m = isnan(v) || v > m ? v : m;
    }
    red[lid] = m;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (lid < s) {
            float v = red[lid + s];
            red[lid] = isnan(v) || v > red[lid] ? v : red[lid];
        }
        barrier();
    }
    m = red[0];
    barrier();
    float sum = 0.0;
    for (uint j = lid; j < n; j += 256u)
        sum += rlx_exp(x[base + j * p.inner] - m);
    red[lid] = sum;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1u) {
        if (lid < s)
            red[lid] += red[lid + s];
        barrier();
    }
    sum = red[0];
    for (uint j = lid; j < p.len; j += 256u) {
        float v = j < n ? rlx_exp(x[base + j * p.inner] - m) / sum : 0.0;
        y[base + j * p.inner] = rlx_round(v, p.rnd);
    }
}
