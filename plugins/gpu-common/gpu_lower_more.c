/*
 * gpu_lower_more.c - lowering of the ABI 1.4 elementwise, reduction,
 * arg and indexing ops, and of the 1.0 arithmetic ops on integers: each
 * node becomes one step (scatters two: a copy of the data, then the
 * updates) planned here from the node's attributes with the kit's
 * shared rules (rlx/kit_index.h, rlx/kit_shape.h), so sizes and index
 * arithmetic agree with the core and cpu-ref.
 */
#include <math.h>

#include <rlx/kit_index.h>
#include <rlx/kit_names.h>

#include "gpu_compile.h"

static rlx_status bad(ctx *c, const rlx_node_view *v, const char *what)
{
    return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                        RLXG_NAME " compile: %s '%s' has %s." FIX_BUG,
                        rlx_kit_op_name(v->op), v->name, what);
}

static int is_int(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8 || t == RLX_DTYPE_I32 ||
           t == RLX_DTYPE_I64 || t == RLX_DTYPE_BOOL ||
           (t >= RLX_DTYPE_I16 && t <= RLX_DTYPE_U64);
}

/* The least and greatest value of integer dtype T (u64 aside: its
 * values are bit patterns, u64_of). */
static void int_range(rlx_dtype t, int64_t *lo, int64_t *hi)
{
    switch (t) {
    case RLX_DTYPE_I8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case RLX_DTYPE_U8: *lo = 0; *hi = UINT8_MAX; break;
    case RLX_DTYPE_BOOL: *lo = 0; *hi = 1; break;
    case RLX_DTYPE_I16: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case RLX_DTYPE_U16: *lo = 0; *hi = UINT16_MAX; break;
    case RLX_DTYPE_I32: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case RLX_DTYPE_U32: *lo = 0; *hi = UINT32_MAX; break;
    default: *lo = INT64_MIN; *hi = INT64_MAX; break;
    }
}

/* V (a whole number) as a u64, saturated, NaN as NAN_TO: the bit
 * pattern the kernels carry u64 in (cpu-ref's u64_bound and cast). */
static int64_t u64_of(double v, int64_t nan_to)
{
    if (isnan(v))
        return nan_to;
    if (v <= 0)
        return 0;
    if (v >= 18446744073709551616.0)
        return -1; /* all ones: UINT64_MAX */
    return (int64_t)(uint64_t)v;
}

int rlxg_node_is_more(ctx *c, uint32_t i)
{
    const rlx_node_view *v = c->g->nodes[i];
    if ((v->op >= 100 && v->op < 200) ||
        (v->op >= RLX_OP_MAX_POOL_INDEX && v->op <= RLX_OP_ROI_ALIGN))
        return 1; /* and det, grid_sample, roi_align, max_pool_index */
    if (v->n_inputs == 0)
        return 0;
    rlx_dtype t = c->exe->values[v->inputs[0]].dtype;
    switch (v->op) { /* the 1.0 ops on integers and f64 */
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW: case RLX_OP_NEG:
    case RLX_OP_ABS: case RLX_OP_RELU: case RLX_OP_REDUCE_SUM:
    case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        return is_int(t) || t == RLX_DTYPE_F64;
    case RLX_OP_GELU: case RLX_OP_SIGMOID: case RLX_OP_TANH:
    case RLX_OP_EXP: case RLX_OP_SIN: case RLX_OP_COS: case RLX_OP_LOG:
    case RLX_OP_SQRT: case RLX_OP_RSQRT: case RLX_OP_SILU: case RLX_OP_TAN:
    case RLX_OP_ATAN:
        return t == RLX_DTYPE_F64;
    default:
        return 0;
    }
}

/* B rounded inward (UP: toward +inf) and kept within the dtype's range:
 * an integer clip's bound. */
static int64_t int_bound(double b, int up, rlx_dtype t)
{
    int64_t lo, hi;
    double v = up ? ceil(b) : floor(b);
    if (t == RLX_DTYPE_U64) /* unbounded (NaN) below is 0, above all ones */
        return u64_of(v, up ? 0 : -1);
    int_range(t, &lo, &hi);
    if (isnan(v))
        return up ? lo : hi;
    if (v <= (double)lo)
        return lo;
    if (v >= (double)hi)
        return hi;
    return (int64_t)v;
}

