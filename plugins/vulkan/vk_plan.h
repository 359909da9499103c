/*
 * vk_plan.h - small helpers the op planners share (input views and the
 * "cannot run here" report); strides, merging dims so a strided walk
 * needs at most RLXV_MAX_RANK of them, and attribute defaults are the
 * plugin kit's (rlx/kit_shape.h, rlx/kit_attrs.h).
 */
#ifndef RLXV_PLAN_H
#define RLXV_PLAN_H

#include "vk_internal.h"

#define RLXV_FIX_REPORT " Fix: report this as a bug in the rlx core"

/* Input J's node view. */
const rlx_node_view *rlxv_input(const rlxv_plan_ctx *pc, uint32_t j);
/* Report that node PC cannot run here (RLX_ERR_UNSUPPORTED). */
rlx_status rlxv_unsupported(const rlxv_plan_ctx *pc, const char *why);

/* Whether OP runs on the integer dtypes in shaders/logic.comp
 * (arithmetic, mod, bitwise, neg, abs, relu, sign, clip). */
int rlxv_int_op(rlx_op op);

/* Whether matmul_integer and conv_integer take the packed integer dot
 * products: where the device has them, unless setting vulkan.int_dot
 * (RLX_VULKAN_INT_DOT) is off. */
int rlxv_int_dot(const rlxv_plan_ctx *pc);

/* A conv_integer's requantization chain (vk_plan_qfuse.c): the nodes it
 * reads, and the links it fuses, the last of which holds the result. */
typedef struct rlxv_qchain {
    uint32_t bias, mult, scale, zp, clamp[2];  /* bias: UINT32_MAX if none */
    int bias_per, mult_per;                    /* one per channel, not one */
    uint32_t n_clamp;
    rlx_op clamp_op[2];                        /* max or min */
    rlx_dtype out;                             /* i8 or u8 */
    uint32_t links[8], n_links, last;
} rlxv_qchain;
/* Whether the readers of conv_integer PC form a chain it can fuse. */
int rlxv_qfuse_match(const rlxv_plan_ctx *pc, rlxv_qchain *qc);
/* Dispatch the gathering of QC's operands into a table; *BIND gets the
 * table's binding. */
rlx_status rlxv_qfuse_table(rlxv_plan_ctx *pc, const rlxv_qchain *qc,
                            uint32_t *bind);

/* Node PC on f64 operands (shaders/ew64.comp; vk_plan_elementwise.c):
 * arithmetic, the unary ops it has, comparisons, isnan and isinf. */
rlx_status rlxv_plan_ew64(rlxv_plan_ctx *pc);

#endif /* RLXV_PLAN_H */
