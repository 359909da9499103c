/*
 * vk_plan.h - small helpers the op planners share (input views and the
 * "cannot run here" report); strides, merging dims so a strided walk
 * needs at most RLX_VK_MAX_RANK of them, and attribute defaults are the
 * plugin kit's (rlx/kit_shape.h, rlx/kit_attrs.h).
 */
#ifndef RLX_VK_PLAN_H
#define RLX_VK_PLAN_H

#include "vk_internal.h"

#define RLX_VK_FIX_REPORT " Fix: report this as a bug in the rlx core"

/* Input J's node view. */
const rlx_node_view *rlx__vk_input(const rlx__vk_plan_ctx *pc, uint32_t j);
/* Report that node PC cannot run here (RLX_ERR_UNSUPPORTED). */
rlx_status rlx__vk_unsupported(const rlx__vk_plan_ctx *pc, const char *why);

/* Whether OP runs on the integer dtypes in shaders/logic.comp
 * (arithmetic, mod, bitwise, neg, abs, relu, sign, clip). */
int rlx__vk_int_op(rlx_op op);

#endif /* RLX_VK_PLAN_H */