static rlx_status plan_ew(ctx *c, uint32_t i, rlxg_step *s)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *y = &c->exe->values[i];
    rlxg_ew_plan *p = &s->ew;
    if (v->n_inputs < 1 || v->n_inputs > 3)
        return bad(c, v, "an input count an elementwise op never has");
    p->op = v->op;
    p->n_in = (int32_t)v->n_inputs;
    p->in_dtype = (int32_t)c->exe->values[v->inputs[v->op == RLX_OP_WHERE]]
                      .dtype;
    p->out_dtype = (int32_t)y->dtype;
    p->rank = y->rank;
    p->count = y->count;
    memcpy(p->dims, y->dims, sizeof p->dims);
    for (uint32_t j = 0; j < v->n_inputs; j++) {
        const rlxg_value *x = &c->exe->values[v->inputs[j]];
        if (!rlx_kit_broadcasts(x->rank, x->dims, y->rank, y->dims))
            return bad(c, v, "an input that does not broadcast to the "
                             "result");
        rlx_kit_broadcast_strides(y->rank, x->rank, x->dims, p->stride[j]);
        s->in[j] = (int)v->inputs[j];
    }
    double f0 = 0, f1 = 0;
    int64_t i0 = 0, i1 = 0;
    switch (v->op) {
    case RLX_OP_CLIP: f0 = -INFINITY; f1 = INFINITY; break;
    case RLX_OP_LEAKY_RELU: f0 = RLX_LEAKY_RELU_ALPHA_DEFAULT; break;
    case RLX_OP_ELU: f0 = RLX_ELU_ALPHA_DEFAULT; break;
    case RLX_OP_SELU:
        f0 = RLX_SELU_ALPHA_DEFAULT;
        f1 = RLX_SELU_GAMMA_DEFAULT;
        break;
    case RLX_OP_HARD_SIGMOID:
        f0 = RLX_HARD_SIGMOID_ALPHA_DEFAULT;
        f1 = RLX_HARD_SIGMOID_BETA_DEFAULT;
        break;
    case RLX_OP_ISINF: i0 = 1; i1 = 1; break;
    default: break;
    }
    p->f0 = rlx_kit_float_attr(v, 0, f0);
    p->f1 = rlx_kit_float_attr(v, 1, f1);
    p->i0 = rlx_kit_int_attr(v, 0, i0);
    p->i1 = rlx_kit_int_attr(v, 1, i1);
    if (v->op == RLX_OP_CLIP && is_int(y->dtype)) {
        p->i0 = int_bound(p->f0, 1, y->dtype);
        p->i1 = int_bound(p->f1, 0, y->dtype);
    }
    if (v->op == RLX_OP_MOD && p->i0 == 0 &&
        !is_int((rlx_dtype)p->in_dtype))
        return bad(c, v, "fmod 0 on floats");
    if (v->op == RLX_OP_GELU && p->i0 != RLX_GELU_ERF &&
        p->i0 != RLX_GELU_TANH)
        return bad(c, v, "a gelu approximation other than 0 or 1");
    return RLX_OK;
}

/* A copy of data into the result (the scatters start from it). */
static rlx_status plain_copy(ctx *c, uint32_t i, int from)
{
    rlxg_step *s = rlxg_step_push(c, RLXG_STEP_COPY, (int)i);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    s->in[0] = from;
    s->copy.rank = 1;
    s->copy.count = s->copy.dims[0] = c->exe->values[i].count;
    s->copy.src_stride[0] = s->copy.dst_stride[0] = 1;
    return RLX_OK;
}

