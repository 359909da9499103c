#version 450
// arg.comp - argmax / argmin along one axis, one thread per result
// element; the result is i64 (two words). NaN counts as the extreme;
// ties go to the first index, or the last with select_last_index.
// Built a second time with WIDE for two-word values (kind 3 i64, 4 u64,
// 5 f64; shaderInt64 and shaderFloat64).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"
#ifdef WIDE
#extension GL_ARB_gpu_shader_int64 : require
#define V uvec2
#else
#define V uint
#endif

// kind: 0 float, 1 signed, 2 unsigned (as logic.comp)
layout(push_constant) uniform P {
    uint count, is_max, kind, last, len, inner;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { V x[]; };

// > 0 when V is more extreme than B, 0 when tied.
#ifdef WIDE
int more(uvec2 v, uvec2 b)
{
    if (p.kind == 5u) {
        double fv = packDouble2x32(v), fb = packDouble2x32(b);
        if (isnan(fv) || isnan(fb))
            return int(isnan(fv)) - int(isnan(fb));
        if (fv == fb)
            return 0;
        return (fv > fb) == (p.is_max != 0u) ? 1 : -1;
    }
    if (v == b)
        return 0;
    bool gt = p.kind == 3u
        ? int64_t(packUint2x32(v)) > int64_t(packUint2x32(b))
        : packUint2x32(v) > packUint2x32(b);
    return gt == (p.is_max != 0u) ? 1 : -1;
}
#else
int more(uint v, uint b)
{
    if (p.kind == 0u) {
        float fv = uintBitsToFloat(v), fb = uintBitsToFloat(b);
        if (isnan(fv) || isnan(fb))
            return int(isnan(fv)) - int(isnan(fb));
        if (fv == fb)
            return 0;
        return (fv > fb) == (p.is_max != 0u) ? 1 : -1;
    }
    if (v == b)
        return 0;
    bool gt = p.kind == 1u ? int(v) > int(b) : v > b;
    return gt == (p.is_max != 0u) ? 1 : -1;
}
#endif

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint in_ = e % p.inner, o = e / p.inner;
    uint base = o * p.len * p.inner + in_, best = 0u;
    V bv = x[base];
    for (uint k = 1u; k < p.len; k++) {
        V v = x[base + k * p.inner];
        int c = more(v, bv);
        if (c > 0 || (c == 0 && p.last != 0u)) {
            best = k;
            bv = v;
        }
    }
    y[2u * e] = best;
    y[2u * e + 1u] = 0u;
}
