#version 450
// det.comp - the determinant of each m x m matrix, one thread per
// matrix: LU with partial pivoting in double (shaderFloat64) in a
// scratch copy, as the reference does (a NaN is taken as the pivot, a
// zero pivot gives 0 * the sign so far, NaN staying NaN); m = 0 gives 1.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
#include "common.glsl"

// f64: x and y are f64 (two words), else f32 words rounded by rnd
layout(push_constant) uniform P { uint count, m, f64, rnd; } p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 2) buffer A { double a[]; };

void main()
{
    uint b = rlx_gid();
    if (b >= p.count)
        return;
    uint m = p.m, base = b * m * m;
    for (uint i = 0u; i < m * m; i++)
        a[base + i] = p.f64 != 0u
            ? packDouble2x32(uvec2(x[2u * (base + i)], x[2u * (base + i) + 1u]))
            : double(uintBitsToFloat(x[base + i]));
    precise double d = 1.0lf;
    for (uint c = 0u; c < m; c++) {
        uint piv = c;
        for (uint r = c + 1u; r < m; r++)
            if (abs(a[base + r * m + c]) > abs(a[base + piv * m + c]) ||
                isnan(a[base + r * m + c]))
                piv = r;
        double pv = a[base + piv * m + c];
        if (pv == 0.0lf) {
            d = 0.0lf * d;
            break;
        }
        if (piv != c) {
            for (uint k = 0u; k < m; k++) {
                double t = a[base + c * m + k];
                a[base + c * m + k] = a[base + piv * m + k];
                a[base + piv * m + k] = t;
            }
            d = -d;
        }
        d *= pv;
        for (uint r = c + 1u; r < m; r++) {
            precise double f = a[base + r * m + c] / pv;
            for (uint k = c; k < m; k++) {
                precise double t = f * a[base + c * m + k];
                a[base + r * m + k] -= t;
            }
        }
    }
    if (p.f64 != 0u) {
        uvec2 w = unpackDouble2x32(d);
        y[2u * b] = w.x;
        y[2u * b + 1u] = w.y;
    } else {
        y[b] = floatBitsToUint(rlx_round(float(d), p.rnd));
    }
}
