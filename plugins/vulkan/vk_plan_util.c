/* vk_plan_util.c - see vk_plan.h. */
#include <string.h>

#include "vk_plan.h"

const rlx_node_view *rlxv_input(const rlxv_plan_ctx *pc, uint32_t j)
{
    return pc->g->nodes[pc->v->inputs[j]];
}

rlx_status rlxv_unsupported(const rlxv_plan_ctx *pc, const char *why)
{
    return rlx_kit_fail(pc->host, RLX_ERR_UNSUPPORTED,
                        "vulkan compile: %s '%s' (%s): %s. Fix: run this "
                        "graph on another backend (cpu), or reshape it",
                        rlx_kit_op_name(pc->v->op), pc->name,
                        pc->v->dtype == RLX_DTYPE_F32 ? "f32" : "non-f32",
                        why);
}

int rlxv_int_dot(const rlxv_plan_ctx *pc)
{
    char val[16];
    if (!pc->ctx->int_dot)
        return 0;
    return !(rlx_compile_get_option(pc->exe->options, pc->host,
                                    "vulkan.int_dot", val,
                                    sizeof val) == RLX_OK &&
             strcmp(val, "off") == 0);
}
