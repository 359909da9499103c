/*
 * shape.c - shape and dtype inference for every op, with errors that name
 * the node, the op and the shapes that disagree.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define SHAPE_BUF 128

static rlx_status node_error(rlx_status st, const char *name, rlx_op op,
                             const char *fmt, ...) RLX__PRINTF(4, 5);

static rlx_status node_error(rlx_status st, const char *name, rlx_op op,
                             const char *fmt, ...)
{
    char detail[RLX_MSG_MAX - 200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    return rlx__error(st, "node '%s' (%s): %s", name, rlx_op_name(op),
                      detail);
}

static int64_t int_attr(const rlx_attrs *a, uint32_t i, int64_t dflt)
{
    return a && i < a->n_ints ? a->ints[i] : dflt;
}

/* Attribute counts each op accepts: ints, floats. */
static void attr_limits(rlx_op op, uint32_t *ints, uint32_t *floats)
{
    *ints = *floats = 0;
    switch (op) {
    case RLX_OP_GELU: *ints = 1; break;
    case RLX_OP_MATMUL: *ints = 2; break;
    case RLX_OP_SOFTMAX: *ints = 1; break;
    default: break;
    }
}

static rlx_status infer_broadcast(const char *name, rlx_op op,
                                  const rlx__node *a, const rlx__node *b,
                                  rlx__node *out)
{
    uint32_t rank = a->rank > b->rank ? a->rank : b->rank;
    for (uint32_t i = 0; i < rank; i++) {
        /* align from the right */
        int64_t da = i < a->rank ? a->shape[a->rank - 1 - i] : 1;
        int64_t db = i < b->rank ? b->shape[b->rank - 1 - i] : 1;
        if (da != db && da != 1 && db != 1) {
            char sa[SHAPE_BUF], sb[SHAPE_BUF];
            return node_error(
                RLX_ERR_SHAPE, name, op,
                "shapes %s ('%s') and %s ('%s') do not broadcast: dimension "
                "%lld vs %lld. Fix: make the sizes equal, or 1 on one side",
                rlx__shape_str(sa, sizeof sa, a->rank, a->shape), a->name,
                rlx__shape_str(sb, sizeof sb, b->rank, b->shape), b->name,
                (long long)da, (long long)db);
        }
        out->shape[rank - 1 - i] = da == 1 ? db : da;
    }
    out->rank = rank;
    return RLX_OK;
}

