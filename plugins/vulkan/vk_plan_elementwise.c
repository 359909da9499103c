/*
 * vk_plan_elementwise.c - unary ops, broadcasting binary ops and cast:
 * one thread per output element.
 *
 * binary push words: count, op, round, rank, dims[8], a strides[8],
 * b strides[8]; unary: count, op, round, gelu approximation; cast:
 * count, source dtype, target dtype. f64 (ew64.comp): count, op, rank,
 * 0, dims[8], a strides[8], b strides[8], two double attributes.
 */
#include <math.h>
#include <string.h>

#include "vk_plan.h"

static rlx_status plan_binary(rlxv_plan_ctx *pc, rlxv_pipe pipe)
{
    const rlx_node_view *v = pc->v, *a = rlxv_input(pc, 0),
                        *b = rlxv_input(pc, 1);
    if (v->rank > 16 || a->rank > v->rank || b->rank > v->rank)
        return rlxv_unsupported(pc, "operand ranks do not broadcast");
    int64_t dims[16], sa[16], sb[16], so[16];
    for (uint32_t d = 0; d < v->rank; d++)
        dims[d] = v->shape[d];
    rlx_kit_broadcast_strides(v->rank, a->rank, a->shape, sa);
    rlx_kit_broadcast_strides(v->rank, b->rank, b->shape, sb);
    rlx_kit_contiguous_strides(v->rank, v->shape, so);
    int64_t *const strides[] = { sa, sb, so };
    uint32_t r = rlx_kit_collapse(v->rank, dims, strides, 3);
    if (r > RLXV_MAX_RANK)
        return rlxv_unsupported(pc, "more than 8 broadcast dims remain "
                                       "after merging");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe, pipe);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)v->op;
    /* binary.comp: round, rank; ew64.comp: rank, 0 */
    d->push[2] = pipe == RLXV_PIPE_EW64 ? r : pc->round;
    d->push[3] = pipe == RLXV_PIPE_EW64 ? 0 : r;
    for (uint32_t k = 0; k < r; k++) {
        d->push[4 + k] = (uint32_t)dims[k];
        d->push[12 + k] = (uint32_t)sa[k];
        d->push[20 + k] = (uint32_t)sb[k];
    }
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

/* Float attribute K of V, or DFLT when absent. */
static float fattr(const rlx_node_view *v, uint32_t k, double dflt)
{
    return (float)(v->n_float_attrs > k && v->float_attrs
                       ? v->float_attrs[k] : dflt);
}

static rlx_status plan_unary(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    int64_t approx = 0;
    float fa = 0, fb = 0;
    switch (v->op) {
    case RLX_OP_CLIP:
        fa = fattr(v, RLX_ATTR_CLIP_MIN, -INFINITY);
        fb = fattr(v, RLX_ATTR_CLIP_MAX, INFINITY);
        break;
    case RLX_OP_LEAKY_RELU:
        fa = fattr(v, RLX_ATTR_LEAKY_RELU_ALPHA, RLX_LEAKY_RELU_ALPHA_DEFAULT);
        break;
    case RLX_OP_ELU:
        fa = fattr(v, RLX_ATTR_ELU_ALPHA, RLX_ELU_ALPHA_DEFAULT);
        break;
    case RLX_OP_SELU:
        fa = fattr(v, RLX_ATTR_SELU_ALPHA, RLX_SELU_ALPHA_DEFAULT);
        fb = fattr(v, RLX_ATTR_SELU_GAMMA, RLX_SELU_GAMMA_DEFAULT);
        break;
    case RLX_OP_HARD_SIGMOID:
        fa = fattr(v, RLX_ATTR_HARD_SIGMOID_ALPHA,
                   RLX_HARD_SIGMOID_ALPHA_DEFAULT);
        fb = fattr(v, RLX_ATTR_HARD_SIGMOID_BETA,
                   RLX_HARD_SIGMOID_BETA_DEFAULT);
        break;
    default:
        break;
    }
    if (v->op == RLX_OP_GELU) {
        approx = rlx_kit_int_attr(v, RLX_ATTR_GELU_APPROX, RLX_GELU_ERF);
        if (approx != RLX_GELU_ERF && approx != RLX_GELU_TANH)
            return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: gelu '%s' has "
                                "approximation %lld. Fix: use 0 (erf) or 1 "
                                "(tanh)", pc->name, (long long)approx);
    }
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_UNARY);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)v->op;
    d->push[2] = pc->round;
    d->push[3] = (uint32_t)approx;
    memcpy(&d->push[4], &fa, 4);
    memcpy(&d->push[5], &fb, 4);
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

