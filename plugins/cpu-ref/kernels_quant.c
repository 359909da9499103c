/*
 * kernels_quant.c - the quantization ops for the reference backend:
 * quantize_linear and dequantize_linear (per tensor, per axis, blocked)
 * and the integer matmul and conv behind MatMulInteger, ConvInteger and
 * the QLinear ops.
 *
 * Written for exactness, not speed: quantize divides in f32 and rounds
 * half to even as ONNX's reference does, dequantize computes in f32, and
 * the integer ops accumulate in int64 and wrap to i32 at the end.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

#define FIX_REPORT " Fix: report this as a bug in the rlx core"

int rlx__cpu_ref_is_quant_op(rlx_op op)
{
    return op == RLX_OP_QUANTIZE_LINEAR || op == RLX_OP_DEQUANTIZE_LINEAR ||
           op == RLX_OP_MATMUL_INTEGER || op == RLX_OP_CONV_INTEGER;
}

static size_t count_of(const rlx_node_view *v)
{
    size_t n = 1;
    for (uint32_t i = 0; i < v->rank; i++)
        n *= (size_t)v->shape[i]; /* fits: the node was allocated */
    return n;
}

static rlx_status bad(const rlx_host *host, const rlx_node_view *v,
                      const char *what)
{
    return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                        "cpu-ref compile: %s '%s': %s." FIX_REPORT,
                        rlx_kit_op_name(v->op), v->name, what);
}

/* Which scale element each x element uses (the core checked shapes). */
static rlx_status plan_scales(const rlx_host *host, const rlx_graph_view *g,
                              const rlx_node_view *v,
                              const rlx__cpu_ref_attrs *a,
                              rlx__cpu_ref_quant *p)
{
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    const rlx_node_view *s = g->nodes[v->inputs[1]];
    int64_t axis = a->n_ints > RLX_ATTR_QUANT_AXIS
                       ? a->ints[RLX_ATTR_QUANT_AXIS] : 1;
    int64_t block = a->n_ints > RLX_ATTR_QUANT_BLOCK_SIZE
                        ? a->ints[RLX_ATTR_QUANT_BLOCK_SIZE] : 0;
    size_t ns = count_of(s);
    memset(p, 0, sizeof *p);
    if (block == 0 && ns == 1 && s->rank <= 1) {
        p->mode = RLX__CPU_REF_QUANT_TENSOR;
        return RLX_OK;
    }
    if (axis < 0)
        axis += x->rank;
    if (axis < 0 || axis >= (int64_t)x->rank || block < 0)
        return bad(host, v, "axis or block_size out of range");
    p->outer = p->inner = 1;
    for (int64_t i = 0; i < axis; i++)
        p->outer *= (size_t)x->shape[i];
    for (uint32_t i = (uint32_t)axis + 1; i < x->rank; i++)
        p->inner *= (size_t)x->shape[i];
    p->len = (size_t)x->shape[axis];
    if (block == 0) {
        if (s->rank != 1 || ns != p->len)
            return bad(host, v, "the per-axis scale has the wrong length");
        p->mode = RLX__CPU_REF_QUANT_AXIS;
        return RLX_OK;
    }
    p->mode = RLX__CPU_REF_QUANT_BLOCKED;
    p->block = (size_t)block;
    p->n_blocks = (p->len + p->block - 1) / p->block;
    if (ns != p->outer * p->n_blocks * p->inner)
        return bad(host, v, "the blocked scale has the wrong size");
    return RLX_OK;
}

static int is_byte(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8;
}

/* The dtypes the kernels read their inputs as (the core checked them;
 * a foreign host may not have). */
