/*
 * vk_plan_conv.c - conv and conv_transpose on 1 to 3 spatial axes (the
 * attributes read by the plugin kit, rlx/kit_spatial.h). Convolutions
 * with 16 or more output channels per group run as an implicit GEMM
 * (shaders/conv.comp, sgemm's tiling in scalar form); depthwise-like
 * ones and conv_transpose run direct (shaders/convd.comp), one thread
 * per output. conv_integer takes the same two paths (conv.comp and
 * convd.comp built INTEGER, the zero points at bindings 3 and 4, has
 * bias meaning w's zero point is per output channel); its GEMM
 * multiplies packed 4 x 8-bit dot products where the device has them
 * (conv.comp built DOT too; see rlxv_int_dot). Both take the
 * requantization chain after them into their epilogue where they can
 * (vk_plan_qfuse.c; conv.comp and convd.comp built EPI).
 *
 * push words (shaders/conv_common.glsl): count, M, C, group, output
 * positions, input positions, kernel taps, has bias, round, transposed,
 * K = C/group * taps, then input dims[3], output dims[3], kernel[3],
 * strides[3], dilations[3], pads_begin[3] (leading axes padded with 1,
 * or 0 for the pads), whether x and w are i8 (conv_integer).
 */
#include "vk_plan.h"

#define GEMM_MIN_ROWS 16 /* output channels per group for the GEMM */

