#version 450
// arg.comp - argmax / argmin along one axis, one thread per result
// element; the result is i64 (two words). NaN counts as the extreme;
// ties go to the first index, or the last with select_last_index.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

// kind: 0 float, 1 signed, 2 unsigned (as logic.comp)
layout(push_constant) uniform P {
    uint count, is_max, kind, last, len, inner;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };

// > 0 when V is more extreme than B, 0 when tied.
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

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint in_ = e % p.inner, o = e / p.inner;
    uint base = o * p.len * p.inner + in_, best = 0u;
    uint bv = x[base];
    for (uint k = 1u; k < p.len; k++) {
        uint v = x[base + k * p.inner];
        int c = more(v, bv);
        if (c > 0 || (c == 0 && p.last != 0u)) {
            best = k;
            bv = v;
        }
    }
    y[2u * e] = best;
    y[2u * e + 1u] = 0u;
}
