/*
 * shape.c - shape and dtype inference for every op: the entry point that
 * checks arity, attribute counts and dtypes, then the elementwise ops,
 * matmul and softmax. Errors name the node, the op and the shapes that
 * disagree. The other op groups live in shape_norm.c, shape_movement.c
 * and shape_create.c.
 */
#include <stdio.h>
#include <string.h>

#include "shape_internal.h"

rlx_status rlx__shape_error(const rlx__shape_ctx *c, rlx_status st,
                            const char *fmt, ...)
{
    char detail[RLX_MSG_MAX - 200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return rlx__error(st, "node '%s' (%s): %s", c->name, rlx_op_name(c->op),
                      detail);
}

const char *rlx__shape_of(char *buf, size_t size, const rlx__node *n)
{
    return rlx__shape_str(buf, size, n->rank, n->shape);
}

rlx_status rlx__shape_axis(const rlx__shape_ctx *c, const char *what,
                           int64_t axis, uint32_t rank, uint32_t *out)
{
    if (rank == 0 || axis < -(int64_t)rank || axis >= (int64_t)rank) {
        if (rank == 0)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "%s %lld given for a rank-0 (scalar) "
                                    "operand. Fix: %s needs rank 1 or more",
                                    what, (long long)axis,
                                    rlx_op_name(c->op));
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "%s %lld is out of range for rank %u. Fix: "
                                "use an axis in [-%u, %u)", what,
                                (long long)axis, rank, rank, rank);
    }
    *out = (uint32_t)(axis < 0 ? axis + (int64_t)rank : axis);
    return RLX_OK;
}

/* Attribute counts each op accepts: ints, floats. Variable-length lists
 * are capped at what RLX_MAX_RANK allows. */
static void attr_limits(rlx_op op, uint32_t *ints, uint32_t *floats)
{
    *ints = *floats = 0;
    switch (op) {
    case RLX_OP_GELU: *ints = 1; break;
    case RLX_OP_MATMUL: *ints = 2; break;
    case RLX_OP_SOFTMAX: *ints = 2; break;
    case RLX_OP_LAYER_NORM: case RLX_OP_RMS_NORM: *floats = 1; break;
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        *ints = 1 + RLX_MAX_RANK; /* keepdims, then each axis once */
        break;
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: *ints = RLX_MAX_RANK; break;
    case RLX_OP_CONCAT: case RLX_OP_GATHER: case RLX_OP_CAST:
        *ints = 1;
        break;
    case RLX_OP_SLICE: *ints = 3 * RLX_MAX_RANK; break;
    case RLX_OP_FILL: *ints = 1 + RLX_MAX_RANK; *floats = 1; break;
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE:
        *ints = RLX_ATTR_CONV_BLOCKS + 5 * (RLX_MAX_RANK - 2);
        break;
    case RLX_OP_MAX_POOL: case RLX_OP_AVG_POOL: case RLX_OP_LP_POOL:
    case RLX_OP_MAX_POOL_INDEX:
        *ints = RLX_ATTR_POOL_BLOCKS + 5 * (RLX_MAX_RANK - 2);
        break;
    case RLX_OP_RESIZE:
        *ints = RLX_ATTR_RESIZE_SHAPE + RLX_MAX_RANK;
        *floats = RLX_ATTR_RESIZE_SCALES + 3 * RLX_MAX_RANK;
        break;
    case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM: *floats = 1; break;
    case RLX_OP_GROUP_NORM: *ints = 1; *floats = 1; break;
    case RLX_OP_CLIP: case RLX_OP_SELU: case RLX_OP_HARD_SIGMOID:
        *floats = 2;
        break;
    case RLX_OP_LEAKY_RELU: case RLX_OP_ELU: *floats = 1; break;
    case RLX_OP_ISINF: *ints = 2; break;
    case RLX_OP_MOD: case RLX_OP_BIT_SHIFT: *ints = 1; break;
    case RLX_OP_GRID_SAMPLE: *ints = 3; break;
    case RLX_OP_ROI_ALIGN: *ints = 5; *floats = 1; break;
    case RLX_OP_REDUCE_MIN: case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_REDUCE_SUM_SQUARE:
        *ints = 1 + RLX_MAX_RANK;
        break;
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN: *ints = 3; break;
    /* since 1.4: data movement and indexing */
    case RLX_OP_PAD: *ints = 1 + 2 * RLX_MAX_RANK; *floats = 1; break;
    case RLX_OP_EXPAND: case RLX_OP_TILE: *ints = RLX_MAX_RANK; break;
    case RLX_OP_STRIDED_SLICE: *ints = 4 * RLX_MAX_RANK; break;
    case RLX_OP_GATHER_ELEMENTS: case RLX_OP_GATHER_ND:
    case RLX_OP_SCATTER_ND: case RLX_OP_NON_ZERO:
        *ints = 1;
        break;
    case RLX_OP_SCATTER_ELEMENTS: case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
        *ints = 2;
        break;
    case RLX_OP_CUMSUM: *ints = 3; break;
    case RLX_OP_TOPK: *ints = 4; break;
    case RLX_OP_RANGE: *ints = 4; *floats = 2; break;
    case RLX_OP_QUANTIZE_LINEAR: case RLX_OP_DEQUANTIZE_LINEAR:
        *ints = 2;
        break;
    case RLX_OP_CONV_INTEGER:
        *ints = RLX_ATTR_CONV_BLOCKS + 4 * (RLX_MAX_RANK - 2);
        break;
    default: break;
    }
}

