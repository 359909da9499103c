/*
 * kernels_ew.c - elementwise ops of one to three inputs with NumPy
 * broadcasting, on any dtype the op allows: the ABI 1.4 comparisons,
 * logical, bitwise, select, rounding and activation ops, and the older
 * arithmetic ops on integers, and every elementwise op on f64. Floats
 * compute in double from the inputs' f32 views (f64: their values); integers in int64 with two's-complement wrap-around, stored
 * back at the result's width.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

int64_t rlx__cpu_ref_load_int(const rlx__cpu_ref_node *n, size_t i)
{
    const unsigned char *p = n->data + i * n->elem;
    switch (n->dtype) {
    case RLX_DTYPE_I8: { int8_t v; memcpy(&v, p, 1); return v; }
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL: return p[0];
    case RLX_DTYPE_I16: { int16_t v; memcpy(&v, p, 2); return v; }
    case RLX_DTYPE_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case RLX_DTYPE_I32: { int32_t v; memcpy(&v, p, 4); return v; }
    case RLX_DTYPE_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
    case RLX_DTYPE_I64: case RLX_DTYPE_U64: /* u64: its bits */
        { int64_t v; memcpy(&v, p, 8); return v; }
    default: return 0;
    }
}

double rlx__cpu_ref_load_double(const rlx__cpu_ref_node *n, size_t i)
{
    if (n->f32)
        return n->f32[i];
    if (n->dtype == RLX_DTYPE_F64) {
        double v;
        memcpy(&v, n->data + i * 8, 8);
        return v;
    }
    if (n->dtype == RLX_DTYPE_U64)
        return (double)(uint64_t)rlx__cpu_ref_load_int(n, i);
    return (double)rlx__cpu_ref_load_int(n, i);
}

void rlx__cpu_ref_store_double(rlx__cpu_ref_node *n, size_t i, double v)
{
    if (n->f32)
        n->f32[i] = rlx__cpu_ref_to_f32(v);
    else if (n->dtype == RLX_DTYPE_F64)
        memcpy(n->data + i * 8, &v, 8);
}

void rlx__cpu_ref_store_int(rlx__cpu_ref_node *n, size_t i, int64_t v)
{
    unsigned char *p = n->data + i * n->elem;
    uint64_t u = (uint64_t)v; /* the low bytes are the wrapped value */
    switch (n->dtype) {
    case RLX_DTYPE_BOOL: p[0] = v != 0; break;
    case RLX_DTYPE_I8: case RLX_DTYPE_U8: p[0] = (unsigned char)u; break;
    case RLX_DTYPE_I16: case RLX_DTYPE_U16: {
        uint16_t w = (uint16_t)u;
        memcpy(p, &w, 2);
        break;
    }
    case RLX_DTYPE_I32: case RLX_DTYPE_U32: {
        uint32_t w = (uint32_t)u;
        memcpy(p, &w, 4);
        break;
    }
    case RLX_DTYPE_I64: case RLX_DTYPE_U64: memcpy(p, &u, 8); break;
    default: break;
    }
}

static double attr_f(const rlx__cpu_ref_attrs *a, uint32_t i, double dflt)
{
    return i < a->n_floats ? a->floats[i] : dflt;
}

static int64_t attr_i(const rlx__cpu_ref_attrs *a, uint32_t i, int64_t dflt)
{
    return i < a->n_ints ? a->ints[i] : dflt;
}

