/*
 * qfuse.c - the requantization chain the ONNX importer lowers QLinearConv
 * and QLinearMatMul (and QDQ conv/matmul groups) to, folded into the
 * integer GEMM step before it (kernels_q.c):
 *
 *   acc = conv_integer | matmul_integer          (i32)
 *   [acc = add(acc, bias)]                       (i32, per row or column)
 *   d = cast(acc, f32); d = mul(d, mult)         (mult: one, per row/col)
 *   y = quantize_linear(d, scale, zp)            (one scale, one zp)
 *   [y = max(y, c) | min(y, c)]...               (a fused Relu or Clip)
 *
 * Like fuse.c, a link is taken only when the value before it has exactly
 * one consumer and is not an output; the chain's last step becomes the
 * GEMM step, the others are retired. The kernel then does the same
 * float operations in the same order, so the result is bit-identical.
 */
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"

#define NONE UINT32_MAX

typedef struct qf {
    rlxb_backend *be;
    const rlx_graph_view *g;
    rlxb_exe *x;
    uint32_t *uses, *user;
    unsigned n_fused;
} qf;

static void count_uses(qf *f)
{
    const rlxb_exe *x = f->x;
    memset(f->uses, 0, x->n_steps * sizeof *f->uses);
    for (uint32_t j = 0; j < x->n_steps; j++)
        for (uint32_t k = 0; k < x->steps[j].n_inputs; k++) {
            uint32_t i = x->steps[j].inputs[k];
            f->uses[i]++;
            f->user[i] = j;
        }
    for (uint32_t o = 0; o < x->n_outputs; o++) {
        f->uses[x->output_steps[o]]++;
        f->user[x->output_steps[o]] = NONE;
    }
}

static uint32_t sole_user(const qf *f, uint32_t i)
{
    return f->uses[i] == 1 ? f->user[i] : NONE;
}

static const rlx_node_view *node(const qf *f, uint32_t i)
{
    return f->g->nodes[i];
}

/* Step C is a two-input OP reading CUR once: its other operand. */
static uint32_t other_of(const qf *f, uint32_t c, uint32_t cur, rlx_op op)
{
    if (c == NONE)
        return NONE;
    const rlxb_step *s = &f->x->steps[c];
    if (s->op != op || s->n_inputs != 2 || s->inputs[0] == s->inputs[1] ||
        s->where != RLXB_ARENA)
        return NONE;
    return s->inputs[0] == cur ? s->inputs[1] : s->inputs[0];
}

static size_t numel(const rlx_node_view *v)
{
    size_t n = 1;
    for (uint32_t d = 0; d < v->rank; d++)
        n *= (size_t)v->shape[d];
    return n;
}

/* How operand V of LEN-per-row-or-column values broadcasts over the
 * result R: 0 one value, 1 per row (a conv's channel axis 1, a matmul's
 * second-to-last), 2 per column (a matmul's last axis); -1 otherwise. */
static int along(const rlx_node_view *v, const rlx_node_view *r, int conv,
                 size_t rows, size_t cols)
{
    size_t n = numel(v);
    if (n == 1)
        return 0;
    if (v->rank > r->rank || v->rank == 0)
        return -1;
    /* align V's dims to R's last ones */
    uint32_t off = r->rank - v->rank;
    uint32_t row_axis = conv ? 1 : (r->rank >= 2 ? r->rank - 2 : 0);
    uint32_t col_axis = r->rank - 1;
    int mode = -1;
    for (uint32_t d = 0; d < v->rank; d++) {
        uint32_t a = d + off;
        if (v->shape[d] == 1)
            continue;
        if (mode != -1)
            return -1;
        if (a == row_axis && (size_t)v->shape[d] == rows && r->rank >= 2)
            mode = 1;
        else if (!conv && a == col_axis && (size_t)v->shape[d] == cols)
            mode = 2;
        else
            return -1;
    }
    return mode;
}

