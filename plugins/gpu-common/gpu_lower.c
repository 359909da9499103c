/*
 * gpu_lower.c - lowering: each graph node becomes steps (kernels, matmuls,
 * copies); reshape is free (it aliases its input's memory).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_compile.h"

static rlxg_step *push_step(const rlx_host *host, rlx_executable *exe,
                            rlxg_step_kind kind, int out)
{
    if (exe->n_steps == exe->cap_steps) {
        uint32_t cap = exe->cap_steps ? exe->cap_steps * 2 : 16;
        rlxg_step *s = realloc(exe->steps, cap * sizeof *s);
        if (!s) {
            rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                            RLXG_NAME " compile: out of memory. Fix: free memory");
            return NULL;
        }
        exe->steps = s;
        exe->cap_steps = cap;
    }
    rlxg_step *s = &exe->steps[exe->n_steps++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->out = out;
    s->in[0] = s->in[1] = s->in[2] = s->in[3] = -1;
    s->in5 = -1;
    return s;
}

rlxg_step *rlxg_step_push(ctx *c, rlxg_step_kind kind, int out)
{
    return push_step(c->host, c->exe, kind, out);
}

/* ---- plans ------------------------------------------------------------- */

/* Drop unit dims and merge dims that are contiguous on both sides. */
static void copy_coalesce(rlxg_copy_plan *p)
{
    int64_t *const strides[2] = { p->src_stride, p->dst_stride };
    p->count = rlx_kit_dims_product(p->dims, 0, p->rank);
    p->rank = rlx_kit_collapse(p->rank, p->dims, strides, 2);
}

static void bside_plan(const rlxg_value *side, const rlxg_value *out,
                       rlxg_bside *s)
{
    uint32_t r = out->rank, off = r - side->rank;
    memset(s, 0, sizeof *s);
    if (side->rank == r &&
        !memcmp(side->dims, out->dims, r * sizeof *out->dims)) {
        s->mode = 0;
        return;
    }
    int first = -1, last = -1, contiguous = 1;
    int64_t mod = 1;
    for (uint32_t d = 0; d < r; d++) {
        int64_t sd = d >= off ? side->dims[d - off] : 1;
        if (out->dims[d] == 1)
            continue;
        if (sd != 1) {
            if (last >= 0 && last != (int)d - 1) {
                /* a gap: only unit output dims may lie between */
                for (int k = last + 1; k < (int)d; k++)
                    if (out->dims[k] != 1)
                        contiguous = 0;
            }
            if (first < 0)
                first = (int)d;
            last = (int)d;
            mod *= sd;
        }
    }
    if (contiguous) {
        int64_t div = 1;
        for (uint32_t d = (uint32_t)(last + 1); d < r; d++)
            div *= out->dims[d];
        s->mode = 1;
        s->div = last < 0 ? 1 : div;
        s->mod = mod;
        return;
    }
    s->mode = 2;
    rlx_kit_broadcast_strides(r, side->rank, side->dims, s->stride);
}

static rlx_status plan_binary(rlx_executable *exe, rlxg_step *s)
{
    const rlxg_value *a = &exe->values[s->in[0]], *b = &exe->values[s->in[1]];
    const rlxg_value *y = &exe->values[s->out];
    s->bcast.rank = y->rank;
    memcpy(s->bcast.dims, y->dims, sizeof s->bcast.dims);
    bside_plan(a, y, &s->bcast.a);
    bside_plan(b, y, &s->bcast.b);
    return RLX_OK;
}

/* ---- one node ------------------------------------------------------------ */

static rlx_status bad_attr(ctx *c, const rlx_node_view *v, const char *what)
{
    return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                        RLXG_NAME " compile: node '%s' has %s." FIX_BUG, v->name,
                        what);
}

