/*
 * prepare.c - compile-time plans of the fast f32 kernels: which kernel a
 * node gets and the strides, counts and sgemm arguments it runs with, so
 * execute only does arithmetic. A node this file cannot plan answers
 * RLX_ERR_UNSUPPORTED and runs through cpu-ref instead (fallback.c).
 * Shapes were validated by the core; cpu-ref's own prepare functions are
 * reused where they exist (matmul, softmax, norms) so both backends agree
 * on every shape rule.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"
#include "cpu_ref_reuse.h"

/* ---- binary ---------------------------------------------------------- */

static rlx_status prepare_binary(const rlx_graph_view *g,
                                 const rlx_node_view *v, rlxb_binary *p)
{
    const rlx_node_view *in[2] = { g->nodes[v->inputs[0]],
                                   g->nodes[v->inputs[1]] };
    uint32_t r = v->rank;
    int64_t dims[64], sa[64], sb[64];
    if (r > 64 || in[0]->rank > r || in[1]->rank > r)
        return RLX_ERR_UNSUPPORTED;
    for (uint32_t d = 0; d < r; d++)
        dims[d] = v->shape[d];
    rlx_kit_broadcast_strides(r, in[0]->rank, in[0]->shape, sa);
    rlx_kit_broadcast_strides(r, in[1]->rank, in[1]->shape, sb);
    /* drop size-1 dims, then merge neighbours that step alike */
    int64_t *const st[2] = { sa, sb };
    uint32_t n = rlx_kit_collapse(r, dims, st, 2);
    if (n == 0) { /* one element */
        dims[0] = 1;
        sa[0] = sb[0] = 0;
        n = 1;
    }
    if (n - 1 > RLXB_MAX_RANK || sa[n - 1] > 1 || sb[n - 1] > 1)
        return RLX_ERR_UNSUPPORTED;
    memset(p, 0, sizeof *p);
    p->len = (size_t)dims[n - 1];
    p->a_inner = (int)sa[n - 1];
    p->b_inner = (int)sb[n - 1];
    p->rank = n - 1;
    p->rows = 1;
    for (uint32_t d = 0; d + 1 < n; d++) {
        p->dims[d] = (size_t)dims[d];
        p->a_stride[d] = (size_t)sa[d];
        p->b_stride[d] = (size_t)sb[d];
        p->rows *= (size_t)dims[d];
    }
    return RLX_OK;
}

/* ---- matmul ---------------------------------------------------------- */