static int dtypes_ok(const rlx_graph_view *g, const rlx_node_view *v)
{
    rlx_dtype t[4];
    for (uint32_t i = 0; i < v->n_inputs && i < 4; i++)
        t[i] = g->nodes[v->inputs[i]]->dtype;
    switch (v->op) {
    case RLX_OP_QUANTIZE_LINEAR:
        return rlx_kit_dtype_is_float(t[0]) && t[1] == t[0] &&
               t[2] == v->dtype;
    case RLX_OP_DEQUANTIZE_LINEAR:
        return (is_byte(t[0]) || t[0] == RLX_DTYPE_I32) &&
               t[1] == v->dtype && t[2] == t[0];
    default: /* the integer matmul and conv */
        return is_byte(t[0]) && is_byte(t[1]) && t[2] == t[0] &&
               t[3] == t[1];
    }
}

/* A zero point of COUNT elements fits a scalar or LEN entries. */
static int zp_ok(const rlx_node_view *z, size_t len)
{
    size_t k = count_of(z);
    return k == 1 || (z->rank == 1 && k == len);
}

rlx_status rlx__cpu_ref_quant_prepare(const rlx_host *host,
                                      const rlx_graph_view *g,
                                      const rlx_node_view *v,
                                      const rlx__cpu_ref_attrs *a,
                                      rlx__cpu_ref_node *n)
{
    if (!dtypes_ok(g, v))
        return bad(host, v, "its inputs' dtypes do not fit the op");
    switch (v->op) {
    case RLX_OP_QUANTIZE_LINEAR: case RLX_OP_DEQUANTIZE_LINEAR: {
        const rlx_node_view *x = g->nodes[v->inputs[0]];
        const rlx_node_view *s = g->nodes[v->inputs[1]];
        const rlx_node_view *z = g->nodes[v->inputs[2]];
        if (count_of(s) != count_of(z) ||
            !rlx__cpu_ref_shape_equal(rlx__cpu_ref_shape_of(x),
                                      rlx__cpu_ref_shape_of(v)))
            return bad(host, v, "scale, zero point and shapes disagree");
        return plan_scales(host, g, v, a, &n->plan.quant);
    }
    case RLX_OP_MATMUL_INTEGER: {
        const rlx_node_view *x = g->nodes[v->inputs[0]];
        const rlx_node_view *w = g->nodes[v->inputs[1]];
        size_t m = x->rank >= 2 ? (size_t)x->shape[x->rank - 2] : 1;
        size_t nn = w->rank >= 2 ? (size_t)w->shape[w->rank - 1] : 1;
        if (!zp_ok(g->nodes[v->inputs[2]], m) ||
            !zp_ok(g->nodes[v->inputs[3]], nn))
            return bad(host, v, "a zero point has the wrong size");
        return rlx__cpu_ref_matmul_prepare(
            host, n->name, rlx__cpu_ref_shape_of(x),
            rlx__cpu_ref_shape_of(w), rlx__cpu_ref_shape_of(v), 0, 0,
            &n->plan.matmul, &n->scratch);
    }
    case RLX_OP_CONV_INTEGER: {
        /* conv's window, read from a view of the node as a conv */
        rlx_node_view as_conv = *v;
        as_conv.op = RLX_OP_CONV;
        as_conv.n_inputs = 2;
        n->vis = rlx__cpu_ref_vision_new(g, v);
        if (!n->vis)
            return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                                "cpu-ref compile: out of memory planning "
                                "'%s'. Fix: free memory", n->name);
        rlx_status st = rlx__cpu_ref_window_read(host, g, &as_conv, n->name,
                                                 n->vis);
        if (st != RLX_OK)
            return st;
        const rlx__cpu_ref_vision *p = n->vis;
        const rlx_node_view *w = g->nodes[v->inputs[1]];
        size_t group = (size_t)p->sp.group;
        if (group == 0 || p->c % group || p->m % group ||
            (size_t)w->shape[0] != p->m ||
            (size_t)w->shape[1] * group != p->c ||
            count_of(g->nodes[v->inputs[2]]) != 1 ||
            !zp_ok(g->nodes[v->inputs[3]], p->m))
            return bad(host, v, "weights or zero points do not fit x");
        return RLX_OK;
    }
    default:
        return bad(host, v, "not a quantization op");
    }
}