static rlx_status infer_matmul(const char *name, const rlx__node *a,
                               const rlx__node *b, const rlx_attrs *attrs,
                               rlx__node *out)
{
    char sa[SHAPE_BUF], sb[SHAPE_BUF];
    int64_t ta = int_attr(attrs, RLX_ATTR_MATMUL_TRANSPOSE_A, 0);
    int64_t tb = int_attr(attrs, RLX_ATTR_MATMUL_TRANSPOSE_B, 0);
    if (a->rank == 0 || b->rank == 0)
        return node_error(RLX_ERR_SHAPE, name, RLX_OP_MATMUL,
                          "operand '%s' is a scalar. Fix: matmul needs "
                          "rank 1 or more on both sides (use mul to scale)",
                          a->rank == 0 ? a->name : b->name);
    /* a: [..., m, k], b: [..., k, n]; rank-1 sides as in NumPy */
    int64_t m = 1, ka, kb, n = 1;
    if (a->rank == 1) {
        ka = a->shape[0];
    } else {
        int64_t r = a->shape[a->rank - 2], c = a->shape[a->rank - 1];
        m = ta ? c : r;
        ka = ta ? r : c;
    }
    if (b->rank == 1) {
        kb = b->shape[0];
    } else {
        int64_t r = b->shape[b->rank - 2], c = b->shape[b->rank - 1];
        kb = tb ? c : r;
        n = tb ? r : c;
    }
    if (ka != kb)
        return node_error(
            RLX_ERR_SHAPE, name, RLX_OP_MATMUL,
            "inner dimensions differ: '%s' %s%s gives k=%lld, '%s' %s%s "
            "gives k=%lld. Fix: the last dimension of a must equal the "
            "second-to-last of b (or set transpose_a/transpose_b)",
            a->name, rlx__shape_str(sa, sizeof sa, a->rank, a->shape),
            ta ? " transposed" : "", (long long)ka, b->name,
            rlx__shape_str(sb, sizeof sb, b->rank, b->shape),
            tb ? " transposed" : "", (long long)kb);

    /* batch dims broadcast */
    uint32_t ra = a->rank > 2 ? a->rank - 2 : 0;
    uint32_t rb = b->rank > 2 ? b->rank - 2 : 0;
    uint32_t rbatch = ra > rb ? ra : rb;
    for (uint32_t i = 0; i < rbatch; i++) {
        int64_t da = i < ra ? a->shape[ra - 1 - i] : 1;
        int64_t db = i < rb ? b->shape[rb - 1 - i] : 1;
        if (da != db && da != 1 && db != 1)
            return node_error(
                RLX_ERR_SHAPE, name, RLX_OP_MATMUL,
                "batch dimensions of '%s' %s and '%s' %s do not broadcast "
                "(%lld vs %lld). Fix: make them equal, or 1 on one side",
                a->name, rlx__shape_str(sa, sizeof sa, a->rank, a->shape),
                b->name, rlx__shape_str(sb, sizeof sb, b->rank, b->shape),
                (long long)da, (long long)db);
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

rlx_status rlx__shape_infer(const rlx_graph *g, const char *name, rlx_op op,
                            uint32_t n_inputs, const uint32_t *inputs,
                            const rlx_attrs *attrs, rlx__node *out)
{
    int arity = rlx__op_arity(op);
    if (arity == RLX__OP_UNKNOWN)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "node '%s': unknown op %d. Fix: use an op from "
                          "rlx/ops.h", name, (int)op);
    if (arity == 0)
        return node_error(RLX_ERR_INVALID_ARGUMENT, name, op,
                          "is a source. Fix: use rlx_graph_input, "
                          "rlx_graph_param or rlx_graph_constant");
    if ((int)n_inputs != arity)
        return node_error(RLX_ERR_INVALID_ARGUMENT, name, op,
                          "takes %d input%s, got %u", arity,
                          arity == 1 ? "" : "s", n_inputs);
    for (uint32_t i = 0; i < n_inputs; i++)
        if (inputs[i] >= g->n_nodes)
            return node_error(RLX_ERR_INVALID_ARGUMENT, name, op,
                              "input %u is value %u, which does not exist "
                              "(the graph has %u nodes)",
                              i, inputs[i], g->n_nodes);

    uint32_t max_ints, max_floats;
    attr_limits(op, &max_ints, &max_floats);
    if (attrs && (attrs->n_ints > max_ints || attrs->n_floats > max_floats))
        return node_error(RLX_ERR_INVALID_ARGUMENT, name, op,
                          "takes at most %u integer and %u float "
                          "attributes, got %u and %u. Fix: see rlx/ops.h",
                          max_ints, max_floats, attrs->n_ints,
                          attrs->n_floats);

    const rlx__node *a = &g->nodes[inputs[0]];
    const rlx__node *b = n_inputs > 1 ? &g->nodes[inputs[1]] : NULL;
    if (b && a->dtype != b->dtype)
        return node_error(RLX_ERR_DTYPE, name, op,
                          "dtypes differ: '%s' is %s, '%s' is %s. Fix: "
                          "make both sides the same dtype",
                          a->name, rlx_dtype_name(a->dtype), b->name,
                          rlx_dtype_name(b->dtype));
    out->dtype = a->dtype;

    switch (op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
        return infer_broadcast(name, op, a, b, out);
    case RLX_OP_MATMUL:
        for (uint32_t i = 0; i < 2; i++) {
            int64_t t = int_attr(attrs, i, 0);
            if (t != 0 && t != 1)
                return node_error(RLX_ERR_INVALID_ARGUMENT, name, op,
                                  "transpose flag %u is %lld. Fix: use 0 "
                                  "or 1", i, (long long)t);
        }
        return infer_matmul(name, a, b, attrs, out);
    case RLX_OP_SOFTMAX: {
        int64_t axis = int_attr(attrs, RLX_ATTR_SOFTMAX_AXIS, -1);
        if (a->rank == 0 || axis < -(int64_t)a->rank ||
            axis >= (int64_t)a->rank)
            return node_error(RLX_ERR_SHAPE, name, op,
                              "axis %lld is out of range for rank %u. Fix: "
                              "use an axis in [-%u, %u)",
                              (long long)axis, a->rank, a->rank, a->rank);
        break;
    }
    case RLX_OP_GELU: {
        int64_t f = int_attr(attrs, RLX_ATTR_GELU_APPROX, RLX_GELU_ERF);
        if (f != RLX_GELU_ERF && f != RLX_GELU_TANH)
            return node_error(RLX_ERR_INVALID_ARGUMENT, name, op,
                              "approximation %lld is unknown. Fix: use 0 "
                              "(erf) or 1 (tanh)", (long long)f);
        break;
    }
    default:
        break; /* unary: same shape */
    }
    out->rank = a->rank;
    memcpy(out->shape, a->shape, sizeof out->shape);
    return RLX_OK;
}
