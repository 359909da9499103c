/*
 * vmath512.h - activations on 16 lanes in AVX-512 registers, shared by
 * the kernels that apply a conv's bias and activation before the store
 * (kernels_igemm.c, kernels_dw16.c) instead of in a pass over the output
 * (rlxb_conv_epilogue): the same results as kernels_ew.c's.
 */
#ifndef RLXB_VMATH512_H
#define RLXB_VMATH512_H

#include <immintrin.h>
#include <math.h>

#include <rlx/backend.h>

/* The epilogues applied in registers. */
enum { RLXB_EPI16_NONE, RLXB_EPI16_BIAS, RLXB_EPI16_RELU,
       RLXB_EPI16_HARD_SWISH, RLXB_EPI16_SILU };

/* vmath.h's rlxb_exp on 16 lanes (same reduction and polynomial; the
 * 2^n scaling by scalef, exact and without overflow at n = 128): inf
 * above its range, 0 below, NaN kept. */
static inline __attribute__((always_inline)) __m512 rlxb_exp16(__m512 x)
{
    const __m512 hi = _mm512_set1_ps(88.7228317f);
    const __m512 lo = _mm512_set1_ps(-87.3365479f);
    const __m512 magic = _mm512_set1_ps(12582912.0f);
    __m512 xc = _mm512_min_ps(_mm512_max_ps(x, lo), hi);
    __m512 n = _mm512_sub_ps(
        _mm512_fmadd_ps(xc, _mm512_set1_ps(1.44269504f), magic), magic);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), xc);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_add_ps(_mm512_fmadd_ps(_mm512_mul_ps(p, r), r, r),
                      _mm512_set1_ps(1.0f));
    __m512 res = _mm512_scalef_ps(p, n);
    res = _mm512_mask_mov_ps(res, _mm512_cmp_ps_mask(x, hi, _CMP_GT_OQ),
                             _mm512_set1_ps(INFINITY));
    res = _mm512_mask_mov_ps(res, _mm512_cmp_ps_mask(x, lo, _CMP_LT_OQ),
                             _mm512_setzero_ps());
    return _mm512_mask_mov_ps(res, _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q),
                              x);
}

/* V + B, then EPI's activation, as rlxb_conv_epilogue computes it: relu
 * keeps NaN and gives +0 for -0; hard_swish is x * clamp(x / 6 + 1/2)
 * with NaN kept and 0 where the clamp is 0 (-inf included); silu is
 * x / (1 + exp(-x)) as kernels_ew.c's x * sigmoid(x). */
static inline __attribute__((always_inline)) __m512
rlxb_act16(int epi, __m512 v, __m512 b)
{
    const __m512 zero = _mm512_setzero_ps();
    v = _mm512_add_ps(v, b);
    if (epi == RLXB_EPI16_RELU)
        return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(v, zero, _CMP_NLE_UQ),
                                   v);
    if (epi == RLXB_EPI16_HARD_SWISH) {
        const __m512 one = _mm512_set1_ps(1.0f);
        __m512 h = _mm512_add_ps(
            _mm512_mul_ps(v, _mm512_set1_ps(1.0f / 6.0f)),
            _mm512_set1_ps(0.5f));
        h = _mm512_mask_mov_ps(h, _mm512_cmp_ps_mask(h, zero, _CMP_LT_OQ),
                               zero);
        h = _mm512_mask_mov_ps(h, _mm512_cmp_ps_mask(h, one, _CMP_GT_OQ),
                               one);
        return _mm512_mask_mov_ps(_mm512_mul_ps(v, h),
                                  _mm512_cmp_ps_mask(h, zero, _CMP_EQ_OQ),
                                  zero);
    }
    if (epi == RLXB_EPI16_SILU) {
        __m512 e = rlxb_exp16(_mm512_sub_ps(zero, v));
        return _mm512_mul_ps(
            v, _mm512_div_ps(_mm512_set1_ps(1.0f),
                             _mm512_add_ps(_mm512_set1_ps(1.0f), e)));
    }
    return v;
}

/* The in-register epilogue of activation ACT (RLX_OP_INVALID: the bias
 * alone), or RLXB_EPI16_NONE when it has none. */
static inline int rlxb_epi16_of(rlx_op act)
{
    return act == RLX_OP_INVALID      ? RLXB_EPI16_BIAS
           : act == RLX_OP_RELU       ? RLXB_EPI16_RELU
           : act == RLX_OP_HARD_SWISH ? RLXB_EPI16_HARD_SWISH
           : act == RLX_OP_SILU       ? RLXB_EPI16_SILU
                                      : RLXB_EPI16_NONE;
}

#endif
