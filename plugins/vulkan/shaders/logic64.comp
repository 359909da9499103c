#version 450
// logic64.comp - logic.comp's integer ops and comparisons on i64 and
// u64 (two words an element), for devices with shaderInt64: arithmetic
// wraps, division truncates toward zero, x / 0 and x mod 0 give 0; u64
// orders and divides unsigned, and shifts (bit_shift). One thread per
// output element.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 256) in;
#include "common.glsl"

// x0, x1: clip's bounds (lo, hi words each); mod's fmod in x0.x
layout(push_constant) uniform P {
    uint count, op, rank, uns;
    uint dims[8], sa[8], sb[8];
    uvec2 x0, x1;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uvec2 a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { uvec2 b[]; };

int64_t ipow(int64_t x, int64_t e)
{
    if (e < 0l)
        return x == 1l ? 1l : (x == -1l ? ((e & 1l) != 0l ? -1l : 1l) : 0l);
    int64_t r = 1l;
    while (e != 0l) {
        if ((e & 1l) != 0l)
            r *= x;
        x *= x;
        e >>= 1;
    }
    return r;
}

int64_t calc(int64_t x, int64_t z)
{
    int64_t o;
    switch (p.op) {
    case 10u: o = x + z; break;
    case 11u: o = x - z; break;
    case 12u: o = x * z; break;
    case 13u: o = z == 0l ? 0l : (z == -1l ? -x : x / z); break;
    case 14u: o = x > z ? x : z; break;
    case 15u: o = x < z ? x : z; break;
    case 16u: o = ipow(x, z); break;
    case 30u: o = x > 0l ? x : 0l; break;
    case 37u: o = -x; break;
    case 38u: o = x < 0l ? -x : x; break;
    case 110u: {
        int64_t lo = int64_t(packUint2x32(p.x0));
        int64_t hi = int64_t(packUint2x32(p.x1));
        o = x < lo ? lo : x;
        o = o > hi ? hi : o;
        break;
    }
    case 114u: o = x > 0l ? 1l : (x < 0l ? -1l : 0l); break;
    case 119u: o = x & z; break;
    case 120u: o = x | z; break;
    case 121u: o = x ^ z; break;
    case 122u: o = ~x; break;
    case 130u: o = x < 0l ? x * z : x; break;
    case 131u:
        if (z == 0l || z == -1l) {
            o = 0l;
        } else {
            o = x - (x / z) * z;
            if (p.x0.x == 0u && o != 0l && ((o < 0l) != (z < 0l)))
                o += z;
        }
        break;
    default: o = 0l; break;
    }
    return o;
}

uint64_t upow(uint64_t x, uint64_t e)
{
    uint64_t r = 1ul;
    while (e != 0ul) {
        if ((e & 1ul) != 0ul)
            r *= x;
        x *= x;
        e >>= 1;
    }
    return r;
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
    int64_t x = int64_t(packUint2x32(a[ia])), z = int64_t(packUint2x32(b[ib]));
    int64_t o;
    if (p.uns != 0u) {
        uint64_t u = uint64_t(x), v = uint64_t(z), r;
        switch (p.op) {
        case 100u: y[i] = u == v ? 1u : 0u; return;
        case 101u: y[i] = u < v ? 1u : 0u; return;
        case 102u: y[i] = u <= v ? 1u : 0u; return;
        case 103u: y[i] = u > v ? 1u : 0u; return;
        case 104u: y[i] = u >= v ? 1u : 0u; return;
        case 13u: r = v == 0ul ? 0ul : u / v; break;
        case 14u: r = u > v ? u : v; break;
        case 15u: r = u < v ? u : v; break;
        case 16u: r = upow(u, v); break;
        case 30u: case 38u: case 130u: r = u; break;
        case 110u: {
            // min, then max: lo > hi gives hi (NumPy's rule)
            uint64_t lo = packUint2x32(p.x0), hi = packUint2x32(p.x1);
            r = u < lo ? lo : u;
            r = r > hi ? hi : r;
            break;
        }
        case 114u: r = u != 0ul ? 1ul : 0ul; break;
        case 131u: r = v == 0ul ? 0ul : u % v; break;
        case 147u: // bit_shift: by 64 or more leaves nothing
            r = v >= 64ul ? 0ul : (p.x0.x != 0u ? u >> v : u << v);
            break;
        default: r = uint64_t(calc(x, z)); break;
        }
        uvec2 w = unpackUint2x32(r);
        y[2u * i] = w.x;
        y[2u * i + 1u] = w.y;
        return;
    }
    switch (p.op) {
    case 100u: y[i] = x == z ? 1u : 0u; return;
    case 101u: y[i] = x < z ? 1u : 0u; return;
    case 102u: y[i] = x <= z ? 1u : 0u; return;
    case 103u: y[i] = x > z ? 1u : 0u; return;
    case 104u: y[i] = x >= z ? 1u : 0u; return;
    default: o = calc(x, z); break;
    }
    uvec2 w = unpackUint2x32(uint64_t(o));
    y[2u * i] = w.x;
    y[2u * i + 1u] = w.y;
}
