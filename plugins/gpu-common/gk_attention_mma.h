/*
 * gk_attention_mma.h - the tensor-core attention path of gk_attention.cu
 * (gk_attention_mma.cu; f32: gk_attention_tf32x3.cu), for the kernel files
 * only.
 */
#ifndef RLX_GK_ATTENTION_MMA_H
#define RLX_GK_ATTENTION_MMA_H

/* Runs the f16/bf16 tensor-core kernel and returns true (launch status
 * in *ERR) when the device, dtype, head size (32, 64, 128) and layout
 * suit it; returns false, launching nothing, otherwise. PDL: as
 * rlxg_attention's. */
bool rlxg_attention_mma(gpuStream_t s, int dtype, const void *q,
                        const void *k, const void *v, void *o,
                        const rlxg_attn_plan *p, int pdl, gpuError_t *err);

/* The same for f32 (gk_attention_tf32x3.cu: 3xTF32, f32 accuracy): runs
 * and returns true where the device, head size (32, 64) and layout suit
 * it, from 128 keys up; returns false, launching nothing, otherwise. */
bool rlxg_attention_tf32x3(gpuStream_t s, const void *q, const void *k,
                           const void *v, void *o, const rlxg_attn_plan *p,
                           int pdl, gpuError_t *err);

#endif
