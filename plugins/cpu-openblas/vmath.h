/*
 * vmath.h - float exp, tanh and erfc written as straight-line code the
 * compiler vectorises (libm's scalar calls stop vectorisation, and
 * glibc's vector libm needs -ffast-math, which breaks NaN handling).
 * Accuracy: exp about 1 ulp on [-87.3, 88.7] (0 below, inf above, NaN
 * kept); tanh and the erfc form of gelu a few ulp; well inside the f32
 * tolerance of docs/conformance.md (rtol 1e-5).
 */
#ifndef RLXB_VMATH_H
#define RLXB_VMATH_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float rlxb_bits_to_f(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline uint32_t rlxb_f_to_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float rlxb_exp(float x)
{
    const float hi = 88.7228317f, lo = -87.3365479f;
    const float magic = 12582912.0f; /* 1.5 * 2^23: rounds to integer */
    float xc = x > hi ? hi : x;
    xc = xc < lo ? lo : xc;
    float t = xc * 1.44269504f + magic;
    float n = t - magic;
    /* n as an integer, from the bits (no float-to-int conversion) */
    int32_t ni = (int32_t)(rlxb_f_to_bits(t) -
                           rlxb_f_to_bits(magic));
    float r = xc - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    /* 2^n in two steps so n = 128 (just below overflow) stays finite */
    int32_t e1 = ni / 2, e2 = ni - e1;
    float s1 = rlxb_bits_to_f((uint32_t)(e1 + 127) << 23);
    float s2 = rlxb_bits_to_f((uint32_t)(e2 + 127) << 23);
    float res = p * s1 * s2;
    res = x > hi ? INFINITY : res;
    res = x < lo ? 0.0f : res;
    return res; /* NaN in, NaN out: the compares are false */
}

static inline float rlxb_sigmoid(float x)
{
    return 1.0f / (1.0f + rlxb_exp(-x));
}

static inline float rlxb_tanh(float x)
{
    float ax = fabsf(x);
    /* small |x|: odd polynomial (Cephes), no cancellation */
    float z = x * x;
    float p = -5.70498872745e-3f;
    p = p * z + 2.06390887954e-2f;
    p = p * z - 5.37397155531e-2f;
    p = p * z + 1.33314422036e-1f;
    p = p * z - 3.33332819422e-1f;
    float small = p * z * x + x;
    /* large |x|: 1 - 2 / (e^{2|x|} + 1), sign restored */
    float e = rlxb_exp(2.0f * ax);
    float big = 1.0f - 2.0f / (e + 1.0f);
    big = x < 0 ? -big : big;
    return ax < 0.625f ? small : big;
}

/* gelu, tanh form: 0.5 x (1 + tanh(u)) == x / (1 + e^{-2u}) */
static inline float rlxb_gelu_tanh(float x)
{
    const float c = 0.7978845608f;
    float u = c * (x + 0.044715f * x * x * x);
    float y = x / (1.0f + rlxb_exp(-2.0f * u));
    /* gelu(-inf) = 0, not -inf/inf (docs/ops.md#edge-gelu-at-infinity);
     * a select, so the loop still vectorizes */
    return x == -INFINITY ? 0.0f : y;
}

/* gelu, erf form: 0.5 x erfc(-x / sqrt 2), with erfc(z) for z >= 0 from
 * Numerical Recipes' erfcc (fractional error < 1.2e-7) and erfc(-z) =
 * 2 - erfc(z). */
static inline float rlxb_gelu_erf(float x)
{
    float z = fabsf(x) * 0.70710678f;
    float t = 1.0f / (1.0f + 0.5f * z);
    float q = 0.17087277f;
    q = q * t - 0.82215223f;
    q = q * t + 1.48851587f;
    q = q * t - 1.13520398f;
    q = q * t + 0.27886807f;
    q = q * t - 0.18628806f;
    q = q * t + 0.09678418f;
    q = q * t + 0.37409196f;
    q = q * t + 1.00002368f;
    q = q * t - 1.26551223f;
    float e = t * rlxb_exp(-z * z + q); /* erfc(|x| / sqrt 2) */
    /* gelu(-inf) = 0, not -inf * 0 (docs/ops.md#edge-gelu-at-infinity) */
    return x >= 0 ? x * (1.0f - 0.5f * e)
                  : (x == -INFINITY ? 0.0f : 0.5f * x * e);
}

#endif
