/*
 * cuda_compile.c - turn a graph view into an executable: one value per
 * node, a list of steps (kernels and cuBLASLt calls), matmul + bias
 * (+ relu / tanh-gelu) fused into cuBLASLt epilogues, and every
 * intermediate placed in one device arena by a liveness-based plan made
 * here, so runs allocate nothing. Reshape is free: it aliases its
 * input's memory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_internal.h"

#define FIX_BUG " Fix: report this as a bug in the rlx core"
#define ALIGN 256
#define WORKSPACE_BYTES ((size_t)32 << 20)

static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

static int64_t int_attr(const rlx_node_view *v, uint32_t i, int64_t def)
{
    if (RLX_HAS_FIELD(v->struct_size, rlx_node_view, int_attrs) &&
        v->int_attrs && i < v->n_int_attrs)
        return v->int_attrs[i];
    return def;
}

static uint32_t n_int_attrs(const rlx_node_view *v)
{
    if (RLX_HAS_FIELD(v->struct_size, rlx_node_view, int_attrs) &&
        v->int_attrs)
        return v->n_int_attrs;
    return 0;
}

static double float_attr(const rlx_node_view *v, uint32_t i, double def)
{
    if (RLX_HAS_FIELD(v->struct_size, rlx_node_view, float_attrs) &&
        v->float_attrs && i < v->n_float_attrs)
        return v->float_attrs[i];
    return def;
}

static void contiguous_strides(uint32_t rank, const int64_t *dims,
                               int64_t *stride)
{
    int64_t s = 1;
    for (uint32_t d = rank; d-- > 0;) {
        stride[d] = s;
        s *= dims[d];
    }
}

static rlxc_step *push_step(const rlx_host *host, rlx_executable *exe,
                            rlxc_step_kind kind, int out)
{
    if (exe->n_steps == exe->cap_steps) {
        uint32_t cap = exe->cap_steps ? exe->cap_steps * 2 : 16;
        rlxc_step *s = realloc(exe->steps, cap * sizeof *s);
        if (!s) {
            rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                            "cuda compile: out of memory. Fix: free memory");
            return NULL;
        }
        exe->steps = s;
        exe->cap_steps = cap;
    }
    rlxc_step *s = &exe->steps[exe->n_steps++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->out = out;
    s->in[0] = s->in[1] = s->in[2] = s->in[3] = -1;
    return s;
}

/* ---- plans ------------------------------------------------------------- */

/* Drop unit dims and merge dims that are contiguous on both sides. */
static void copy_coalesce(rlxc_copy_plan *p)
{
    uint32_t r = 0;
    int64_t count = 1;
    for (uint32_t d = 0; d < p->rank; d++) {
        count *= p->dims[d];
        if (p->dims[d] == 1)
            continue;
        if (r > 0 &&
            p->src_stride[r - 1] == p->src_stride[d] * p->dims[d] &&
            p->dst_stride[r - 1] == p->dst_stride[d] * p->dims[d]) {
            p->dims[r - 1] *= p->dims[d];
            p->src_stride[r - 1] = p->src_stride[d];
            p->dst_stride[r - 1] = p->dst_stride[d];
            continue;
        }
        p->dims[r] = p->dims[d];
        p->src_stride[r] = p->src_stride[d];
        p->dst_stride[r] = p->dst_stride[d];
        r++;
    }
    p->rank = r;
    p->count = count;
}

static void bside_plan(const rlxc_value *side, const rlxc_value *out,
                       rlxc_bside *s)
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
    int64_t step = 1;
    for (uint32_t d = r; d-- > 0;) {
        int64_t sd = d >= off ? side->dims[d - off] : 1;
        s->stride[d] = sd == 1 ? 0 : step;
        step *= sd;
    }
}

static rlx_status plan_binary(rlx_executable *exe, rlxc_step *s)
{
    const rlxc_value *a = &exe->values[s->in[0]], *b = &exe->values[s->in[1]];
    const rlxc_value *y = &exe->values[s->out];
    s->bcast.rank = y->rank;
    memcpy(s->bcast.dims, y->dims, sizeof s->bcast.dims);
    bside_plan(a, y, &s->bcast.a);
    bside_plan(b, y, &s->bcast.b);
    return RLX_OK;
}

static int norm_axis(int64_t axis, uint32_t rank, uint32_t *out)
{
    int64_t r = rank ? (int64_t)rank : 1;
    if (axis < -r || axis >= r)
        return 0;
    *out = (uint32_t)(axis < 0 ? axis + r : axis);
    return 1;
}

/* ---- one node ------------------------------------------------------------ */

typedef struct ctx {
    const rlx_host *host;
    rlx_executable *exe;
    const rlx_graph_view *g;
    int precision;
    int *consumer;      /* the last node reading each node */
    int *norm_res;      /* per norm node: the add fused into it, or -1 */
    int *attn;          /* per node: index into attn_plans, or -1 */
    rlxc_step *attn_plans; /* fused attentions (kind, in[], attn, out) */
    uint32_t n_attn;
} ctx;

static rlx_status bad_attr(ctx *c, const rlx_node_view *v, const char *what)
{
    return rlxc_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                     "cuda compile: node '%s' has %s." FIX_BUG, v->name,
                     what);
}

