#version 450
// resize.comp - one thread per output element sums the products of its
// taps, one to four (input index, weight) per axis from a table the
// planner works out once on the host (axes are separable): for axis d,
// output index o, the 9 words at 9 * (outs of the axes before d + o)
// are the tap count, four indices and four weights. A count of 0
// (tf_crop_and_resize outside the roi) gives the extrapolation value.
// Nearest resize also takes i8 and u8 (kind 1: integer words, one tap
// of weight 1 per axis, exact in f32).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, rank, rnd;
    float extrapolation;
    uint out_[8], in_[8];
    uint kind;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };

void store(uint e, float v)
{
    y[e] = p.kind != 0u ? uint(int(v)) : floatBitsToUint(rlx_round(v, p.rnd));
}
layout(std430, set = 0, binding = 2) readonly buffer T { uint t[]; };

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint at[8], n[8], st[8];
    uint rest = e, base = 0u;
    for (uint d = 0u; d < p.rank; d++)
        base += p.out_[d];
    uint stride = 1u;
    for (uint d = p.rank; d-- > 0u;) {
        uint o = rest % p.out_[d];
        rest /= p.out_[d];
        base -= p.out_[d];
        at[d] = 9u * (base + o);
        n[d] = t[at[d]];
        st[d] = stride;
        stride *= p.in_[d];
        if (n[d] == 0u) {
            store(e, p.extrapolation);
            return;
        }
    }
    uint k[8];
    for (uint d = 0u; d < p.rank; d++)
        k[d] = 0u;
    float sum = -0.0;
    for (;;) {
        uint off = 0u;
        float wt = 1.0;
        for (uint d = 0u; d < p.rank; d++) {
            off += t[at[d] + 1u + k[d]] * st[d];
            wt *= uintBitsToFloat(t[at[d] + 5u + k[d]]);
        }
        sum += wt * (p.kind != 0u ? float(int(x[off]))
                                  : uintBitsToFloat(x[off]));
        uint d = p.rank;
        while (d-- > 0u) {
            if (++k[d] < n[d])
                break;
            k[d] = 0u;
        }
        if (d == 0xffffffffu)
            break;
    }
    store(e, sum);
}