static rlx_status prepare_matmul(rlxb_backend *be,
                                 const rlx_graph_view *g,
                                 const rlx_node_view *v,
                                 rlxb_gemm *p)
{
    rlx__cpu_ref_matmul m;
    size_t *scratch = NULL;
    rlx_status st = rlx__cpu_ref_matmul_prepare(
        be->host, v->name, rlx__cpu_ref_shape_of(g->nodes[v->inputs[0]]),
        rlx__cpu_ref_shape_of(g->nodes[v->inputs[1]]),
        rlx__cpu_ref_shape_of(v),
        rlx_kit_int_attr(v, RLX_ATTR_MATMUL_TRANSPOSE_A, 0) != 0,
        rlx_kit_int_attr(v, RLX_ATTR_MATMUL_TRANSPOSE_B, 0) != 0, &m,
        &scratch);
    if (st != RLX_OK) {
        free(scratch);
        return st;
    }
    memset(p, 0, sizeof *p);
    p->epi.bias_in = p->epi.res_in = -1;
    p->epi.act = RLX_OP_INVALID;
    p->m = m.m;
    p->k = m.k;
    p->n = m.n;
    /* element (i, q) of A at i * a_row + q * a_col: row-major as stored
     * (col step 1, or a single column), else transposed (row step 1) */
    size_t k1 = m.k ? m.k : 1, n1 = m.n ? m.n : 1, m1 = m.m ? m.m : 1;
    if (m.a_col == 1 || m.k <= 1) {
        p->trans_a = 0;
        p->lda = m.m <= 1 || m.a_row < k1 ? k1 : m.a_row;
    } else {
        p->trans_a = 1;
        p->lda = m.a_col < m1 ? m1 : m.a_col;
    }
    if (m.b_col == 1 || m.n <= 1) {
        p->trans_b = 0;
        p->ldb = m.k <= 1 || m.b_row < n1 ? n1 : m.b_row;
    } else {
        p->trans_b = 1;
        p->ldb = m.b_col < k1 ? k1 : m.b_col;
    }
    p->n_batch = m.n_batch;
    size_t nb = m.n_batch ? m.n_batch : 1;
    p->a_off = calloc(nb, sizeof *p->a_off);
    p->b_off = calloc(nb, sizeof *p->b_off);
    if (!p->a_off || !p->b_off) {
        free(scratch);
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory planning "
                            "matmul '%s'. Fix: free memory", v->name);
    }
    size_t ia = 0, ib = 0;
    uint32_t r = m.batch_rank;
    if (r)
        memset(m.index, 0, r * sizeof *m.index);
    for (size_t t = 0; t < m.n_batch; t++) {
        p->a_off[t] = ia;
        p->b_off[t] = ib;
        for (uint32_t d = r; d-- > 0;) {
            ia += (size_t)m.a_batch_stride[d];
            ib += (size_t)m.b_batch_stride[d];
            if (++m.index[d] < m.batch_dims[d])
                break;
            ia -= (size_t)m.a_batch_stride[d] * m.batch_dims[d];
            ib -= (size_t)m.b_batch_stride[d] * m.batch_dims[d];
            m.index[d] = 0;
        }
    }
    free(scratch);
    /* One sgemm when B is shared and A's matrices are stacked rows:
     * [batch * m, k] x [k, n] is the same product. */
    int stacked = p->n_batch > 1 && !p->trans_a && p->lda == k1 &&
                  m.k > 0;
    for (size_t t = 0; stacked && t < p->n_batch; t++)
        stacked = p->b_off[t] == p->b_off[0] && p->a_off[t] == t * m.m * m.k;
    if (stacked) {
        p->m *= p->n_batch;
        p->n_batch = 1;
    }
    /* sgemm takes int sizes: bigger matrices go to cpu-ref */
    if (p->m > INT_MAX || p->n > INT_MAX || p->k > INT_MAX ||
        p->lda > INT_MAX || p->ldb > INT_MAX) {
        free(p->a_off);
        free(p->b_off);
        p->a_off = p->b_off = NULL;
        return RLX_ERR_UNSUPPORTED;
    }
    return RLX_OK;
}

/* ---- reductions ------------------------------------------------------ */

/* [outer, len, inner] when the reduced dims (ignoring size-1 dims) form
 * one contiguous block; else unsupported (cpu-ref takes it). */
static rlx_status prepare_reduce(const rlx_graph_view *g,
                                 const rlx_node_view *v,
                                 const rlx__cpu_ref_attrs *at,
                                 rlxb_axis *p)
{
    const rlx_node_view *in = g->nodes[v->inputs[0]];
    uint32_t r = in->rank;
    unsigned char red[64] = { 0 };
    if (r > 64)
        return RLX_ERR_UNSUPPORTED;
    if (at->n_ints <= RLX_ATTR_REDUCE_AXES)
        memset(red, 1, sizeof red);
    for (uint32_t i = RLX_ATTR_REDUCE_AXES; i < at->n_ints; i++) {
        int64_t a = rlx_kit_norm_axis(at->ints[i], r);
        if (a < 0)
            return RLX_ERR_UNSUPPORTED;
        red[a] = 1;
    }
    memset(p, 0, sizeof *p);
    p->outer = p->len = p->inner = 1;
    int phase = 0; /* 0: before the block, 1: in it, 2: after it */
    for (uint32_t d = 0; d < r; d++) {
        size_t n = (size_t)in->shape[d];
        if (n == 0) { /* empty: a reduced empty dim empties len */
            if (red[d])
                p->len = 0;
            else
                p->outer = 0;
            continue;
        }
        if (n == 1)
            continue;
        if (red[d]) {
            if (phase == 2)
                return RLX_ERR_UNSUPPORTED;
            phase = 1;
            p->len *= n;
        } else if (phase == 0) {
            p->outer *= n;
        } else {
            phase = 2;
            p->inner *= n;
        }
    }
    if (p->outer == 0)
        p->inner = 0;
    return RLX_OK;
}