/* Ops computed in floating point: f32, f16 or bf16 (some also f64). */
static int is_float_op(rlx_op op)
{
    switch (op) {
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL: case RLX_OP_INPUT: case RLX_OP_PARAM:
    case RLX_OP_CONSTANT:
    /* since 1.4: data movement and indexing, dtypes checked per op */
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ELEMENTS:
    case RLX_OP_SCATTER_ND: case RLX_OP_CUMSUM: case RLX_OP_TOPK:
    case RLX_OP_RANGE: case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
    case RLX_OP_NON_ZERO:
    case RLX_OP_QUANTIZE_LINEAR: case RLX_OP_DEQUANTIZE_LINEAR:
    case RLX_OP_MATMUL_INTEGER: case RLX_OP_CONV_INTEGER:
        return 0;
    default:
        return 1;
    }
}

static int is_float_dtype(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 || t == RLX_DTYPE_BF16;
}

rlx_status rlx__shape_broadcast(const rlx__shape_ctx *c, const rlx__node *a,
                                const rlx__node *b, rlx__node *out)
{
    uint32_t rank = a->rank > b->rank ? a->rank : b->rank;
    for (uint32_t i = 0; i < rank; i++) {
        /* align from the right */
        int64_t da = i < a->rank ? a->shape[a->rank - 1 - i] : 1;
        int64_t db = i < b->rank ? b->shape[b->rank - 1 - i] : 1;
        if (da != db && da != 1 && db != 1) {
            char sa[RLX__SHAPE_BUF], sb[RLX__SHAPE_BUF];
            return rlx__shape_error(
                c, RLX_ERR_SHAPE,
                "shapes %s ('%s') and %s ('%s') do not broadcast: dimension "
                "%lld vs %lld. Fix: make the sizes equal, or 1 on one side",
                rlx__shape_of(sa, sizeof sa, a), a->name,
                rlx__shape_of(sb, sizeof sb, b), b->name, (long long)da,
                (long long)db);
        }
        out->shape[rank - 1 - i] = da == 1 ? db : da;
    }
    out->rank = rank;
    return RLX_OK;
}

