/*
 * vk_plan_pool.c - max_pool, avg_pool and lp_pool on 1 to 3 spatial axes
 * (attributes read by the plugin kit, rlx/kit_spatial.h), one thread per
 * output (shaders/pool.comp).
 *
 * push words: count, op, round, count_include_pad, p, then input
 * dims[3], output dims[3], kernel[3], strides[3], dilations[3],
 * pads_begin[3], pads_end[3] (leading axes padded), integer kind (max_pool
 * on i8, u8). max_pool_index runs here too: its storage order in p's
 * place, its result i64.
 */
#include "vk_plan.h"

rlx_status rlxv_plan_pool(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0);
    int small_int = v->dtype == RLX_DTYPE_I8 || v->dtype == RLX_DTYPE_U8;
    if (v->op == RLX_OP_MAX_POOL_INDEX) {
        /* i64 positions of a float input */
        if (v->dtype != RLX_DTYPE_I64 || !rlx_kit_dtype_is_float(x->dtype))
            return rlxv_unsupported(pc, "max_pool_index takes f32, f16 or "
                                           "bf16 and gives i64");
    } else if ((!rlx_kit_dtype_is_float(v->dtype) &&
                !(small_int && v->op == RLX_OP_MAX_POOL)) ||
               x->dtype != v->dtype) {
        return rlxv_unsupported(pc, "pools take f32, f16 or bf16 (and "
                                       "max_pool i8, u8)");
    }
    rlx_kit_spatial sp;
    char err[256];
    if (rlx_kit_spatial_parse(v->op, x->rank, rlx_kit_n_int_attrs(v),
                              v->int_attrs, &sp, err, sizeof err) != 0)
        return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                            "vulkan compile: %s '%s': %s",
                            rlx_kit_op_name(v->op), pc->name, err);
    if (sp.s > 3)
        return rlxv_unsupported(pc, "more than 3 spatial axes");
    if (v->rank != x->rank)
        return rlxv_unsupported(pc, "result of another rank");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_POOL);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)v->op;
    d->push[2] = pc->round;
    d->push[3] = (uint32_t)sp.count_include_pad;
    d->push[4] = (uint32_t)sp.p;
    for (uint32_t a = 0; a < 3; a++) {
        int real = a >= 3 - sp.s;
        uint32_t i = real ? a - (3 - sp.s) : 0;
        d->push[5 + a] = real ? (uint32_t)x->shape[2 + i] : 1;
        d->push[8 + a] = real ? (uint32_t)v->shape[2 + i] : 1;
        d->push[11 + a] = real ? (uint32_t)sp.kernel[i] : 1;
        d->push[14 + a] = real ? (uint32_t)sp.stride[i] : 1;
        d->push[17 + a] = real ? (uint32_t)sp.dilation[i] : 1;
        d->push[20 + a] = real ? (uint32_t)sp.pad_begin[i] : 0;
        d->push[23 + a] = real ? (uint32_t)sp.pad_end[i] : 0;
    }
    d->push[26] = (uint32_t)small_int;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}