/* ---- transpose (4-byte elements) -------------------------------------- */

static rlx_status prepare_transpose(const rlx_graph_view *g,
                                    const rlx_node_view *v,
                                    const rlx__cpu_ref_attrs *at,
                                    rlxb_transpose *p)
{
    const rlx_node_view *in = g->nodes[v->inputs[0]];
    uint32_t r = in->rank;
    int64_t in_stride[RLXB_MAX_RANK];
    if (r == 0 || r > RLXB_MAX_RANK || v->rank != r ||
        rlx_dtype_size(v->dtype) != 4)
        return RLX_ERR_UNSUPPORTED;
    rlx_kit_contiguous_strides(r, in->shape, in_stride);
    memset(p, 0, sizeof *p);
    p->rank = r;
    p->rows = 1;
    for (uint32_t d = 0; d < r; d++) {
        int64_t from = at->n_ints == r ? rlx_kit_norm_axis(at->ints[d], r)
                                       : (int64_t)(r - 1 - d);
        if (from < 0)
            return RLX_ERR_UNSUPPORTED;
        p->dims[d] = (size_t)v->shape[d];
        p->stride[d] = (size_t)in_stride[from];
        if (d + 1 < r)
            p->rows *= p->dims[d];
    }
    return RLX_OK;
}

/* ---- dispatch --------------------------------------------------------- */