static rlx_status infer_matmul(const rlx__shape_ctx *c, const rlx__node *a,
                               const rlx__node *b, rlx__node *out)
{
    char sa[RLX__SHAPE_BUF], sb[RLX__SHAPE_BUF];
    for (uint32_t i = 0; i < 2; i++) {
        int64_t t = rlx__shape_int(c, i, 0);
        if (t != 0 && t != 1)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "transpose flag %u is %lld. Fix: use 0 "
                                    "or 1", i, (long long)t);
    }
    int64_t ta = rlx__shape_int(c, RLX_ATTR_MATMUL_TRANSPOSE_A, 0);
    int64_t tb = rlx__shape_int(c, RLX_ATTR_MATMUL_TRANSPOSE_B, 0);
    if (a->rank == 0 || b->rank == 0)
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "operand '%s' is a scalar. Fix: matmul "
                                "needs rank 1 or more on both sides (use mul "
                                "to scale)",
                                a->rank == 0 ? a->name : b->name);
    /* a: [..., m, k], b: [..., k, n]; rank-1 sides as in NumPy */
    int64_t m = 1, ka, kb, n = 1;
    if (a->rank == 1) {
        ka = a->shape[0];
    } else {
        int64_t r = a->shape[a->rank - 2], cc = a->shape[a->rank - 1];
        m = ta ? cc : r;
        ka = ta ? r : cc;
    }
    if (b->rank == 1) {
        kb = b->shape[0];
    } else {
        int64_t r = b->shape[b->rank - 2], cc = b->shape[b->rank - 1];
        kb = tb ? cc : r;
        n = tb ? r : cc;
    }
    if (ka != kb)
        return rlx__shape_error(
            c, RLX_ERR_SHAPE,
            "inner dimensions differ: '%s' %s%s gives k=%lld, '%s' %s%s "
            "gives k=%lld. Fix: the last dimension of a must equal the "
            "second-to-last of b (or set transpose_a/transpose_b)",
            a->name, rlx__shape_of(sa, sizeof sa, a),
            ta ? " transposed" : "", (long long)ka, b->name,
            rlx__shape_of(sb, sizeof sb, b), tb ? " transposed" : "",
            (long long)kb);

    /* batch dims broadcast */
    uint32_t ra = a->rank > 2 ? a->rank - 2 : 0;
    uint32_t rb = b->rank > 2 ? b->rank - 2 : 0;
    uint32_t rbatch = ra > rb ? ra : rb;
    for (uint32_t i = 0; i < rbatch; i++) {
        int64_t da = i < ra ? a->shape[ra - 1 - i] : 1;
        int64_t db = i < rb ? b->shape[rb - 1 - i] : 1;
        if (da != db && da != 1 && db != 1)
            return rlx__shape_error(
                c, RLX_ERR_SHAPE,
                "batch dimensions of '%s' %s and '%s' %s do not broadcast "
                "(%lld vs %lld). Fix: make them equal, or 1 on one side",
                a->name, rlx__shape_of(sa, sizeof sa, a), b->name,
                rlx__shape_of(sb, sizeof sb, b), (long long)da,
                (long long)db);
        out->shape[rbatch - 1 - i] = da == 1 ? db : da;
    }
    uint32_t r = rbatch;
    if (a->rank > 1)
        out->shape[r++] = m;
    if (b->rank > 1)
        out->shape[r++] = n;
    out->rank = r;
    return RLX_OK;
}

static rlx_status infer_softmax(const rlx__shape_ctx *c, const rlx__node *a)
{
    uint32_t axis = 0;
    int64_t causal = rlx__shape_int(c, RLX_ATTR_SOFTMAX_CAUSAL, 0);
    rlx_status st = rlx__shape_axis(
        c, "axis", rlx__shape_int(c, RLX_ATTR_SOFTMAX_AXIS, -1), a->rank,
        &axis);
    if (st != RLX_OK)
        return st;
    if (causal != 0 && causal != 1)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "causal is %lld. Fix: use 0 or 1",
                                (long long)causal);
    if (causal && (a->rank < 2 || axis != a->rank - 1)) {
        char sa[RLX__SHAPE_BUF];
        return rlx__shape_error(c, RLX_ERR_SHAPE,
                                "causal softmax of '%s' %s along axis %u. "
                                "Fix: causal masking needs rank 2 or more "
                                "and the last axis (-1)",
                                a->name, rlx__shape_of(sa, sizeof sa, a),
                                axis);
    }
    return RLX_OK;
}

/* Arity, input existence and attribute counts. */
static rlx_status check_call(const rlx__shape_ctx *c)
{
    int arity = rlx__op_arity(c->op);
    if (arity == RLX__OP_UNKNOWN)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "node '%s': unknown op %d. Fix: use an op from "
                          "rlx/ops.h", c->name, (int)c->op);
    if (c->op == RLX_OP_INPUT || c->op == RLX_OP_PARAM ||
        c->op == RLX_OP_CONSTANT)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "is a source. Fix: use rlx_graph_input, "
                                "rlx_graph_param or rlx_graph_constant");
    if (arity == RLX_OP_VARIADIC && c->n_inputs == 0)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "takes one or more inputs, got 0. Fix: "
                                "pass at least one input");
    if (arity != RLX_OP_VARIADIC && (int64_t)c->n_inputs != arity)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "takes %d input%s, got %u. Fix: see "
                                "rlx/ops.h for the op's inputs", arity,
                                arity == 1 ? "" : "s", c->n_inputs);
    for (uint32_t i = 0; i < c->n_inputs; i++)
        if (c->inputs[i] >= c->g->n_nodes)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "input %u is value %u, which does not "
                                    "exist (the graph has %u nodes)",
                                    i, c->inputs[i], c->g->n_nodes);

    uint32_t max_ints, max_floats;
    attr_limits(c->op, &max_ints, &max_floats);
    if (c->attrs &&
        (c->attrs->n_ints > max_ints || c->attrs->n_floats > max_floats))
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "takes at most %u integer and %u float "
                                "attributes, got %u and %u. Fix: see "
                                "rlx/ops.h", max_ints, max_floats,
                                c->attrs->n_ints, c->attrs->n_floats);
    return RLX_OK;
}