/* Fill P's attributes with the op's defaults where absent (ops.h). */
static void read_attrs(rlx_op op, const rlx__cpu_ref_attrs *a,
                       rlx__cpu_ref_ew *p)
{
    double f0 = 0, f1 = 0;
    int64_t i0 = 0, i1 = 0;
    switch (op) {
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
    p->fattr[0] = attr_f(a, 0, f0);
    p->fattr[1] = attr_f(a, 1, f1);
    p->iattr[0] = attr_i(a, 0, i0);
    p->iattr[1] = attr_i(a, 1, i1);
}

/* Compile-time checks the core already made, repeated because a graph
 * view may come from anywhere and the kernels read inputs by their
 * dtype: the data inputs share one dtype T of the kind the op computes
 * on, and the result is bool (comparisons, logical ops, isnan, isinf),
 * or T; where's condition is bool; mod's fmod 0 is for integers. */
static int inputs_ok(const rlx_graph_view *g, const rlx_node_view *v,
                     const rlx__cpu_ref_ew *p)
{
    uint32_t first = v->op == RLX_OP_WHERE ? 1 : 0;
    if (first && g->nodes[v->inputs[0]]->dtype != RLX_DTYPE_BOOL)
        return 0;
    rlx_dtype t = g->nodes[v->inputs[first]]->dtype;
    for (uint32_t j = first + 1; j < v->n_inputs; j++)
        if (g->nodes[v->inputs[j]]->dtype != t)
            return 0;
    int is_float = rlx_kit_dtype_is_float(t) || t == RLX_DTYPE_F64;
    switch (v->op) {
    case RLX_OP_WHERE: return t == v->dtype;
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL:
        return v->dtype == RLX_DTYPE_BOOL &&
               (is_float || rlx__cpu_ref_is_int(t));
    case RLX_OP_LOGICAL_AND: case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR:
    case RLX_OP_LOGICAL_NOT:
        return v->dtype == RLX_DTYPE_BOOL && t == RLX_DTYPE_BOOL;
    case RLX_OP_ISNAN: case RLX_OP_ISINF:
        return v->dtype == RLX_DTYPE_BOOL && is_float;
    case RLX_OP_MOD:
        if (p->iattr[0] == 0 && !rlx__cpu_ref_is_int(t))
            return 0;
        return v->dtype == t;
    default:
        /* the result's dtype passed supports_14, so T is one the op
         * computes on */
        return v->dtype == t;
    }
}

/* B rounded inward (UP: toward +inf) and kept within [LO, HI]. */
static int64_t int_bound(double b, int up, int64_t lo, int64_t hi)
{
    double v = up ? ceil(b) : floor(b);
    if (isnan(v)) /* the core refuses it; unbounded if a view has one */
        return up ? lo : hi;
    if (v <= (double)lo)
        return lo;
    if (v >= (double)hi)
        return hi; /* (double)INT64_MAX is 2^63: compared, not converted */
    return (int64_t)v;
}

rlx_status rlx__cpu_ref_ew_prepare(const rlx_host *host,
                                   const rlx_graph_view *g,
                                   const rlx_node_view *v,
                                   const rlx__cpu_ref_attrs *a,
                                   rlx__cpu_ref_node *n)
{
    rlx__cpu_ref_ew *p = &n->plan.ew;
    uint32_t r = v->rank;
    read_attrs(v->op, a, p);
    if (!inputs_ok(g, v, p))
        return rlx_kit_fail(host, RLX_ERR_DTYPE,
                            "cpu-ref compile: %s '%s' has inputs of dtypes "
                            "it does not take, or a result of the wrong "
                            "dtype. Fix: report this as a bug in the rlx "
                            "core", rlx_kit_op_name(v->op), v->name);
    for (uint32_t j = 0; j < v->n_inputs; j++) {
        const rlx_node_view *in = g->nodes[v->inputs[j]];
        if (!rlx_kit_broadcasts(in->rank, in->shape, r, v->shape))
            return rlx_kit_fail(host, RLX_ERR_SHAPE,
                                "cpu-ref compile: %s '%s': input %u does "
                                "not broadcast to the result. Fix: report "
                                "this as a bug in the rlx core",
                                rlx_kit_op_name(v->op), v->name,
                                (unsigned)j);
    }
    /* one block: three stride arrays (int64_t, first for alignment),
     * then dims and the counter */
    int64_t *mem = calloc(r ? r : 1, 3 * sizeof(int64_t) + 2 * sizeof(size_t));
    if (!mem)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning '%s'. "
                            "Fix: free memory", v->name);
    n->scratch = (size_t *)(void *)mem;
    p->rank = r;
    for (uint32_t j = 0; j < 3; j++)
        p->stride[j] = mem + (size_t)j * r;
    p->dims = (size_t *)(void *)(mem + 3 * (size_t)r);
    p->index = p->dims + r;
    for (uint32_t d = 0; d < r; d++)
        p->dims[d] = (size_t)v->shape[d];
    if (v->op == RLX_OP_CLIP && v->dtype == RLX_DTYPE_U64) {
        p->iattr[0] = rlx__cpu_ref_u64_bound(p->fattr[0], 1);
        p->iattr[1] = rlx__cpu_ref_u64_bound(p->fattr[1], 0);
    } else if (v->op == RLX_OP_CLIP && rlx__cpu_ref_is_int(v->dtype)) {
        int64_t lo, hi;
        rlx__cpu_ref_int_range(v->dtype, &lo, &hi);
        p->iattr[0] = int_bound(p->fattr[0], 1, lo, hi);
        p->iattr[1] = int_bound(p->fattr[1], 0, lo, hi);
    }
    for (uint32_t j = 0; j < v->n_inputs && j < 3; j++) {
        const rlx_node_view *in = g->nodes[v->inputs[j]];
        rlx_kit_broadcast_strides(r, in->rank, in->shape, p->stride[j]);
    }
    return RLX_OK;
}

/* Whether comparison OP holds for operands in order ORD: -1, 0 or 1 as
 * the first is less, equal or greater, 2 when unordered (a NaN), for
 * which every comparison is false. */
