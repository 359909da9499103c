/*
 * vk_plan_gather.c - the 1.4 indexing ops that read indices or whole
 * lines: gather_elements and gather_nd (shaders/gather_el.comp,
 * gather_nd.comp), scatter_elements and scatter_nd (a copy of the data,
 * then shaders/scatter.comp), cumsum and topk (shaders/scan.comp;
 * cumsum on f64 and i64 in shaders/cumsum64.comp) and one_hot.
 * Indices are i32 or i64; one out of range raises the run's
 * error flag, so the run fails as the reference's does.
 *
 * Push words: see each shader's header.
 */
#include <string.h>

#include "vk_plan.h"

/* 0 float, 1 signed, 2 unsigned; -1 for dtypes the shaders lack (i64
 * arithmetic, f64). */
static int kind_of(rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_F32: case RLX_DTYPE_F16: case RLX_DTYPE_BF16: return 0;
    case RLX_DTYPE_I32: case RLX_DTYPE_I8: return 1;
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL: return 2;
    default: return -1;
    }
}

static uint32_t wrap_of(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 ? 1u
         : t == RLX_DTYPE_U8 || t == RLX_DTYPE_BOOL ? 2u : 0u;
}

static int index_dtype(const rlx_node_view *v)
{
    return v->dtype == RLX_DTYPE_I32 || v->dtype == RLX_DTYPE_I64;
}

static rlxv_dispatch *add(rlxv_plan_ctx *pc, rlxv_pipe pipe,
                             uint64_t threads)
{
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe, pipe);
    if (d) {
        d->bind[0] = pc->i;
        rlxv_grid(d, threads, RLXV_LOCAL);
    }
    return d;
}

static rlx_status plan_gather_elements(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0),
                        *ix = rlxv_input(pc, 1);
    uint32_t r = x->rank;
    int64_t axis = rlx_kit_norm_axis(
        rlx_kit_int_attr(v, RLX_ATTR_GATHER_ELEMENTS_AXIS, 0), r);
    if (axis < 0 || ix->rank != r || v->rank != r || r > 8 ||
        !index_dtype(ix) || x->dtype != v->dtype)
        return rlxv_unsupported(pc, "bad axis, rank or index dtype");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    int64_t ds[16];
    rlx_kit_contiguous_strides(r, x->shape, ds);
    rlxv_dispatch *d = add(pc, RLXV_PIPE_GATHER_EL, count);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = pc->exe->values[pc->i].words;
    d->push[2] = rlxv_dtype_words(ix->dtype);
    d->push[3] = r;
    d->push[4] = (uint32_t)axis;
    d->push[5] = (uint32_t)x->shape[axis];
    for (uint32_t k = 0; k < r; k++) {
        d->push[6 + k] = (uint32_t)v->shape[k];
        d->push[14 + k] = (uint32_t)ds[k];
    }
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    d->bind[4] = RLXV_BIND_ERR;
    pc->exe->uses_err = 1;
    return RLX_OK;
}

static rlx_status plan_gather_nd(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0),
                        *ix = rlxv_input(pc, 1);
    int64_t b = rlx_kit_int_attr(v, RLX_ATTR_GATHER_ND_BATCH_DIMS, 0);
    if (!index_dtype(ix) || ix->rank < 1 || x->dtype != v->dtype || b < 0 ||
        (uint64_t)b >= ix->rank)
        return rlxv_unsupported(pc, "bad batch_dims or index dtype");
    int64_t last = ix->shape[ix->rank - 1];
    if (last < 0 || last > 8 || (uint64_t)(b + last) > x->rank)
        return rlxv_unsupported(pc, "index rows longer than 8");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    uint64_t qn = 1, rn = 1, block = 1;
    for (uint32_t d = (uint32_t)b; d + 1 < ix->rank; d++)
        qn *= (uint64_t)ix->shape[d];
    for (uint32_t d = (uint32_t)(b + last); d < x->rank; d++)
        rn *= (uint64_t)x->shape[d];
    for (uint32_t d = (uint32_t)b; d < x->rank; d++)
        block *= (uint64_t)x->shape[d];
    rlxv_dispatch *d = add(pc, RLXV_PIPE_GATHER_ND, count);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = pc->exe->values[pc->i].words;
    d->push[2] = rlxv_dtype_words(ix->dtype);
    d->push[3] = (uint32_t)last;
    d->push[4] = (uint32_t)rn;
    d->push[5] = (uint32_t)qn;
    d->push[6] = (uint32_t)block;
    uint64_t s = rn;
    for (int64_t k = last; k-- > 0;) {
        d->push[7 + k] = (uint32_t)x->shape[b + k];
        d->push[15 + k] = (uint32_t)s;
        s *= (uint64_t)x->shape[b + k];
    }
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    d->bind[4] = RLXV_BIND_ERR;
    pc->exe->uses_err = 1;
    return RLX_OK;
}