/* Float ops that also take i8 and u8 (they only pick input values):
 * max_pool, and resize (nearest; shape_resize.c checks the mode). */
static int takes_bytes(rlx_op op, rlx_dtype t)
{
    return (op == RLX_OP_MAX_POOL || op == RLX_OP_RESIZE) &&
           (t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8);
}

/* Dtype rules shared by the float ops. */
/* The float ops that also compute on f64: the unary ops of 1.0 and the
 * float elementwise ops of values 100-149 (the arithmetic, comparisons
 * and reductions have rows in shape_dtype.c). The others (matmul,
 * softmax, norms, convolution, ...) stay f32, f16 and bf16. */
static int takes_f64(rlx_op op)
{
    return (op >= RLX_OP_RELU && op <= RLX_OP_ATAN) ||
           (op >= 100 && op < 150) || op == RLX_OP_DET;
}

static rlx_status check_float_dtypes(const rlx__shape_ctx *c)
{
    const rlx__node *a = rlx__shape_in(c, 0);
    if (a->dtype == RLX_DTYPE_F64 && !takes_f64(c->op))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "'%s' is f64, but %s computes on f32, f16 "
                                "and bf16 only. Fix: cast it to f32 first",
                                a->name, rlx_op_name(c->op));
    if (!is_float_dtype(a->dtype) && !takes_bytes(c->op, a->dtype) &&
        !(a->dtype == RLX_DTYPE_F64 && takes_f64(c->op)))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "'%s' is %s, but %s computes in floating "
                                "point. Fix: cast it to f32, f16 or bf16 "
                                "first", a->name, rlx_dtype_name(a->dtype),
                                rlx_op_name(c->op));
    /* roi_align's batch index is an integer input */
    uint32_t same = c->op == RLX_OP_ROI_ALIGN ? 2 : c->n_inputs;
    for (uint32_t i = 1; i < same; i++) {
        const rlx__node *b = rlx__shape_in(c, i);
        if (b->dtype != a->dtype)
            return rlx__shape_error(c, RLX_ERR_DTYPE,
                                    "dtypes differ: '%s' is %s, '%s' is %s. "
                                    "Fix: make %s the same dtype (cast one)",
                                    a->name, rlx_dtype_name(a->dtype),
                                    b->name, rlx_dtype_name(b->dtype),
                                    c->n_inputs == 2 ? "both sides"
                                                     : "every input");
    }
    return RLX_OK;
}

