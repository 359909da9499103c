#version 450
// quant.comp - quantize_linear and dequantize_linear, one thread per
// element: per tensor, per axis or blocked scales (vk_plan_quant.c says
// which scale each element takes). Quantize divides in f32, correctly
// rounded (the driver's division may not be), rounds half to even, adds
// the zero point and saturates; NaN gives the zero point. Dequantize is
// (x - zero_point) * scale in f32, rounded to the result's dtype.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

// mode: 0 per tensor, 1 per axis, 2 blocked
layout(push_constant) uniform P {
    uint count, dequant, mode, inner, len, n_blocks, block, rnd;
    int lo, hi;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 2) readonly buffer S { float s[]; };
layout(std430, set = 0, binding = 3) readonly buffer Z { int z[]; };

uint scale_index(uint e)
{
    if (p.mode == 1u)
        return (e / p.inner) % p.len;
    if (p.mode == 2u) {
        uint i = e % p.inner, k = (e / p.inner) % p.len;
        uint o = e / (p.inner * p.len);
        return (o * p.n_blocks + k / p.block) * p.inner + i;
    }
    return 0u;
}

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint k = scale_index(e);
    int zp = z[k];
    if (p.dequant != 0u) {
        float d = float(int(x[e])) - float(zp);
        y[e] = floatBitsToUint(rlx_round(d * s[k], p.rnd));
        return;
    }
    float q = rlx_div_rn(uintBitsToFloat(x[e]), s[k]);
    int r;
    if (isnan(q)) {
        r = zp;
    } else {
        float t = roundEven(q) + float(zp);
        r = t <= float(p.lo) ? p.lo : (t >= float(p.hi) ? p.hi : int(t));
    }
    y[e] = uint(r);
}
