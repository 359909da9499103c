#version 450
// ew64.comp - elementwise ops on f64 (devices with shaderFloat64): the
// broadcasting arithmetic (add, sub, mul, div, max, min, pow, prelu,
// fmod) and the unary ops GLSL's double computes exactly or
// common64.glsl's functions reach (neg, abs, relu, sqrt, rsqrt, exp,
// log, sigmoid, silu, tanh, floor, ceil, round, sign, reciprocal, clip,
// the activations, sin, cos, tan, atan, asin, acos, erf, sinh, cosh,
// asinh, acosh, atanh); the comparisons, isnan and
// isinf, which write bool words. The rules are binary.comp's, unary.comp's
// and logic.comp's. One thread per output element.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"
#include "common64.glsl"

// a, b: clip's bounds, the activations' alpha (a) and beta or gamma (b);
// isinf's flags (a.x positive, b.x negative)
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

bool is_int(double y)
{
    return !isinf(y) && floor(y) == y;
}

bool is_odd(double y)
{
    return is_int(y) && abs(y) < 9007199254740992.0lf &&
           mod(y, 2.0lf) != 0.0lf;
}

// C's pow: whole powers up to 1024 by squaring, the rest through
// exp(y log |x|), accurate to about |y log x| ulp.
double pow64(double x, double y)
{
    if (y == 0.0lf || x == 1.0lf)
        return 1.0lf;
    if (isnan(x) || isnan(y))
        return rlx_nan64();
    double inf = rlx_inf64();
    if (isinf(y)) {
        double a = abs(x);
        if (a == 1.0lf)
            return 1.0lf;
        return (a < 1.0lf) == (y > 0.0lf) ? 0.0lf : inf;
    }
    if (x == 0.0lf || isinf(x)) {
        // 0^y and inf^y: zero or infinite, the sign of x for odd y
        bool big = (x == 0.0lf) == (y < 0.0lf);
        double r = big ? inf : 0.0lf;
        return is_odd(y) && (x < 0.0lf || (x == 0.0lf && 1.0lf / x < 0.0lf))
                   ? -r : r;
    }
    if (x < 0.0lf && !is_int(y))
        return rlx_nan64();
    double a = abs(x), r;
    if (is_int(y) && abs(y) <= 1024.0lf) {
        int e = int(abs(y));
        double b = a;
        r = 1.0lf;
        while (e != 0) {
            if ((e & 1) != 0)
                r *= b;
            b *= b;
            e >>= 1;
        }
        if (y < 0.0lf)
            r = 1.0lf / r;
    } else {
        r = rlx_exp64(y * rlx_log64(a));
    }
    return x < 0.0lf && is_odd(y) ? -r : r;
}

double sigmoid64(double x)
{
    if (x >= 0.0lf)
        return 1.0lf / (1.0lf + rlx_exp64(-x));
    double e = rlx_exp64(x);
    return e / (1.0lf + e);
}

double softplus64(double x)
{
    return x > 0.0lf ? x + rlx_log1p_64(rlx_exp64(-x))
                     : rlx_log1p_64(rlx_exp64(x));
}

// sinh and cosh of |x| = A, past 36 as (e^(A/2) / 2) e^(A/2)
double sinh_cosh64(double a, bool cosh_)
{
    if (a > 36.0lf) {
        double h = rlx_exp64(0.5lf * a);
        return (0.5lf * h) * h;
    }
    if (cosh_) {
        double e = rlx_exp64(a);
        return 0.5lf * (e + 1.0lf / e);
    }
    double e = rlx_expm1_64(a);
    return 0.5lf * (e + e / (e + 1.0lf));
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
    case 16u: return pow64(u, v);
    case 130u: return u < 0.0lf ? v * u : u;                        // prelu
    case 131u: return fmod64(u, v);
    case 30u: return u > 0.0lf || isnan(u) ? u : 0.0lf;             // relu
    case 32u: return sigmoid64(u);
    case 33u: return rlx_tanh64(u);
    case 41u: return 1.0lf / sqrt(u);                               // rsqrt
    case 42u: return u * sigmoid64(u);                              // silu
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
    case 124u: return u < 0.0lf ? lo * rlx_expm1_64(u) : u;         // elu
    case 125u: return u > 0.0lf ? hi * u : hi * lo * rlx_expm1_64(u);
    case 126u: return softplus64(u);
    case 127u: {                                                    // hard_sigmoid
        double h = lo * u + hi;
        return h < 0.0lf ? 0.0lf : (h > 1.0lf ? 1.0lf : h);
    }
    case 128u: {                                                    // hard_swish
        double h = (1.0lf / 6.0lf) * u + 0.5lf;
        h = h < 0.0lf ? 0.0lf : (h > 1.0lf ? 1.0lf : h);
        return h == 0.0lf ? 0.0lf : u * h;
    }
    case 129u:                                                      // mish
        return isinf(u) && u < 0.0lf ? 0.0lf : u * rlx_tanh64(softplus64(u));
    case 142u: case 143u: {                                         // sinh, cosh
        if (isnan(u) || (p.op == 142u && u == 0.0lf))
            return u;
        double r = sinh_cosh64(abs(u), p.op == 143u);
        return p.op == 142u && u < 0.0lf ? -r : r;
    }
    case 144u: {                                                    // asinh
        double a = abs(u), r;
        if (isinf(a) || isnan(a) || a == 0.0lf)
            return u;
        if (a > 1e150lf) // a * a overflows: log(2a)
            r = rlx_log64(a) + 0.69314718055994530942lf;
        else
            r = rlx_log1p_64(a + a * a / (1.0lf + sqrt(1.0lf + a * a)));
        return u < 0.0lf ? -r : r;
    }
    case 145u: {                                                    // acosh
        if (isnan(u) || u < 1.0lf)
            return rlx_nan64();
        if (u > 1e150lf)
            return rlx_log64(u) + 0.69314718055994530942lf;
        double t = u - 1.0lf;
        return rlx_log1p_64(t + sqrt(2.0lf * t + t * t));
    }
    case 31u: {                                                     // gelu
        if (isinf(u))
            return u > 0.0lf ? u : 0.0lf;
        if (p.a.x == 1u) {
            double c = 0.79788456080286535588lf;
            return 0.5lf * u * (1.0lf + rlx_tanh64(c * (u + 0.044715lf * u * u * u)));
        }
        return 0.5lf * u * (1.0lf + rlx_erf64(u * 0.70710678118654752440lf));
    }
    case 35u: return rlx_sincos64(u).x;
    case 36u: return rlx_sincos64(u).y;
    case 43u: { dvec2 sc = rlx_sincos64(u); return sc.x / sc.y; }  // tan
    case 44u: return rlx_atan64(u);
    case 116u: return rlx_erf64(u);
    case 140u:                                                      // asin
        if (abs(u) > 1.0lf)
            return rlx_nan64();
        return u == 0.0lf ? u : rlx_atan64(u / sqrt((1.0lf - u) * (1.0lf + u)));
    case 141u:                                                      // acos
        if (abs(u) > 1.0lf || isnan(u))
            return rlx_nan64();
        return 2.0lf * rlx_atan64(sqrt((1.0lf - u) / (1.0lf + u)));
    case 146u: {                                                    // atanh
        double a = abs(u);
        if (isnan(u) || a > 1.0lf)
            return rlx_nan64();
        if (a == 0.0lf)
            return u;
        double r = 0.5lf * rlx_log1p_64(2.0lf * a / (1.0lf - a));
        return u < 0.0lf ? -r : r;
    }
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