/* strided_slice and expand as a strided copy of x. */
static rlx_status strided_copy(ctx *c, uint32_t i)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *x = &c->exe->values[v->inputs[0]];
    const rlxg_value *y = &c->exe->values[i];
    rlxg_step *s = rlxg_step_push(c, RLXG_STEP_COPY, (int)i);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    s->in[0] = (int)v->inputs[0];
    rlxg_copy_plan *p = &s->copy;
    p->rank = y->rank;
    memcpy(p->dims, y->dims, sizeof p->dims);
    rlx_kit_contiguous_strides(y->rank, y->dims, p->dst_stride);
    if (v->op == RLX_OP_EXPAND) {
        if (!rlx_kit_broadcasts(x->rank, x->dims, y->rank, y->dims))
            return bad(c, v, "an input that does not broadcast to the "
                             "result");
        rlx_kit_broadcast_strides(y->rank, x->rank, x->dims, p->src_stride);
    } else {
        int64_t xs[RLXG_MAX_RANK], off = 0;
        rlx_kit_contiguous_strides(x->rank, x->dims, xs);
        memcpy(p->src_stride, xs, sizeof xs);
        uint32_t na = rlx_kit_n_int_attrs(v);
        if (na % 4 || x->rank != y->rank)
            return bad(c, v, "attributes not in (axis, start, end, step) "
                             "quadruples");
        for (uint32_t t = 0; t < na; t += 4) {
            uint32_t ax;
            int64_t step = v->int_attrs[t + 3], first, count;
            if (!norm_axis(v->int_attrs[t], x->rank, &ax) || x->rank == 0 ||
                step == 0)
                return bad(c, v, "an axis out of range or a zero step");
            rlx_kit_slice_bounds(x->dims[ax], v->int_attrs[t + 1],
                                 v->int_attrs[t + 2], step, &first, &count);
            if (count != y->dims[ax])
                return bad(c, v, "a result size its bounds do not give");
            if (count) {
                off += first * xs[ax];
                p->src_stride[ax] = xs[ax] * step;
            }
        }
        s->src_offset = (size_t)off * rlx_dtype_size(y->dtype);
    }
    int64_t *const strides[2] = { p->src_stride, p->dst_stride };
    p->count = rlx_kit_dims_product(p->dims, 0, p->rank);
    p->rank = rlx_kit_collapse(p->rank, p->dims, strides, 2);
    return RLX_OK;
}

/* VALUE as one element of T, as cast converts an f64 (pad's constant). */
static uint64_t value_bytes(rlx_dtype t, double value)
{
    uint64_t out = 0;
    double tv = isnan(value) ? 0.0 : trunc(value);
    switch (t) {
    case RLX_DTYPE_F32: {
        float f = rlx_kit_f32_from_double(value);
        memcpy(&out, &f, 4);
        break;
    }
    case RLX_DTYPE_F64: memcpy(&out, &value, 8); break;
    case RLX_DTYPE_F16: out = rlx_kit_f16_from_double(value); break;
    case RLX_DTYPE_BF16: out = rlx_kit_bf16_from_double(value); break;
    case RLX_DTYPE_BOOL: out = value != 0.0; break;
    default: {
        int64_t lo, hi, iv;
        int_range(t, &lo, &hi);
        if (t == RLX_DTYPE_U64)
            iv = u64_of(tv, 0);
        else
            iv = tv <= (double)lo ? lo : tv >= (double)hi ? hi : (int64_t)tv;
        size_t n = rlx_dtype_size(t);
        memcpy(&out, &iv, n); /* little-endian: the low bytes */
        break;
    }
    }
    return out;
}

static void split_axis(const rlxg_value *x, uint32_t axis, int64_t *outer,
                       int64_t *len, int64_t *inner)
{
    *outer = *inner = 1;
    *len = x->rank ? x->dims[axis] : 1;
    for (uint32_t d = 0; d < x->rank; d++) {
        if (d < axis)
            *outer *= x->dims[d];
        else if (d > axis)
            *inner *= x->dims[d];
    }
}

static rlx_status need_flag(ctx *c)
{
    if (c->exe->dev_flag)
        return RLX_OK;
    gpuError_t err = gpuMalloc((void **)&c->exe->dev_flag, sizeof(int));
    return err == gpuSuccess ? RLX_OK : rlxg_gpu_fail(c->host, err, "compile");
}

