/*
 * gpu_compile.h - the compiler's internal interface between its files:
 * lowering (gpu_lower.c), fusion matching (gpu_fuse.c), values and
 * storage (gpu_values.c), liveness planning (gpu_plan.c) and allocation
 * with the driver (gpu_compile.c). Vendor-neutral: the cuda and rocm
 * plugins compile these same files.
 */
#ifndef RLX_GPU_COMPILE_H
#define RLX_GPU_COMPILE_H

#include <string.h>

#include <rlx/kit_attrs.h>
#include <rlx/kit_half.h>
#include <rlx/kit_match.h>
#include <rlx/kit_shape.h>

#include "gpu_internal.h"

#define FIX_BUG " Fix: report this as a bug in the rlx core"
#define ALIGN 256

/* AXIS of a RANK tensor into *OUT (a scalar takes axis 0 / -1, as the
 * kit's rank 1); 0 when out of range. */
static inline int norm_axis(int64_t axis, uint32_t rank, uint32_t *out)
{
    int64_t a = rlx_kit_norm_axis(axis, rank ? rank : 1);
    if (a < 0)
        return 0;
    *out = (uint32_t)a;
    return 1;
}

typedef struct ctx {
    const rlx_host *host;
    rlx_executable *exe;
    const rlx_graph_view *g;
    int precision;
    int *consumer;      /* the last node reading each node */
    int *norm_res;      /* per norm node: the add fused into it, or -1 */
    int *attn;          /* per node: index into attn_plans, or -1 */
    rlxg_step *attn_plans; /* fused attentions (kind, in[], attn, out) */
    uint32_t n_attn;
    int *qchain;        /* per node: at a fused quantized conv chain's
                           last node its conv_integer node, at that node
                           -2 (emits nothing), else -1 */
} ctx;

/* gpu_values.c: one value per node; param and io slots; where each
 * value's bytes live (arena storage, param, constant, alias). */
rlx_status rlxg_values_init(ctx *c);
rlx_status rlxg_values_slots(ctx *c);
rlx_status rlxg_values_locate(ctx *c);
/* gpu_fuse.c: fusions chosen before emission (attention, norm + add),
 * and the add (bias) and activation a matmul node I can absorb. */
void rlxg_fuse_plan(ctx *c);
void rlxg_fuse_matmul(ctx *c, uint32_t i, int *add, int *act);
/* gpu_fuse.c: the residual add (and the value it adds) and the relu a
 * conv node I can absorb; -1 where none. */
void rlxg_fuse_conv(ctx *c, uint32_t i, int *add, int *res, int *act);
/* gpu_fuse.c: the requantization chain after conv_integer node I (add
 * i32 bias, cast f32, mul, quantize_linear, max, min): its last node,
 * or -1 where none fuses; EXTRA[RLXG_QC_*] the values it reads (-1:
 * absent), MID its inner nodes (up to 5, -1 ended). EMITTED: the chain
 * was claimed before (its inner values are marked fused). */
int rlxg_qchain_match(ctx *c, uint32_t i, int emitted, int *extra, int *mid);
/* gpu_lower_quant.c: the fused step of the chain ending at node END. */
rlx_status rlxg_node_qchain(ctx *c, uint32_t end);
/* gpu_lower.c: node I's steps; a new step of KIND writing value OUT
 * (NULL, reported, when out of memory). */
rlx_status rlxg_node_emit(ctx *c, uint32_t i);
rlxg_step *rlxg_step_push(ctx *c, rlxg_step_kind kind, int out);
/* gpu_lower_vision.c: conv, conv_transpose, the pools and the
 * per-channel norms. */
rlx_status rlxg_node_vision(ctx *c, uint32_t i);
/* gpu_lower_more.c: whether node I is a 1.4 elementwise, reduction or
 * indexing op, or a 1.0 arithmetic op on integers; and its steps. */
int rlxg_node_is_more(ctx *c, uint32_t i);
rlx_status rlxg_node_more(ctx *c, uint32_t i);
/* gpu_lower_vision.c: a window op's plan (conv_integer's as conv's). */
rlx_status rlxg_plan_window(ctx *c, uint32_t i, rlxg_win_plan *p);
/* gpu_lower_quant.c: quantize_linear, dequantize_linear,
 * matmul_integer and conv_integer: one step each. */
rlx_status rlxg_node_quant(ctx *c, uint32_t i);
/* gpu_lower.c: a reduction node's plan (its axes) into S. */
rlx_status rlxg_node_reduce_plan(ctx *c, uint32_t i, rlxg_step *s);
/* gpu_plan.c: each storage's live interval of steps. */
void rlxg_liveness(ctx *c);

#endif /* RLX_GPU_COMPILE_H */