static rlx_status fuse_one(qf *f, uint32_t qi)
{
    rlxb_exe *x = f->x;
    rlxb_step *qs = &x->steps[qi];
    if (qs->kind != RLXB_K_QGEMM || qs->plan.q.epi.on ||
        qs->where != RLXB_ARENA)
        return RLX_OK;
    rlxb_qplan plan = qs->plan.q;
    const rlx_node_view *res = node(f, qi);
    size_t rows = plan.is_conv ? plan.groups * plan.m : plan.m;
    uint32_t in[4 + 4 + RLXB_Q_MAX_CLAMP], n_in = qs->n_inputs;
    uint32_t chain[4 + RLXB_Q_MAX_CLAMP], n_chain = 0;
    memcpy(in, qs->inputs, n_in * sizeof *in);
    uint32_t cur = qi, c = sole_user(f, cur), o;

    /* [add(acc, bias)] */
    o = other_of(f, c, cur, RLX_OP_ADD);
    if (o != NONE && node(f, c)->dtype == RLX_DTYPE_I32 &&
        node(f, o)->dtype == RLX_DTYPE_I32 && numel(node(f, c)) ==
                                                 numel(res)) {
        int mode = along(node(f, o), res, plan.is_conv, rows, plan.n);
        if (mode <= 0)
            return RLX_OK;
        plan.epi.bias_in = (int32_t)n_in;
        plan.epi.bias_col = mode == 2;
        in[n_in++] = o;
        chain[n_chain++] = cur = c;
        c = sole_user(f, cur);
    }
    /* cast(acc, f32) */
    if (c == NONE || x->steps[c].op != RLX_OP_CAST ||
        x->steps[c].n_inputs != 1 || x->steps[c].dtype != RLX_DTYPE_F32)
        return RLX_OK;
    chain[n_chain++] = cur = c;
    c = sole_user(f, cur);
    /* mul(d, mult) */
    o = other_of(f, c, cur, RLX_OP_MUL);
    if (o == NONE || node(f, o)->dtype != RLX_DTYPE_F32 ||
        numel(node(f, c)) != numel(res))
        return RLX_OK;
    int mm = along(node(f, o), res, plan.is_conv, rows, plan.n);
    if (mm < 0)
        return RLX_OK;
    plan.epi.mult_mode = mm;
    plan.epi.mult_in = (int32_t)n_in;
    in[n_in++] = o;
    chain[n_chain++] = cur = c;
    c = sole_user(f, cur);
    /* quantize_linear(d, scale, zp), per tensor */
    if (c == NONE)
        return RLX_OK;
    const rlxb_step *qz = &x->steps[c];
    const rlx_node_view *qv = node(f, c);
    if (qz->op != RLX_OP_QUANTIZE_LINEAR || qz->n_inputs != 3 ||
        qz->inputs[0] != cur || qz->where != RLXB_ARENA ||
        (qv->dtype != RLX_DTYPE_U8 && qv->dtype != RLX_DTYPE_I8) ||
        numel(node(f, qz->inputs[1])) != 1 ||
        node(f, qz->inputs[1])->dtype != RLX_DTYPE_F32 ||
        numel(node(f, qz->inputs[2])) != 1 ||
        rlx_kit_int_attr(qv, RLX_ATTR_QUANT_BLOCK_SIZE, 0) != 0)
        return RLX_OK;
    plan.epi.out = qv->dtype;
    plan.epi.scale_in = (int32_t)n_in;
    in[n_in++] = qz->inputs[1];
    plan.epi.zp_in = (int32_t)n_in;
    in[n_in++] = qz->inputs[2];
    chain[n_chain++] = cur = c;
    /* [max(y, c) | min(y, c)]... */
    for (;;) {
        c = sole_user(f, cur);
        rlx_op op = c == NONE ? RLX_OP_INVALID : x->steps[c].op;
        if (op != RLX_OP_MAX && op != RLX_OP_MIN)
            break;
        o = other_of(f, c, cur, op);
        if (o == NONE || plan.epi.n_clamp == RLXB_Q_MAX_CLAMP ||
            node(f, o)->dtype != plan.epi.out || numel(node(f, o)) != 1 ||
            numel(node(f, c)) != numel(res))
            break;
        plan.epi.clamp_op[plan.epi.n_clamp] = op;
        plan.epi.clamp_in[plan.epi.n_clamp++] = (int32_t)n_in;
        in[n_in++] = o;
        chain[n_chain++] = cur = c;
    }
    plan.epi.on = 1;

    rlxb_step *t = &x->steps[cur];
    uint32_t *ins = calloc(n_in, sizeof *ins);
    if (!ins)
        return rlx_kit_fail(f->be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory fusing "
                            "'%s'. Fix: free memory", node(f, cur)->name);
    memcpy(ins, in, n_in * sizeof *ins);
    qs->kind = RLXB_K_SOURCE; /* the plan moves, not freed */
    memset(&qs->plan, 0, sizeof qs->plan);
    qs->where = RLXB_FUSED;
    qs->n_inputs = 0;
    for (uint32_t k = 0; k + 1 < n_chain; k++) {
        rlxb_step *r = &x->steps[chain[k]];
        r->kind = RLXB_K_SOURCE; /* fallbacks are destroyed with the
                                    executable */
        r->where = RLXB_FUSED;
        r->n_inputs = 0;
    }
    rlxb_fallback_destroy(f->be, t->fallback);
    t->fallback = NULL;
    free(t->fb_inputs);
    t->fb_inputs = NULL;
    free(t->inputs);
    t->inputs = ins;
    t->n_inputs = n_in;
    t->kind = RLXB_K_QGEMM;
    t->plan.q = plan;
    f->n_fused++;
    return RLX_OK;
}

rlx_status rlxb_qfuse(rlxb_backend *be, const rlx_graph_view *g,
                      rlxb_exe *x)
{
    unsigned n_q = 0, n_dw = 0;
    for (uint32_t i = 0; i < x->n_steps; i++) {
        n_q += x->steps[i].kind == RLXB_K_QGEMM;
        n_dw += x->steps[i].kind == RLXB_K_QGEMM &&
                rlxb_qdw_fits(&x->steps[i].plan.q);
    }
    if (!n_q)
        return RLX_OK;
    qf f = { .be = be, .g = g, .x = x };
    f.uses = calloc(2 * ((size_t)x->n_steps + 1), sizeof *f.uses);
    if (!f.uses)
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory planning "
                            "fusion. Fix: free memory");
    f.user = f.uses + x->n_steps + 1;
    count_uses(&f);
    rlx_status st = RLX_OK;
    for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++) {
        unsigned before = f.n_fused;
        st = fuse_one(&f, i);
        if (f.n_fused != before)
            count_uses(&f);
    }
    free(f.uses);
    if (st == RLX_OK)
        rlx_kit_log(be->host, RLX_LOG_DEBUG,
                    "cpu-openblas: %u integer matmuls and convs, %u with "
                    "their requantization fused, %u depthwise direct",
                    n_q, f.n_fused, n_dw);
    return st;
}
