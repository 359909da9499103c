#version 450
// cumsum64.comp - cumsum on the two-word dtypes, f64 (summed in f64) and
// i64 (wrapping), for devices with shaderFloat64 and shaderInt64: one
// thread walks each line, as scan.comp does for the one-word dtypes.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, len, inner, is_float, exclusive, reverse;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uvec2 y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uvec2 x[]; };

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint in_ = e % p.inner, o = e / p.inner;
    double accf = 0.0lf;
    int64_t acci = 0l;
    for (uint s = 0u; s < p.len; s++) {
        uint j = p.reverse != 0u ? p.len - 1u - s : s;
        uint at = (o * p.len + j) * p.inner + in_;
        uvec2 before = p.is_float != 0u ? unpackDouble2x32(accf)
                                        : unpackUint2x32(uint64_t(acci));
        if (p.is_float != 0u)
            accf += packDouble2x32(x[at]);
        else
            acci += int64_t(packUint2x32(x[at]));
        uvec2 after = p.is_float != 0u ? unpackDouble2x32(accf)
                                       : unpackUint2x32(uint64_t(acci));
        y[at] = p.exclusive != 0u ? before : after;
    }
}
