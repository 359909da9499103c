#version 450
// unary.comp - y[i] = f(x[i]) for the elementwise one-input float ops.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P { uint count, op, rnd, approx; float a, b; } p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };

float apply(uint op, float v)
{
    switch (op) {
    case 30u: return v > 0.0 || isnan(v) ? v : 0.0;              // relu
    case 31u:                                                    // gelu
        // gelu(-inf) = 0, gelu(+inf) = +inf (docs/ops.md, "Edge: gelu
        // at infinity"): the formulas give -inf * 0 there
        if (isinf(v))
            return v > 0.0 ? v : 0.0;
        if (p.approx == 1u)
            return 0.5 * v * (1.0 + rlx_tanh(0.79788456080286535588 *
                                             (v + 0.044715 * v * v * v)));
        return 0.5 * v * rlx_erfc(-v * 0.70710678118654752440);
    case 32u: return rlx_sigmoid(v);
    case 33u: return rlx_tanh(v);
    case 34u: return rlx_exp(v);
    case 35u: return rlx_sincos(v).x;
    case 36u: return rlx_sincos(v).y;
    case 37u: return -v;
    case 38u: return abs(v);
    case 39u: return rlx_log(v);
    case 40u: return rlx_sqrt(v);
    case 41u: return 1.0 / rlx_sqrt(v);
    case 42u: return v * rlx_sigmoid(v);                         // silu
    case 43u: { vec2 sc = rlx_sincos(v); return sc.x / sc.y; }   // tan
    case 44u: return rlx_atan(v);
    case 110u: {                          // clip: min first, then max
        float r = v < p.a ? p.a : v;
        return r > p.b ? p.b : r;
    }
    case 111u: return floor(v);
    case 112u: return ceil(v);
    case 113u: return roundEven(v);
    case 114u: return v > 0.0 ? 1.0 : (v < 0.0 ? -1.0 : (v == 0.0 ? 0.0 : v));
    case 115u: return 1.0 / v;
    case 116u: return rlx_erf(v);
    case 123u: return v < 0.0 ? p.a * v : v;                     // leaky
    case 124u: return v < 0.0 ? p.a * rlx_expm1(v) : v;          // elu
    case 125u: return v > 0.0 ? p.b * v : p.b * p.a * rlx_expm1(v);
    case 126u: return rlx_softplus(v);
    case 127u: {                                                 // hard_sigmoid
        float h = p.a * v + p.b;
        return h < 0.0 ? 0.0 : (h > 1.0 ? 1.0 : h);
    }
    case 128u: {                                                 // hard_swish
        float h = v / 6.0 + 0.5;
        h = h < 0.0 ? 0.0 : (h > 1.0 ? 1.0 : h);
        return h == 0.0 ? 0.0 : v * h;
    }
    case 129u:                                                   // mish
        return isinf(v) && v < 0.0 ? 0.0 : v * rlx_tanh(rlx_softplus(v));
    case 140u:                                                   // asin
        if (v == 0.0)
            return v; // keeps -0
        if (abs(v) > 1.0)
            return RLX_NAN;
        return rlx_atan(v / rlx_sqrt((1.0 - v) * (1.0 + v)));
    case 141u:                                                   // acos
        if (abs(v) > 1.0)
            return RLX_NAN;
        return 2.0 * rlx_atan(rlx_sqrt((1.0 - v) / (1.0 + v)));
    case 142u: {                                                 // sinh
        if (v == 0.0)
            return v; // keeps -0
        float a = abs(v), r;
        if (a > 20.0) {
            // e^-a is below half an ulp: e^a / 2, as (e^(a/2) / 2) e^(a/2)
            // (a - ln 2 would round; e^a would overflow early)
            float h = rlx_exp(0.5 * a);
            r = (0.5 * h) * h;
        } else {
            float e = rlx_expm1(a);
            r = 0.5 * (e + e / (e + 1.0));
        }
        return v < 0.0 ? -r : (isnan(v) ? v : r);
    }
    case 143u: {                                                 // cosh
        float a = abs(v);
        if (a > 20.0) { // as sinh
            float h = rlx_exp(0.5 * a);
            return (0.5 * h) * h;
        }
        float e = rlx_exp(a);
        return 0.5 * (e + 1.0 / e);
    }
    case 144u: {                                                 // asinh
        if (v == 0.0)
            return v; // keeps -0
        float a = abs(v), r;
        if (isinf(a) || isnan(a))
            return v;
        if (a > 1e18) // a * a overflows: log(2a)
            r = rlx_log(a) + 0.69314718055994531;
        else
            r = rlx_log1p(a + a * a / (1.0 + rlx_sqrt(1.0 + a * a)));
        return v < 0.0 ? -r : r;
    }
    case 145u: {                                                 // acosh
        if (isnan(v) || v < 1.0)
            return RLX_NAN;
        if (v > 1e18)
            return rlx_log(v) + 0.69314718055994531;
        float t = v - 1.0;
        return rlx_log1p(t + rlx_sqrt(2.0 * t + t * t));
    }
    case 146u: {                                                 // atanh
        if (v == 0.0)
            return v; // keeps -0
        float a = abs(v);
        if (isnan(v) || a > 1.0)
            return RLX_NAN;
        float r = 0.5 * rlx_log1p(2.0 * a / (1.0 - a));
        return v < 0.0 ? -r : r;
    }
    default: return RLX_NAN;
    }
}

void main()
{
    uint i = rlx_gid();
    if (i >= p.count)
        return;
    y[i] = rlx_round(apply(p.op, x[i]), p.rnd);
}
