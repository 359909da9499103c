#version 450
// qepi.comp - the table a conv_integer with its requantization chain
// fused reads in its epilogue (vk_plan_qfuse.c): the chain's operands
// gathered from their own values into one buffer, so the conv needs one
// binding for all of them. Two passes, for the five bindings a dispatch
// has: pass 0 reads x's and w's zero points, the quantize zero point and
// the bias; pass 1 the multiplier, the quantize scale and up to two
// clamp operands. One thread per output channel; thread 0 writes the
// header too.
//
// Table (words): [0] x zero point, [1] quantize zero point, [2] quantize
// scale (f32 bits), [3] [4] the result's range, [5] [6] the clamps'
// bounds, [7] unused; then per channel m at 8 + 3m: w zero point, bias,
// multiplier (f32 bits).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;

layout(push_constant) uniform P {
    uint pass_, m;
    uint wz_per, has_bias, bias_per;  // pass 0
    uint mult_per, n_clamp, op0, op1; // pass 1: op 1 max, 2 min
    int lo, hi;                       // pass 1: the result's range
} p;
layout(std430, set = 0, binding = 0) buffer Tab { int tab[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { int a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { int b[]; };
layout(std430, set = 0, binding = 3) readonly buffer C { int c[]; };
layout(std430, set = 0, binding = 4) readonly buffer D { int d[]; };

void main()
{
    uint e = gl_GlobalInvocationID.x;
    if (e >= p.m)
        return;
    if (p.pass_ == 0u) {
        // a: x zero point, b: w zero point, c: quantize zp, d: bias
        if (e == 0u) {
            tab[0] = a[0];
            tab[1] = c[0];
        }
        tab[8u + 3u * e] = b[p.wz_per != 0u ? e : 0u];
        tab[9u + 3u * e] = p.has_bias != 0u ? d[p.bias_per != 0u ? e : 0u]
                                            : 0;
        return;
    }
    // a: multiplier, b: quantize scale, c, d: clamp operands
    if (e == 0u) {
        tab[2] = b[0];
        tab[3] = p.lo;
        tab[4] = p.hi;
        // a run of max/min with one-value operands as one clamp:
        // max(min(max(y, lo), hi), v) = min(max(y, max(lo, v)), max(hi, v))
        int clo = p.lo, chi = p.hi;
        for (uint k = 0u; k < p.n_clamp; k++) {
            int v = k == 0u ? c[0] : d[0];
            if ((k == 0u ? p.op0 : p.op1) == 1u) {
                clo = max(clo, v);
                chi = max(chi, v);
            } else {
                chi = min(chi, v);
            }
        }
        tab[5] = clo;
        tab[6] = chi;
    }
    tab[10u + 3u * e] = a[p.mult_per != 0u ? e : 0u];
}