/* The scale (and zero point) element of x element E. */
static size_t scale_index(const rlx__cpu_ref_quant *p, size_t e)
{
    switch (p->mode) {
    case RLX__CPU_REF_QUANT_AXIS: return (e / p->inner) % p->len;
    case RLX__CPU_REF_QUANT_BLOCKED: {
        size_t i = e % p->inner, k = (e / p->inner) % p->len;
        size_t o = e / (p->inner * p->len);
        return (o * p->n_blocks + k / p->block) * p->inner + i;
    }
    default: return 0;
    }
}

static void quantize(const rlx_executable *exe, rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_node *x = &exe->nodes[n->inputs[0]];
    const rlx__cpu_ref_node *s = &exe->nodes[n->inputs[1]];
    const rlx__cpu_ref_node *z = &exe->nodes[n->inputs[2]];
    int64_t lo, hi;
    rlx__cpu_ref_int_range(n->dtype, &lo, &hi);
    for (size_t e = 0; e < n->count; e++) {
        size_t k = scale_index(&n->plan.quant, e);
        int64_t zp = rlx__cpu_ref_load_int(z, k);
        /* the quotient in f32, as ONNX's reference divides */
        float q = x->f32[e] / s->f32[k];
        int64_t y;
        if (isnan(q))
            y = zp;
        else {
            double r = nearbyint((double)q) + (double)zp; /* half to even */
            y = r <= (double)lo ? lo : r >= (double)hi ? hi : (int64_t)r;
        }
        rlx__cpu_ref_store_int(n, e, y);
    }
}

static void dequantize(const rlx_executable *exe, rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_node *x = &exe->nodes[n->inputs[0]];
    const rlx__cpu_ref_node *s = &exe->nodes[n->inputs[1]];
    const rlx__cpu_ref_node *z = &exe->nodes[n->inputs[2]];
    for (size_t e = 0; e < n->count; e++) {
        size_t k = scale_index(&n->plan.quant, e);
        /* in f32, as ONNX's reference: (float(x) - float(zp)) * scale */
        float d = (float)rlx__cpu_ref_load_int(x, e) -
                  (float)rlx__cpu_ref_load_int(z, k);
        n->f32[e] = d * s->f32[k];
    }
    rlx__cpu_ref_node_narrow(n);
}

/* The zero point of row or column I: a scalar or one per index. */
static int64_t zero_point(const rlx__cpu_ref_node *z, size_t i)
{
    return rlx__cpu_ref_load_int(z, z->count == 1 ? 0 : i);
}

static void matmul_integer(const rlx_executable *exe, rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_node *a = &exe->nodes[n->inputs[0]];
    const rlx__cpu_ref_node *b = &exe->nodes[n->inputs[1]];
    const rlx__cpu_ref_node *za = &exe->nodes[n->inputs[2]];
    const rlx__cpu_ref_node *zb = &exe->nodes[n->inputs[3]];
    rlx__cpu_ref_matmul *p = &n->plan.matmul;
    if (n->count == 0)
        return;
    size_t ia = 0, ib = 0, iy = 0;
    uint32_t r = p->batch_rank;
    if (r)
        memset(p->index, 0, r * sizeof *p->index);
    for (size_t t = 0; t < p->n_batch; t++) {
        for (size_t i = 0; i < p->m; i++) {
            int64_t zi = zero_point(za, i);
            for (size_t j = 0; j < p->n; j++) {
                int64_t zj = zero_point(zb, j), acc = 0;
                for (size_t q = 0; q < p->k; q++)
                    acc += (rlx__cpu_ref_load_int(
                                a, ia + i * p->a_row + q * p->a_col) - zi) *
                           (rlx__cpu_ref_load_int(
                                b, ib + q * p->b_row + j * p->b_col) - zj);
                rlx__cpu_ref_store_int(n, iy++, acc); /* wraps to i32 */
            }
        }
        for (uint32_t d = r; d-- > 0;) {
            ia += (size_t)p->a_batch_stride[d];
            ib += (size_t)p->b_batch_stride[d];
            if (++p->index[d] < p->batch_dims[d])
                break;
            ia -= (size_t)p->a_batch_stride[d] * p->batch_dims[d];
            ib -= (size_t)p->b_batch_stride[d] * p->batch_dims[d];
            p->index[d] = 0;
        }
    }
}