static rlx_status plan_scatter(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0),
                        *ix = rlxv_input(pc, 1), *u = rlxv_input(pc, 2);
    int nd = v->op == RLX_OP_SCATTER_ND;
    int64_t red = rlx_kit_int_attr(v, nd ? RLX_ATTR_SCATTER_ND_REDUCTION
                                         : RLX_ATTR_SCATTER_ELEMENTS_REDUCTION,
                                   RLX_REDUCTION_NONE);
    uint32_t words = pc->exe->values[pc->i].words;
    int kind = kind_of(v->dtype);
    if (!index_dtype(ix) || x->dtype != v->dtype || u->dtype != v->dtype ||
        red < RLX_REDUCTION_NONE || red > RLX_REDUCTION_MIN ||
        (red != RLX_REDUCTION_NONE && (kind < 0 || words != 1)) ||
        x->rank > 8)
        return rlxv_unsupported(pc, "index dtype, reduction or dtype "
                                       "not handled");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    /* the data first, as is */
    rlxv_dispatch *d = add(pc, RLXV_PIPE_COPY, count);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = words;
    d->push[2] = 1;
    d->push[5] = (uint32_t)count;
    d->push[13] = 1;
    d->push[21] = 1;
    d->bind[1] = v->inputs[0];
    size_t n_idx = pc->exe->values[v->inputs[1]].count;
    if (!n_idx)
        return RLX_OK;
    if (!(d = rlxv_dispatch_add(pc->host, pc->exe, RLXV_PIPE_SCATTER)))
        return RLX_ERR_OUT_OF_MEMORY;
    int64_t ds[16];
    rlx_kit_contiguous_strides(x->rank, x->shape, ds);
    d->push[0] = (uint32_t)nd;
    d->push[2] = words;
    d->push[3] = rlxv_dtype_words(ix->dtype);
    d->push[4] = (uint32_t)red;
    d->push[5] = kind < 0 ? 0u : (uint32_t)kind;
    d->push[6] = wrap_of(v->dtype);
    d->push[7] = pc->round;
    if (!nd) {
        int64_t axis = rlx_kit_norm_axis(
            rlx_kit_int_attr(v, RLX_ATTR_SCATTER_ELEMENTS_AXIS, 0), x->rank);
        if (axis < 0 || ix->rank != x->rank || u->rank != x->rank)
            return rlxv_unsupported(pc, "bad axis or rank");
        d->push[1] = (uint32_t)n_idx;
        d->push[8] = x->rank;
        d->push[9] = (uint32_t)axis;
        d->push[10] = (uint32_t)x->shape[axis];
        for (uint32_t k = 0; k < x->rank; k++) {
            d->push[11 + k] = (uint32_t)ix->shape[k];
            d->push[19 + k] = (uint32_t)ds[k];
        }
    } else {
        int64_t last = ix->rank ? ix->shape[ix->rank - 1] : 0;
        if (ix->rank < 1 || last < 1 || (uint64_t)last > x->rank)
            return rlxv_unsupported(pc, "index rows of another length");
        uint64_t rn = 1;
        for (uint32_t k = (uint32_t)last; k < x->rank; k++)
            rn *= (uint64_t)x->shape[k];
        d->push[1] = (uint32_t)(n_idx / (uint64_t)last);
        d->push[8] = (uint32_t)last;
        d->push[10] = (uint32_t)rn;
        for (int64_t k = 0; k < last; k++) {
            d->push[11 + k] = (uint32_t)x->shape[k];
            d->push[19 + k] = (uint32_t)ds[k];
        }
    }
    d->bind[0] = pc->i;
    d->bind[2] = v->inputs[1];
    d->bind[3] = v->inputs[2];
    d->bind[4] = RLXV_BIND_ERR;
    pc->exe->uses_err = 1;
    return RLX_OK;
}