static int holds(rlx_op op, int ord)
{
    if (ord == 2)
        return 0;
    switch (op) {
    case RLX_OP_EQUAL: return ord == 0;
    case RLX_OP_LESS: return ord < 0;
    case RLX_OP_LESS_EQUAL: return ord <= 0;
    case RLX_OP_GREATER: return ord > 0;
    default: return ord >= 0; /* greater_equal */
    }
}

/* The order of two integers (U64: their bits read unsigned), or of two
 * floats (2 with a NaN). */
static int order_int(int64_t x, int64_t y, int u64)
{
    if (u64)
        return ((uint64_t)x > (uint64_t)y) - ((uint64_t)x < (uint64_t)y);
    return (x > y) - (x < y);
}

static int order_float(double x, double y)
{
    return isnan(x) || isnan(y) ? 2 : (x > y) - (x < y);
}

/* Element K of the result from input elements AT[0..2]. */
static void element(const rlx_executable *exe, rlx__cpu_ref_node *n,
                    size_t k, const size_t at[3])
{
    const rlx__cpu_ref_node *x = &exe->nodes[n->inputs[0]];
    const rlx__cpu_ref_node *y =
        n->n_inputs > 1 ? &exe->nodes[n->inputs[1]] : x;
    const rlx__cpu_ref_ew *p = &n->plan.ew;

    if (n->op == RLX_OP_WHERE) {
        const rlx__cpu_ref_node *z = &exe->nodes[n->inputs[2]];
        const rlx__cpu_ref_node *from = x->data[at[0]] ? y : z;
        size_t j = x->data[at[0]] ? at[1] : at[2];
        memcpy(n->data + k * n->elem, from->data + j * n->elem, n->elem);
        return;
    }
    int ints = rlx__cpu_ref_is_int(x->dtype);
    switch (n->op) {
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL:
        n->data[k] = (unsigned char)holds(
            n->op, ints ? order_int(rlx__cpu_ref_load_int(x, at[0]),
                                    rlx__cpu_ref_load_int(y, at[1]),
                                    x->dtype == RLX_DTYPE_U64)
                        : order_float(rlx__cpu_ref_load_double(x, at[0]),
                                      rlx__cpu_ref_load_double(y, at[1])));
        return;
    case RLX_OP_ISNAN:
        n->data[k] = isnan(rlx__cpu_ref_load_double(x, at[0])) != 0;
        return;
    case RLX_OP_ISINF: {
        double v = rlx__cpu_ref_load_double(x, at[0]);
        n->data[k] = isinf(v) && (v > 0 ? p->iattr[0] : p->iattr[1]);
        return;
    }
    default: break;
    }
    if (x->dtype == RLX_DTYPE_U64 && rlx__cpu_ref_u64_orders(n->op))
        rlx__cpu_ref_store_int(
            n, k,
            (int64_t)rlx__cpu_ref_u64_op(
                n->op, p, (uint64_t)rlx__cpu_ref_load_int(x, at[0]),
                (uint64_t)rlx__cpu_ref_load_int(y, at[1])));
    else if (ints)
        rlx__cpu_ref_store_int(
            n, k,
            rlx__cpu_ref_int_op(n->op, p, rlx__cpu_ref_load_int(x, at[0]),
                                rlx__cpu_ref_load_int(y, at[1])));
    else
        rlx__cpu_ref_store_double(
            n, k,
            rlx__cpu_ref_float_op(n->op, p,
                                  rlx__cpu_ref_load_double(x, at[0]),
                                  rlx__cpu_ref_load_double(y, at[1])));
}

void rlx__cpu_ref_ew_run(const rlx_executable *exe, rlx__cpu_ref_node *n)
{
    rlx__cpu_ref_ew *p = &n->plan.ew;
    uint32_t r = p->rank;
    size_t at[3] = { 0, 0, 0 };
    if (r)
        memset(p->index, 0, r * sizeof *p->index);
    for (size_t k = 0; k < n->count; k++) {
        element(exe, n, k, at);
        /* Step the output index like an odometer, last dim fastest. */
        for (uint32_t d = r; d-- > 0;) {
            for (uint32_t j = 0; j < 3; j++)
                at[j] += (size_t)p->stride[j][d];
            if (++p->index[d] < p->dims[d])
                break;
            for (uint32_t j = 0; j < 3; j++)
                at[j] -= (size_t)p->stride[j][d] * p->dims[d];
            p->index[d] = 0;
        }
    }
    if (n->op == RLX_OP_WHERE)
        rlx__cpu_ref_node_widen(n); /* copied bytes: refresh the f32 view */
    else
        rlx__cpu_ref_node_narrow(n);
}
