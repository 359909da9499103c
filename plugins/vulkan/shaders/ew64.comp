#version 450
// ew64.comp - elementwise ops on f64 (devices with shaderFloat64): the
// broadcasting arithmetic (add, sub, mul, div, max, min, prelu, fmod)
// and the unary ops GLSL's double can compute exactly or through
// common64.glsl (neg, abs, relu, sqrt, exp, log, sigmoid, floor, ceil,
// round, sign, reciprocal, clip, leaky_relu); the comparisons, isnan and
// isinf, which write bool words. The rules are binary.comp's, unary.comp's
// and logic.comp's. One thread per output element.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"
#include "common64.glsl"

// a, b: clip's bounds, leaky_relu's alpha in a; isinf's flags (a.x
// positive, b.x negative)
layout(push_constant) uniform P {
    uint count, op, rank, pad_;
    uint dims[8], sa[8], sb[8];
    uvec2 a, b;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uvec2 y[]; };
layout(std430, set = 0, binding = 0) writeonly buffer YB { uint yb[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { uvec2 xa[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { uvec2 xb[]; };

// C's fmod, exact: the remainder by long division on the magnitudes
// (each subtraction is exact), with the sign of x.
double fmod64(double x, double y)
{
    if (isnan(x) || isnan(y) || isinf(x) || y == 0.0lf)
        return rlx_nan64();
    double r = abs(x), ya = abs(y);
    if (isinf(y) || r < ya)
        return x;
    int ey, er;
    frexp(ya, ey);
    while (r >= ya) {
        frexp(r, er);
        double t = ldexp(ya, er - ey);
        if (t > r)
            t = ldexp(t, -1);
        r -= t;
    }
    return x < 0.0lf ? -r : r;
}

double apply(double u, double v)
{
    double lo = packDouble2x32(p.a), hi = packDouble2x32(p.b);
    switch (p.op) {
    case 10u: return u + v;
    case 11u: return u - v;
    case 12u: return u * v;
    case 13u: return u / v;
    case 14u: return isnan(u) || isnan(v) ? u + v : (u > v ? u : v);
    case 15u: return isnan(u) || isnan(v) ? u + v : (u < v ? u : v);
    case 130u: return u < 0.0lf ? v * u : u;                        // prelu
    case 131u: return fmod64(u, v);
    case 30u: return u > 0.0lf || isnan(u) ? u : 0.0lf;             // relu
    case 32u: return 1.0lf / (1.0lf + rlx_exp64(-u));               // sigmoid
    case 34u: return rlx_exp64(u);
    case 37u: return -u;
    case 38u: return abs(u);
    case 39u: return rlx_log64(u);
    case 40u: return u < 0.0lf ? rlx_nan64() : sqrt(u);
    case 110u: {                                                    // clip
        double r = u < lo ? lo : u;
        return r > hi ? hi : r;
    }
    case 111u: return floor(u);
    case 112u: return ceil(u);
    case 113u: return roundEven(u);
    case 114u: return u > 0.0lf ? 1.0lf : (u < 0.0lf ? -1.0lf
                                          : (u == 0.0lf ? 0.0lf : u));
    case 115u: return 1.0lf / u;
    case 123u: return u < 0.0lf ? lo * u : u;                       // leaky
    default: return rlx_nan64();
    }
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
    double u = packDouble2x32(xa[ia]), v = packDouble2x32(xb[ib]);
    bool r;
    switch (p.op) {
    case 100u: r = u == v; break;
    case 101u: r = u < v; break;
    case 102u: r = u <= v; break;
    case 103u: r = u > v; break;
    case 104u: r = u >= v; break;
    case 117u: r = isnan(u); break;
    case 118u:
        r = isinf(u) && ((u > 0.0lf && p.a.x != 0u) ||
                         (u < 0.0lf && p.b.x != 0u));
        break;
    default:
        y[i] = unpackDouble2x32(apply(u, v));
        return;
    }
    yb[i] = r ? 1u : 0u;
}
