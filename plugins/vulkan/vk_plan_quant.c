/*
 * vk_plan_quant.c - quantize_linear and dequantize_linear
 * (shaders/quant.comp): which scale each element takes, per tensor, per
 * axis or blocked, as the op's docs (rlx/ops.h) define. The integer
 * matmul and conv are planned beside their float forms
 * (vk_plan_matmul.c, vk_plan_conv.c).
 *
 * push words: count, dequantize, mode (0 tensor, 1 axis, 2 blocked),
 * inner, axis length, blocks per axis, block size, round, the result's
 * integer range lo and hi.
 */
#include "vk_plan.h"

static int is_byte(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8;
}

rlx_status rlxv_plan_quant(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0),
                        *s = rlxv_input(pc, 1), *z = rlxv_input(pc, 2);
    int deq = v->op == RLX_OP_DEQUANTIZE_LINEAR;
    if (deq ? !((is_byte(x->dtype) || x->dtype == RLX_DTYPE_I32) &&
                rlx_kit_dtype_is_float(v->dtype) && s->dtype == v->dtype &&
                z->dtype == x->dtype)
            : !(rlx_kit_dtype_is_float(x->dtype) && s->dtype == x->dtype &&
                is_byte(v->dtype) && z->dtype == v->dtype))
        return rlxv_unsupported(pc, "its dtypes do not fit the op");
    size_t ns = pc->exe->values[v->inputs[1]].count;
    if (pc->exe->values[v->inputs[2]].count != ns || x->rank != v->rank)
        return rlxv_unsupported(pc, "scale and zero point sizes differ");
    int64_t axis = rlx_kit_int_attr(v, RLX_ATTR_QUANT_AXIS, 1);
    int64_t block = rlx_kit_int_attr(v, RLX_ATTR_QUANT_BLOCK_SIZE, 0);
    uint32_t mode = 0;
    uint64_t inner = 1, len = 1, n_blocks = 1;
    if (block != 0 || ns != 1 || s->rank > 1) {
        if (axis < 0)
            axis += x->rank;
        if (axis < 0 || axis >= (int64_t)x->rank || block < 0)
            return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: %s '%s': axis or "
                                "block_size out of range. Fix: give an "
                                "axis of x and a block_size of 0 or more",
                                rlx_kit_op_name(v->op), pc->name);
        uint64_t outer = 1;
        for (int64_t i = 0; i < axis; i++)
            outer *= (uint64_t)x->shape[i];
        for (uint32_t i = (uint32_t)axis + 1; i < x->rank; i++)
            inner *= (uint64_t)x->shape[i];
        len = (uint64_t)x->shape[axis];
        if (block == 0) {
            if (s->rank != 1 || ns != len)
                return rlxv_unsupported(pc, "the per-axis scale has the "
                                               "wrong length");
            mode = 1;
        } else {
            n_blocks = (len + (uint64_t)block - 1) / (uint64_t)block;
            if (ns != outer * n_blocks * inner)
                return rlxv_unsupported(pc, "the blocked scale has the "
                                               "wrong size");
            mode = 2;
        }
    }
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                         RLXV_PIPE_QUANT);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)deq;
    d->push[2] = mode;
    d->push[3] = (uint32_t)inner;
    d->push[4] = (uint32_t)len;
    d->push[5] = (uint32_t)n_blocks;
    d->push[6] = (uint32_t)(block > 0 ? block : 1);
    d->push[7] = pc->round;
    int32_t lo = v->dtype == RLX_DTYPE_I8 ? -128 : 0;
    int32_t hi = v->dtype == RLX_DTYPE_I8 ? 127 : 255;
    d->push[8] = (uint32_t)lo;
    d->push[9] = (uint32_t)hi;
    d->bind[0] = pc->i;
    for (int j = 0; j < 3; j++)
        d->bind[1 + j] = v->inputs[j];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}
