#version 450
// cast.comp - convert between every dtype's device words (f32/f16/bf16
// as f32, i32/u8/i8/bool/i16/u16/u32 as one int, i64, u64 and f64 as two
// words). Float to integer truncates toward zero and saturates, NaN
// becomes 0; integer to narrower integer saturates too (as cpu-ref); to
// bool is "not zero"; to f16/bf16 rounds to nearest even. Needs
// shaderInt64 and shaderFloat64.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P { uint count, from, to; } p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };

const uint F32 = 1u, F16 = 2u, BF16 = 3u, I32 = 4u, I64 = 5u, U8 = 6u,
           BOOL = 7u, F64 = 8u, I8 = 9u, I16 = 10u, U16 = 11u, U32 = 12u,
           U64 = 13u;

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
    } else if (p.from == U64) {
        uint64_t u = packUint2x32(uvec2(x[2u * i], x[2u * i + 1u]));
        if (u <= 9223372036854775807ul) {
            kind = 1;
            n = int64_t(u);
        } else { // past int64: as a double, which saturates the same
            kind = 2;
            d = double(u);
        }
    } else if (p.from == U32) {
        kind = 1;
        n = int64_t(uint64_t(x[i]));
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
    if (p.to == U64) {
        uint64_t u;
        if (kind == 1) {
            u = n < 0l ? 0ul : uint64_t(n);
        } else {
            double t = trunc(v);
            u = isnan(t) || t <= 0.0lf ? 0ul
              : t >= 18446744073709551616.0lf ? 18446744073709551615ul
              : uint64_t(t);
        }
        uvec2 w = unpackUint2x32(u);
        y[2u * i] = w.x;
        y[2u * i + 1u] = w.y;
        return;
    }
    double lo = p.to == I32 ? -2147483648.0lf : p.to == U8 ? 0.0lf
              : p.to == I8 ? -128.0lf : p.to == I16 ? -32768.0lf
              : p.to == U16 || p.to == U32 ? 0.0lf
              : -9223372036854775808.0lf;
    double hi = p.to == I32 ? 2147483647.0lf : p.to == U8 ? 255.0lf
              : p.to == I8 ? 127.0lf : p.to == I16 ? 32767.0lf
              : p.to == U16 ? 65535.0lf : p.to == U32 ? 4294967295.0lf
              : 9223372036854775807.0lf;
    int64_t r;
    if (kind == 1) {
        // saturate exactly in integers (HI of i64 is not exact in double)
        r = p.to == I64 ? n
          : n < int64_t(lo) ? int64_t(lo) : n > int64_t(hi) ? int64_t(hi) : n;
    } else if (p.to == I64) {
        r = isnan(v) ? 0l
          : v >= 9223372036854775807.0lf ? 9223372036854775807l
          : v <= -9223372036854775808.0lf ? (-9223372036854775807l - 1l)
          : int64_t(trunc(v));
    } else {
        r = sat(v, lo, hi);
    }
    if (p.to == I64) {
        uvec2 w = unpackUint2x32(uint64_t(r));
        y[2u * i] = w.x;
        y[2u * i + 1u] = w.y;
    } else {
        // the value is in range: its low 32 bits, sign-extended for the
        // signed types (the device layout of vk_dtype.c)
        y[i] = uint(r);
    }
}
