/* half.c - see half.h. Bit manipulation only, no compiler half types. */
#include "half.h"

#include <string.h>

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t cli_bf16_from_float(float f)
{
    uint32_t u = float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)      /* NaN: keep it quiet */
        return (uint16_t)((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);          /* round to nearest even */
    return (uint16_t)(u >> 16);
}

float cli_float_from_bf16(uint16_t h)
{
    return bits_float((uint32_t)h << 16);
}

uint16_t cli_f16_from_float(float f)
{
    uint32_t u = float_bits(f);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t abs = u & 0x7fffffffu;

    if (abs > 0x7f800000u)                    /* NaN */
        return (uint16_t)(sign | 0x7e00u);
    if (abs >= 0x477ff000u)                   /* rounds to >= 65520: inf */
        return (uint16_t)(sign | 0x7c00u);
    if (abs < 0x38800000u) {                  /* below 2^-14: subnormal */
        if (abs < 0x33000000u)                /* below half the smallest */
            return (uint16_t)sign;
        uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
        int shift = 126 - (int)(abs >> 23); /* 14 .. 24 */
        uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1);
        uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1u)))
            q++;
        return (uint16_t)(sign | q);
    }
    uint32_t r = abs + 0xfffu + ((abs >> 13) & 1u);
    return (uint16_t)(sign | ((r - 0x38000000u) >> 13));
}

float cli_float_from_f16(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;

    if (exp == 0x1f)
        return bits_float(sign | 0x7f800000u | (mant << 13));
    if (exp == 0) {
        if (mant == 0)
            return bits_float(sign);
        float v = (float)mant / 16777216.0f;  /* mant * 2^-24 */
        return sign ? -v : v;
    }
    return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}
