#version 450
// trilu.comp - keep j >= i + k (upper) or j <= i + k (lower) of the last
// two dims, zero elsewhere; 1- or 2-word elements. k arrives clamped to
// the int32 range (a matrix dim fits in it, so the mask is the same).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, words, rows, cols, upper;
    int k;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    int j = int(e % p.cols), i = int((e / p.cols) % p.rows);
    bool keep = p.upper != 0u ? j - i >= p.k : j - i <= p.k;
    for (uint w = 0u; w < p.words; w++)
        y[e * p.words + w] = keep ? x[e * p.words + w] : 0u;
}
