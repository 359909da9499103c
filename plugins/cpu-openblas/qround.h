/*
 * qround.h - nearbyintf(q / s) of 16 floats without a divide each: the
 * requantization of the 8-bit kernels divides by the output scale (the
 * reference's operation, which a multiply by 1 / s does not always
 * match) and vdivps is their slowest instruction. t = q * (1 / s) is
 * within 3 * 2^-24 |t| of f32(q / s), so where |t| < 1024 (beyond, both
 * saturate the byte the same way) they round to the same integer unless
 * t lies within 2^-11 of a half integer; those few lanes are divided.
 * So the result is that of the divide, bit for bit, NaN and infinities
 * included.
 */
#ifndef RLXB_QROUND_H
#define RLXB_QROUND_H

#include <math.h>

#if defined(__AVX512F__)
#include <immintrin.h>

/* How to divide by S: 0 not at all (s is 1), 1 by the reciprocal with
 * the check, 2 always (s or 1 / s not a normal float). */
static inline int rlxb_qdiv_mode(float s)
{
    if (s == 1.0f)
        return 0;
    float inv = 1.0f / s;
    return isnormal(s) && isnormal(inv) ? 1 : 2;
}

/* nearbyintf(q / s) (q itself in mode 0) per lane; INV is 1 / s. */
static inline __m512 rlxb_qdiv_round(__m512 q, __m512 s, __m512 inv,
                                     int mode)
{
    const int rn = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    if (mode == 0)
        return _mm512_roundscale_ps(q, rn);
    if (mode == 2)
        return _mm512_roundscale_ps(_mm512_div_ps(q, s), rn);
    __m512 t = _mm512_mul_ps(q, inv);
    __m512 r = _mm512_roundscale_ps(t, rn);
    __m512 d = _mm512_abs_ps(_mm512_sub_ps(t, r)); /* to the integer */
    __mmask16 near =
        _mm512_cmp_ps_mask(_mm512_sub_ps(_mm512_set1_ps(0.5f), d),
                           _mm512_set1_ps(0x1p-11f), _CMP_LT_OQ) &
        _mm512_cmp_ps_mask(_mm512_abs_ps(t), _mm512_set1_ps(1024.0f),
                           _CMP_LT_OQ);
    if (near)
        r = _mm512_mask_roundscale_ps(r, near, _mm512_div_ps(q, s), rn);
    return r;
}
#endif

#endif
