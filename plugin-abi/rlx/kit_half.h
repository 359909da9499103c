/*
 * kit_half.h - plugin kit: the 16-bit floats (IEEE binary16 "f16" and
 * bfloat16 "bf16") to and from f32, f64 and integers, rounding to
 * nearest, ties to even, once, with subnormals, infinities and NaN.
 *
 * Two roundings from a wider value: the *_from_double and *_from_int
 * routines go through one exact routine (any double or int64 rounds
 * once, NaN becomes the canonical quiet NaN with its sign); the
 * *_from_f32 ones are the fast bit-level form for bulk host copies
 * (same result for every non-NaN float; a NaN keeps its payload's top
 * bits, made quiet). Widening to f32 is exact.
 *
 * Not ABI (see kit.h): header-only, needs only <math.h> and <string.h>
 * (link -lm for ldexpf/nearbyintf where the platform needs it).
 */
#ifndef RLX_KIT_HALF_H
#define RLX_KIT_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* Round (NEG ? -1 : 1) * MAG * 2^EXP to a format with MANT stored
 * mantissa bits and EBITS exponent bits; returns its bit pattern. */
static inline uint32_t rlx_kit__round_pack(int neg, uint64_t mag, int exp,
                                           int mant, int ebits)
{
    uint32_t sign = neg ? 1u << (mant + ebits) : 0;
    uint32_t inf = ((1u << ebits) - 1) << mant;
    if (mag == 0)
        return sign;
    int top = 63;
    while (!(mag >> top))
        top--;
    int bias = (1 << (ebits - 1)) - 1, emin = 1 - bias;
    int e = top + exp; /* value in [2^e, 2^(e+1)) */
    if (e > bias)
        return sign | inf;
    int q = (e >= emin ? e : emin) - mant; /* exponent of the last bit */
    int shift = q - exp;
    uint64_t r;
    if (shift <= 0) {
        r = mag << -shift; /* exact: at most mant + 1 bits */
    } else if (shift > 64) {
        r = 0; /* below half of the smallest step */
    } else if (shift == 64) {
        r = mag > (1ull << 63); /* a tie rounds to the even 0 */
    } else {
        r = mag >> shift;
        uint64_t rem = mag & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        if (rem > half || (rem == half && (r & 1)))
            r++;
    }
    if (r >> (mant + 1)) { /* rounding carried into a new bit */
        r >>= 1;
        q++;
    }
    if (r >> mant) { /* normal */
        int biased = q + mant + bias;
        if (biased >= (1 << ebits) - 1)
            return sign | inf;
        return sign | (uint32_t)biased << mant |
               (uint32_t)(r & ((1u << mant) - 1));
    }
    return sign | (uint32_t)r; /* subnormal */
}

/* A finite double as sign, integer significand and exponent. */
static inline void rlx_kit__split_double(double x, int *neg, uint64_t *mag,
                                         int *exp)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    *neg = (int)(bits >> 63);
    int e = (int)((bits >> 52) & 0x7ff);
    uint64_t frac = bits & ((1ull << 52) - 1);
    if (e == 0) {
        *mag = frac;
        *exp = -1074;
    } else {
        *mag = frac | 1ull << 52;
        *exp = e - 1075;
    }
}

/* Round X to a format (MANT, EBITS); NAN_BITS is its quiet NaN. */
static inline uint32_t rlx_kit__from_double(double x, int mant, int ebits,
                                            uint32_t nan_bits)
{
    uint32_t sign_bit = 1u << (mant + ebits);
    if (isnan(x))
        return nan_bits | (signbit(x) ? sign_bit : 0);
    if (isinf(x))
        return (x < 0 ? sign_bit : 0) | ((1u << ebits) - 1) << mant;
    int neg, exp;
    uint64_t mag;
    rlx_kit__split_double(x, &neg, &mag, &exp);
    return rlx_kit__round_pack(neg, mag, exp, mant, ebits);
}

static inline uint16_t rlx_kit_f16_from_double(double x)
{
    return (uint16_t)rlx_kit__from_double(x, 10, 5, 0x7e00);
}

static inline uint16_t rlx_kit_bf16_from_double(double x)
{
    return (uint16_t)rlx_kit__from_double(x, 7, 8, 0x7fc0);
}

static inline float rlx_kit_f32_from_double(double x)
{
    uint32_t bits = rlx_kit__from_double(x, 23, 8, 0x7fc00000u);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* |V| of a signed 64-bit integer, without overflow at INT64_MIN. */
static inline uint64_t rlx_kit__magnitude(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

static inline uint16_t rlx_kit_f16_from_int(int64_t v)
{
    return (uint16_t)rlx_kit__round_pack(v < 0, rlx_kit__magnitude(v), 0,
                                         10, 5);
}

static inline uint16_t rlx_kit_bf16_from_int(int64_t v)
{
    return (uint16_t)rlx_kit__round_pack(v < 0, rlx_kit__magnitude(v), 0,
                                         7, 8);
}

static inline float rlx_kit_f32_from_int(int64_t v)
{
    uint32_t bits = rlx_kit__round_pack(v < 0, rlx_kit__magnitude(v), 0,
                                        23, 8);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline float rlx_kit_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t e = (h >> 10) & 0x1f, frac = h & 0x3ffu, bits;
    if (e == 0x1f) {
        bits = sign | 0x7f800000u | frac << 13; /* inf or NaN */
    } else if (e != 0) {
        bits = sign | (e + 112) << 23 | frac << 13;
    } else {
        /* zero or subnormal: frac * 2^-24, exact in f32 */
        float f = ldexpf((float)frac, -24);
        return sign ? -f : f;
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline float rlx_kit_bf16_to_f32(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static inline uint32_t rlx_kit_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float rlx_kit_f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* F rounded to f16 (nearest even); a NaN stays a quiet NaN with the
 * top payload bits. */
static inline uint16_t rlx_kit_f16_from_f32(float f)
{
    uint32_t u = rlx_kit_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x1ffu));
    if (a >= 0x477ff000u) /* 65520 and up round to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) { /* below 2^-14: subnormal, quantum 2^-24 */
        float q = rlx_kit_f32_from_bits(a) * 16777216.0f; /* exact */
        return (uint16_t)(sign | (uint16_t)nearbyintf(q));
    }
    a += 0xfffu + ((a >> 13) & 1u);
    return (uint16_t)(sign | (((a >> 23) - 112u) << 10) |
                      ((a >> 13) & 0x3ffu));
}

/* F rounded to bf16 (nearest even); a NaN stays a quiet NaN. */
static inline uint16_t rlx_kit_bf16_from_f32(float f)
{
    uint32_t u = rlx_kit_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

#endif /* RLX_KIT_HALF_H */
