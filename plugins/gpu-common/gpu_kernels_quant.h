/*
 * gpu_kernels_quant.h - the launchers of the quantization kernels
 * (gk_quant.cu): quantize_linear and dequantize_linear (per tensor, per
 * axis, blocked) and the integer matmul and conv, bit-exact with
 * cpu-ref (kernels_quant.c): quotients in f32 rounded half to even and
 * saturated, integer sums wrapping to i32.
 */
#ifndef RLX_GPU_KERNELS_QUANT_H
#define RLX_GPU_KERNELS_QUANT_H

#include <stdint.h>

#include "gpu_kernels_vision.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scale modes: one scale, one per index of the axis, one per block. */
enum { RLXG_QUANT_TENSOR = 0, RLXG_QUANT_AXIS, RLXG_QUANT_BLOCKED };

/* A quantization node's plan. Quantize and dequantize: element e of x
 * [outer, len, inner] uses scale and zero point element
 * (e / inner) % len per axis, or its block's (block, n_blocks) when
 * blocked. matmul_integer: y [batch..., m, n] from a and b with the
 * element strides of the kit's operands (a_row, a_col, b_row, b_col)
 * and per result batch dim the offsets a_bstride, b_bstride;
 * za_per / zb_per: a zero point per row / column (else one). conv:
 * zb_per a w zero point per output channel. */
typedef struct rlxg_quant_plan {
    int32_t op, x_dtype, w_dtype, y_dtype, mode;
    int32_t za_per, zb_per;
    /* conv_integer with its requantization chain fused (gk_qconv.cu):
     * y_dtype the chain's bytes, bias_per / mult_per: the bias and the
     * multiplier per output channel (else one) */
    int32_t chain, bias_per, mult_per;
    int64_t count, outer, len, inner, block, n_blocks;
    int64_t m, n, k, a_row, a_col, b_row, b_col;
    uint32_t brank;
    int64_t bdims[RLXG_MAX_RANK];
    int64_t a_bstride[RLXG_MAX_RANK], b_bstride[RLXG_MAX_RANK];
} rlxg_quant_plan;

/* quantize_linear (p->op RLX_OP_QUANTIZE_LINEAR: x a float dtype, y
 * i8 or u8) or dequantize_linear (x i8, u8 or i32, y a float dtype). */
gpuError_t rlxg_quantize(gpuStream_t s, const void *x, const void *scale,
                         const void *zp, void *y, const rlxg_quant_plan *p);
/* matmul_integer: a (x_dtype) and b (w_dtype) i8 or u8, i32 y. */
gpuError_t rlxg_matmul_integer(gpuStream_t s, const void *a, const void *b,
                               const void *za, const void *zb, int32_t *y,
                               const rlxg_quant_plan *p);
/* conv_integer over W's window: x (x_dtype), w (w_dtype), i32 y. */
gpuError_t rlxg_conv_integer(gpuStream_t s, const void *x, const void *w,
                             const void *zx, const void *zw, int32_t *y,
                             const rlxg_win_plan *win,
                             const rlxg_quant_plan *p);

/* A fused chain's operands besides x and w (rlxg_step.extra[] holds
 * their values, in this order; RLXG_QC_ACC first: conv_integer's i32
 * result, the accumulators): the i32 bias (NULL: none), the f32
 * multiplier, quantize_linear's f32 scale and zero point, the bounds of
 * the max and min after it (NULL: none). */
enum { RLXG_QC_ACC = 0, RLXG_QC_BIAS, RLXG_QC_MULT, RLXG_QC_SCALE,
       RLXG_QC_ZP, RLXG_QC_LO, RLXG_QC_HI };
typedef struct rlxg_qchain_ptrs {
    const void *bias, *mult, *scale, *zp, *lo, *hi;
} rlxg_qchain_ptrs;

/* The vendor int8 conv's result and what its epilogue corrects it with
 * (gk_qconv.cu's comment): ACC [n, spatial, m4] f32 sums of the shifted
 * x (SHIFT: 128 for u8 x, else 0) and w - w_zp; WSUM per filter; *WBAD
 * nonzero where w - w_zp did not fit i8; x, w and their zero points for
 * the exact sums. */
typedef struct rlxg_qconv_ops {
    const float *acc;
    int64_t m4;
    const int32_t *wsum;
    const int *wbad;
    int shift;
    const void *x, *w, *zx, *zw;
} rlxg_qconv_ops;

/* The chain over conv_integer's i32 ACC [n, m, spatial] into Y. */
gpuError_t rlxg_qchain_i32(gpuStream_t s, const int32_t *acc,
                           const rlxg_qchain_ptrs *c, void *y,
                           const rlxg_win_plan *win,
                           const rlxg_quant_plan *p);
/* The chain over the vendor conv's f32 sums (O) into Y [n, m, spatial]. */
gpuError_t rlxg_qchain_f32(gpuStream_t s, const rlxg_qconv_ops *o,
                           const rlxg_qchain_ptrs *c, void *y,
                           const rlxg_win_plan *win,
                           const rlxg_quant_plan *p);
/* The vendor conv's operands (2 spatial axes): XP [n, h + pads,
 * w + pads, c4] i8 from x; WP [m4, kh, kw, c4] i8 with WSUM and *WBAD
 * from w. */
gpuError_t rlxg_qconv_prep_x(gpuStream_t s, const void *x, const void *zx,
                             int8_t *xp, int64_t c4, int shift,
                             const rlxg_win_plan *win,
                             const rlxg_quant_plan *p);
gpuError_t rlxg_qconv_prep_w(gpuStream_t s, const void *w, const void *zw,
                             int8_t *wp, int32_t *wsum, int *wbad, int64_t c4,
                             int64_t m4, const rlxg_win_plan *win,
                             const rlxg_quant_plan *p);

#ifdef __cplusplus
}
#endif

#endif /* RLX_GPU_KERNELS_QUANT_H */