/* Would matmul node I fuse its consumer add (bias) and an activation? */
static void find_fusion(ctx *c, uint32_t i, int *add, int *act)
{
    const rlx_graph_view *g = c->g;
    rlxc_value *vals = c->exe->values;
    const rlx_node_view *v = g->nodes[i];
    *add = *act = -1;
    if (vals[i].uses != 1 || vals[i].is_output || c->consumer[i] < 0)
        return;
    const rlx_node_view *a = g->nodes[v->inputs[0]];
    const rlx_node_view *b = g->nodes[v->inputs[1]];
    int64_t ta = int_attr(v, 0, 0);
    if (b->rank != 2 || (a->rank > 2 && ta) || a->rank < 1 ||
        vals[i].count == 0)
        return;
    int64_t k = ta && a->rank >= 2 ? a->shape[a->rank - 2]
                                   : a->shape[a->rank - 1];
    if (k == 0)
        return;
    int j = c->consumer[i];
    const rlx_node_view *w = g->nodes[j];
    if (w->op != RLX_OP_ADD || w->dtype != v->dtype)
        return;
    int other = w->inputs[0] == i ? (int)w->inputs[1] : (int)w->inputs[0];
    if (other == (int)i || vals[j].rank != vals[i].rank ||
        memcmp(vals[j].dims, vals[i].dims, vals[i].rank * sizeof(int64_t)))
        return;
    const rlxc_value *bias = &vals[other];
    int64_t n = vals[i].dims[vals[i].rank - 1];
    if (bias->rank < 1 || bias->dims[bias->rank - 1] != n || bias->count != n)
        return;
    if (vals[j].storage == -2) /* claimed by another fusion */
        return;
    *add = j;
    if (vals[j].uses != 1 || vals[j].is_output || c->consumer[j] < 0)
        return;
    const rlx_node_view *x = g->nodes[c->consumer[j]];
    if (x->dtype != v->dtype)
        return;
    if (x->op == RLX_OP_RELU ||
        (x->op == RLX_OP_GELU && int_attr(x, 0, 0) == RLX_GELU_TANH))
        *act = c->consumer[j];
}

