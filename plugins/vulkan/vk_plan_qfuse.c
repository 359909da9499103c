/*
 * vk_plan_qfuse.c - the requantization chain the ONNX importer lowers
 * QLinearConv and QDQ conv groups to, fused into conv_integer's
 * epilogue, the implicit GEMM's or the direct conv's (shaders/conv.comp
 * and convd.comp built EPI, shaders/qepi.glsl):
 *
 *   acc = conv_integer(x, w, x_zp, w_zp)         i32
 *   [acc = add(acc, bias)]                       i32, one or per channel
 *   d = cast(acc, f32); d = mul(d, mult)         mult: one or per channel
 *   y = quantize_linear(d, scale, zp)            one scale, one zp; i8/u8
 *   [y = max(y, c) | min(y, c)]...               up to two, one value each
 *
 * A link is taken only when the value before it has exactly one reader
 * and is not a graph output. The chain's operands may be computed after
 * the conv (the multiplier usually is), so the conv is planned at the
 * chain's last node: its own node and the links before the last emit
 * nothing. Two small dispatches (shaders/qepi.comp) first gather the
 * operands into one table, since a dispatch has five bindings. Setting
 * vulkan.qfuse=off (RLX_VULKAN_QFUSE=off) keeps the ops separate; the
 * results are the same bits either way.
 */
#include <string.h>

#include "vk_plan.h"

#define NONE UINT32_MAX

/* The one node reading node I (NONE when none, several or an output). */
static uint32_t sole_reader(const rlxv_plan_ctx *pc, uint32_t i)
{
    const rlx_graph_view *g = pc->g;
    uint32_t who = NONE, n = 0;
    for (uint32_t o = 0; o < g->n_outputs; o++)
        if (g->outputs[o] == i)
            return NONE;
    for (uint32_t j = i + 1; j < g->n_nodes; j++) {
        const rlx_node_view *v = g->nodes[j];
        for (uint32_t k = 0; k < v->n_inputs; k++)
            if (v->inputs[k] == i) {
                who = j;
                n++;
            }
    }
    return n == 1 ? who : NONE;
}

/* Node C is a two-input OP reading CUR once: its other operand. */
static uint32_t other_of(const rlxv_plan_ctx *pc, uint32_t c, uint32_t cur,
                         rlx_op op)
{
    if (c == NONE)
        return NONE;
    const rlx_node_view *v = pc->g->nodes[c];
    if (v->op != op || v->n_inputs != 2 || v->inputs[0] == v->inputs[1])
        return NONE;
    return v->inputs[0] == cur ? v->inputs[1] : v->inputs[0];
}

/* How node O broadcasts over the conv's result: 0 one value, 1 one per
 * channel (axis 1), -1 otherwise. */
static int per_channel(const rlxv_plan_ctx *pc, uint32_t o)
{
    const rlx_node_view *v = pc->g->nodes[o], *r = pc->v;
    if (pc->exe->values[o].count == 1)
        return 0;
    if (v->rank > r->rank || v->rank == 0)
        return -1;
    uint32_t off = r->rank - v->rank;
    int mode = -1;
    for (uint32_t d = 0; d < v->rank; d++) {
        if (v->shape[d] == 1)
            continue;
        if (mode != -1 || d + off != 1 || v->shape[d] != r->shape[1])
            return -1;
        mode = 1;
    }
    return mode;
}

static int same_count(const rlxv_plan_ctx *pc, uint32_t a)
{
    return pc->exe->values[a].count == pc->exe->values[pc->i].count;
}