static int idx_ok(const rlxg_value *ix)
{
    return ix->dtype == RLX_DTYPE_I32 || ix->dtype == RLX_DTYPE_I64;
}

static rlx_status plan_index(ctx *c, uint32_t i)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *y = &c->exe->values[i];
    const rlxg_value *x = v->n_inputs ? &c->exe->values[v->inputs[0]] : y;
    rlxg_step_kind kind;
    switch (v->op) {
    case RLX_OP_PAD: case RLX_OP_TILE: case RLX_OP_TRILU:
        kind = RLXG_STEP_LAYOUT;
        break;
    case RLX_OP_GATHER_ELEMENTS: case RLX_OP_GATHER_ND: case RLX_OP_ONE_HOT:
        kind = RLXG_STEP_GATHER_MORE;
        break;
    case RLX_OP_SCATTER_ELEMENTS: case RLX_OP_SCATTER_ND:
        kind = RLXG_STEP_SCATTER;
        break;
    case RLX_OP_CUMSUM: kind = RLXG_STEP_CUMSUM; break;
    case RLX_OP_TOPK: kind = RLXG_STEP_TOPK; break;
    case RLX_OP_RANGE: kind = RLXG_STEP_RANGE; break;
    case RLX_OP_NON_ZERO: kind = RLXG_STEP_NON_ZERO; break;
    default:
        return rlx_kit_fail(c->host, RLX_ERR_UNSUPPORTED,
                            RLXG_NAME " compile: %s '%s' has no " RLXG_NAME
                            " kernel. Fix: place it on another backend",
                            rlx_kit_op_name(v->op), v->name);
    }
    if (kind == RLXG_STEP_SCATTER) {
        if (v->n_inputs != 3)
            return bad(c, v, "other than 3 inputs");
        rlx_status st = plain_copy(c, i, (int)v->inputs[0]);
        if (st != RLX_OK)
            return st;
    }
    rlxg_step *s = rlxg_step_push(c, kind, (int)i);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < v->n_inputs && j < 3; j++)
        s->in[j] = (int)v->inputs[j];
    rlxg_index_plan *p = &s->ix;
    p->op = v->op;
    p->elem = (int32_t)rlx_dtype_size(y->dtype);
    p->rank = y->rank;
    p->count = y->count;
    memcpy(p->dims, y->dims, sizeof p->dims);
    p->in_rank = x->rank;
    memcpy(p->in_dims, x->dims, sizeof p->in_dims);
    uint32_t ax;
    switch (v->op) {
    case RLX_OP_PAD: {
        p->mode = (int32_t)rlx_kit_int_attr(v, RLX_ATTR_PAD_MODE,
                                            RLX_PAD_CONSTANT);
        if (p->mode < RLX_PAD_CONSTANT || p->mode > RLX_PAD_WRAP ||
            x->rank != y->rank)
            return bad(c, v, "an unknown pad mode");
        for (uint32_t d = 0; d < x->rank; d++) {
            p->a[d] = rlx_kit_int_attr(v, RLX_ATTR_PAD_PADS + d, 0);
            p->b[d] = rlx_kit_int_attr(v, RLX_ATTR_PAD_PADS + x->rank + d, 0);
            int64_t kept = x->dims[d] - (p->a[d] < 0 ? -p->a[d] : 0) -
                           (p->b[d] < 0 ? -p->b[d] : 0);
            if (p->mode != RLX_PAD_CONSTANT && kept <= 0 && y->dims[d] > 0)
                return rlx_kit_fail(c->host, RLX_ERR_SHAPE,
                                    RLXG_NAME " compile: pad '%s' pads an "
                                    "empty axis %u by reflection, edge or "
                                    "wrap. Fix: use constant mode there",
                                    v->name, (unsigned)d);
        }
        p->value = value_bytes(y->dtype, rlx_kit_float_attr(
                                             v, RLX_ATTR_PAD_VALUE, 0.0));
        return RLX_OK;
    }
    case RLX_OP_TILE:
        p->op = RLX_OP_PAD;
        p->mode = RLX_PAD_WRAP;
        if (x->rank != y->rank)
            return bad(c, v, "a result rank unlike its input's");
        return RLX_OK; /* pads 0: a wrap past the end repeats x */
    case RLX_OP_TRILU:
        if (y->rank < 2)
            return bad(c, v, "rank below 2");
        p->n0 = rlx_kit_int_attr(v, RLX_ATTR_TRILU_UPPER, 1);
        p->n1 = rlx_kit_int_attr(v, RLX_ATTR_TRILU_K, 0);
        p->value = 0;
        return RLX_OK;
    case RLX_OP_CUMSUM: case RLX_OP_TOPK: {
        int64_t axis = v->op == RLX_OP_CUMSUM
                           ? rlx_kit_int_attr(v, RLX_ATTR_CUMSUM_AXIS, 0)
                           : rlx_kit_int_attr(v, RLX_ATTR_TOPK_AXIS, -1);
        if (!norm_axis(axis, x->rank, &ax))
            return bad(c, v, "an axis out of range");
        split_axis(x, ax, &p->a[0], &p->a[1], &p->a[2]);
        if (v->op == RLX_OP_CUMSUM) {
            p->n0 = rlx_kit_int_attr(v, RLX_ATTR_CUMSUM_EXCLUSIVE, 0);
            p->n1 = rlx_kit_int_attr(v, RLX_ATTR_CUMSUM_REVERSE, 0);
        } else {
            p->n0 = rlx_kit_int_attr(v, RLX_ATTR_TOPK_K, 0);
            p->n1 = rlx_kit_int_attr(v, RLX_ATTR_TOPK_LARGEST, 1);
            if (p->n0 < 0 || p->n0 > p->a[1] ||
                (x->rank && y->dims[ax] != p->n0))
                return bad(c, v, "k outside [0, the axis's size]");
        }
        return RLX_OK;
    }
    case RLX_OP_NON_ZERO:
        if (y->rank != 2 || y->dims[0] != (int64_t)x->rank)
            return bad(c, v, "a result other than [rank, n]");
        p->count = x->count;
        p->n0 = y->dims[1];
        return need_flag(c);
    case RLX_OP_RANGE:
        p->f0 = rlx_kit_float_attr(v, RLX_ATTR_RANGE_START, 0.0);
        p->f1 = rlx_kit_float_attr(v, RLX_ATTR_RANGE_DELTA, 1.0);
        p->n0 = rlx_kit_int_attr(v, RLX_ATTR_RANGE_INT_START, 0);
        p->n1 = rlx_kit_int_attr(v, RLX_ATTR_RANGE_INT_DELTA, 1);
        return RLX_OK;
    default:
        break;
    }

    /* gathers, one_hot and scatters read indices */
    const rlxg_value *ix = &c->exe->values[v->inputs[v->op == RLX_OP_ONE_HOT
                                                       ? 0 : 1]];
    if (v->n_inputs < 2 || !idx_ok(ix))
        return rlx_kit_fail(c->host, RLX_ERR_DTYPE,
                            RLXG_NAME " compile: %s '%s' has indices of "
                            "dtype %d. Fix: use i32 or i64 indices",
                            rlx_kit_op_name(v->op), v->name, (int)ix->dtype);
    s->idx_is_i64 = ix->dtype == RLX_DTYPE_I64;
    p->idx_rank = ix->rank;
    memcpy(p->idx_dims, ix->dims, sizeof p->idx_dims);
    switch (v->op) {
    case RLX_OP_GATHER_ELEMENTS: case RLX_OP_SCATTER_ELEMENTS:
        if (!norm_axis(rlx_kit_int_attr(v, 0, 0), x->rank, &ax) ||
            x->rank == 0 || ix->rank != x->rank)
            return bad(c, v, "an axis out of range or indices of another "
                             "rank");
        p->axis = (int32_t)ax;
        if (v->op == RLX_OP_SCATTER_ELEMENTS) {
            p->count = ix->count;
            p->n0 = rlx_kit_int_attr(v, RLX_ATTR_SCATTER_ELEMENTS_REDUCTION,
                                     RLX_REDUCTION_NONE);
        }
        break;
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ND: {
        int64_t b = v->op == RLX_OP_GATHER_ND
                        ? rlx_kit_int_attr(v, RLX_ATTR_GATHER_ND_BATCH_DIMS, 0)
                        : 0;
        if (ix->rank < 1)
            return bad(c, v, "indices of rank 0");
        int64_t last = ix->dims[ix->rank - 1];
        if (b < 0 || b + last > (int64_t)x->rank)
            return bad(c, v, "more index dims than the data has");
        p->n0 = b;
        p->n1 = last;
        p->n2 = rlx_kit_dims_product(x->dims, (uint32_t)(b + last), x->rank);
        if (v->op == RLX_OP_SCATTER_ND) {
            p->n0 = rlx_kit_int_attr(v, RLX_ATTR_SCATTER_ND_REDUCTION,
                                     RLX_REDUCTION_NONE);
            /* the index tuples (each of LAST entries) */
            p->count = rlx_kit_dims_product(ix->dims, 0, ix->rank - 1);
        }
        break;
    }
    default: /* one_hot: (indices, values) */
        if (!norm_axis(rlx_kit_int_attr(v, RLX_ATTR_ONE_HOT_AXIS, -1),
                       y->rank, &ax))
            return bad(c, v, "an axis out of range");
        p->axis = (int32_t)ax;
        p->n0 = rlx_kit_int_attr(v, RLX_ATTR_ONE_HOT_DEPTH, 0);
        if (c->exe->values[v->inputs[1]].count != 2)
            return bad(c, v, "values other than an (off, on) pair");
        s->in[0] = (int)v->inputs[1];
        s->in[1] = (int)v->inputs[0];
        return RLX_OK;
    }
    if (v->op == RLX_OP_SCATTER_ELEMENTS || v->op == RLX_OP_SCATTER_ND) {
        if (p->n0 < RLX_REDUCTION_NONE || p->n0 > RLX_REDUCTION_MIN)
            return bad(c, v, "an unknown reduction");
        /* in: indices, updates; the result already holds data */
        s->in[0] = (int)v->inputs[1];
        s->in[1] = (int)v->inputs[2];
        s->in[2] = -1;
    }
    return need_flag(c);
}

