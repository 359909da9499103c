#version 450
// reduce.comp - the float reductions (sum, mean, max, and 1.4's min,
// prod, L1, L2, log-sum-exp, sum of squares): one workgroup per output
// element walks its reduced elements (kept dims first in dims[], then
// reduced ones) and combines them in shared memory. Empty: sum 0, mean
// NaN, max -inf, min +inf, prod 1, L1/L2/sum of squares 0, log-sum-exp
// -inf; a NaN wins max and min. Log-sum-exp takes the maximum first,
// then sums e^(x - max) in a second walk. Integer dtypes (kind 1 signed,
// 2 unsigned; i32, i8, u8, i16, u16, u32) take sum, max, min, prod, L1
// and sum of squares, wrapping in 32 bits and truncated to the dtype
// (wrap 1 i8, 2 u8, 3 i16, 4 u16); INIT is the empty reduction's value.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint out_count, red_count, op, rnd, nk, nr;
    uint dims[8], strides[8];
    uint kind, wrap;
    int init;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 0) writeonly buffer YI { int yi[]; };
layout(std430, set = 0, binding = 1) readonly buffer XI { int xi[]; };

shared float red[64];
shared int redi[64];

int icombine(int a, int b)
{
    switch (p.op) {
    case 66u: return p.kind == 1u ? max(a, b) : int(max(uint(a), uint(b)));
    case 132u: return p.kind == 1u ? min(a, b) : int(min(uint(a), uint(b)));
    case 133u: return a * b;
    default: return a + b;
    }
}

int ielem(int v)
{
    if (p.op == 134u)
        return v < 0 && p.kind == 1u ? -v : v;
    if (p.op == 137u)
        return v * v;
    return v;
}

float combine(uint op, float a, float b)
{
    if (op == 66u || op == 136u)
        return isnan(b) || b > a ? b : a;
    if (op == 132u)
        return isnan(b) || b < a ? b : a;
    if (op == 133u)
        return a * b;
    return a + b;
}

float elem(float v)
{
    if (p.op == 134u)
        return abs(v);
    if (p.op == 135u || p.op == 137u)
        return v * v;
    return v;
}

uint offset_of(uint base, uint r)
{
    uint rr = r, off = base;
    for (uint d = p.nk + p.nr; d-- > p.nk;) {
        off += (rr % p.dims[d]) * p.strides[d];
        rr /= p.dims[d];
    }
    return off;
}

float tree(uint op, float acc)
{
    uint lid = gl_LocalInvocationID.x;
    red[lid] = acc;
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1u) {
        if (lid < s)
            red[lid] = combine(op, red[lid], red[lid + s]);
        barrier();
    }
    float t = red[0];
    barrier();
    return t;
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
    if (p.kind != 0u) {
        int ai = p.init;
        for (uint r = lid; r < p.red_count; r += 64u)
            ai = icombine(ai, ielem(xi[offset_of(base, r)]));
        redi[lid] = ai;
        barrier();
        for (uint s = 32u; s > 0u; s >>= 1u) {
            if (lid < s)
                redi[lid] = icombine(redi[lid], redi[lid + s]);
            barrier();
        }
        if (lid == 0u) {
            int v = redi[0];
            if (p.wrap == 1u)
                v = bitfieldExtract(v, 0, 8);
            else if (p.wrap == 2u)
                v &= 0xff;
            else if (p.wrap == 3u)
                v = bitfieldExtract(v, 0, 16);
            else if (p.wrap == 4u)
                v &= 0xffff;
            yi[o] = v;
        }
        return;
    }
    float acc = p.op == 66u || p.op == 136u ? -RLX_INF
              : p.op == 132u ? RLX_INF : (p.op == 133u ? 1.0 : 0.0);
    for (uint r = lid; r < p.red_count; r += 64u)
        acc = combine(p.op, acc, elem(x[offset_of(base, r)]));
    float v = tree(p.op, acc);
    if (p.op == 136u && !isinf(v) && !isnan(v)) {
        float m = v, sum = 0.0;
        for (uint r = lid; r < p.red_count; r += 64u)
            sum += rlx_exp(x[offset_of(base, r)] - m);
        v = m + rlx_log(tree(64u, sum));
    }
    if (lid == 0u) {
        if (p.op == 65u)
            v = p.red_count == 0u ? RLX_NAN : v / float(p.red_count);
        if (p.op == 135u)
            v = rlx_sqrt(v);
        y[o] = rlx_round(v, p.rnd);
    }
}