int rlxv_qfuse_match(const rlxv_plan_ctx *pc, rlxv_qchain *qc)
{
    char val[16];
    if (rlx_compile_get_option(pc->exe->options, pc->host, "vulkan.qfuse",
                               val, sizeof val) == RLX_OK &&
        strcmp(val, "off") == 0)
        return 0;
    memset(qc, 0, sizeof *qc);
    qc->bias = NONE;
    uint32_t cur = pc->i, c = sole_reader(pc, cur), o;
    const rlx_node_view *const *n = pc->g->nodes;
    /* [add(acc, bias)] */
    o = other_of(pc, c, cur, RLX_OP_ADD);
    if (o != NONE) {
        int mode = per_channel(pc, o);
        if (n[c]->dtype != RLX_DTYPE_I32 || n[o]->dtype != RLX_DTYPE_I32 ||
            !same_count(pc, c) || mode < 0)
            return 0;
        qc->bias = o;
        qc->bias_per = mode;
        qc->links[qc->n_links++] = cur = c;
        c = sole_reader(pc, cur);
    }
    /* cast(acc, f32) */
    if (c == NONE || n[c]->op != RLX_OP_CAST || n[c]->n_inputs != 1 ||
        n[c]->dtype != RLX_DTYPE_F32)
        return 0;
    qc->links[qc->n_links++] = cur = c;
    c = sole_reader(pc, cur);
    /* mul(d, mult) */
    o = other_of(pc, c, cur, RLX_OP_MUL);
    if (o == NONE || n[o]->dtype != RLX_DTYPE_F32 || !same_count(pc, c) ||
        n[c]->dtype != RLX_DTYPE_F32 || per_channel(pc, o) < 0)
        return 0;
    qc->mult = o;
    qc->mult_per = per_channel(pc, o);
    qc->links[qc->n_links++] = cur = c;
    c = sole_reader(pc, cur);
    /* quantize_linear(d, scale, zp), per tensor */
    if (c == NONE || n[c]->op != RLX_OP_QUANTIZE_LINEAR ||
        n[c]->n_inputs != 3 || n[c]->inputs[0] != cur ||
        (n[c]->dtype != RLX_DTYPE_U8 && n[c]->dtype != RLX_DTYPE_I8) ||
        pc->exe->values[n[c]->inputs[1]].count != 1 ||
        n[n[c]->inputs[1]]->dtype != RLX_DTYPE_F32 ||
        pc->exe->values[n[c]->inputs[2]].count != 1 ||
        n[n[c]->inputs[2]]->dtype != n[c]->dtype ||
        rlx_kit_int_attr(n[c], RLX_ATTR_QUANT_BLOCK_SIZE, 0) != 0)
        return 0;
    qc->out = n[c]->dtype;
    qc->scale = n[c]->inputs[1];
    qc->zp = n[c]->inputs[2];
    qc->links[qc->n_links++] = cur = c;
    /* [max(y, c) | min(y, c)], up to two */
    while (qc->n_clamp < 2) {
        c = sole_reader(pc, cur);
        rlx_op op = c == NONE ? RLX_OP_INVALID : n[c]->op;
        if (op != RLX_OP_MAX && op != RLX_OP_MIN)
            break;
        o = other_of(pc, c, cur, op);
        if (o == NONE || n[o]->dtype != qc->out || n[c]->dtype != qc->out ||
            pc->exe->values[o].count != 1 || !same_count(pc, c))
            break;
        qc->clamp_op[qc->n_clamp] = op;
        qc->clamp[qc->n_clamp++] = o;
        qc->links[qc->n_links++] = cur = c;
    }
    qc->last = cur;
    return 1;
}

rlx_status rlxv_qfuse_table(rlxv_plan_ctx *pc, const rlxv_qchain *qc,
                            uint32_t *bind)
{
    const rlx_node_view *v = pc->v;
    uint32_t m = (uint32_t)v->shape[1];
    uint32_t wz = v->inputs[3];
    rlx_status st = rlxv_aux_add(pc->host, pc->exe, NULL,
                                 (8 + 3 * (VkDeviceSize)m) * 4, bind);
    if (st != RLX_OK)
        return st;
    for (uint32_t pass = 0; pass < 2; pass++) {
        rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                             RLXV_PIPE_QEPI);
        if (!d)
            return RLX_ERR_OUT_OF_MEMORY;
        d->push[0] = pass;
        d->push[1] = m;
        d->bind[0] = *bind;
        if (pass == 0) {
            d->push[2] = pc->exe->values[wz].count > 1;
            d->push[3] = qc->bias != NONE;
            d->push[4] = (uint32_t)qc->bias_per;
            d->bind[1] = v->inputs[2];
            d->bind[2] = wz;
            d->bind[3] = qc->zp;
            /* no bias: any value will do, it is not read */
            d->bind[4] = qc->bias != NONE ? qc->bias : qc->zp;
        } else {
            d->push[5] = (uint32_t)qc->mult_per;
            d->push[6] = qc->n_clamp;
            for (uint32_t k = 0; k < qc->n_clamp; k++)
                d->push[7 + k] = qc->clamp_op[k] == RLX_OP_MAX ? 1 : 2;
            int32_t lo = qc->out == RLX_DTYPE_I8 ? -128 : 0;
            int32_t hi = qc->out == RLX_DTYPE_I8 ? 127 : 255;
            d->push[9] = (uint32_t)lo;
            d->push[10] = (uint32_t)hi;
            d->bind[1] = qc->mult;
            d->bind[2] = qc->scale;
            d->bind[3] = qc->n_clamp > 0 ? qc->clamp[0] : qc->scale;
            d->bind[4] = qc->n_clamp > 1 ? qc->clamp[1] : qc->scale;
        }
        d->groups[0] = (m + 63) / 64;
        d->groups[1] = d->groups[2] = 1;
    }
    return RLX_OK;
}