static rlx_status node_matmul(ctx *c, uint32_t i)
{
    rlx_executable *exe = c->exe;
    const rlx_node_view *v = c->g->nodes[i];
    const rlx_node_view *a = c->g->nodes[v->inputs[0]];
    const rlx_node_view *b = c->g->nodes[v->inputs[1]];
    int64_t ta = int_attr(v, 0, 0), tb = int_attr(v, 1, 0);
    if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1))
        return bad_attr(c, v, "transpose flags other than 0 or 1");
    if (exe->values[i].count == 0)
        return RLX_OK;
    int64_t k = a->rank >= 2 && ta ? a->shape[a->rank - 2]
                                   : a->shape[a->rank - 1];
    if (k == 0) {
        rlxc_step *s = push_step(c->host, exe, RLXC_STEP_ZERO, (int)i);
        return s ? RLX_OK : RLX_ERR_OUT_OF_MEMORY;
    }
    if (!exe->lt) {
        rlx_status st = rlxc_device_blas(exe->be, exe->device, &exe->lt);
        if (st != RLX_OK)
            return st;
    }
    int add, act;
    find_fusion(c, i, &add, &act);
    int out = act >= 0 ? act : add >= 0 ? add : (int)i;
    rlxc_step *s = push_step(c->host, exe, RLXC_STEP_MATMUL, out);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    s->in[0] = (int)v->inputs[0];
    s->in[1] = (int)v->inputs[1];
    rlxc_matmul *mm = calloc(1, sizeof *mm);
    if (!mm)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    s->mm = mm;
    mm->bias_value = -1;
    mm->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
    if (add >= 0) {
        const rlx_node_view *w = c->g->nodes[add];
        mm->bias_value = w->inputs[0] == i ? (int)w->inputs[1]
                                           : (int)w->inputs[0];
        mm->epilogue = CUBLASLT_EPILOGUE_BIAS;
        if (act >= 0)
            mm->epilogue = c->g->nodes[act]->op == RLX_OP_RELU
                               ? CUBLASLT_EPILOGUE_RELU_BIAS
                               : CUBLASLT_EPILOGUE_GELU_BIAS;
        s->in[2] = mm->bias_value;
    }
    rlx_status st = rlxc_matmul_plan(exe, s, c->g->nodes[out], a, b, ta, tb,
                                     c->precision);
    if (st == RLX_ERR_UNSUPPORTED && add >= 0) {
        /* no epilogue kernel for this case: run add and act unfused */
        s->out = (int)i;
        s->in[2] = -1;
        mm->bias_value = -1;
        mm->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
        st = rlxc_matmul_plan(exe, s, v, a, b, ta, tb, c->precision);
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

static rlx_status node_reduce(ctx *c, uint32_t i, rlxc_step *s)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxc_value *x = &c->exe->values[v->inputs[0]];
    unsigned char red[RLXC_MAX_RANK] = { 0 };
    uint32_t na = n_int_attrs(v);
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
    int64_t stride[RLXC_MAX_RANK];
    contiguous_strides(x->rank, x->dims, stride);
    rlxc_reduce_plan *p = &s->reduce;
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

static rlx_status node_copy_like(ctx *c, uint32_t i)
{
    rlx_executable *exe = c->exe;
    const rlx_node_view *v = c->g->nodes[i];
    const rlxc_value *y = &exe->values[i];
    int64_t ystride[RLXC_MAX_RANK];
    contiguous_strides(y->rank, y->dims, ystride);
    size_t elem = rlx_dtype_size(y->dtype);

    if (v->op == RLX_OP_CONCAT) {
        uint32_t axis;
        if (!norm_axis(int_attr(v, 0, 0), y->rank, &axis) || y->rank == 0)
            return bad_attr(c, v, "a concat axis out of range");
        int64_t at = 0;
        for (uint32_t j = 0; j < v->n_inputs; j++) {
            const rlxc_value *x = &exe->values[v->inputs[j]];
            if (x->count) {
                rlxc_step *s = push_step(c->host, exe, RLXC_STEP_COPY, (int)i);
                if (!s)
                    return RLX_ERR_OUT_OF_MEMORY;
                s->in[0] = (int)v->inputs[j];
                s->copy.rank = x->rank;
                memcpy(s->copy.dims, x->dims, sizeof s->copy.dims);
                contiguous_strides(x->rank, x->dims, s->copy.src_stride);
                memcpy(s->copy.dst_stride, ystride, sizeof ystride);
                s->dst_offset = (size_t)(at * ystride[axis]) * elem;
                copy_coalesce(&s->copy);
            }
            at += x->dims[axis];
        }
        return RLX_OK;
    }

    const rlxc_value *x = &exe->values[v->inputs[0]];
    int64_t xstride[RLXC_MAX_RANK];
    contiguous_strides(x->rank, x->dims, xstride);
    rlxc_step *s = push_step(c->host, exe, RLXC_STEP_COPY, (int)i);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    s->in[0] = (int)v->inputs[0];
    rlxc_copy_plan *p = &s->copy;
    p->rank = y->rank;
    memcpy(p->dims, y->dims, sizeof p->dims);
    memcpy(p->dst_stride, ystride, sizeof ystride);
    if (v->op == RLX_OP_TRANSPOSE) {
        uint32_t na = n_int_attrs(v);
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
        uint32_t na = n_int_attrs(v);
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

static rlx_status node_emit(ctx *c, uint32_t i)
{
    rlx_executable *exe = c->exe;
    const rlx_node_view *v = c->g->nodes[i];
    rlxc_value *y = &exe->values[i];
    rlxc_step *s;
    if (c->attn[i] >= 0) { /* a fused attention ends here */
        const rlxc_step *a = &c->attn_plans[c->attn[i]];
        if (!(s = push_step(c->host, exe, RLXC_STEP_ATTENTION, a->out)))
            return RLX_ERR_OUT_OF_MEMORY;
        memcpy(s->in, a->in, sizeof s->in);
        s->attn = a->attn;
        return RLX_OK;
    }
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
    case RLX_OP_TRANSPOSE: case RLX_OP_SLICE: case RLX_OP_CONCAT:
        return y->count ? node_copy_like(c, i) : RLX_OK;
    default:
        break;
    }
    if (y->count == 0)
        return RLX_OK;
    switch (v->op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
        if (!(s = push_step(c->host, exe, RLXC_STEP_BINARY, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->op = v->op;
        s->in[0] = (int)v->inputs[0];
        s->in[1] = (int)v->inputs[1];
        return plan_binary(exe, s);
    case RLX_OP_SOFTMAX: {
        uint32_t axis;
        if (!norm_axis(int_attr(v, 0, -1), y->rank, &axis))
            return bad_attr(c, v, "a softmax axis out of range");
        int64_t causal = int_attr(v, 1, 0);
        if (causal != 0 && causal != 1)
            return bad_attr(c, v, "a causal flag other than 0 or 1");
        if (causal && (y->rank < 2 || axis != y->rank - 1))
            return bad_attr(c, v, "causal set on an axis other than the "
                                  "last of a matrix");
        if (!(s = push_step(c->host, exe, RLXC_STEP_SOFTMAX, (int)i)))
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
        if (!(s = push_step(c->host, exe, RLXC_STEP_NORM, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->op = v->op;
        for (uint32_t j = 0; j < v->n_inputs && j < 3; j++)
            s->in[j] = (int)v->inputs[j];
        if (c->norm_res[i] >= 0) { /* norm(a + b): the add fused in */
            const rlx_node_view *w = c->g->nodes[c->norm_res[i]];
            s->in[0] = (int)w->inputs[0];
            s->in[3] = (int)w->inputs[1];
        }
        s->eps = (float)float_attr(v, 0, v->op == RLX_OP_LAYER_NORM ? 1e-5
                                                                    : 1e-6);
        s->len = y->rank ? y->dims[y->rank - 1] : 1;
        s->outer = s->len ? y->count / s->len : 0;
        return RLX_OK;
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        if (!(s = push_step(c->host, exe, RLXC_STEP_REDUCE, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        return node_reduce(c, i, s);
    case RLX_OP_GATHER: {
        const rlxc_value *d = &exe->values[v->inputs[0]];
        const rlxc_value *ix = &exe->values[v->inputs[1]];
        uint32_t axis;
        if (!norm_axis(int_attr(v, 0, 0), d->rank, &axis) || d->rank == 0)
            return bad_attr(c, v, "a gather axis out of range");
        if (ix->dtype != RLX_DTYPE_I32 && ix->dtype != RLX_DTYPE_I64)
            return rlxc_fail(c->host, RLX_ERR_DTYPE,
                             "cuda compile: gather '%s' has indices of "
                             "dtype %d. Fix: use i32 or i64 indices",
                             v->name, (int)ix->dtype);
        if (!(s = push_step(c->host, exe, RLXC_STEP_GATHER, (int)i)))
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
            cudaError_t err = cudaMalloc((void **)&exe->dev_flag, sizeof(int));
            if (err != cudaSuccess)
                return rlxc_cuda_fail(c->host, err, "compile");
        }
        return RLX_OK;
    }
    case RLX_OP_CAST:
        if (exe->values[v->inputs[0]].dtype == y->dtype &&
            y->dtype != RLX_DTYPE_BOOL)
            return node_copy_like(c, i);
        if (!(s = push_step(c->host, exe, RLXC_STEP_CAST, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        return RLX_OK;
    case RLX_OP_FILL:
        if (!(s = push_step(c->host, exe, RLXC_STEP_FILL, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->fill = float_attr(v, 0, 0.0);
        return RLX_OK;
    default: /* unary */
        if (!(s = push_step(c->host, exe, RLXC_STEP_UNARY, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->op = v->op;
        s->approx = (int)int_attr(v, 0, 0);
        if (v->op == RLX_OP_GELU && s->approx != RLX_GELU_ERF &&
            s->approx != RLX_GELU_TANH)
            return bad_attr(c, v, "a gelu approximation other than 0 or 1");
        s->in[0] = (int)v->inputs[0];
        return RLX_OK;
    }
}

/* ---- fusions decided before emission -------------------------------------- */

/* Setting cuda.fuse (RLX_CUDA_FUSE) = 0 turns off the attention and norm
 * fusions (A/B); read through the host, never getenv. */
static int fusion_enabled(const rlx_host *host)
{
    char e[16];
    return !(rlx_host_get_option(host, "cuda.fuse", e, sizeof e) == RLX_OK &&
             e[0] == '0');
}

static int claimable(const ctx *c, int v)
{
    const rlxc_value *x = &c->exe->values[v];
    return x->uses == 1 && !x->is_output && x->storage != -2 && x->count > 0;
}

static int same_dims(const rlxc_value *a, const rlxc_value *b)
{
    return a->rank == b->rank &&
           !memcmp(a->dims, b->dims, a->rank * sizeof *a->dims);
}

/* layer_norm / rms_norm reading add(a, b) of one shape, the add used only
 * there: the norm kernel adds. */
static void plan_norm_fusions(ctx *c)
{
    const rlx_graph_view *g = c->g;
    rlxc_value *vals = c->exe->values;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const rlx_node_view *v = g->nodes[i];
        if ((v->op != RLX_OP_LAYER_NORM && v->op != RLX_OP_RMS_NORM) ||
            v->n_inputs < 1 || vals[i].count == 0)
            continue;
        int x = (int)v->inputs[0];
        const rlx_node_view *w = g->nodes[x];
        if (w->op != RLX_OP_ADD || w->n_inputs != 2 || !claimable(c, x) ||
            w->dtype != v->dtype ||
            !same_dims(&vals[w->inputs[0]], &vals[x]) ||
            !same_dims(&vals[w->inputs[1]], &vals[x]) ||
            vals[w->inputs[0]].dtype != v->dtype ||
            vals[w->inputs[1]].dtype != v->dtype)
            continue;
        c->norm_res[i] = x;
        vals[x].storage = -2;
    }
}

/* A strided view of a materialized base value: element idx of the view
 * is base[off + sum idx[d] * stride[d]]. */
typedef struct view {
    int base;
    int64_t off;
    uint32_t rank;
    int64_t dims[RLXC_MAX_RANK], stride[RLXC_MAX_RANK];
} view;

static int view_reshape(view *w, uint32_t rank, const int64_t *nd)
{
    int64_t id[RLXC_MAX_RANK], is[RLXC_MAX_RANK], ns[RLXC_MAX_RANK];
    uint32_t ir = 0;
    for (uint32_t d = 0; d < w->rank; d++)
        if (w->dims[d] != 1) {
            id[ir] = w->dims[d];
            is[ir++] = w->stride[d];
        }
    uint32_t i = 0, o = 0;
    while (o < rank) {
        if (nd[o] == 1) {
            ns[o++] = 0;
            continue;
        }
        if (i >= ir)
            return 0;
        uint32_t i0 = i, o0 = o;
        int64_t pi = id[i], po = nd[o];
        while (pi != po) {
            if (pi < po) {
                if (++i >= ir)
                    return 0;
                pi *= id[i];
            } else {
                if (++o >= rank)
                    return 0;
                po *= nd[o];
            }
        }
        for (uint32_t k = i0; k < i; k++)
            if (is[k] != is[k + 1] * id[k + 1])
                return 0;
        int64_t st = is[i];
        for (uint32_t k = o + 1; k-- > o0;) {
            ns[k] = st;
            st *= nd[k];
        }
        i++;
        o++;
    }
    if (i != ir)
        return 0;
    w->rank = rank;
    memcpy(w->dims, nd, rank * sizeof *nd);
    memcpy(w->stride, ns, rank * sizeof *ns);
    return 1;
}

/* Walk back from node I through slice / reshape / transpose nodes that
 * only this chain reads; their indices go to CHAIN. */
static int view_of(ctx *c, int i, view *w, int *chain, int *n_chain, int top)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxc_value *y = &c->exe->values[i];
    int op = v->op;
    if ((op == RLX_OP_RESHAPE || op == RLX_OP_TRANSPOSE ||
         op == RLX_OP_SLICE) && v->n_inputs == 1 && *n_chain < 16 &&
        claimable(c, i) &&
        c->exe->values[v->inputs[0]].dtype == y->dtype) {
        int in = (int)v->inputs[0];
        if (view_of(c, in, w, chain, n_chain, 0)) {
            chain[(*n_chain)++] = i;
            if (op == RLX_OP_RESHAPE)
                return view_reshape(w, y->rank, y->dims);
            if (op == RLX_OP_TRANSPOSE) {
                uint32_t na = n_int_attrs(v);
                int64_t st[RLXC_MAX_RANK];
                if ((na != 0 && na != w->rank) || w->rank != y->rank)
                    return 0;
                for (uint32_t d = 0; d < y->rank; d++) {
                    int64_t from = na ? v->int_attrs[d]
                                      : (int64_t)(w->rank - 1 - d);
                    if (from < 0)
                        from += w->rank;
                    if (from < 0 || from >= (int64_t)w->rank)
                        return 0;
                    st[d] = w->stride[from];
                }
                memcpy(w->stride, st, y->rank * sizeof *st);
                memcpy(w->dims, y->dims, y->rank * sizeof *y->dims);
                return 1;
            }
            /* slice */
            uint32_t na = n_int_attrs(v);
            if (w->rank != y->rank)
                return 0;
            for (uint32_t t = 0; t + 3 <= na; t += 3) {
                uint32_t ax;
                if (!norm_axis(v->int_attrs[t], w->rank, &ax) || !w->rank)
                    return 0;
                int64_t dim = w->dims[ax], start = v->int_attrs[t + 1];
                if (start < 0)
                    start += dim;
                start = start < 0 ? 0 : start > dim ? dim : start;
                w->off += start * w->stride[ax];
            }
            memcpy(w->dims, y->dims, y->rank * sizeof *y->dims);
            return 1;
        }
        return 0;
    }
    if (top)
        return 0; /* no chain: the operand is materialized already */
    w->base = i;
    w->off = 0;
    w->rank = y->rank;
    memcpy(w->dims, y->dims, y->rank * sizeof *y->dims);
    contiguous_strides(y->rank, y->dims, w->stride);
    return 1;
}

/* The operand's view: a chain, or the value itself. */
static int operand_view(ctx *c, int i, view *w, int *chain, int *n_chain)
{
    if (view_of(c, i, w, chain, n_chain, 1))
        return 1;
    *n_chain = 0;
    return view_of(c, i, w, chain, n_chain, 0);
}

/* Four strides {batch, head, row, col} of a rank 2..4 view whose last two
 * dims are (rows, cols), swapped when T. */
static void strides4(const view *w, int t, int64_t *s)
{
    uint32_t r = w->rank;
    s[0] = r >= 4 ? w->stride[r - 4] : 0;
    s[1] = r >= 3 ? w->stride[r - 3] : 0;
    s[2] = w->stride[r - (t ? 1 : 2)];
    s[3] = w->stride[r - (t ? 2 : 1)];
}

static double const_scalar(const rlx_node_view *v)
{
    if (!RLX_HAS_FIELD(v->struct_size, rlx_node_view, data) || !v->data)
        return NAN;
    if (v->dtype == RLX_DTYPE_F32) {
        float f;
        memcpy(&f, v->data, sizeof f);
        return f;
    }
    if (v->dtype == RLX_DTYPE_BF16) {
        uint16_t h;
        uint32_t u;
        float f;
        memcpy(&h, v->data, sizeof h);
        u = (uint32_t)h << 16;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    return NAN;
}

/* matmul(softmax(matmul(q, k^T) [* scale]), v), optionally followed by a
 * transpose: one attention kernel reading q, k and v through their
 * slice / reshape / transpose chains and writing the transposed layout. */
static void plan_attention_at(ctx *c, uint32_t m2)
{
    const rlx_graph_view *g = c->g;
    rlxc_value *vals = c->exe->values;
    const rlx_node_view *v2 = g->nodes[m2];
    rlx_dtype dt = v2->dtype;
    if (v2->n_inputs != 2 || int_attr(v2, 0, 0) != 0 || vals[m2].count == 0)
        return;
    int p = (int)v2->inputs[0];
    const rlx_node_view *sm = g->nodes[p];
    if (sm->op != RLX_OP_SOFTMAX || !claimable(c, p) || sm->dtype != dt)
        return;
    uint32_t rank = vals[p].rank, axis;
    int64_t causal = int_attr(sm, 1, 0);
    if (rank < 2 || rank > 4 || !norm_axis(int_attr(sm, 0, -1), rank, &axis) ||
        axis != rank - 1 || (causal != 0 && causal != 1))
        return;
    int sc = (int)sm->inputs[0], mul = -1;
    double scale = 1.0;
    const rlx_node_view *w = g->nodes[sc];
    if (w->op == RLX_OP_MUL && w->n_inputs == 2) {
        if (!claimable(c, sc) || w->dtype != dt)
            return;
        int a = (int)w->inputs[0], b = (int)w->inputs[1];
        int cst = g->nodes[b]->op == RLX_OP_CONSTANT ? b
                : g->nodes[a]->op == RLX_OP_CONSTANT ? a : -1;
        if (cst < 0 || vals[cst].count != 1 || vals[cst].rank > rank ||
            g->nodes[cst]->dtype != dt)
            return;
        scale = const_scalar(g->nodes[cst]);
        if (isnan(scale) || !same_dims(&vals[cst == b ? a : b], &vals[sc]))
            return;
        mul = sc;
        sc = cst == b ? a : b;
    }
    const rlx_node_view *m1 = g->nodes[sc];
    if (m1->op != RLX_OP_MATMUL || m1->n_inputs != 2 || !claimable(c, sc) ||
        m1->dtype != dt || vals[sc].rank != rank)
        return;
    int64_t ta = int_attr(m1, 0, 0), tb = int_attr(m1, 1, 0);
    int64_t tv = int_attr(v2, 1, 0);
    if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1) || (tv != 0 && tv != 1))
        return;
    int ops[3] = { (int)m1->inputs[0], (int)m1->inputs[1],
                   (int)v2->inputs[1] };
    int chain[3][16], nch[3] = { 0, 0, 0 };
    view vw[3];
    int64_t t[3] = { ta, !tb, tv }; /* k^T: k is [.., sk, dh] when tb */
    for (int o = 0; o < 3; o++) {
        if (ops[o] == ops[(o + 1) % 3] || ops[o] == ops[(o + 2) % 3])
            return; /* one node read twice: its uses are not ours */
        if (vals[ops[o]].dtype != dt || vals[ops[o]].rank != rank ||
            !operand_view(c, ops[o], &vw[o], chain[o], &nch[o]) ||
            vw[o].rank != rank)
            return;
        for (int k = 0; k < nch[o]; k++)
            if (c->attn[chain[o][k]] >= 0 ||
                vals[chain[o][k]].storage == -2)
                return;
    }
    const rlxc_value *sv = &vals[sc], *y = &vals[m2];
    for (uint32_t d = 0; d + 2 < rank; d++)
        for (int o = 0; o < 3; o++)
            if (vw[o].dims[d] != y->dims[d])
                return;
    rlxc_attn_plan ap;
    memset(&ap, 0, sizeof ap);
    ap.batch = rank >= 4 ? y->dims[rank - 4] : 1;
    ap.heads = rank >= 3 ? y->dims[rank - 3] : 1;
    ap.sq = sv->dims[rank - 2];
    ap.sk = sv->dims[rank - 1];
    ap.dh = ta ? vw[0].dims[rank - 2] : vw[0].dims[rank - 1];
    ap.dv = y->dims[rank - 1];
    if (ap.sq == 0 || ap.sk == 0 || ap.dh == 0 || ap.dh > RLXC_ATTN_MAX_D ||
        ap.dv > RLXC_ATTN_MAX_D || ap.batch * ap.heads > 65535 ||
        y->dims[rank - 2] != ap.sq)
        return;
    strides4(&vw[0], (int)t[0], ap.q_s);
    strides4(&vw[1], (int)t[1], ap.k_s);
    strides4(&vw[2], (int)t[2], ap.v_s);
    ap.q_off = vw[0].off;
    ap.k_off = vw[1].off;
    ap.v_off = vw[2].off;
    ap.scale = (float)scale;
    ap.causal = (int32_t)causal;
    /* output: this matmul, or a transpose reading only it */
    int out = (int)m2;
    view ov;
    ov.rank = rank;
    memcpy(ov.dims, y->dims, rank * sizeof *y->dims);
    contiguous_strides(rank, y->dims, ov.stride);
    int tr = c->consumer[m2];
    if (claimable(c, (int)m2) && tr >= 0 &&
        g->nodes[tr]->op == RLX_OP_TRANSPOSE && g->nodes[tr]->dtype == dt &&
        vals[tr].rank == rank && vals[tr].count == y->count &&
        c->attn[tr] < 0 && vals[tr].storage != -2) {
        const rlx_node_view *tn = g->nodes[tr];
        uint32_t na = n_int_attrs(tn);
        int64_t ts[RLXC_MAX_RANK];
        int okp = na == 0 || na == rank;
        contiguous_strides(rank, vals[tr].dims, ts);
        for (uint32_t d = 0; okp && d < rank; d++) {
            int64_t from = na ? tn->int_attrs[d] : (int64_t)(rank - 1 - d);
            if (from < 0)
                from += rank;
            if (from < 0 || from >= (int64_t)rank)
                okp = 0;
            else
                ov.stride[from] = ts[d];
        }
        if (okp)
            out = tr;
        else
            contiguous_strides(rank, y->dims, ov.stride);
    }
    strides4(&ov, 0, ap.o_s);

    rlxc_step *np = realloc(c->attn_plans, (c->n_attn + 1) * sizeof *np);
    if (!np)
        return; /* unfused is still right */
    c->attn_plans = np;
    rlxc_step *a = &np[c->n_attn];
    memset(a, 0, sizeof *a);
    a->kind = RLXC_STEP_ATTENTION;
    a->out = out;
    a->in[3] = -1;
    for (int o = 0; o < 3; o++)
        a->in[o] = vw[o].base;
    a->attn = ap;
    c->attn[m2] = (int)c->n_attn++;
    /* everything else emits nothing */
    for (int o = 0; o < 3; o++)
        for (int k = 0; k < nch[o]; k++)
            vals[chain[o][k]].storage = -2;
    vals[sc].storage = -2;
    vals[p].storage = -2;
    if (mul >= 0)
        vals[mul].storage = -2;
    if (out != (int)m2)
        vals[out].storage = -2;
}

static void plan_fusions(ctx *c)
{
    if (!fusion_enabled(c->host))
        return;
    for (uint32_t i = 0; i < c->g->n_nodes; i++)
        if (c->g->nodes[i]->op == RLX_OP_MATMUL)
            plan_attention_at(c, i);
    plan_norm_fusions(c);
}

/* ---- values, storage and liveness ------------------------------------------ */

#define NODE_MIN_SIZE RLX_STRUCT_SIZE_TO(rlx_node_view, inputs)

static rlx_status values_init(ctx *c)
{
    const rlx_graph_view *g = c->g;
    rlx_executable *exe = c->exe;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const rlx_node_view *v = g->nodes[i];
        rlxc_value *x = &exe->values[i];
        if (!v || v->struct_size < NODE_MIN_SIZE)
            return rlxc_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                             "cuda compile: node %u is missing or "
                             "truncated." FIX_BUG, (unsigned)i);
        if (v->rank > RLXC_MAX_RANK || (v->rank && !v->shape))
            return rlxc_fail(c->host, RLX_ERR_UNSUPPORTED,
                             "cuda compile: node '%s' has rank %u; the "
                             "cuda backend takes up to %d. Fix: reshape to "
                             "fewer dims", v->name, (unsigned)v->rank,
                             RLXC_MAX_RANK);
        if (v->n_inputs && !v->inputs)
            return rlxc_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                             "cuda compile: node '%s' has no input list."
                             FIX_BUG, v->name);
        x->dtype = v->dtype;
        x->rank = v->rank;
        x->count = 1;
        for (uint32_t d = 0; d < v->rank; d++) {
            if (v->shape[d] < 0)
                return rlxc_fail(c->host, RLX_ERR_SHAPE,
                                 "cuda compile: node '%s' has a negative "
                                 "dim." FIX_BUG, v->name);
            x->dims[d] = v->shape[d];
            x->count *= v->shape[d];
        }
        size_t elem = rlx_dtype_size(v->dtype);
        if (elem == 0)
            return rlxc_fail(c->host, RLX_ERR_UNSUPPORTED,
                             "cuda compile: node '%s' has unknown dtype %d. "
                             "Fix: use a dtype from rlx/types.h", v->name,
                             (int)v->dtype);
        x->nbytes = (size_t)x->count * elem;
        x->storage = -1;
        for (uint32_t j = 0; j < v->n_inputs; j++) {
            if (v->inputs[j] >= i)
                return rlxc_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                                 "cuda compile: node '%s' reads a later "
                                 "node." FIX_BUG, v->name);
            exe->values[v->inputs[j]].uses++;
            c->consumer[v->inputs[j]] = (int)i;
        }
    }
    for (uint32_t o = 0; o < g->n_outputs; o++) {
        if (g->outputs[o] >= g->n_nodes)
            return rlxc_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                             "cuda compile: output %u names no node."
                             FIX_BUG, (unsigned)o);
        exe->values[g->outputs[o]].is_output = 1;
    }
    return RLX_OK;
}

static rlx_status add_storage(ctx *c, int v)
{
    rlx_executable *exe = c->exe;
    rlxc_storage *s = realloc(exe->storages,
                              (exe->n_storages + 1) * sizeof *s);
    if (!s)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    exe->storages = s;
    s[exe->n_storages].nbytes = exe->values[v].nbytes;
    s[exe->n_storages].first = INT32_MAX;
    s[exe->n_storages].last = -1;
    exe->values[v].loc = RLXC_LOC_ARENA;
    exe->values[v].storage = (int)exe->n_storages++;
    return RLX_OK;
}

/* Give every materialized value a location, once the steps are known. */
static rlx_status locate(ctx *c)
{
    const rlx_graph_view *g = c->g;
    rlx_executable *exe = c->exe;
    unsigned char *written = calloc(g->n_nodes ? g->n_nodes : 1, 1);
    if (!written)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    for (uint32_t s = 0; s < exe->n_steps; s++)
        written[exe->steps[s].out] = 1;
    rlx_status st = RLX_OK;
    size_t const_at = 0;
    for (uint32_t i = 0; i < g->n_nodes && st == RLX_OK; i++) {
        const rlx_node_view *v = g->nodes[i];
        rlxc_value *x = &exe->values[i];
        x->storage = -1;
        if (x->count == 0)
            continue;
        switch (v->op) {
        case RLX_OP_PARAM:
            x->loc = RLXC_LOC_PARAM;
            break;
        case RLX_OP_CONSTANT:
            x->loc = RLXC_LOC_CONST;
            x->offset = const_at;
            const_at = align_up(const_at + x->nbytes, ALIGN);
            break;
        case RLX_OP_RESHAPE: {
            const rlxc_value *in = &exe->values[v->inputs[0]];
            x->loc = in->loc;
            x->storage = in->storage;
            x->slot = in->slot;
            x->offset = in->offset;
            break;
        }
        case RLX_OP_INPUT:
            st = add_storage(c, (int)i);
            break;
        default:
            if (written[i])
                st = add_storage(c, (int)i);
            break;
        }
    }
    free(written);
    exe->const_bytes = const_at;
    return st;
}

static void touch(rlx_executable *exe, int v, int step)
{
    if (v < 0)
        return;
    int s = exe->values[v].storage;
    if (s < 0)
        return;
    if (step < exe->storages[s].first)
        exe->storages[s].first = step;
    if (step > exe->storages[s].last)
        exe->storages[s].last = step;
}

static void liveness(ctx *c)
{
    rlx_executable *exe = c->exe;
    const rlx_graph_view *g = c->g;
    for (uint32_t i = 0; i < g->n_inputs; i++)
        touch(exe, (int)g->inputs[i], -1);
    for (uint32_t s = 0; s < exe->n_steps; s++) {
        const rlxc_step *st = &exe->steps[s];
        touch(exe, st->out, (int)s);
        for (int j = 0; j < 4; j++)
            touch(exe, st->in[j], (int)s);
    }
    for (uint32_t o = 0; o < g->n_outputs; o++)
        touch(exe, (int)g->outputs[o], (int)exe->n_steps);
}

size_t rlxc_plan_memory(rlxc_storage *s, uint32_t n, size_t align)
{
    /* Greedy: largest first, each at the lowest offset that does not
     * overlap a placed storage whose live interval overlaps its own. */
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    unsigned char *placed = calloc(n ? n : 1, 1);
    size_t total = 0;
    if (!order || !placed) { /* fall back: no reuse */
        for (uint32_t i = 0; i < n; i++) {
            s[i].offset = total;
            total = align_up(total + s[i].nbytes, align);
        }
        free(order);
        free(placed);
        return total;
    }
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    for (uint32_t i = 1; i < n; i++) { /* insertion sort, size desc */
        uint32_t k = order[i], j = i;
        while (j > 0 && s[order[j - 1]].nbytes < s[k].nbytes) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (uint32_t oi = 0; oi < n; oi++) {
        rlxc_storage *x = &s[order[oi]];
        size_t size = align_up(x->nbytes ? x->nbytes : 1, align);
        size_t at = 0;
        for (int moved = 1; moved;) {
            moved = 0;
            for (uint32_t j = 0; j < n; j++) {
                const rlxc_storage *y = &s[j];
                if (!placed[j] || y->last < x->first || x->last < y->first)
                    continue;
                size_t ysize = align_up(y->nbytes ? y->nbytes : 1, align);
                if (at < y->offset + ysize && y->offset < at + size) {
                    at = y->offset + ysize;
                    moved = 1;
                }
            }
        }
        x->offset = at;
        placed[order[oi]] = 1;
        if (at + size > total)
            total = at + size;
    }
    free(order);
    free(placed);
    return total;
}

/* ---- the executable ---------------------------------------------------------- */

static rlx_status slots(ctx *c)
{
    const rlx_graph_view *g = c->g;
    rlx_executable *exe = c->exe;
    exe->n_inputs = g->n_inputs;
    exe->n_params = g->n_params;
    exe->n_outputs = g->n_outputs;
    if ((g->n_inputs && !g->inputs) || (g->n_params && !g->params) ||
        (g->n_outputs && !g->outputs))
        return rlx_host_report(c->host, RLX_ERR_INVALID_ARGUMENT,
                               "cuda compile: a slot list is NULL." FIX_BUG);
    exe->input_values = calloc(g->n_inputs + 1, sizeof(uint32_t));
    exe->param_values = calloc(g->n_params + 1, sizeof(uint32_t));
    exe->output_values = calloc(g->n_outputs + 1, sizeof(uint32_t));
    exe->input_stage = calloc(g->n_inputs + 1, sizeof(size_t));
    exe->output_stage = calloc(g->n_outputs + 1, sizeof(size_t));
    exe->graph_params = calloc(g->n_params + 1, sizeof(void *));
    size_t n_io = (size_t)g->n_inputs + g->n_outputs + 1;
    exe->io_user = calloc(n_io, sizeof(void *));
    exe->io_reg = calloc(n_io, 1);
    exe->io_host = calloc(n_io, sizeof(void *));
    exe->graph_io = calloc(n_io, sizeof(void *));
    exe->io_dev = calloc(n_io, sizeof(void *));
    exe->graph_dev = calloc(n_io, sizeof(void *));
    exe->out_direct = calloc(g->n_outputs + 1, 1);
    if (!exe->io_user || !exe->io_reg || !exe->io_host || !exe->graph_io ||
        !exe->io_dev || !exe->graph_dev || !exe->out_direct ||
        !exe->input_values || !exe->param_values || !exe->output_values ||
        !exe->input_stage || !exe->output_stage || !exe->graph_params)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    for (uint32_t i = 0; i < g->n_inputs; i++) {
        if (g->inputs[i] >= g->n_nodes ||
            g->nodes[g->inputs[i]]->op != RLX_OP_INPUT)
            return rlx_host_report(c->host, RLX_ERR_INVALID_ARGUMENT,
                                   "cuda compile: an input slot names a "
                                   "node that is not an input." FIX_BUG);
        exe->input_values[i] = g->inputs[i];
    }
    for (uint32_t i = 0; i < g->n_params; i++) {
        if (g->params[i] >= g->n_nodes ||
            g->nodes[g->params[i]]->op != RLX_OP_PARAM)
            return rlx_host_report(c->host, RLX_ERR_INVALID_ARGUMENT,
                                   "cuda compile: a param slot names a "
                                   "node that is not a param." FIX_BUG);
        exe->param_values[i] = g->params[i];
        exe->values[g->params[i]].slot = i;
    }
    for (uint32_t i = 0; i < g->n_outputs; i++)
        exe->output_values[i] = g->outputs[i];
    return RLX_OK;
}

static rlx_status allocate(ctx *c)
{
    rlx_executable *exe = c->exe;
    const rlx_graph_view *g = c->g;
    cudaError_t err = cudaSuccess;
    exe->arena_bytes = rlxc_plan_memory(exe->storages, exe->n_storages,
                                        ALIGN);
    exe->storage_bind = calloc(exe->n_storages + 1, sizeof(void *));
    if (!exe->storage_bind)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    if (exe->arena_bytes)
        err = cudaMalloc(&exe->arena, exe->arena_bytes);
    if (err == cudaSuccess && exe->const_bytes) {
        err = cudaMalloc(&exe->consts, exe->const_bytes);
        for (uint32_t i = 0; err == cudaSuccess && i < g->n_nodes; i++) {
            const rlx_node_view *v = g->nodes[i];
            const rlxc_value *x = &exe->values[i];
            if (v->op != RLX_OP_CONSTANT || !x->count)
                continue;
            if (!RLX_HAS_FIELD(v->struct_size, rlx_node_view, data) ||
                !v->data)
                return rlxc_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                                 "cuda compile: constant '%s' has no "
                                 "data." FIX_BUG, v->name);
            err = cudaMemcpy((char *)exe->consts + x->offset, v->data,
                             x->nbytes, cudaMemcpyHostToDevice);
        }
    }
    /* Pinned staging: inputs, outputs, then the gather flag. */
    size_t at = 0;
    for (uint32_t i = 0; i < exe->n_inputs; i++) {
        exe->input_stage[i] = at;
        at = align_up(at + exe->values[exe->input_values[i]].nbytes, 64);
    }
    for (uint32_t i = 0; i < exe->n_outputs; i++) {
        exe->output_stage[i] = at;
        at = align_up(at + exe->values[exe->output_values[i]].nbytes, 64);
    }
    exe->flag_stage = at;
    exe->stage_bytes = at + 64;
    if (err == cudaSuccess)
        err = cudaHostAlloc((void **)&exe->stage, exe->stage_bytes,
                            cudaHostAllocDefault);
    if (err == cudaSuccess && exe->lt) {
        exe->workspace_bytes = WORKSPACE_BYTES;
        err = cudaMalloc(&exe->workspace, exe->workspace_bytes);
    }
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&exe->stream, cudaStreamNonBlocking);
    if (err != cudaSuccess)
        return rlxc_cuda_fail(c->host, err,
                              "compile: cannot allocate device memory for "
                              "the graph");
    if (exe->lt)
        rlxc_matmul_autotune(exe);
    char prof[16]; /* setting cuda.profile (RLX_CUDA_PROFILE) */
    exe->profile = rlx_host_get_option(c->host, "cuda.profile", prof,
                                       sizeof prof) == RLX_OK &&
                   *prof && strcmp(prof, "0") != 0;
    rlxc_log(c->host, RLX_LOG_DEBUG,
             "cuda compile: %u nodes, %u steps, %u intermediates in a "
             "%zu-byte arena, %zu bytes of constants",
             (unsigned)g->n_nodes, (unsigned)exe->n_steps,
             (unsigned)exe->n_storages, exe->arena_bytes, exe->const_bytes);
    return RLX_OK;
}

rlx_status rlxc_compile(void *backend, const rlx_graph_view *graph,
                        const rlx_compile_options *options,
                        rlx_executable **out)
{
    rlxc_backend *be = backend;
    const rlx_host *host = be->host;
    if (!graph || !out ||
        !RLX_HAS_FIELD(graph->struct_size, rlx_graph_view, outputs) ||
        (graph->n_nodes && !graph->nodes))
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "cuda compile: missing or truncated graph "
                               "view." FIX_BUG);
    uint32_t device = 0;
    int precision = RLX_PRECISION_STRICT;
    if (options && RLX_HAS_FIELD(options->struct_size, rlx_compile_options,
                                 device_index))
        device = options->device_index;
    if (options && RLX_HAS_FIELD(options->struct_size, rlx_compile_options,
                                 precision))
        precision = (int)options->precision;
    rlx_status st = rlxc_device_use(be, device);
    if (st != RLX_OK)
        return st;

    rlx_executable *exe = calloc(1, sizeof *exe);
    size_t nn = (size_t)graph->n_nodes + 1;
    int *consumer = malloc(3 * nn * sizeof *consumer);
    if (exe)
        exe->values = calloc(nn, sizeof *exe->values);
    if (!exe || !consumer || !exe->values) {
        free(consumer);
        if (exe)
            free(exe->values);
        free(exe);
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    }
    for (size_t i = 0; i < 3 * nn; i++)
        consumer[i] = -1;
    exe->be = be;
    exe->device = device;
    exe->n_values = graph->n_nodes;
    ctx c = { host, exe, graph, precision, consumer, consumer + nn,
              consumer + 2 * nn, NULL, 0 };

    st = values_init(&c);
    if (st == RLX_OK)
        st = slots(&c);
    if (st == RLX_OK)
        plan_fusions(&c);
    for (uint32_t i = 0; st == RLX_OK && i < graph->n_nodes; i++)
        st = node_emit(&c, i);
    if (st == RLX_OK)
        st = locate(&c);
    if (st == RLX_OK) {
        liveness(&c);
        st = allocate(&c);
    }
    free(consumer);
    free(c.attn_plans);
    if (st != RLX_OK) {
        rlxc_executable_destroy(backend, exe);
        return st;
    }
    *out = exe;
    return RLX_OK;
}

void rlxc_executable_destroy(void *backend, rlx_executable *exe)
{
    rlxc_backend *be = backend;
    if (!exe)
        return;
    int have_device = rlxc_device_use(be, exe->device) == RLX_OK;
    if (have_device) {
        if (exe->stream)
            cudaStreamSynchronize(exe->stream);
        if (exe->graph)
            cudaGraphExecDestroy(exe->graph);
        if (exe->stream)
            cudaStreamDestroy(exe->stream);
        cudaFree(exe->arena);
        cudaFree(exe->consts);
        cudaFree(exe->workspace);
        cudaFree(exe->dev_flag);
        if (exe->stage)
            cudaFreeHost(exe->stage);
        for (uint32_t j = 0; exe->io_reg && j < exe->n_inputs + exe->n_outputs;
             j++)
            if (exe->io_reg[j])
                cudaHostUnregister(exe->io_user[j]);
        cudaGetLastError();
    }
    for (uint32_t s = 0; s < exe->n_steps; s++)
        if (exe->steps[s].mm)
            rlxc_matmul_free(be, exe->steps[s].mm);
    free(exe->steps);
    free(exe->storages);
    free(exe->values);
    free(exe->input_values);
    free(exe->param_values);
    free(exe->output_values);
    free(exe->input_stage);
    free(exe->output_stage);
    free(exe->graph_params);
    free(exe->io_user);
    free(exe->io_reg);
    free(exe->io_host);
    free(exe->graph_io);
    free(exe->io_dev);
    free(exe->graph_dev);
    free(exe->storage_bind);
    free(exe->out_direct);
    free(exe);
}