static rlx_status node_matmul(ctx *c, uint32_t i)
{
    rlx_executable *exe = c->exe;
    const rlx_node_view *v = c->g->nodes[i];
    const rlx_node_view *a = c->g->nodes[v->inputs[0]];
    const rlx_node_view *b = c->g->nodes[v->inputs[1]];
    int64_t ta = rlx_kit_int_attr(v, 0, 0), tb = rlx_kit_int_attr(v, 1, 0);
    if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1))
        return bad_attr(c, v, "transpose flags other than 0 or 1");
    if (exe->values[i].count == 0)
        return RLX_OK;
    int64_t k = a->rank >= 2 && ta ? a->shape[a->rank - 2]
                                   : a->shape[a->rank - 1];
    if (k == 0) {
        rlxg_step *s = push_step(c->host, exe, RLXG_STEP_ZERO, (int)i);
        return s ? RLX_OK : RLX_ERR_OUT_OF_MEMORY;
    }
    rlx_status st = rlxg_matmul_prepare(exe);
    if (st != RLX_OK)
        return st;
    int add, act;
    rlxg_fuse_matmul(c, i, &add, &act);
    int out = act >= 0 ? act : add >= 0 ? add : (int)i;
    rlxg_step *s = push_step(c->host, exe, RLXG_STEP_MATMUL, out);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    s->in[0] = (int)v->inputs[0];
    s->in[1] = (int)v->inputs[1];
    rlxg_matmul *mm = calloc(1, sizeof *mm);
    if (!mm)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " compile: out of memory. Fix: free "
                               "memory");
    s->mm = mm;
    mm->bias_value = -1;
    mm->epilogue = RLXG_EPI_NONE;
    if (add >= 0) {
        const rlx_node_view *w = c->g->nodes[add];
        mm->bias_value = w->inputs[0] == i ? (int)w->inputs[1]
                                           : (int)w->inputs[0];
        mm->epilogue = RLXG_EPI_BIAS;
        if (act >= 0)
            mm->epilogue = c->g->nodes[act]->op == RLX_OP_RELU
                               ? RLXG_EPI_RELU_BIAS
                               : RLXG_EPI_GELU_BIAS;
        s->in[2] = mm->bias_value;
    }
    st = rlxg_matmul_plan(exe, s, c->g->nodes[out], a, b, ta, tb,
                                     c->precision);
    if (st == RLX_ERR_UNSUPPORTED && add >= 0) {
        /* no epilogue kernel for this case: run add and act unfused */
        s->out = (int)i;
        s->in[2] = -1;
        mm->bias_value = -1;
        mm->epilogue = RLXG_EPI_NONE;
        st = rlxg_matmul_plan(exe, s, v, a, b, ta, tb, c->precision);
        add = act = -1;
    }
    if (st != RLX_OK)
        return st;
    if (add >= 0) { /* the fused consumers emit nothing of their own */
        exe->values[add].storage = -2;
        if (act >= 0)
            exe->values[act].storage = -2;
    }
    return RLX_OK;
}

static rlx_status node_reduce(ctx *c, uint32_t i, rlxg_step *s)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *x = &c->exe->values[v->inputs[0]];
    unsigned char red[RLXG_MAX_RANK] = { 0 };
    uint32_t na = rlx_kit_n_int_attrs(v);
    if (na <= 1) {
        memset(red, 1, sizeof red);
    } else {
        for (uint32_t k = 1; k < na; k++) {
            uint32_t ax;
            if (!norm_axis(v->int_attrs[k], x->rank, &ax) || x->rank == 0)
                return bad_attr(c, v, "an axis out of range");
            red[ax] = 1;
        }
    }
    int64_t stride[RLXG_MAX_RANK];
    rlx_kit_contiguous_strides(x->rank, x->dims, stride);
    rlxg_reduce_plan *p = &s->reduce;
    p->n_out = p->n_red = 1;
    for (uint32_t d = 0; d < x->rank; d++) {
        if (red[d]) {
            p->red_dims[p->red_rank] = x->dims[d];
            p->red_stride[p->red_rank++] = stride[d];
            p->n_red *= x->dims[d];
        } else {
            p->out_dims[p->out_rank] = x->dims[d];
            p->out_stride[p->out_rank++] = stride[d];
            p->n_out *= x->dims[d];
        }
    }
    s->op = v->op;
    return RLX_OK;
}

rlx_status rlxg_node_reduce_plan(ctx *c, uint32_t i, rlxg_step *s)
{
    return node_reduce(c, i, s);
}