/* grid_sample and roi_align: one step reading x at computed positions
 * (gk_sample.cu), their shapes as the core checked them. */
static rlx_status plan_sample(ctx *c, uint32_t i)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *y = &c->exe->values[i];
    const rlxg_value *x = &c->exe->values[v->inputs[0]];
    int roi = v->op == RLX_OP_ROI_ALIGN;
    if (v->n_inputs != (roi ? 3u : 2u))
        return bad(c, v, "an input count it never has");
    const rlxg_value *g = &c->exe->values[v->inputs[1]];
    rlxg_step *s = rlxg_step_push(c, roi ? RLXG_STEP_ROI_ALIGN
                                         : RLXG_STEP_GRID_SAMPLE, (int)i);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < v->n_inputs; j++)
        s->in[j] = (int)v->inputs[j];
    rlxg_index_plan *p = &s->ix;
    p->op = v->op;
    p->count = y->count;
    p->rank = y->rank;
    memcpy(p->dims, y->dims, sizeof p->dims);
    p->in_rank = x->rank;
    memcpy(p->in_dims, x->dims, sizeof p->in_dims);
    p->idx_rank = g->rank;
    memcpy(p->idx_dims, g->dims, sizeof p->idx_dims);
    if (!roi) {
        p->mode = (int32_t)rlx_kit_int_attr(v, RLX_ATTR_GRID_SAMPLE_MODE,
                                            RLX_GRID_SAMPLE_LINEAR);
        p->n0 = rlx_kit_int_attr(v, RLX_ATTR_GRID_SAMPLE_PADDING,
                                 RLX_GRID_SAMPLE_ZEROS);
        p->n1 = rlx_kit_int_attr(v, RLX_ATTR_GRID_SAMPLE_ALIGN_CORNERS, 0);
        if (x->rank < 3 || x->rank > 5 || g->rank != x->rank ||
            g->dims[g->rank - 1] != (int64_t)x->rank - 2 ||
            p->mode < RLX_GRID_SAMPLE_LINEAR ||
            p->mode > RLX_GRID_SAMPLE_CUBIC || p->n0 < RLX_GRID_SAMPLE_ZEROS ||
            p->n0 > RLX_GRID_SAMPLE_REFLECTION)
            return bad(c, v, "a shape or mode the core should have refused");
        return RLX_OK;
    }
    const rlxg_value *b = &c->exe->values[v->inputs[2]];
    p->mode = (int32_t)rlx_kit_int_attr(v, RLX_ATTR_ROI_ALIGN_MODE, 0);
    p->n0 = rlx_kit_int_attr(v, RLX_ATTR_ROI_ALIGN_SAMPLING_RATIO, 0);
    p->n1 = rlx_kit_int_attr(v, RLX_ATTR_ROI_ALIGN_HALF_PIXEL, 1);
    p->f0 = rlx_kit_float_attr(v, RLX_ATTR_ROI_ALIGN_SPATIAL_SCALE, 1.0);
    if (x->rank != 4 || y->rank != 4 || g->rank != 2 || !idx_ok(b))
        return bad(c, v, "a shape or dtype the core should have refused");
    s->idx_is_i64 = b->dtype == RLX_DTYPE_I64;
    return need_flag(c);
}