static rlx_status plan_cast(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *in = rlxv_input(pc, 0);
    if (!rlxv_dtype_words(in->dtype))
        return rlxv_unsupported(pc, "the source dtype is unknown");
    if (!pc->ctx->int64 || !pc->ctx->float64)
        return rlxv_unsupported(pc, "cast needs shaderInt64 and "
                                       "shaderFloat64, which this device "
                                       "lacks");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_CAST);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)in->dtype;
    d->push[2] = (uint32_t)v->dtype;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

/* f64 on shaders/ew64.comp: its binary ops (comparisons too) broadcast
 * as binary.comp's, its unary ones walk one dim. */
rlx_status rlxv_plan_ew64(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    if (!pc->ctx->float64)
        return rlxv_unsupported(pc, "f64 needs shaderFloat64, which this "
                                       "device lacks");
    for (uint32_t j = 0; j < v->n_inputs; j++)
        if (rlxv_input(pc, j)->dtype != RLX_DTYPE_F64)
            return rlxv_unsupported(pc, "operands of mixed dtypes");
    int to_bool = (v->op >= RLX_OP_EQUAL && v->op <= RLX_OP_GREATER_EQUAL) ||
                  v->op == RLX_OP_ISNAN || v->op == RLX_OP_ISINF;
    if (v->dtype != (to_bool ? RLX_DTYPE_BOOL : RLX_DTYPE_F64))
        return rlxv_unsupported(pc, "the result's dtype does not fit");
    if (v->op == RLX_OP_MOD && rlx_kit_int_attr(v, RLX_ATTR_MOD_FMOD, 0) != 1)
        return rlxv_unsupported(pc, "float mod needs fmod 1");
    switch (v->op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_PRELU: case RLX_OP_MOD:
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: case RLX_OP_POW:
        return plan_binary(pc, RLXV_PIPE_EW64);
    case RLX_OP_TANH: case RLX_OP_RSQRT: case RLX_OP_SILU: case RLX_OP_ELU:
    case RLX_OP_SELU: case RLX_OP_SOFTPLUS: case RLX_OP_HARD_SIGMOID:
    case RLX_OP_HARD_SWISH: case RLX_OP_MISH: case RLX_OP_SINH:
    case RLX_OP_COSH: case RLX_OP_ASINH: case RLX_OP_ACOSH: case RLX_OP_ATANH:
    case RLX_OP_GELU: case RLX_OP_SIN: case RLX_OP_COS: case RLX_OP_TAN:
    case RLX_OP_ATAN: case RLX_OP_ERF: case RLX_OP_ASIN: case RLX_OP_ACOS:
    case RLX_OP_ISNAN: case RLX_OP_ISINF: case RLX_OP_RELU: case RLX_OP_SIGMOID: case RLX_OP_EXP: case RLX_OP_NEG:
    case RLX_OP_ABS: case RLX_OP_LOG: case RLX_OP_SQRT: case RLX_OP_CLIP:
    case RLX_OP_FLOOR: case RLX_OP_CEIL: case RLX_OP_ROUND: case RLX_OP_SIGN:
    case RLX_OP_RECIPROCAL: case RLX_OP_LEAKY_RELU:
        break;
    default:
        return rlxv_unsupported(pc, "no f64 shader for this op");
    }
    size_t count = pc->exe->values[pc->i].count;
    if (pc->exe->values[v->inputs[0]].count != count)
        return rlx_kit_fail(pc->host, RLX_ERR_SHAPE,
                            "vulkan compile: %s '%s' changes the element "
                            "count." RLXV_FIX_REPORT,
                            rlx_kit_op_name(v->op), pc->name);
    if (!count)
        return RLX_OK;
    double a = 0, b = 0;
    uint32_t nf = v->float_attrs ? v->n_float_attrs : 0;
    if (v->op == RLX_OP_CLIP) {
        a = nf > RLX_ATTR_CLIP_MIN ? v->float_attrs[RLX_ATTR_CLIP_MIN]
                                   : -INFINITY;
        b = nf > RLX_ATTR_CLIP_MAX ? v->float_attrs[RLX_ATTR_CLIP_MAX]
                                   : INFINITY;
    } else if (v->op == RLX_OP_ISINF) {
        a = rlx_kit_int_attr(v, RLX_ATTR_ISINF_DETECT_POSITIVE, 1) != 0;
        b = rlx_kit_int_attr(v, RLX_ATTR_ISINF_DETECT_NEGATIVE, 1) != 0;
    } else if (v->op == RLX_OP_LEAKY_RELU) {
        a = nf > RLX_ATTR_LEAKY_RELU_ALPHA
                ? v->float_attrs[RLX_ATTR_LEAKY_RELU_ALPHA]
                : RLX_LEAKY_RELU_ALPHA_DEFAULT;
    } else if (v->op == RLX_OP_ELU) {
        a = nf > RLX_ATTR_ELU_ALPHA ? v->float_attrs[RLX_ATTR_ELU_ALPHA]
                                    : RLX_ELU_ALPHA_DEFAULT;
    } else if (v->op == RLX_OP_SELU) {
        a = nf > RLX_ATTR_SELU_ALPHA ? v->float_attrs[RLX_ATTR_SELU_ALPHA]
                                     : RLX_SELU_ALPHA_DEFAULT;
        b = nf > RLX_ATTR_SELU_GAMMA ? v->float_attrs[RLX_ATTR_SELU_GAMMA]
                                     : RLX_SELU_GAMMA_DEFAULT;
    } else if (v->op == RLX_OP_HARD_SIGMOID) {
        a = nf > RLX_ATTR_HARD_SIGMOID_ALPHA
                ? v->float_attrs[RLX_ATTR_HARD_SIGMOID_ALPHA]
                : RLX_HARD_SIGMOID_ALPHA_DEFAULT;
        b = nf > RLX_ATTR_HARD_SIGMOID_BETA
                ? v->float_attrs[RLX_ATTR_HARD_SIGMOID_BETA]
                : RLX_HARD_SIGMOID_BETA_DEFAULT;
    }
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                         RLXV_PIPE_EW64);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)v->op;
    d->push[2] = 1;
    d->push[4] = (uint32_t)count;
    d->push[12] = d->push[20] = 1;
    memcpy(&d->push[28], &a, 8);
    memcpy(&d->push[30], &b, 8);
    if (v->op == RLX_OP_ISINF) { /* flags as words, not doubles */
        d->push[28] = a != 0;
        d->push[30] = b != 0;
    } else if (v->op == RLX_OP_GELU) {
        int64_t approx = rlx_kit_int_attr(v, RLX_ATTR_GELU_APPROX,
                                          RLX_GELU_ERF);
        if (approx != RLX_GELU_ERF && approx != RLX_GELU_TANH)
            return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: gelu '%s' has "
                                "approximation %lld. Fix: use 0 (erf) or 1 "
                                "(tanh)", pc->name, (long long)approx);
        d->push[28] = approx == RLX_GELU_TANH;
    }
    d->bind[0] = pc->i;
    d->bind[1] = d->bind[2] = v->inputs[0];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

