/*
 * vk_plan_chnorm.c - batch_norm, instance_norm and group_norm on
 * [N, C, ...] (shaders/chnorm.comp). batch_norm first folds its four
 * per-channel parameters into a factor and an offset per channel (a
 * scratch region of the arena), so the elementwise pass binds three
 * buffers; the other two take one workgroup per (image, group).
 *
 * push words: mode, count, C, inner (spatial size), groups, per_group,
 * round, epsilon (f32 bits).
 */
#include <string.h>

#include "vk_plan.h"

rlx_status rlxv_plan_chnorm(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    if (!rlx_kit_dtype_is_float(v->dtype))
        return rlxv_unsupported(pc, "norms take f32, f16 or bf16");
    for (uint32_t j = 0; j < v->n_inputs; j++)
        if (rlxv_input(pc, j)->dtype != v->dtype)
            return rlxv_unsupported(pc, "operands of mixed dtypes");
    if (v->rank < 2)
        return rlxv_unsupported(pc, "rank below 2");
    uint64_t n = (uint64_t)v->shape[0], c = (uint64_t)v->shape[1], inner = 1;
    for (uint32_t d = 2; d < v->rank; d++)
        inner *= (uint64_t)v->shape[d];
    float eps = (float)(v->n_float_attrs > RLX_ATTR_NORM_EPSILON &&
                                v->float_attrs
                            ? v->float_attrs[RLX_ATTR_NORM_EPSILON] : 1e-5);
    uint64_t groups = c, per_group = 0;
    if (v->op == RLX_OP_GROUP_NORM) {
        int64_t gr = rlx_kit_int_attr(v, RLX_ATTR_GROUP_NORM_GROUPS, 0);
        if (gr < 1 || c % (uint64_t)gr)
            return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: group_norm '%s' has %lld "
                                "groups for %llu channels." RLXV_FIX_REPORT,
                                pc->name, (long long)gr,
                                (unsigned long long)c);
        groups = (uint64_t)gr;
        per_group = rlxv_input(pc, 1)->shape[0] != (int64_t)c;
    }
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    if (v->op == RLX_OP_BATCH_NORM) {
        uint32_t f;
        rlx_status st = rlxv_aux_add(pc->host, pc->exe, NULL, 8 * c, &f);
        if (st != RLX_OK)
            return st;
        rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                                   RLXV_PIPE_CHNORM);
        if (!d)
            return RLX_ERR_OUT_OF_MEMORY;
        d->push[0] = 1;
        d->push[2] = (uint32_t)c;
        memcpy(&d->push[7], &eps, 4);
        d->bind[0] = f;
        for (uint32_t j = 1; j < 5; j++)
            d->bind[j] = v->inputs[j];
        rlxv_grid(d, c, RLXV_LOCAL);
        if (!(d = rlxv_dispatch_add(pc->host, pc->exe, RLXV_PIPE_CHNORM)))
            return RLX_ERR_OUT_OF_MEMORY;
        d->push[0] = 2;
        d->push[1] = (uint32_t)count;
        d->push[2] = (uint32_t)c;
        d->push[3] = (uint32_t)inner;
        d->push[6] = pc->round;
        d->bind[0] = pc->i;
        d->bind[1] = v->inputs[0];
        d->bind[2] = f;
        rlxv_grid(d, count, RLXV_LOCAL);
        return RLX_OK;
    }
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_CHNORM);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = 0;
    d->push[1] = (uint32_t)(n * groups);
    d->push[2] = (uint32_t)c;
    d->push[3] = (uint32_t)inner;
    d->push[4] = (uint32_t)groups;
    d->push[5] = (uint32_t)per_group;
    d->push[6] = pc->round;
    memcpy(&d->push[7], &eps, 4);
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    d->bind[3] = v->inputs[2];
    rlxv_grid(d, n * groups * 256, 256);
    return RLX_OK;
}