static rlx_status infer_op(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *a = c->n_inputs > 0 ? rlx__shape_in(c, 0) : NULL;
    switch (c->op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
        return rlx__shape_broadcast(c, a, rlx__shape_in(c, 1), out);
    case RLX_OP_MATMUL:
        return infer_matmul(c, a, rlx__shape_in(c, 1), out);
    case RLX_OP_LAYER_NORM: case RLX_OP_RMS_NORM:
        return rlx__shape_norm(c, out);
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        return rlx__shape_reduce(c, out);
    case RLX_OP_RESHAPE: return rlx__shape_reshape(c, out);
    case RLX_OP_TRANSPOSE: return rlx__shape_transpose(c, out);
    case RLX_OP_CONCAT: return rlx__shape_concat(c, out);
    case RLX_OP_SLICE: return rlx__shape_slice(c, out);
    case RLX_OP_GATHER: return rlx__shape_gather(c, out);
    case RLX_OP_CAST: return rlx__shape_cast(c, out);
    case RLX_OP_FILL: return rlx__shape_fill(c, out);
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE:
        return rlx__shape_conv(c, out);
    case RLX_OP_MAX_POOL: case RLX_OP_AVG_POOL: case RLX_OP_LP_POOL:
        return rlx__shape_pool(c, out);
    case RLX_OP_MAX_POOL_INDEX: {
        int64_t so = rlx__shape_int(c, RLX_ATTR_POOL_STORAGE_ORDER, 0);
        if (so != 0 && so != 1)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "storage_order is %lld. Fix: use 0 "
                                    "(row-major) or 1 (column-major)",
                                    (long long)so);
        out->dtype = RLX_DTYPE_I64; /* positions, whatever x is */
        return rlx__shape_pool(c, out);
    }
    case RLX_OP_RESIZE: return rlx__shape_resize(c, out);
    case RLX_OP_GRID_SAMPLE: return rlx__shape_grid_sample(c, out);
    case RLX_OP_ROI_ALIGN: return rlx__shape_roi_align(c, out);
    case RLX_OP_DET: {
        char sa[RLX__SHAPE_BUF];
        if (a->rank < 2 || a->shape[a->rank - 1] != a->shape[a->rank - 2])
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "'%s' %s is not a stack of square "
                                    "matrices. Fix: give [..., m, m]",
                                    a->name, rlx__shape_of(sa, sizeof sa, a));
        out->rank = a->rank - 2;
        memcpy(out->shape, a->shape, sizeof out->shape);
        return RLX_OK;
    }
    case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM:
    case RLX_OP_GROUP_NORM:
        return rlx__shape_chnorm(c, out);
    case RLX_OP_PAD: return rlx__shape_pad(c, out);
    case RLX_OP_EXPAND: return rlx__shape_expand(c, out);
    case RLX_OP_TILE: return rlx__shape_tile(c, out);
    case RLX_OP_STRIDED_SLICE: return rlx__shape_strided_slice(c, out);
    case RLX_OP_TRILU: return rlx__shape_trilu(c, out);
    case RLX_OP_GATHER_ELEMENTS: return rlx__shape_gather_elements(c, out);
    case RLX_OP_GATHER_ND: return rlx__shape_gather_nd(c, out);
    case RLX_OP_SCATTER_ELEMENTS: return rlx__shape_scatter_elements(c, out);
    case RLX_OP_SCATTER_ND: return rlx__shape_scatter_nd(c, out);
    case RLX_OP_CUMSUM: return rlx__shape_cumsum(c, out);
    case RLX_OP_TOPK: return rlx__shape_topk(c, out);
    case RLX_OP_RANGE: return rlx__shape_range(c, out);
    case RLX_OP_ONE_HOT: return rlx__shape_one_hot(c, out);
    case RLX_OP_NON_ZERO: return rlx__shape_non_zero(c, out);
    case RLX_OP_QUANTIZE_LINEAR: case RLX_OP_DEQUANTIZE_LINEAR:
        return rlx__shape_quant(c, out);
    case RLX_OP_MATMUL_INTEGER: {
        rlx_status st = infer_matmul(c, a, rlx__shape_in(c, 1), out);
        return st != RLX_OK ? st : rlx__shape_matmul_integer(c, out);
    }
    case RLX_OP_CONV_INTEGER: return rlx__shape_conv_integer(c, out);
    case RLX_OP_SOFTMAX: {
        rlx_status st = infer_softmax(c, a);
        if (st != RLX_OK)
            return st;
        break;
    }
    case RLX_OP_GELU: {
        int64_t f = rlx__shape_int(c, RLX_ATTR_GELU_APPROX, RLX_GELU_ERF);
        if (f != RLX_GELU_ERF && f != RLX_GELU_TANH)
            return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                    "approximation %lld is unknown. Fix: "
                                    "use 0 (erf) or 1 (tanh)", (long long)f);
        break;
    }
    default:
        if (c->op >= 100 && c->op < 150)
            return rlx__shape_ew14(c, out);
        break; /* unary: same shape */
    }
    out->rank = a->rank;
    memcpy(out->shape, a->shape, sizeof out->shape);
    return RLX_OK;
}

rlx_status rlx__shape_infer(const rlx_graph *g, const char *name, rlx_op op,
                            uint32_t n_inputs, const uint32_t *inputs,
                            const rlx_attrs *attrs, rlx__node *out)
{
    const rlx__shape_ctx c = { g, name, op, n_inputs, inputs, attrs };
    rlx_status st = check_call(&c);
    if (st != RLX_OK)
        return st;
    /* the result's dtype is the first input's unless the op sets it */
    out->dtype = n_inputs ? rlx__shape_in(&c, 0)->dtype : RLX_DTYPE_INVALID;
    if (rlx__shape_has_dtype_row(op)) {
        if ((st = rlx__shape_dtypes(&c, &out->dtype)) != RLX_OK)
            return st;
    } else if (is_float_op(op) && (st = check_float_dtypes(&c)) != RLX_OK) {
        return st;
    }
    if ((st = infer_op(&c, out)) != RLX_OK)
        return st;

    /* Every result must fit in memory's address range, as sources do. */
    int64_t n = rlx__shape_elements(out->rank, out->shape);
    size_t esize = rlx_dtype_size(out->dtype);
    if (n < 0 || esize == 0 || (uint64_t)n > SIZE_MAX / esize) {
        char so[RLX__SHAPE_BUF];
        return rlx__shape_error(&c, RLX_ERR_SHAPE,
                                "the result %s %s overflows the address "
                                "space. Fix: use smaller dimensions",
                                rlx_dtype_name(out->dtype),
                                rlx__shape_of(so, sizeof so, out));
    }
    return RLX_OK;
}