rlx_status rlxg_node_more(ctx *c, uint32_t i)
{
    const rlx_node_view *v = c->g->nodes[i];
    rlxg_step *s;
    switch (v->op) {
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
    case RLX_OP_REDUCE_MIN: case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_REDUCE_SUM_SQUARE:
        if (!(s = rlxg_step_push(c, RLXG_STEP_REDUCE_MORE, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        return rlxg_node_reduce_plan(c, i, s);
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN: {
        const rlxg_value *x = &c->exe->values[v->inputs[0]];
        uint32_t ax;
        if (!norm_axis(rlx_kit_int_attr(v, RLX_ATTR_ARG_AXIS, 0), x->rank,
                       &ax))
            return bad(c, v, "an axis out of range");
        if (!(s = rlxg_step_push(c, RLXG_STEP_ARG, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        split_axis(x, ax, &s->outer, &s->len, &s->inner);
        if (s->len == 0)
            return bad(c, v, "an empty axis");
        s->op = v->op;
        s->approx = (int)rlx_kit_int_attr(v, RLX_ATTR_ARG_SELECT_LAST_INDEX,
                                          0);
        return RLX_OK;
    }
    case RLX_OP_EXPAND: case RLX_OP_STRIDED_SLICE:
        return strided_copy(c, i);
    case RLX_OP_MAX_POOL_INDEX:
        if (!(s = rlxg_step_push(c, RLXG_STEP_POOL_INDEX, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        return rlxg_plan_window(c, i, &s->win);
    case RLX_OP_GRID_SAMPLE: case RLX_OP_ROI_ALIGN:
        return plan_sample(c, i);
    case RLX_OP_DET: {
        const rlxg_value *x = &c->exe->values[v->inputs[0]];
        if (x->rank < 2 || x->dims[x->rank - 1] != x->dims[x->rank - 2] ||
            x->dims[x->rank - 1] > RLXG_DET_MAX_M)
            return bad(c, v, "matrices that are not square or larger "
                             "than its kernel takes (supports_node "
                             "declines those)");
        if (!(s = rlxg_step_push(c, RLXG_STEP_DET, (int)i)))
            return RLX_ERR_OUT_OF_MEMORY;
        s->in[0] = (int)v->inputs[0];
        s->len = x->dims[x->rank - 1];
        s->outer = c->exe->values[i].count;
        return RLX_OK;
    }
    default:
        break;
    }
    if (v->op >= 150)
        return plan_index(c, i);
    if (!(s = rlxg_step_push(c, RLXG_STEP_EW, (int)i)))
        return RLX_ERR_OUT_OF_MEMORY;
    return plan_ew(c, i, s);
}
