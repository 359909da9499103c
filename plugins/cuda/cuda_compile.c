/*
 * cuda_compile.c - turn a graph view into an executable: one value per
 * node, a list of steps (kernels and cuBLASLt calls), matmul + bias
 * (+ relu / tanh-gelu) fused into cuBLASLt epilogues, and every
 * intermediate placed in one device arena by a liveness-based plan made
 * here, so runs allocate nothing. Reshape is free: it aliases its
 * input's memory.
 */
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
    s->in[0] = s->in[1] = s->in[2] = -1;
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
    if (y->storage == -2) { /* fused into a matmul */
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
        for (int j = 0; j < 3; j++)
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
    if (!exe->io_user || !exe->io_reg || !exe->io_host || !exe->graph_io ||
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
    int *consumer = malloc((graph->n_nodes + 1) * sizeof *consumer);
    if (exe)
        exe->values = calloc(graph->n_nodes + 1, sizeof *exe->values);
    if (!exe || !consumer || !exe->values) {
        free(consumer);
        if (exe)
            free(exe->values);
        free(exe);
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "cuda compile: out of memory. Fix: free "
                               "memory");
    }
    for (uint32_t i = 0; i <= graph->n_nodes; i++)
        consumer[i] = -1;
    exe->be = be;
    exe->device = device;
    exe->n_values = graph->n_nodes;
    ctx c = { host, exe, graph, precision, consumer };

    st = values_init(&c);
    if (st == RLX_OK)
        st = slots(&c);
    for (uint32_t i = 0; st == RLX_OK && i < graph->n_nodes; i++)
        st = node_emit(&c, i);
    if (st == RLX_OK)
        st = locate(&c);
    if (st == RLX_OK) {
        liveness(&c);
        st = allocate(&c);
    }
    free(consumer);
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
    free(exe);
}