/* Row-major coordinates of I over the S sizes DIMS. */
static void unravel(size_t i, uint32_t s, const size_t *dims, size_t *co)
{
    for (uint32_t d = s; d-- > 0;) {
        co[d] = dims[d] ? i % dims[d] : 0;
        i = dims[d] ? i / dims[d] : 0;
    }
}

static void conv_integer(const rlx_executable *exe, rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_node *x = &exe->nodes[n->inputs[0]];
    const rlx__cpu_ref_node *w = &exe->nodes[n->inputs[1]];
    const rlx__cpu_ref_node *zx = &exe->nodes[n->inputs[2]];
    const rlx__cpu_ref_node *zw = &exe->nodes[n->inputs[3]];
    const rlx__cpu_ref_vision *p = n->vis;
    const rlx_kit_spatial *sp = &p->sp;
    size_t group = (size_t)sp->group, cg = p->c / group, mg = p->m / group;
    size_t kdims[RLX_KIT_SPATIAL_MAX], oc[RLX_KIT_SPATIAL_MAX],
           kc[RLX_KIT_SPATIAL_MAX];
    for (uint32_t d = 0; d < sp->s; d++)
        kdims[d] = (size_t)sp->kernel[d];
    int64_t xzp = rlx__cpu_ref_load_int(zx, 0);
    size_t iy = 0;
    for (size_t b = 0; b < p->n; b++)
        for (size_t m = 0; m < p->m; m++) {
            int64_t wzp = zero_point(zw, m);
            size_t g = m / mg;
            for (size_t o = 0; o < p->out_sp; o++) {
                unravel(o, sp->s, p->out, oc);
                int64_t acc = 0;
                for (size_t kk = 0; kk < p->k_sp; kk++) {
                    unravel(kk, sp->s, kdims, kc);
                    size_t xoff = 0;
                    int inside = 1;
                    for (uint32_t d = 0; d < sp->s && inside; d++) {
                        int64_t at = (int64_t)oc[d] * sp->stride[d] +
                                     (int64_t)kc[d] * sp->dilation[d] -
                                     sp->pad_begin[d];
                        inside = at >= 0 && at < (int64_t)p->in[d];
                        xoff = xoff * p->in[d] + (size_t)at;
                    }
                    if (!inside)
                        continue; /* padding: x_zp, 0 after the shift */
                    for (size_t c = 0; c < cg; c++) {
                        size_t ch = g * cg + c;
                        int64_t xv = rlx__cpu_ref_load_int(
                            x, (b * p->c + ch) * p->in_sp + xoff);
                        int64_t wv = rlx__cpu_ref_load_int(
                            w, (m * cg + c) * p->k_sp + kk);
                        acc += (xv - xzp) * (wv - wzp);
                    }
                }
                rlx__cpu_ref_store_int(n, iy++, acc); /* wraps to i32 */
            }
        }
}

void rlx__cpu_ref_quant_run(const rlx_executable *exe, rlx__cpu_ref_node *n)
{
    switch (n->op) {
    case RLX_OP_QUANTIZE_LINEAR: quantize(exe, n); break;
    case RLX_OP_DEQUANTIZE_LINEAR: dequantize(exe, n); break;
    case RLX_OP_MATMUL_INTEGER: matmul_integer(exe, n); break;
    case RLX_OP_CONV_INTEGER: conv_integer(exe, n); break;
    default: break;
    }
}
