#version 450
// cast.comp - convert between every dtype's device words (f32/f16/bf16
// as f32, i32/u8/i8/bool as one int, i64 and f64 as two words). Float to
// integer truncates toward zero and saturates, NaN becomes 0; integer to
// narrower integer wraps; to bool is "not zero"; to f16/bf16 rounds to
// nearest even. Needs shaderInt64 and shaderFloat64.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P { uint count, from, to; } p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };

const uint F32 = 1u, F16 = 2u, BF16 = 3u, I32 = 4u, I64 = 5u, U8 = 6u,
           BOOL = 7u, F64 = 8u, I8 = 9u;

int64_t sat(double v, double lo, double hi)
{
    if (isnan(v))
        return 0l;
    v = trunc(v);
    if (v <= lo)
        return int64_t(lo);
    if (v >= hi)
        return int64_t(hi);
    return int64_t(v);
}

void main()
{
    uint i = rlx_gid();
    if (i >= p.count)
        return;
    // 0: float f, 1: integer n, 2: double d
    int kind;
    float f = 0.0;
    int64_t n = 0l;
    double d = 0.0lf;
    if (p.from == F32 || p.from == F16 || p.from == BF16) {
        kind = 0;
        f = uintBitsToFloat(x[i]);
    } else if (p.from == I64) {
        kind = 1;
        n = int64_t(packUint2x32(uvec2(x[2u * i], x[2u * i + 1u])));
    } else if (p.from == F64) {
        kind = 2;
        d = packDouble2x32(uvec2(x[2u * i], x[2u * i + 1u]));
    } else {
        kind = 1;
        n = int64_t(int(x[i]));
    }
    double v = kind == 0 ? double(f) : kind == 1 ? double(n) : d;

    if (p.to == F32 || p.to == F16 || p.to == BF16) {
        float r = kind == 0 ? f : kind == 1 ? float(n) : float(d);
        y[i] = floatBitsToUint(rlx_round(r, p.to == F16 ? 1u
                                            : p.to == BF16 ? 2u : 0u));
        return;
    }
    if (p.to == F64) {
        uvec2 w = unpackDouble2x32(v);
        y[2u * i] = w.x;
        y[2u * i + 1u] = w.y;
        return;
    }
    if (p.to == BOOL) {
        bool nz = kind == 1 ? n != 0l : (isnan(v) || v != 0.0lf);
        y[i] = nz ? 1u : 0u;
        return;
    }
    int64_t r;
    if (kind == 1) {
        r = n;
    } else if (p.to == I64) {
        r = isnan(v) ? 0l
          : v >= 9223372036854775807.0lf ? 9223372036854775807l
          : v <= -9223372036854775808.0lf ? (-9223372036854775807l - 1l)
          : int64_t(trunc(v));
    } else if (p.to == I32) {
        r = sat(v, -2147483648.0lf, 2147483647.0lf);
    } else if (p.to == U8) {
        r = sat(v, 0.0lf, 255.0lf);
    } else {
        r = sat(v, -128.0lf, 127.0lf);
    }
    if (p.to == I64) {
        uvec2 w = unpackUint2x32(uint64_t(r));
        y[2u * i] = w.x;
        y[2u * i + 1u] = w.y;
    } else if (p.to == U8) {
        y[i] = uint(r) & 0xffu;
    } else if (p.to == I8) {
        y[i] = uint(bitfieldExtract(int(uint(r)), 0, 8));
    } else {
        y[i] = uint(r);
    }
}