/* cumsum and topk: the line view [outer, len, inner] around the axis. */
static rlx_status plan_scan(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0);
    int topk = v->op == RLX_OP_TOPK;
    int kind = kind_of(x->dtype);
    /* topk on two-word values: scan.comp built WIDE (topk64) */
    int topk64 = topk && (x->dtype == RLX_DTYPE_I64 ||
                          x->dtype == RLX_DTYPE_U64 ||
                          x->dtype == RLX_DTYPE_F64);
    if (topk64 && (!pc->ctx->int64 || !pc->ctx->float64))
        return rlxv_unsupported(pc, "topk of 64-bit values needs "
                                       "shaderInt64 and shaderFloat64");
    if (topk64)
        kind = x->dtype == RLX_DTYPE_I64 ? 3
             : x->dtype == RLX_DTYPE_U64 ? 4 : 5;
    int wide = !topk && (x->dtype == RLX_DTYPE_F64 ||
                         x->dtype == RLX_DTYPE_I64);
    if (wide && pc->ctx->int64 && pc->ctx->float64 && v->dtype == x->dtype)
        kind = 0;
    else if (wide)
        return rlxv_unsupported(pc, "cumsum on f64 and i64 needs "
                                       "shaderFloat64 and shaderInt64");
    if (kind < 0 || x->dtype == RLX_DTYPE_BOOL ||
        (topk ? v->dtype != RLX_DTYPE_I64 : v->dtype != x->dtype))
        return rlxv_unsupported(pc, "this dtype has no shader here");
    int64_t axis = rlx_kit_norm_axis(
        topk ? rlx_kit_int_attr(v, RLX_ATTR_TOPK_AXIS, -1)
             : rlx_kit_int_attr(v, RLX_ATTR_CUMSUM_AXIS, 0), x->rank);
    if (axis < 0)
        return rlxv_unsupported(pc, "axis out of range");
    uint64_t outer = 1, inner = 1, len = (uint64_t)x->shape[axis];
    for (uint32_t d = 0; d < (uint32_t)axis; d++)
        outer *= (uint64_t)x->shape[d];
    for (uint32_t d = (uint32_t)axis + 1; d < x->rank; d++)
        inner *= (uint64_t)x->shape[d];
    int64_t k = topk ? rlx_kit_int_attr(v, RLX_ATTR_TOPK_K, 0) : 0;
    if (topk && (k < 0 || (uint64_t)k > len))
        return rlxv_unsupported(pc, "k out of range");
    uint64_t threads = topk ? outer * len * inner : outer * inner;
    if (!pc->exe->values[pc->i].count || !threads)
        return RLX_OK;
    if (wide) {
        rlxv_dispatch *d = add(pc, RLXV_PIPE_CUMSUM64, threads);
        if (!d)
            return RLX_ERR_OUT_OF_MEMORY;
        d->push[0] = (uint32_t)threads;
        d->push[1] = (uint32_t)len;
        d->push[2] = (uint32_t)inner;
        d->push[3] = x->dtype == RLX_DTYPE_F64;
        d->push[4] = rlx_kit_int_attr(v, RLX_ATTR_CUMSUM_EXCLUSIVE, 0) != 0;
        d->push[5] = rlx_kit_int_attr(v, RLX_ATTR_CUMSUM_REVERSE, 0) != 0;
        d->bind[1] = v->inputs[0];
        return RLX_OK;
    }
    rlxv_dispatch *d = add(pc, topk64 ? RLXV_PIPE_TOPK64 : RLXV_PIPE_SCAN,
                           threads);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)topk;
    d->push[1] = (uint32_t)threads;
    d->push[2] = (uint32_t)len;
    d->push[3] = (uint32_t)inner;
    d->push[4] = (uint32_t)kind;
    d->push[5] = wrap_of(x->dtype);
    d->push[6] = pc->round;
    d->push[7] = rlx_kit_int_attr(v, RLX_ATTR_CUMSUM_EXCLUSIVE, 0) != 0;
    d->push[8] = rlx_kit_int_attr(v, RLX_ATTR_CUMSUM_REVERSE, 0) != 0;
    d->push[9] = (uint32_t)k;
    d->push[10] = rlx_kit_int_attr(v, RLX_ATTR_TOPK_LARGEST, 1) != 0;
    if (topk)
        d->push[7] = d->push[8] = 0;
    d->bind[1] = v->inputs[0];
    return RLX_OK;
}

static rlx_status plan_one_hot(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *ix = rlxv_input(pc, 0),
                        *val = rlxv_input(pc, 1);
    int64_t depth = rlx_kit_int_attr(v, RLX_ATTR_ONE_HOT_DEPTH, 0);
    int64_t axis = rlx_kit_norm_axis(
        rlx_kit_int_attr(v, RLX_ATTR_ONE_HOT_AXIS, -1), v->rank);
    if (!index_dtype(ix) || val->dtype != v->dtype || axis < 0 ||
        depth < 1 || v->shape[axis] != depth ||
        pc->exe->values[v->inputs[1]].count != 2)
        return rlxv_unsupported(pc, "bad depth, axis or dtypes");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    uint64_t inner = 1;
    for (uint32_t d = (uint32_t)axis + 1; d < v->rank; d++)
        inner *= (uint64_t)v->shape[d];
    rlxv_dispatch *d = add(pc, RLXV_PIPE_ONE_HOT, count);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = pc->exe->values[pc->i].words;
    d->push[2] = rlxv_dtype_words(ix->dtype);
    d->push[3] = (uint32_t)depth;
    d->push[4] = (uint32_t)inner;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    return RLX_OK;
}

rlx_status rlxv_plan_gather(rlxv_plan_ctx *pc)
{
    switch (pc->v->op) {
    case RLX_OP_GATHER_ELEMENTS: return plan_gather_elements(pc);
    case RLX_OP_GATHER_ND: return plan_gather_nd(pc);
    case RLX_OP_SCATTER_ELEMENTS: case RLX_OP_SCATTER_ND:
        return plan_scatter(pc);
    case RLX_OP_ONE_HOT: return plan_one_hot(pc);
    default: return plan_scan(pc);
    }
}