rlx_status rlxv_plan_elementwise(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    if (v->op == RLX_OP_CAST)
        return plan_cast(pc);
    if (v->dtype == RLX_DTYPE_F64)
        return rlxv_plan_ew64(pc);
    if (!rlx_kit_dtype_is_float(v->dtype) && rlxv_int_op(v->op))
        return rlxv_plan_logic(pc);
    if (v->op == RLX_OP_MOD && rlx_kit_int_attr(v, RLX_ATTR_MOD_FMOD, 0) != 1)
        return rlxv_unsupported(pc, "float mod needs fmod 1");
    if (!rlx_kit_dtype_is_float(v->dtype))
        return rlxv_unsupported(pc, "float ops take f32, f16 or bf16");
    for (uint32_t j = 0; j < v->n_inputs; j++)
        if (rlxv_input(pc, j)->dtype != v->dtype)
            return rlxv_unsupported(pc, "operands of mixed dtypes");
    switch (v->op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW: case RLX_OP_PRELU:
    case RLX_OP_MOD:
        return plan_binary(pc, RLXV_PIPE_BINARY);
    default:
        /* shaders/unary.comp's ops: 1.0's and 1.4's float ones */
        if (v->n_inputs != 1 ||
            !((v->op >= RLX_OP_RELU && v->op <= RLX_OP_ATAN) ||
              (v->op >= RLX_OP_CLIP && v->op <= RLX_OP_ERF) ||
              (v->op >= RLX_OP_LEAKY_RELU && v->op <= RLX_OP_MISH) ||
              (v->op >= RLX_OP_ASIN && v->op <= RLX_OP_ATANH)))
            return rlxv_unsupported(pc, "no shader for this op");
        if (pc->exe->values[v->inputs[0]].count !=
            pc->exe->values[pc->i].count)
            return rlx_kit_fail(pc->host, RLX_ERR_SHAPE,
                                "vulkan compile: %s '%s' changes the element "
                                "count." RLXV_FIX_REPORT,
                                rlx_kit_op_name(v->op), pc->name);
        return plan_unary(pc);
    }
}