rlx_status rlxb_prepare(rlxb_backend *be, const rlx_graph_view *g,
                             uint32_t i, rlxb_step *s,
                             const rlx_compile_options *options)
{
    const rlx_node_view *v = g->nodes[i];
    rlx__cpu_ref_attrs at = rlx__cpu_ref_attrs_of(v);
    rlx_status st;

    if (v->op == RLX_OP_TRANSPOSE) {
        s->kind = RLXB_K_TRANSPOSE;
        return prepare_transpose(g, v, &at, &s->plan.transpose);
    }
    if (v->op == RLX_OP_MATMUL_INTEGER || v->op == RLX_OP_CONV_INTEGER) {
        s->kind = RLXB_K_QGEMM; /* integer GEMM (kernels_q.c) */
        return rlxb_q_prepare(be, g, i, &s->plan.q);
    }
    if (v->op == RLX_OP_QUANTIZE_LINEAR ||
        v->op == RLX_OP_DEQUANTIZE_LINEAR) {
        s->kind = RLXB_K_QLINEAR; /* kernels_qlinear.c */
        return rlxb_qlin_prepare(g, i, &s->plan.qlin);
    }
    if (v->op == RLX_OP_MAX_POOL && v->n_inputs == 1 &&
        (v->dtype == RLX_DTYPE_U8 || v->dtype == RLX_DTYPE_I8) &&
        g->nodes[v->inputs[0]]->dtype == v->dtype) {
        s->kind = RLXB_K_WINDOW; /* bytes (kernels_qpool.c) */
        return rlxb_window_prepare(be, g, i, &s->plan.window);
    }
    if (v->dtype != RLX_DTYPE_F32 || !rlx_kit_op_is_float(v->op))
        return RLX_ERR_UNSUPPORTED;
    for (uint32_t j = 0; j < v->n_inputs; j++)
        if (g->nodes[v->inputs[j]]->dtype != RLX_DTYPE_F32)
            return RLX_ERR_UNSUPPORTED;

    switch (v->op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
        s->kind = RLXB_K_BINARY;
        return prepare_binary(g, v, &s->plan.binary);
    case RLX_OP_MATMUL:
        s->kind = RLXB_K_MATMUL;
        return prepare_matmul(be, g, v, &s->plan.gemm);
    case RLX_OP_CONV:
        s->kind = RLXB_K_CONV;
        return rlxb_conv_prepare(be, g, i, &s->plan.conv, options);
    case RLX_OP_RESIZE:
        s->kind = RLXB_K_RESIZE;
        return rlxb_resize_prepare(be, g, i, &s->plan.resize);
    case RLX_OP_CONV_TRANSPOSE:
        s->kind = RLXB_K_CONVT;
        return rlxb_convt_prepare(be, g, i, &s->plan.convt);
    case RLX_OP_MAX_POOL: case RLX_OP_AVG_POOL: case RLX_OP_BATCH_NORM:
        s->kind = RLXB_K_WINDOW;
        return rlxb_window_prepare(be, g, i, &s->plan.window);
    case RLX_OP_SOFTMAX: {
        rlx__cpu_ref_softmax sp;
        st = rlx__cpu_ref_softmax_prepare(
            be->host, v->name, rlx__cpu_ref_shape_of(g->nodes[v->inputs[0]]),
            rlx__cpu_ref_shape_of(v),
            rlx_kit_int_attr(v, RLX_ATTR_SOFTMAX_AXIS, -1),
            rlx_kit_int_attr(v, RLX_ATTR_SOFTMAX_CAUSAL, 0), &sp);
        if (st != RLX_OK)
            return st;
        if (sp.inner > 1)
            return RLX_ERR_UNSUPPORTED; /* not the last axis */
        s->kind = RLXB_K_SOFTMAX;
        s->plan.axis = (rlxb_axis){ .outer = sp.outer, .len = sp.len,
                                         .inner = sp.inner,
                                         .causal = sp.causal,
                                         .rows = sp.rows };
        return RLX_OK;
    }
    case RLX_OP_LAYER_NORM: case RLX_OP_RMS_NORM: {
        rlx__cpu_ref_norm np;
        st = rlx__cpu_ref_norm_prepare(be->host, g, v, &at, &np);
        if (st != RLX_OK)
            return st;
        s->kind = RLXB_K_NORM;
        s->plan.norm = (rlxb_norm){ .rows = np.rows, .cols = np.cols,
                                         .eps = (float)np.eps };
        return RLX_OK;
    }
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        s->kind = RLXB_K_REDUCE;
        return prepare_reduce(g, v, &at, &s->plan.axis);
    default:
        break;
    }
    /* the unary ops of 1.0 (relu to atan); later one-input ops (pools,
     * resize, ...) change the shape or need attributes, and run through
     * cpu-ref until they get kernels here */
    if (v->op >= RLX_OP_RELU && v->op <= RLX_OP_ATAN) {
        s->kind = RLXB_K_UNARY;
        s->approx = rlx_kit_int_attr(v, RLX_ATTR_GELU_APPROX, RLX_GELU_ERF);
        return RLX_OK;
    }
    /* the 1.4 activations of the mobile nets */
    if (v->op == RLX_OP_HARD_SWISH || v->op == RLX_OP_HARD_SIGMOID) {
        s->kind = RLXB_K_UNARY;
        s->fattr[0] = (float)rlx_kit_float_attr(
            v, RLX_ATTR_HARD_SIGMOID_ALPHA, RLX_HARD_SIGMOID_ALPHA_DEFAULT);
        s->fattr[1] = (float)rlx_kit_float_attr(
            v, RLX_ATTR_HARD_SIGMOID_BETA, RLX_HARD_SIGMOID_BETA_DEFAULT);
        return RLX_OK;
    }
    if (v->op == RLX_OP_CLIP && v->n_inputs == 1) { /* relu6 and kin */
        s->kind = RLXB_K_UNARY;
        s->fattr[0] = (float)rlx_kit_float_attr(v, RLX_ATTR_CLIP_MIN,
                                                -INFINITY);
        s->fattr[1] = (float)rlx_kit_float_attr(v, RLX_ATTR_CLIP_MAX,
                                                INFINITY);
        return RLX_OK;
    }
    return RLX_ERR_UNSUPPORTED;
}
