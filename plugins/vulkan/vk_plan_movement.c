/*
 * vk_plan_movement.c - data movement on any dtype: transpose, slice and
 * concat become strided copies (one per concat input); gather indexes
 * one axis and raises the run's error flag on an index out of range.
 * (Reshape needs no work: its value aliases its input's storage.)
 *
 * copy push words: count, words per element, rank, source offset,
 * destination offset, dims[8], source strides[8], destination
 * strides[8]. gather: count, words, axis dim, inner count, index count,
 * index words.
 */
#include "vk_plan.h"

static rlx_status add_copy(rlxv_plan_ctx *pc, uint32_t src, uint32_t rank,
                           int64_t *dims, int64_t *ss, int64_t *ds,
                           uint64_t src_off, uint64_t dst_off)
{
    uint64_t count = 1;
    for (uint32_t d = 0; d < rank; d++)
        count *= (uint64_t)dims[d];
    if (!count)
        return RLX_OK;
    uint32_t r = rlx_kit_collapse(rank, dims, (int64_t *const[]){ ss, ds }, 2);
    if (r > RLXV_MAX_RANK)
        return rlxv_unsupported(pc, "more than 8 dims remain after "
                                       "merging contiguous ones");
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_COPY);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = pc->exe->values[pc->i].words;
    d->push[2] = r;
    d->push[3] = (uint32_t)src_off;
    d->push[4] = (uint32_t)dst_off;
    for (uint32_t k = 0; k < r; k++) {
        d->push[5 + k] = (uint32_t)dims[k];
        d->push[13 + k] = (uint32_t)ss[k];
        d->push[21 + k] = (uint32_t)ds[k];
    }
    d->bind[0] = pc->i;
    d->bind[1] = src;
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

static rlx_status plan_transpose(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *in = rlxv_input(pc, 0);
    uint32_t r = in->rank;
    int64_t is[16], dims[16], ss[16], ds[16];
    if (r != v->rank)
        return rlxv_unsupported(pc, "rank changes");
    rlx_kit_contiguous_strides(r, in->shape, is);
    rlx_kit_contiguous_strides(r, v->shape, ds);
    int have = rlx_kit_n_int_attrs(v) == r;
    for (uint32_t d = 0; d < r; d++) {
        int64_t p = have ? rlx_kit_norm_axis(v->int_attrs[d], r)
                         : (int64_t)(r - 1 - d);
        if (p < 0)
            return rlxv_unsupported(pc, "permutation out of range");
        dims[d] = v->shape[d];
        ss[d] = is[p];
    }
    return add_copy(pc, v->inputs[0], r, dims, ss, ds, 0, 0);
}

static rlx_status plan_slice(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *in = rlxv_input(pc, 0);
    uint32_t r = in->rank;
    int64_t is[16], dims[16], ds[16], start[16] = { 0 };
    if (r != v->rank)
        return rlxv_unsupported(pc, "rank changes");
    rlx_kit_contiguous_strides(r, in->shape, is);
    rlx_kit_contiguous_strides(r, v->shape, ds);
    uint32_t n = rlx_kit_n_int_attrs(v);
    for (uint32_t t = 0; t + 3 <= n; t += 3) {
        int64_t axis = rlx_kit_norm_axis(v->int_attrs[t], r);
        int64_t s = v->int_attrs[t + 1], dim;
        if (axis < 0)
            return rlxv_unsupported(pc, "slice axis out of range");
        dim = in->shape[axis];
        if (s < 0)
            s += dim;
        if (s < 0)
            s = 0;
        if (s > dim)
            s = dim;
        start[axis] = s;
    }
    uint64_t off = 0;
    for (uint32_t d = 0; d < r; d++) {
        off += (uint64_t)(start[d] * is[d]);
        dims[d] = v->shape[d];
    }
    return add_copy(pc, v->inputs[0], r, dims, is, ds, off, 0);
}

static rlx_status plan_concat(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v;
    uint32_t r = v->rank;
    int64_t axis = rlx_kit_norm_axis(
        rlx_kit_int_attr(v, RLX_ATTR_CONCAT_AXIS, 0), r);
    if (axis < 0)
        return rlxv_unsupported(pc, "concat axis out of range");
    int64_t os[16];
    rlx_kit_contiguous_strides(r, v->shape, os);
    uint64_t at = 0;
    for (uint32_t j = 0; j < v->n_inputs; j++) {
        const rlx_node_view *in = rlxv_input(pc, j);
        if (in->rank != r)
            return rlxv_unsupported(pc, "inputs of another rank");
        int64_t dims[16], ss[16], ds[16];
        rlx_kit_contiguous_strides(r, in->shape, ss);
        for (uint32_t d = 0; d < r; d++) {
            dims[d] = in->shape[d];
            ds[d] = os[d];
        }
        rlx_status st = add_copy(pc, v->inputs[j], r, dims, ss, ds, 0,
                                 at * (uint64_t)os[axis]);
        if (st != RLX_OK)
            return st;
        at += (uint64_t)in->shape[axis];
    }
    return RLX_OK;
}

static rlx_status plan_gather(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *data = rlxv_input(pc, 0),
                        *idx = rlxv_input(pc, 1);
    if (idx->dtype != RLX_DTYPE_I32 && idx->dtype != RLX_DTYPE_I64)
        return rlxv_unsupported(pc, "indices must be i32 or i64");
    int64_t axis = rlx_kit_norm_axis(
        rlx_kit_int_attr(v, RLX_ATTR_GATHER_AXIS, 0), data->rank);
    if (axis < 0)
        return rlxv_unsupported(pc, "gather axis out of range");
    uint64_t inner = 1;
    for (uint32_t d = (uint32_t)axis + 1; d < data->rank; d++)
        inner *= (uint64_t)data->shape[d];
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_GATHER);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = pc->exe->values[pc->i].words;
    d->push[2] = (uint32_t)data->shape[axis];
    d->push[3] = (uint32_t)inner;
    d->push[4] = (uint32_t)pc->exe->values[v->inputs[1]].count;
    d->push[5] = rlxv_dtype_words(idx->dtype);
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    d->bind[4] = RLXV_BIND_ERR;
    pc->exe->uses_err = 1;
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

rlx_status rlxv_plan_movement(rlxv_plan_ctx *pc)
{
    for (uint32_t j = 0; j < pc->v->n_inputs; j++)
        if (pc->v->op != RLX_OP_GATHER || j == 0)
            if (rlxv_input(pc, j)->dtype != pc->v->dtype)
                return rlxv_unsupported(pc, "operands of another dtype");
    switch (pc->v->op) {
    case RLX_OP_TRANSPOSE: return plan_transpose(pc);
    case RLX_OP_SLICE: return plan_slice(pc);
    case RLX_OP_CONCAT: return plan_concat(pc);
    default: return plan_gather(pc);
    }
}
