/*
 * vk_plan.h - small helpers the op planners share: shapes as size_t,
 * row-major strides, merging dims so a strided walk needs at most
 * RLX_VK_MAX_RANK of them, and attribute reads with defaults.
 */
#ifndef RLX_VK_PLAN_H
#define RLX_VK_PLAN_H

#include "vk_internal.h"

#define RLX_VK_FIX_REPORT " Fix: report this as a bug in the rlx core"

/* Row-major element strides of a shape. */
void rlx__vk_strides(uint32_t rank, const int64_t *shape, uint64_t *out);
/* Drop dims of 1 and merge neighbours that are contiguous in every
 * stride array (S2 may be NULL); returns the new rank. */
uint32_t rlx__vk_collapse(uint32_t rank, uint64_t *dims, uint64_t *s1,
                          uint64_t *s2, uint64_t *s3);
/* int_attrs[K] of the node, or DEF when absent. */
int64_t rlx__vk_int_attr(const rlx_node_view *v, uint32_t k, int64_t def);
double rlx__vk_float_attr(const rlx_node_view *v, uint32_t k, double def);
/* Input J's node view. */
const rlx_node_view *rlx__vk_input(const rlx__vk_plan_ctx *pc, uint32_t j);
/* Report that node PC cannot run here (RLX_ERR_UNSUPPORTED). */
rlx_status rlx__vk_unsupported(const rlx__vk_plan_ctx *pc, const char *why);
/* Put a float's bits in a push word. */
uint32_t rlx__vk_fbits(float f);

#endif /* RLX_VK_PLAN_H */
