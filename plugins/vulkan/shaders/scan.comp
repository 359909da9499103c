#version 450
// scan.comp - the ops that read a whole line along an axis, one thread
// per line or per element of it:
//   mode 0 cumsum (exclusive, reverse): a thread walks its line in order
//     (floats in f32, integers wrapping in 32 bits, truncated to i8/u8);
//   mode 1 topk: a thread per element works out its place in the sorted
//     line (larger first, or smaller for largest 0; NaN above every
//     number; ties by index) and writes its index (i64) if the place is
//     below k.
// Built a second time with WIDE for topk on two-word values (kind 3 i64,
// 4 u64, 5 f64; shaderInt64 and shaderFloat64).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"
#ifdef WIDE
#extension GL_ARB_gpu_shader_int64 : require
#define V uvec2
#else
#define V uint
#endif

// kind: 0 float, 1 signed, 2 unsigned; wrap as logic.comp
layout(push_constant) uniform P {
    uint mode, count, len, inner, kind, wrap, rnd, exclusive, reverse, k,
         largest;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { V x[]; };

#ifdef WIDE
bool before(uvec2 a, uvec2 b)
{
    if (p.kind == 5u) {
        double fa = packDouble2x32(a), fb = packDouble2x32(b);
        return p.largest != 0u ? (isnan(fa) && !isnan(fb)) || fa > fb
                               : (isnan(fb) && !isnan(fa)) || fa < fb;
    }
    uint64_t ua = packUint2x32(a), ub = packUint2x32(b);
    bool gt = p.kind == 3u ? int64_t(ua) > int64_t(ub) : ua > ub;
    bool lt = p.kind == 3u ? int64_t(ua) < int64_t(ub) : ua < ub;
    return p.largest != 0u ? gt : lt;
}
#else
// Whether value A comes before value B (ignoring ties).
bool before(uint a, uint b)
{
    if (p.kind == 0u) {
        float fa = uintBitsToFloat(a), fb = uintBitsToFloat(b);
        return p.largest != 0u ? (isnan(fa) && !isnan(fb)) || fa > fb
                               : (isnan(fb) && !isnan(fa)) || fa < fb;
    }
    bool gt = p.kind == 1u ? int(a) > int(b) : a > b;
    bool lt = p.kind == 1u ? int(a) < int(b) : a < b;
    return p.largest != 0u ? gt : lt;
}
#endif

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
#ifndef WIDE
    if (p.mode == 0u) {
        uint in_ = e % p.inner, o = e / p.inner;
        float accf = 0.0;
        int acci = 0;
        for (uint s = 0u; s < p.len; s++) {
            uint j = p.reverse != 0u ? p.len - 1u - s : s;
            uint at = (o * p.len + j) * p.inner + in_;
            uint v = x[at], out_;
            if (p.exclusive != 0u)
                out_ = p.kind == 0u ? floatBitsToUint(rlx_round(accf, p.rnd))
                                    : uint(acci);
            if (p.kind == 0u)
                accf += uintBitsToFloat(v);
            else
                acci += int(v);
            if (p.exclusive == 0u)
                out_ = p.kind == 0u ? floatBitsToUint(rlx_round(accf, p.rnd))
                                    : uint(acci);
            if (p.wrap == 1u)
                out_ = uint(bitfieldExtract(int(out_), 0, 8));
            else if (p.wrap == 2u)
                out_ &= 0xffu;
            y[at] = out_;
        }
        return;
    }
#endif
    // topk: e = (line, element i)
    uint i = e % p.len, line = e / p.len;
    uint in_ = line % p.inner, o = line / p.inner;
    uint base = o * p.len * p.inner + in_;
    V v = x[base + i * p.inner];
    uint place = 0u;
    for (uint j = 0u; j < p.len; j++) {
        V w = x[base + j * p.inner];
        if (before(w, v) || (j < i && !before(v, w)))
            place++;
    }
    if (place < p.k) {
        uint at = (o * p.k + place) * p.inner + in_;
        y[2u * at] = i;
        y[2u * at + 1u] = 0u;
    }
}