rlx_status rlxv_plan_conv(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0),
                        *w = rlxv_input(pc, 1);
    int integer = v->op == RLX_OP_CONV_INTEGER;
    if (integer) {
        if (v->dtype != RLX_DTYPE_I32 ||
            (x->dtype != RLX_DTYPE_I8 && x->dtype != RLX_DTYPE_U8) ||
            (w->dtype != RLX_DTYPE_I8 && w->dtype != RLX_DTYPE_U8) ||
            rlxv_input(pc, 2)->dtype != x->dtype ||
            rlxv_input(pc, 3)->dtype != w->dtype)
            return rlxv_unsupported(pc, "conv_integer takes i8 or u8 "
                                           "operands and gives i32");
    } else {
        if (!rlx_kit_dtype_is_float(v->dtype))
            return rlxv_unsupported(pc, "conv takes f32, f16 or bf16");
        for (uint32_t j = 0; j < v->n_inputs; j++)
            if (rlxv_input(pc, j)->dtype != v->dtype)
                return rlxv_unsupported(pc, "operands of mixed dtypes");
        if (v->n_inputs < 2 || v->n_inputs > 3)
            return rlxv_unsupported(pc, "conv takes 2 or 3 inputs");
    }
    rlx_kit_spatial sp;
    char err[256];
    /* conv_integer's attributes are conv's */
    if (rlx_kit_spatial_parse(integer ? RLX_OP_CONV : v->op, x->rank, rlx_kit_n_int_attrs(v),
                              v->int_attrs, &sp, err, sizeof err) != 0)
        return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                            "vulkan compile: %s '%s': %s",
                            rlx_kit_op_name(v->op), pc->name, err);
    if (sp.s > 3)
        return rlxv_unsupported(pc, "more than 3 spatial axes");
    if (w->rank != x->rank || v->rank != x->rank)
        return rlxv_unsupported(pc, "weights or result of another rank");
    uint64_t n = (uint64_t)x->shape[0], c = (uint64_t)x->shape[1];
    uint64_t m = (uint64_t)v->shape[1], grp = (uint64_t)sp.group;
    if (c % grp || m % grp)
        return rlxv_unsupported(pc, "channels not divisible by group");
    uint32_t in[3] = { 1, 1, 1 }, out[3] = { 1, 1, 1 }, k[3] = { 1, 1, 1 };
    uint32_t st[3] = { 1, 1, 1 }, dil[3] = { 1, 1, 1 }, pb[3] = { 0 };
    uint64_t in_sp = 1, out_sp = 1, k_sp = 1;
    for (uint32_t i = 0; i < sp.s; i++) {
        uint32_t a = 3 - sp.s + i;
        in[a] = (uint32_t)x->shape[2 + i];
        out[a] = (uint32_t)v->shape[2 + i];
        k[a] = (uint32_t)w->shape[2 + i];
        st[a] = (uint32_t)sp.stride[i];
        dil[a] = (uint32_t)sp.dilation[i];
        pb[a] = (uint32_t)sp.pad_begin[i];
        in_sp *= in[a];
        out_sp *= out[a];
        k_sp *= k[a];
    }
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    uint64_t mg = m / grp, kg = c / grp * k_sp;
    uint64_t gx = (out_sp + 63) / 64, gy = (mg + 63) / 64;
    size_t wz_count = integer ? pc->exe->values[v->inputs[3]].count : 0;
    if (integer && (pc->exe->values[v->inputs[2]].count != 1 ||
                    (wz_count != 1 && wz_count != m)))
        return rlxv_unsupported(pc, "zero points neither scalars nor one "
                                       "per output channel (w)");
    int gemm = v->op != RLX_OP_CONV_TRANSPOSE && mg >= GEMM_MIN_ROWS &&
               gx <= 65535 && gy <= 65535 && n * grp <= 65535;
    /* the requantization chain fused: planned at its last node */
    rlxv_qchain qc;
    int fuse = integer && rlxv_qfuse_match(pc, &qc);
    if (fuse && !pc->at_chain_end) {
        pc->exe->values[pc->i].fused = 1;
        for (uint32_t k = 0; k + 1 < qc.n_links; k++)
            pc->exe->values[qc.links[k]].fused = 1;
        pc->exe->values[qc.last].qconv = pc->i + 1;
        return RLX_OK;
    }
    uint32_t table = RLXV_BIND_NONE;
    rlx_status ts = fuse ? rlxv_qfuse_table(pc, &qc, &table) : RLX_OK;
    if (ts != RLX_OK)
        return ts;
    int dot = integer && rlxv_int_dot(pc);
    rlxv_pipe pipe = !integer ? (gemm ? RLXV_PIPE_CONV : RLXV_PIPE_CONVD)
                     : !gemm  ? (fuse ? RLXV_PIPE_CONVI_Q : RLXV_PIPE_CONVI)
                     : fuse   ? (dot ? RLXV_PIPE_CONVG_DOT_Q
                                     : RLXV_PIPE_CONVG_INT_Q)
                     : dot    ? RLXV_PIPE_CONVG_DOT
                              : RLXV_PIPE_CONVG_INT;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe, pipe);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    const uint32_t head[11] = {
        (uint32_t)count, (uint32_t)m, (uint32_t)c, (uint32_t)grp,
        (uint32_t)out_sp, (uint32_t)in_sp, (uint32_t)k_sp,
        integer ? wz_count > 1 : v->n_inputs == 3, pc->round,
        v->op == RLX_OP_CONV_TRANSPOSE,
        (uint32_t)kg };
    for (uint32_t q = 0; q < 11; q++)
        d->push[q] = head[q];
    for (uint32_t a = 0; a < 3; a++) {
        d->push[11 + a] = in[a];
        d->push[14 + a] = out[a];
        d->push[17 + a] = k[a];
        d->push[20 + a] = st[a];
        d->push[23 + a] = dil[a];
        d->push[26 + a] = pb[a];
    }
    d->push[29] = x->dtype == RLX_DTYPE_I8;
    d->push[30] = w->dtype == RLX_DTYPE_I8;
    d->bind[0] = fuse ? qc.last : pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    if (v->n_inputs >= 3)
        d->bind[3] = v->inputs[2];
    if (integer)
        d->bind[4] = v->inputs[3];
    if (fuse) { /* the zero points come from the table */
        d->bind[3] = table;
        d->bind[4] = RLXV_BIND_NONE;
    }
    if (gemm) {
        d->groups[0] = (uint32_t)gx;
        d->groups[1] = (uint32_t)gy;
        d->groups[2] = (uint32_t)(n * grp);
    } else {
        rlxv_grid(d, count, RLXV_LOCAL);
    }
    return RLX_OK;
}
