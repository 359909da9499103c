/*
 * vk_plan_rows.c - ops that work along one axis of independent rows:
 * softmax (any axis, optional causal mask) and layer/RMS norm (last
 * axis). One workgroup per row, reductions in shared memory.
 *
 * softmax push words: outer, len, inner, causal, rows of each causal
 * matrix, column shift (cols - rows, signed), round. norm: rows, len,
 * mode (0 layer, 1 rms), round, epsilon (f32 bits).
 */
#include "vk_plan.h"

static rlx_status plan_softmax(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    int64_t rank = v->rank ? (int64_t)v->rank : 1;
    int64_t axis = rlx_kit_int_attr(v, RLX_ATTR_SOFTMAX_AXIS, -1);
    int64_t causal = rlx_kit_int_attr(v, RLX_ATTR_SOFTMAX_CAUSAL, 0);
    if (axis < -rank || axis >= rank)
        return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                            "vulkan compile: softmax '%s' axis %lld is out "
                            "of range. Fix: use an axis in [-%lld, %lld]",
                            pc->name, (long long)axis, (long long)rank,
                            (long long)rank - 1);
    if (axis < 0)
        axis += rank;
    uint64_t outer = 1, len = 1, inner = 1;
    for (uint32_t d = 0; d < v->rank; d++) {
        uint64_t n = (uint64_t)v->shape[d];
        if ((int64_t)d < axis)
            outer *= n;
        else if ((int64_t)d == axis)
            len = n;
        else
            inner *= n;
    }
    int use_causal = causal != 0 && v->rank >= 2 && axis == rank - 1;
    uint64_t rows = use_causal ? (uint64_t)v->shape[v->rank - 2] : 1;
    if (outer * inner * len == 0)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_SOFTMAX);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)outer;
    d->push[1] = (uint32_t)len;
    d->push[2] = (uint32_t)inner;
    d->push[3] = (uint32_t)use_causal;
    d->push[4] = (uint32_t)rows;
    d->push[5] = (uint32_t)(int32_t)((int64_t)len - (int64_t)rows);
    d->push[6] = pc->round;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    rlxv_grid(d, outer * inner * RLXV_LOCAL, RLXV_LOCAL);
    return RLX_OK;
}

static rlx_status plan_norm(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    int layer = v->op == RLX_OP_LAYER_NORM;
    if (v->rank == 0)
        return rlxv_unsupported(pc, "a scalar has no last axis");
    uint64_t len = (uint64_t)v->shape[v->rank - 1];
    uint64_t rows = len ? pc->exe->values[pc->i].count / len : 0;
    for (uint32_t j = 1; j < v->n_inputs; j++)
        if (pc->exe->values[v->inputs[j]].count != len)
            return rlx_kit_fail(pc->host, RLX_ERR_SHAPE,
                                "vulkan compile: %s '%s' needs gamma/beta of "
                                "the last dim's size." RLXV_FIX_REPORT,
                                rlx_kit_op_name(v->op), pc->name);
    double eps = rlx_kit_float_attr(v, RLX_ATTR_NORM_EPSILON,
                                    layer ? 1e-5 : 1e-6);
    if (rows == 0)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_NORM);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)rows;
    d->push[1] = (uint32_t)len;
    d->push[2] = layer ? 0u : 1u;
    d->push[3] = pc->round;
    d->push[4] = rlx_kit_f32_bits((float)eps);
    for (uint32_t j = 0; j < v->n_inputs && j < 3; j++)
        d->bind[1 + j] = v->inputs[j];
    d->bind[0] = pc->i;
    rlxv_grid(d, rows * RLXV_LOCAL, RLXV_LOCAL);
    return RLX_OK;
}

rlx_status rlxv_plan_rows(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    if (v->dtype != RLX_DTYPE_F32 && v->dtype != RLX_DTYPE_F16 &&
        v->dtype != RLX_DTYPE_BF16)
        return rlxv_unsupported(pc, "float ops take f32, f16 or bf16");
    for (uint32_t j = 0; j < v->n_inputs; j++)
        if (rlxv_input(pc, j)->dtype != v->dtype)
            return rlxv_unsupported(pc, "operands of mixed dtypes");
    if (pc->exe->values[v->inputs[0]].count != pc->exe->values[pc->i].count)
        return rlx_kit_fail(pc->host, RLX_ERR_SHAPE,
                            "vulkan compile: %s '%s' changes the element "
                            "count." RLXV_FIX_REPORT,
                            rlx_kit_op_name(v->op), pc->name);
    return v->op == RLX_OP_SOFTMAX ? plan_softmax(pc) : plan_norm(pc);
}
