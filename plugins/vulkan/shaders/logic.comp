#version 450
// logic.comp - the broadcasting ops on 32-bit words that are not float
// arithmetic: comparisons (any numeric dtype, bool result), the logical
// ops, isnan and isinf, and integer arithmetic on i32, i8, u8, i16, u16,
// u32 and bool (computed in 32 bits, which wraps as the narrower dtypes
// do once the result is truncated to them; the ops that order or divide
// read u32 as unsigned), and bit_shift on the unsigned ones. One thread
// per output element.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

// kind: 0 float (f32, f16, bf16 held as f32), 1 signed, 2 unsigned.
// wrap: the result's width: 0 32-bit, 1 i8, 2 u8 or bool, 3 i16, 4 u16.
layout(push_constant) uniform P {
    uint count, op, kind, wrap, rank;
    uint dims[8], sa[8], sb[8];
    int x0, x1;                 // isinf flags, clip bounds, mod's fmod
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uint a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { uint b[]; };

// -1, 0, 1 as u is less, equal, greater than v; 2 unordered (NaN).
int order(uint u, uint v)
{
    if (p.kind == 0u) {
        float x = uintBitsToFloat(u), z = uintBitsToFloat(v);
        if (isnan(x) || isnan(z))
            return 2;
        return x < z ? -1 : (x > z ? 1 : 0);
    }
    if (p.kind == 1u)
        return int(u) < int(v) ? -1 : (int(u) > int(v) ? 1 : 0);
    return u < v ? -1 : (u > v ? 1 : 0);
}

int ipow(int x, int e)
{
    if (e < 0)
        return x == 1 ? 1 : (x == -1 ? ((e & 1) != 0 ? -1 : 1) : 0);
    int r = 1;
    while (e != 0) {
        if ((e & 1) != 0)
            r *= x;
        x *= x;
        e >>= 1;
    }
    return r;
}

uint upow(uint x, uint e)
{
    uint r = 1u;
    while (e != 0u) {
        if ((e & 1u) != 0u)
            r *= x;
        x *= x;
        e >>= 1;
    }
    return r;
}

// The ops that order or divide, on unsigned operands (the values of the
// narrower unsigned dtypes are the same read either way); clip's bounds
// come as unsigned bit patterns.
bool unsigned_op(uint u, uint v, out uint o)
{
    o = 0u;
    switch (p.op) {
    case 13u: o = v == 0u ? 0u : u / v; return true;
    case 14u: o = u > v ? u : v; return true;
    case 15u: o = u < v ? u : v; return true;
    case 16u: o = upow(u, v); return true;
    case 30u: case 38u: case 130u: o = u; return true;
    case 110u:
        o = u < uint(p.x0) ? uint(p.x0) : u;
        o = o > uint(p.x1) ? uint(p.x1) : o;
        return true;
    case 114u: o = u != 0u ? 1u : 0u; return true;
    case 131u: o = v == 0u ? 0u : u % v; return true;
    case 147u: // bit_shift; a shift by the width or more leaves nothing
        o = v >= 32u ? 0u : (p.x0 != 0 ? u >> v : u << v);
        return true;
    default: return false;
    }
}

uint apply(uint u, uint v)
{
    int x = int(u), z = int(v);
    int o;
    uint uo;
    bool done = p.kind == 2u && unsigned_op(u, v, uo);
    o = int(uo);
    switch (done ? 0u : p.op) { // 0: no op, the unsigned result stands
    case 100u: return order(u, v) == 0 ? 1u : 0u;
    case 101u: return order(u, v) == -1 ? 1u : 0u;
    case 102u: { int c = order(u, v); return c == -1 || c == 0 ? 1u : 0u; }
    case 103u: return order(u, v) == 1 ? 1u : 0u;
    case 104u: { int c = order(u, v); return c == 1 || c == 0 ? 1u : 0u; }
    case 105u: return u != 0u && v != 0u ? 1u : 0u;
    case 106u: return u != 0u || v != 0u ? 1u : 0u;
    case 107u: return (u != 0u) != (v != 0u) ? 1u : 0u;
    case 108u: return u == 0u ? 1u : 0u;
    case 117u: return isnan(uintBitsToFloat(u)) ? 1u : 0u;
    case 118u: {
        float f = uintBitsToFloat(u);
        return isinf(f) && ((f > 0.0 && p.x0 != 0) || (f < 0.0 && p.x1 != 0))
                   ? 1u : 0u;
    }
    case 10u: o = x + z; break;
    case 11u: o = x - z; break;
    case 12u: o = x * z; break;
    case 13u: o = z == 0 ? 0 : (z == -1 ? -x : x / z); break;
    case 14u: o = x > z ? x : z; break;
    case 15u: o = x < z ? x : z; break;
    case 16u: o = ipow(x, z); break;
    case 30u: o = x > 0 ? x : 0; break;
    case 37u: o = -x; break;
    case 38u: o = x < 0 ? -x : x; break;
    case 110u: o = x < p.x0 ? p.x0 : x; o = o > p.x1 ? p.x1 : o; break;
    case 114u: o = x > 0 ? 1 : (x < 0 ? -1 : 0); break;
    case 119u: o = x & z; break;
    case 120u: o = x | z; break;
    case 121u: o = x ^ z; break;
    case 122u: o = ~x; break;
    case 130u: o = x < 0 ? x * z : x; break;
    case 131u:
        if (z == 0 || z == -1) {
            o = 0;
        } else {
            int q = x / z; // truncates toward zero, as C's

            o = x - q * z;
            if (p.x0 == 0 && o != 0 && ((o < 0) != (z < 0)))
                o += z;
        }
        break;
    case 0u: break;
    default: o = 0; break;
    }
    if (p.wrap == 1u)
        return uint(bitfieldExtract(o, 0, 8));
    if (p.wrap == 2u)
        return uint(o) & 0xffu;
    if (p.wrap == 3u)
        return uint(bitfieldExtract(o, 0, 16));
    if (p.wrap == 4u)
        return uint(o) & 0xffffu;
    return uint(o);
}

void main()
{
    uint i = rlx_gid();
    if (i >= p.count)
        return;
    uint rest = i, ia = 0u, ib = 0u;
    for (uint d = p.rank; d-- > 0u;) {
        uint c = rest % p.dims[d];
        rest /= p.dims[d];
        ia += c * p.sa[d];
        ib += c * p.sb[d];
    }
    y[i] = apply(a[ia], b[ib]);
}