static rlx_status node_copy_like(ctx *c, uint32_t i)
{
    rlx_executable *exe = c->exe;
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *y = &exe->values[i];
    int64_t ystride[RLXG_MAX_RANK];
    rlx_kit_contiguous_strides(y->rank, y->dims, ystride);
    size_t elem = rlx_dtype_size(y->dtype);

    if (v->op == RLX_OP_CONCAT) {
        uint32_t axis;
        if (!norm_axis(rlx_kit_int_attr(v, 0, 0), y->rank, &axis) || y->rank == 0)
            return bad_attr(c, v, "a concat axis out of range");
        int64_t at = 0;
        for (uint32_t j = 0; j < v->n_inputs; j++) {
            const rlxg_value *x = &exe->values[v->inputs[j]];
            if (x->count) {
                rlxg_step *s = push_step(c->host, exe, RLXG_STEP_COPY, (int)i);
                if (!s)
                    return RLX_ERR_OUT_OF_MEMORY;
                s->in[0] = (int)v->inputs[j];
                s->copy.rank = x->rank;
                memcpy(s->copy.dims, x->dims, sizeof s->copy.dims);
                rlx_kit_contiguous_strides(x->rank, x->dims, s->copy.src_stride);
                memcpy(s->copy.dst_stride, ystride, sizeof ystride);
                s->dst_offset = (size_t)(at * ystride[axis]) * elem;
                copy_coalesce(&s->copy);
            }
            at += x->dims[axis];
        }
        return RLX_OK;
    }

    const rlxg_value *x = &exe->values[v->inputs[0]];
    int64_t xstride[RLXG_MAX_RANK];
    rlx_kit_contiguous_strides(x->rank, x->dims, xstride);
    rlxg_step *s = push_step(c->host, exe, RLXG_STEP_COPY, (int)i);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    s->in[0] = (int)v->inputs[0];
    rlxg_copy_plan *p = &s->copy;
    p->rank = y->rank;
    memcpy(p->dims, y->dims, sizeof p->dims);
    memcpy(p->dst_stride, ystride, sizeof ystride);
    if (v->op == RLX_OP_TRANSPOSE) {
        uint32_t na = rlx_kit_n_int_attrs(v);
        if (na != 0 && na != x->rank)
            return bad_attr(c, v, "a permutation of the wrong length");
        for (uint32_t d = 0; d < y->rank; d++) {
            int64_t from = na ? v->int_attrs[d] : (int64_t)(x->rank - 1 - d);
            if (from < 0)
                from += x->rank;
            if (from < 0 || from >= (int64_t)x->rank)
                return bad_attr(c, v, "a permutation entry out of range");
            p->src_stride[d] = xstride[from];
        }
    } else if (v->op == RLX_OP_SLICE) {
        memcpy(p->src_stride, xstride, sizeof xstride);
        uint32_t na = rlx_kit_n_int_attrs(v);
        int64_t off = 0;
        for (uint32_t t = 0; t + 3 <= na; t += 3) {
            uint32_t ax;
            if (!norm_axis(v->int_attrs[t], x->rank, &ax) || x->rank == 0)
                return bad_attr(c, v, "a slice axis out of range");
            int64_t dim = x->dims[ax], start = v->int_attrs[t + 1];
            if (start < 0)
                start += dim;
            start = start < 0 ? 0 : start > dim ? dim : start;
            off += start * xstride[ax];
        }
        s->src_offset = (size_t)off * elem;
    } else { /* same layout: cast to the same dtype */
        memcpy(p->src_stride, ystride, sizeof ystride);
    }
    copy_coalesce(p);
    return RLX_OK;
}

