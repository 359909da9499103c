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

#ifdef __cplusplus
}
#endif

#endif /* RLX_GPU_KERNELS_QUANT_H */