rlx_status rlxg_node_emit(ctx *c, uint32_t i)
{
    rlx_executable *exe = c->exe;
    const rlx_node_view *v = c->g->nodes[i];
    rlxg_value *y = &exe->values[i];
    rlxg_step *s;
    if (c->attn[i] >= 0) { /* a fused attention ends here */
        const rlxg_step *a = &c->attn_plans[c->attn[i]];
        if (!(s = push_step(c->host, exe, RLXG_STEP_ATTENTION, a->out)))
            return RLX_ERR_OUT_OF_MEMORY;
        memcpy(s->in, a->in, sizeof s->in);
        s->attn = a->attn;
        return RLX_OK;
    }
    if (c->qchain[i] == -2) /* a fused quantized conv: at its end */
        return RLX_OK;
    if (c->qchain[i] >= 0)
        return rlxg_node_qchain(c, i);
    if (y->storage == -2) { /* fused into another step */
        y->storage = -1;
        return RLX_OK;
    }
    switch (v->op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE:
        return RLX_OK;
    case RLX_OP_MATMUL:
        return node_matmul(c, i);
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE: case RLX_OP_MAX_POOL:
    case RLX_OP_AVG_POOL: case RLX_OP_LP_POOL: case RLX_OP_BATCH_NORM:
    case RLX_OP_INSTANCE_NORM: case RLX_OP_GROUP_NORM: case RLX_OP_RESIZE:
        return y->count ? rlxg_node_vision(c, i) : RLX_OK;
    case RLX_OP_TRANSPOSE: case RLX_OP_SLICE: case RLX_OP_CONCAT:
        return y->count ? node_copy_like(c, i) : RLX_OK;
    default:
        break;
    }
    if (y->count == 0)
        return RLX_OK;
    if (v->op >= RLX_OP_QUANTIZE_LINEAR && v->op <= RLX_OP_CONV_INTEGER)
        return rlxg_node_quant(c, i);
    if (rlxg_node_is_more(c, i))
        return rlxg_node_more(c, i);
    switch (v->op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
        if (!(s = push_step(c->host, exe, RLXG_STEP_BINARY, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->op = v->op;
        s->in[0] = (int)v->inputs[0];
        s->in[1] = (int)v->inputs[1];
        return plan_binary(exe, s);
    case RLX_OP_SOFTMAX: {
        uint32_t axis;
        if (!norm_axis(rlx_kit_int_attr(v, 0, -1), y->rank, &axis))
            return bad_attr(c, v, "a softmax axis out of range");
        int64_t causal = rlx_kit_int_attr(v, 1, 0);
        if (causal != 0 && causal != 1)
            return bad_attr(c, v, "a causal flag other than 0 or 1");
        if (causal && (y->rank < 2 || axis != y->rank - 1))
            return bad_attr(c, v, "causal set on an axis other than the "
                                  "last of a matrix");
        if (!(s = push_step(c->host, exe, RLXG_STEP_SOFTMAX, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        s->outer = s->len = s->inner = 1;
        for (uint32_t d = 0; d < y->rank; d++) {
            if (d < axis)
                s->outer *= y->dims[d];
            else if (d == axis)
                s->len = y->dims[d];
            else
                s->inner *= y->dims[d];
        }
        s->causal_rows = causal ? y->dims[y->rank - 2] : 0;
        return RLX_OK;
    }
    case RLX_OP_LAYER_NORM: case RLX_OP_RMS_NORM:
        if (!(s = push_step(c->host, exe, RLXG_STEP_NORM, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->op = v->op;
        for (uint32_t j = 0; j < v->n_inputs && j < 3; j++)
            s->in[j] = (int)v->inputs[j];
        if (c->norm_res[i] >= 0) { /* norm(a + b): the add fused in */
            const rlx_node_view *w = c->g->nodes[c->norm_res[i]];
            s->in[0] = (int)w->inputs[0];
            s->in[3] = (int)w->inputs[1];
        }
        s->eps = (float)rlx_kit_float_attr(
            v, 0, v->op == RLX_OP_LAYER_NORM ? 1e-5 : 1e-6);
        s->len = y->rank ? y->dims[y->rank - 1] : 1;
        s->outer = s->len ? y->count / s->len : 0;
        return RLX_OK;
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        if (!(s = push_step(c->host, exe, RLXG_STEP_REDUCE, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        return node_reduce(c, i, s);
    case RLX_OP_GATHER: {
        const rlxg_value *d = &exe->values[v->inputs[0]];
        const rlxg_value *ix = &exe->values[v->inputs[1]];
        uint32_t axis;
        if (!norm_axis(rlx_kit_int_attr(v, 0, 0), d->rank, &axis) || d->rank == 0)
            return bad_attr(c, v, "a gather axis out of range");
        if (ix->dtype != RLX_DTYPE_I32 && ix->dtype != RLX_DTYPE_I64)
            return rlx_kit_fail(c->host, RLX_ERR_DTYPE,
                                RLXG_NAME " compile: gather '%s' has indices of "
                                "dtype %d. Fix: use i32 or i64 indices",
                                v->name, (int)ix->dtype);
        if (!(s = push_step(c->host, exe, RLXG_STEP_GATHER, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        s->in[1] = (int)v->inputs[1];
        s->outer = s->inner = 1;
        for (uint32_t k = 0; k < d->rank; k++) {
            if (k < axis)
                s->outer *= d->dims[k];
            else if (k > axis)
                s->inner *= d->dims[k];
        }
        s->len = d->dims[axis];
        s->n_idx = ix->count;
        s->idx_is_i64 = ix->dtype == RLX_DTYPE_I64;
        if (!exe->dev_flag) {
            gpuError_t err = gpuMalloc((void **)&exe->dev_flag, sizeof(int));
            if (err != gpuSuccess)
                return rlxg_gpu_fail(c->host, err, "compile");
        }
        return RLX_OK;
    }
    case RLX_OP_CAST:
        if (exe->values[v->inputs[0]].dtype == y->dtype &&
            y->dtype != RLX_DTYPE_BOOL)
            return node_copy_like(c, i);
        if (!(s = push_step(c->host, exe, RLXG_STEP_CAST, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        return RLX_OK;
    case RLX_OP_FILL:
        if (!(s = push_step(c->host, exe, RLXG_STEP_FILL, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->fill = rlx_kit_float_attr(v, 0, 0.0);
        return RLX_OK;
    default: /* unary */
        if (!(s = push_step(c->host, exe, RLXG_STEP_UNARY, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->op = v->op;
        s->approx = (int)rlx_kit_int_attr(v, 0, 0);
        if (v->op == RLX_OP_GELU && s->approx != RLX_GELU_ERF &&
            s->approx != RLX_GELU_TANH)
            return bad_attr(c, v, "a gelu approximation other than 0 or 1");
        s->in[0] = (int)v->inputs[0];
        return RLX_OK;
    }
}
