/*
 * fuse.c - compile-time fusion over the prepared steps, before the arena
 * is planned (so fused-away values take no memory):
 *
 * - matmul -> add(bias [n]) -> relu/gelu -> add(residual): the chain's
 *   last step becomes the matmul, with the bias and residual as extra
 *   inputs and rlxb_gemm.epi saying what to apply (the gemm applies
 *   it while a tile is hot). Each part is optional, in that order.
 * - mul(x, sigmoid(x)): one silu step (EfficientNet's swish), which the
 *   conv epilogue below can then take.
 * - conv -> [batch_norm] -> [add] -> [relu/gelu/silu/hard_swish] -> [add]:
 *   the conv's epilogue (kernels_conv.c).
 * - matmul(q, k, transpose_b) -> [mul/div by a one-element scale] ->
 *   softmax(last axis) -> matmul(., v) [-> transpose keeping the last
 *   axis]: one ATTENTION step reading q, k and v through the transposes
 *   that fed them (kernels_attn.c), so no per-head copy is made. The
 *   chain is matched by the kit (kit_match.h), as on the GPU backends;
 *   what is checked here is what this backend's kernel needs.
 *
 * A chain is fused only when each intermediate has exactly one consumer
 * and is not a graph output (a reshape reading it counts as a consumer,
 * so nothing is fused across reshapes), every value is f32, and the
 * shapes are the plain ones the kernels handle; anything else keeps its
 * unfused steps. The fused step sits where the chain ended, so every
 * operand is computed before it runs and its result is the value that
 * later steps and the graph's outputs already name.
 */
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"

#define NONE UINT32_MAX

typedef struct fuse {
    rlxb_backend *be;
    const rlx_graph_view *g;
    rlxb_exe *x;
    uint32_t *uses;           /* consumers: step operands and outputs */
    uint32_t *user;           /* the last consuming step, NONE: output */
    unsigned n_epi, n_attn, n_conv, n_silu, n_scale;
} fuse;

static void count_uses(fuse *f)
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

/* The one step that reads step I, or NONE (several, none, an output). */
static uint32_t sole_user(const fuse *f, uint32_t i)
{
    return f->uses[i] == 1 ? f->user[i] : NONE;
}

static const rlx_node_view *node(const fuse *f, uint32_t i)
{
    return f->g->nodes[i];
}

static int same_shape(const fuse *f, uint32_t a, uint32_t b)
{
    const rlx_node_view *u = node(f, a), *v = node(f, b);
    return rlx_kit_shape_equal(u->rank, u->shape, v->rank, v->shape);
}

static int is_f32_arena(const fuse *f, uint32_t i)
{
    const rlxb_step *s = &f->x->steps[i];
    return s->dtype == RLX_DTYPE_F32 && s->where == RLXB_ARENA;
}

/* The step folded away: no kernel, no storage, reads nothing. */
static void retire(fuse *f, uint32_t i)
{
    rlxb_step *s = &f->x->steps[i];
    if (s->kind == RLXB_K_MATMUL)
        rlxb_gemm_free(&s->plan.gemm);
    if (s->kind == RLXB_K_CONV)
        rlxb_conv_free(&s->plan.conv);
    if (s->kind == RLXB_K_WINDOW)
        rlxb_window_free(&s->plan.window);
    if (s->kind == RLXB_K_QGEMM)
        rlxb_q_free(&s->plan.q);
    memset(&s->plan, 0, sizeof s->plan);
    s->kind = RLXB_K_SOURCE;
    s->where = RLXB_FUSED;
    s->n_inputs = 0;
}

/* Step C is add(cur, other) or add(other, cur): OTHER, else NONE. */
static uint32_t add_other(const fuse *f, uint32_t c, uint32_t cur)
{
    if (c == NONE || f->x->steps[c].kind != RLXB_K_BINARY ||
        !is_f32_arena(f, c) || !same_shape(f, c, cur))
        return NONE;
    return rlx_kit_add_other(f->g, c, cur);
}

/* [n], [1, n], [1, 1, n] ...: one value per column. */
static int is_bias(const fuse *f, uint32_t b, uint32_t result, size_t n)
{
    const rlx_node_view *v = node(f, b);
    if (v->dtype != RLX_DTYPE_F32 || v->rank == 0 ||
        v->rank > node(f, result)->rank || (size_t)v->shape[v->rank - 1] != n)
        return 0;
    for (uint32_t d = 0; d + 1 < v->rank; d++)
        if (v->shape[d] != 1)
            return 0;
    return 1;
}

/* ---- matmul epilogue -------------------------------------------------- */

static rlx_status fuse_epilogue(fuse *f, uint32_t m)
{
    rlxb_exe *x = f->x;
    rlxb_step *ms = &x->steps[m];
    if (ms->kind != RLXB_K_MATMUL || !is_f32_arena(f, m) ||
        ms->n_inputs != 2)
        return RLX_OK;
    uint32_t chain[3], n_chain = 0, cur = m, bias = NONE, res = NONE;
    rlx_op act = RLX_OP_INVALID;
    int64_t approx = 0;
    uint32_t c = sole_user(f, cur), other = add_other(f, c, cur);
    if (other != NONE && is_bias(f, other, m, ms->plan.gemm.n)) {
        bias = other;
        chain[n_chain++] = cur = c;
        c = sole_user(f, cur);
    }
    if (c != NONE && x->steps[c].kind == RLXB_K_UNARY &&
        (x->steps[c].op == RLX_OP_RELU || x->steps[c].op == RLX_OP_GELU) &&
        is_f32_arena(f, c) && same_shape(f, c, cur)) {
        act = x->steps[c].op;
        approx = x->steps[c].approx;
        chain[n_chain++] = cur = c;
        c = sole_user(f, cur);
    }
    other = add_other(f, c, cur);
    if (other != NONE && x->steps[other].dtype == RLX_DTYPE_F32 &&
        same_shape(f, other, cur)) {
        res = other;
        chain[n_chain++] = cur = c;
    }
    if (n_chain == 0)
        return RLX_OK;

    /* the chain's last step becomes the matmul */
    rlxb_step *t = &x->steps[cur];
    uint32_t *in = calloc(4, sizeof *in);
    if (!in)
        return rlx_kit_fail(f->be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory fusing "
                            "'%s'. Fix: free memory", node(f, cur)->name);
    uint32_t n_in = 0;
    in[n_in++] = ms->inputs[0];
    in[n_in++] = ms->inputs[1];
    rlxb_gemm plan = ms->plan.gemm;
    plan.epi.bias_in = plan.epi.res_in = -1;
    plan.epi.act = act;
    plan.epi.approx = approx;
    if (bias != NONE) {
        plan.epi.bias_in = (int32_t)n_in;
        in[n_in++] = bias;
    }
    if (res != NONE) {
        plan.epi.res_in = (int32_t)n_in;
        in[n_in++] = res;
    }
    ms->kind = RLXB_K_SOURCE; /* the plan moves, not freed */
    retire(f, m);
    for (uint32_t k = 0; k + 1 < n_chain; k++)
        retire(f, chain[k]);
    free(t->inputs);
    t->inputs = in;
    t->n_inputs = n_in;
    t->op = RLX_OP_MATMUL;
    t->kind = RLXB_K_MATMUL;
    t->plan.gemm = plan;
    f->n_epi++;
    return RLX_OK;
}

/* ---- conv epilogue ------------------------------------------------------ */

/* Step I is an f32 value of COUNT elements. */
static int is_f32_count(const fuse *f, uint32_t i, size_t count)
{
    const rlxb_step *s = &f->x->steps[i];
    return s->dtype == RLX_DTYPE_F32 && s->count == count;
}

/* Step C is an activation the conv epilogue applies (relu, gelu, silu,
 * hard_swish) of CUR, same shape. */
static int is_act(const fuse *f, uint32_t c, uint32_t cur)
{
    const rlxb_step *s = c == NONE ? NULL : &f->x->steps[c];
    return s && s->kind == RLXB_K_UNARY &&
           (s->op == RLX_OP_RELU || s->op == RLX_OP_GELU ||
            s->op == RLX_OP_SILU || s->op == RLX_OP_HARD_SWISH) &&
           is_f32_arena(f, c) && same_shape(f, c, cur);
}

/* ---- silu ---------------------------------------------------------------- */

/* mul(x, sigmoid(x)) (either order; the sigmoid read by the mul alone,
 * same shapes): the mul becomes one silu step on x, which a conv
 * epilogue can then take (EfficientNet's swish). */
static void fuse_silu(fuse *f, uint32_t m)
{
    rlxb_step *ms = &f->x->steps[m];
    if (ms->kind != RLXB_K_BINARY || ms->op != RLX_OP_MUL ||
        ms->n_inputs != 2 || !is_f32_arena(f, m))
        return;
    for (int k = 0; k < 2; k++) {
        uint32_t sg = ms->inputs[k], xv = ms->inputs[1 - k];
        const rlxb_step *ss = &f->x->steps[sg];
        if (ss->kind != RLXB_K_UNARY || ss->op != RLX_OP_SIGMOID ||
            ss->inputs[0] != xv || sole_user(f, sg) != m ||
            !is_f32_arena(f, sg) || !same_shape(f, sg, m) ||
            !same_shape(f, xv, m))
            continue;
        retire(f, sg);
        ms->kind = RLXB_K_UNARY;
        ms->op = RLX_OP_SILU;
        ms->inputs[0] = xv;
        ms->n_inputs = 1;
        memset(&ms->plan, 0, sizeof ms->plan);
        f->n_silu++;
        return;
    }
}

/* conv -> [batch_norm] -> [add(residual)] -> [relu/gelu] -> [add(res)]
 * (one residual at most): the chain's last step becomes the conv. */
static rlx_status fuse_conv(fuse *f, uint32_t cv)
{
    rlxb_exe *x = f->x;
    rlxb_step *cs = &x->steps[cv];
    if (cs->kind != RLXB_K_CONV || !is_f32_arena(f, cv) ||
        cs->plan.conv.bn_in >= 0 || cs->plan.conv.res_in >= 0 ||
        cs->plan.conv.act != RLX_OP_INVALID)
        return RLX_OK;
    rlxb_conv plan = cs->plan.conv;
    uint32_t chain[4], n_chain = 0, cur = cv, bn = NONE, res = NONE;
    uint32_t c = sole_user(f, cur);
    const rlxb_step *bs = c == NONE ? NULL : &x->steps[c];
    if (bs && bs->op == RLX_OP_BATCH_NORM && bs->n_inputs == 5 &&
        bs->inputs[0] == cur && is_f32_arena(f, c) && same_shape(f, c, cur)) {
        int ok = 1;
        for (uint32_t k = 1; k < 5; k++)
            ok = ok && bs->inputs[k] != cur &&
                 is_f32_count(f, bs->inputs[k], plan.m);
        if (ok) {
            bn = c;
            plan.bn_eps = (float)rlx_kit_float_attr(
                node(f, c), RLX_ATTR_NORM_EPSILON, 1e-5);
            chain[n_chain++] = cur = c;
            c = sole_user(f, cur);
        }
    }
    uint32_t other = add_other(f, c, cur);
    if (other != NONE && is_f32_count(f, other, x->steps[cur].count) &&
        same_shape(f, other, cur)) {
        res = other;
        plan.res_first = 1;
        chain[n_chain++] = cur = c;
        c = sole_user(f, cur);
    }
    if (is_act(f, c, cur)) {
        plan.act = x->steps[c].op;
        plan.approx = x->steps[c].approx;
        chain[n_chain++] = cur = c;
        c = sole_user(f, cur);
        other = add_other(f, c, cur);
        if (res == NONE && other != NONE &&
            is_f32_count(f, other, x->steps[cur].count) &&
            same_shape(f, other, cur)) {
            res = other;
            plan.res_first = 0;
            chain[n_chain++] = cur = c;
        }
    }
    if (n_chain == 0)
        return RLX_OK;

    rlxb_step *t = &x->steps[cur];
    uint32_t *in = calloc(9, sizeof *in);
    if (!in)
        return rlx_kit_fail(f->be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory fusing "
                            "'%s'. Fix: free memory", node(f, cur)->name);
    uint32_t n_in = cs->n_inputs;
    memcpy(in, cs->inputs, n_in * sizeof *in);
    if (bn != NONE) {
        plan.bn_in = (int32_t)n_in;
        for (uint32_t k = 1; k < 5; k++)
            in[n_in++] = x->steps[bn].inputs[k];
    }
    if (res != NONE) {
        plan.res_in = (int32_t)n_in;
        in[n_in++] = res;
    }
    cs->kind = RLXB_K_SOURCE; /* the plan moves, not freed */
    retire(f, cv);
    for (uint32_t k = 0; k + 1 < n_chain; k++)
        retire(f, chain[k]);
    free(t->inputs);
    t->inputs = in;
    t->n_inputs = n_in;
    t->op = RLX_OP_CONV;
    t->kind = RLXB_K_CONV;
    t->plan.conv = plan;
    f->n_conv++;
    return RLX_OK;
}

/* mul(x, scale [n, c, 1, 1]) read only by a pointwise conv (squeeze-
 * excite's gate on the expanded channels, then the projection): the conv
 * reads x and scales its weights' columns by each image's scale instead
 * (W (x * s) = (W * s) x), so the mul's pass over x goes. Only where the
 * weights are smaller than x (m <= oh * ow): the scaled copy is made
 * every run. */
static rlx_status fuse_scale(fuse *f, uint32_t cv)
{
    rlxb_exe *x = f->x;
    rlxb_step *cs = &x->steps[cv];
    if (cs->kind != RLXB_K_CONV || cs->n_inputs < 2)
        return RLX_OK;
    rlxb_conv *p = &cs->plan.conv;
    uint32_t m = cs->inputs[0];
    const rlxb_step *ms = &x->steps[m];
    if (!p->pointwise || p->groups != 1 || p->depthwise || p->p <= 1 ||
        p->k == 0 || p->m > p->p || p->scale_in >= 0 ||
        ms->kind != RLXB_K_BINARY || ms->op != RLX_OP_MUL ||
        ms->n_inputs != 2 || !is_f32_arena(f, m) || sole_user(f, m) != cv)
        return RLX_OK;
    for (int k = 0; k < 2; k++) {
        uint32_t xv = ms->inputs[k], sv = ms->inputs[1 - k];
        const rlx_node_view *s = node(f, sv);
        if (xv == sv || !same_shape(f, xv, m) ||
            x->steps[xv].dtype != RLX_DTYPE_F32 ||
            s->dtype != RLX_DTYPE_F32 || s->rank != 4 ||
            (size_t)s->shape[0] != p->n || (size_t)s->shape[1] != p->c ||
            s->shape[2] != 1 || s->shape[3] != 1)
            continue;
        uint32_t *in = calloc((size_t)cs->n_inputs + 1, sizeof *in);
        if (!in)
            return rlx_kit_fail(f->be->host, RLX_ERR_OUT_OF_MEMORY,
                                "cpu-openblas compile: out of memory "
                                "fusing '%s'. Fix: free memory",
                                node(f, cv)->name);
        memcpy(in, cs->inputs, cs->n_inputs * sizeof *in);
        in[0] = xv;
        p->scale_in = (int32_t)cs->n_inputs;
        in[cs->n_inputs] = sv;
        free(cs->inputs);
        cs->inputs = in;
        cs->n_inputs++;
        retire(f, m);
        f->n_scale++;
        return RLX_OK;
    }
    return RLX_OK;
}

/* ---- attention ---------------------------------------------------------- */

/* How the attention reads operand I (consumed by step BY): through a
 * transpose that keeps the last axis (which is then folded away), or as
 * stored. SRC: the step whose storage is read; STRIDE: element strides
 * of the operand's dims in that storage. */
static int operand_layout(const fuse *f, uint32_t i, uint32_t by,
                          uint32_t *src, int64_t *stride, uint32_t *fold)
{
    const rlxb_step *s = &f->x->steps[i];
    const rlx_node_view *v = node(f, i);
    uint32_t r = v->rank;
    *fold = NONE;
    if (s->dtype != RLX_DTYPE_F32)
        return 0;
    if (s->kind == RLXB_K_TRANSPOSE && s->where == RLXB_ARENA &&
        sole_user(f, i) == by && s->plan.transpose.rank == r &&
        s->plan.transpose.stride[r - 1] == 1) {
        *src = s->inputs[0];
        for (uint32_t d = 0; d < r; d++)
            stride[d] = (int64_t)s->plan.transpose.stride[d];
        *fold = i;
        return 1;
    }
    *src = i;
    rlx_kit_contiguous_strides(r, v->shape, stride);
    return 1;
}

/* Element offsets of every batch index (dims [0, r-2)), odometer order. */
static void batch_offsets(const rlx_node_view *v, const int64_t *stride,
                          size_t n, size_t *off)
{
    uint32_t br = v->rank - 2;
    int64_t idx[64] = { 0 };
    size_t o = 0;
    for (size_t t = 0; t < n; t++) {
        off[t] = o;
        for (uint32_t d = br; d-- > 0;) {
            o += (size_t)stride[d];
            if (++idx[d] < v->shape[d])
                break;
            o -= (size_t)stride[d] * (size_t)v->shape[d];
            idx[d] = 0;
        }
    }
}

#define ATTN_RB 8   /* query rows per block, at most (kernels_attn.c) */
#define ATTN_CT 32  /* key columns per tile */

/* The attention chain's rules (kit_match.h) on cpu-openblas steps: a
 * step read by one step only; an f32 scale of one element. */
static int attn_single_use(void *ctx, uint32_t i)
{
    const fuse *f = ctx;
    return f->uses[i] == 1 && f->user[i] != NONE;
}

static int attn_is_scale(void *ctx, uint32_t i)
{
    const fuse *f = ctx;
    return f->x->steps[i].count == 1 &&
           f->x->steps[i].dtype == RLX_DTYPE_F32;
}

static rlx_status fuse_attention(fuse *f, uint32_t pv)
{
    rlxb_exe *x = f->x;
    rlxb_step *ps = &x->steps[pv];
    const rlx_node_view *pvn = node(f, pv);
    rlx_kit_attn_rules rules = { .ctx = f, .single_use = attn_single_use,
                                 .is_scale = attn_is_scale, .allow_div = 1 };
    rlx_kit_attn_match mt;
    if (ps->kind != RLXB_K_MATMUL || !is_f32_arena(f, pv) ||
        pvn->rank < 2 || pvn->rank > 64 ||
        !rlx_kit_match_attention(f->g, pv, &rules, &mt) ||
        mt.pv_ta || mt.pv_tb || mt.qk_ta || !mt.qk_tb)
        return RLX_OK;
    uint32_t p = mt.softmax, vi = mt.v, s = mt.qk, scale = mt.scale,
             scaled = mt.scaled;
    int scale_div = mt.scale_div;
    const rlxb_step *sm = &x->steps[p];
    if (sm->kind != RLXB_K_SOFTMAX || !is_f32_arena(f, p) ||
        (scaled != NONE && (x->steps[scaled].kind != RLXB_K_BINARY ||
                            !is_f32_arena(f, scaled))))
        return RLX_OK;
    const rlxb_step *qk = &x->steps[s];
    const rlx_node_view *sn = node(f, s);
    if (qk->kind != RLXB_K_MATMUL || !is_f32_arena(f, s))
        return RLX_OK;
    uint32_t qi = mt.q, ki = mt.k;
    const rlx_node_view *qn = node(f, qi), *kn = node(f, ki),
                        *vn = node(f, vi);
    uint32_t r = pvn->rank;
    if (qn->rank != r ||
        kn->rank != r || vn->rank != r || sn->rank != r)
        return RLX_OK;
    for (uint32_t d = 0; d + 2 < r; d++)
        if (qn->shape[d] != pvn->shape[d] || kn->shape[d] != pvn->shape[d] ||
            vn->shape[d] != pvn->shape[d] || sn->shape[d] != pvn->shape[d])
            return RLX_OK;
    size_t sq = (size_t)qn->shape[r - 2], dh = (size_t)qn->shape[r - 1];
    size_t sk = (size_t)kn->shape[r - 2], dv = (size_t)vn->shape[r - 1];
    if ((size_t)kn->shape[r - 1] != dh || (size_t)vn->shape[r - 2] != sk ||
        (size_t)sn->shape[r - 2] != sq || (size_t)sn->shape[r - 1] != sk ||
        (size_t)pvn->shape[r - 2] != sq || (size_t)pvn->shape[r - 1] != dv ||
        sq == 0 || sk == 0 || dh == 0 || dv == 0)
        return RLX_OK;
    size_t skp = (sk + ATTN_CT - 1) / ATTN_CT * ATTN_CT;
    size_t slot = (dh + ATTN_RB) * skp;
    if (slot > ((size_t)4 << 20)) /* 16 MiB a thread: leave it unfused */
        return RLX_OK;

    int64_t st_q[64], st_k[64], st_v[64], st_o[64];
    uint32_t src_q, src_k, src_v, fold_q, fold_k, fold_v;
    if (!operand_layout(f, qi, s, &src_q, st_q, &fold_q) ||
        !operand_layout(f, ki, s, &src_k, st_k, &fold_k) ||
        !operand_layout(f, vi, pv, &src_v, st_v, &fold_v))
        return RLX_OK;
    /* the output: through a transpose keeping the last axis, or as is */
    uint32_t out = pv, t2 = sole_user(f, pv);
    rlx_kit_contiguous_strides(r, pvn->shape, st_o);
    if (t2 != NONE && x->steps[t2].kind == RLXB_K_TRANSPOSE &&
        is_f32_arena(f, t2) && node(f, t2)->rank == r) {
        const rlx_node_view *tn = node(f, t2);
        int64_t os[64], perm[64];
        rlx_kit_contiguous_strides(r, tn->shape, os);
        if (rlx_kit_transpose_perm(tn, r, perm) &&
            perm[r - 1] == (int64_t)(r - 1)) {
            for (uint32_t d = 0; d < r; d++)
                st_o[perm[d]] = os[d];
            out = t2;
        } else {
            rlx_kit_contiguous_strides(r, pvn->shape, st_o);
        }
    }

    rlxb_attn a;
    memset(&a, 0, sizeof a);
    a.n_pairs = 1;
    for (uint32_t d = 0; d + 2 < r; d++)
        a.n_pairs *= (size_t)pvn->shape[d];
    if (a.n_pairs == 0) /* nothing to compute: leave the steps as they are */
        return RLX_OK;
    a.sq = sq;
    a.sk = sk;
    a.dh = dh;
    a.dv = dv;
    a.q_row = (size_t)st_q[r - 2];
    a.k_row = (size_t)st_k[r - 2];
    a.v_row = (size_t)st_v[r - 2];
    a.o_row = (size_t)st_o[r - 2];
    a.causal = sm->plan.axis.causal;
    a.scale_in = scale != NONE ? 3 : -1;
    a.scale_div = scale_div;
    a.n_slots = rlxb_pool_threads(f->be->pool);
    a.slot_floats = slot;
    a.off = calloc(4 * a.n_pairs, sizeof *a.off);
    a.scratch = aligned_alloc(RLXB_ALIGN,
                              a.n_slots * slot * sizeof(float));
    a.busy = calloc(a.n_slots, sizeof *a.busy);
    uint32_t *in = calloc(4, sizeof *in);
    if (!a.off || !a.scratch || !a.busy || !in) {
        rlxb_attn_free(&a);
        free(in);
        return rlx_kit_fail(f->be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory fusing "
                            "attention '%s'. Fix: free memory", pvn->name);
    }
    for (unsigned k = 0; k < a.n_slots; k++)
        atomic_flag_clear(&a.busy[k]);
    batch_offsets(qn, st_q, a.n_pairs, a.off);
    batch_offsets(kn, st_k, a.n_pairs, a.off + a.n_pairs);
    batch_offsets(vn, st_v, a.n_pairs, a.off + 2 * a.n_pairs);
    batch_offsets(pvn, st_o, a.n_pairs, a.off + 3 * a.n_pairs);
    in[0] = src_q;
    in[1] = src_k;
    in[2] = src_v;
    in[3] = scale != NONE ? scale : src_q;

    /* fold the chain; OUT becomes the attention */
    uint32_t gone[8], n_gone = 0;
    gone[n_gone++] = s;
    if (scaled != NONE)
        gone[n_gone++] = scaled;
    gone[n_gone++] = p;
    if (out != pv)
        gone[n_gone++] = pv;
    if (fold_q != NONE)
        gone[n_gone++] = fold_q;
    if (fold_k != NONE)
        gone[n_gone++] = fold_k;
    if (fold_v != NONE)
        gone[n_gone++] = fold_v;
    for (uint32_t k = 0; k < n_gone; k++)
        retire(f, gone[k]);
    rlxb_step *t = &x->steps[out];
    if (t->kind == RLXB_K_MATMUL) /* out == pv */
        rlxb_gemm_free(&t->plan.gemm);
    free(t->inputs);
    t->inputs = in;
    t->n_inputs = scale != NONE ? 4 : 3;
    t->op = RLX_OP_MATMUL;
    t->kind = RLXB_K_ATTENTION;
    t->plan.attn = a;
    f->n_attn++;
    return RLX_OK;
}

void rlxb_attn_free(rlxb_attn *p)
{
    free(p->off);
    free(p->scratch);
    free(p->busy);
    p->off = NULL;
    p->scratch = NULL;
    p->busy = NULL;
}

/* The setting cpu-openblas.fuse (RLX_CPU_OPENBLAS_FUSE): 0 compiles
 * without fusion, to compare or to rule it out; default on. Another
 * value fails the compile (a warning in the log went unseen): 1, 0, or
 * -1 when bad. */
static int fusion_wanted(const rlx_compile_options *o, const rlx_host *host)
{
    char v[16];
    rlx_status st = rlx_compile_get_option(o, host, "cpu-openblas.fuse", v,
                                           sizeof v);
    if (st == RLX_ERR_NOT_FOUND)
        return 1;
    if (st == RLX_OK && (!strcmp(v, "0") || !strcmp(v, "1")))
        return v[0] == '1';
    if (st != RLX_OK)
        snprintf(v, sizeof v, "(too long)");
    rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                 "cpu-openblas compile: setting cpu-openblas.fuse "
                 "(RLX_CPU_OPENBLAS_FUSE) is '%s'. Fix: set it to 1 (fuse, "
                 "the default) or 0 (no fusion), or unset it", v);
    return -1;
}

rlx_status rlxb_fuse(rlxb_backend *be, const rlx_graph_view *g,
                          rlxb_exe *x)
{
    int wanted = fusion_wanted(x->options, be->host);
    if (wanted < 0)
        return RLX_ERR_INVALID_ARGUMENT;
    if (!wanted)
        return RLX_OK;
    fuse f = { .be = be, .g = g, .x = x };
    f.uses = calloc(2 * ((size_t)x->n_steps + 1), sizeof *f.uses);
    if (!f.uses)
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory planning "
                            "fusion. Fix: free memory");
    f.user = f.uses + x->n_steps + 1;
    rlx_status st = RLX_OK;
    count_uses(&f);
    for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++) {
        unsigned before = f.n_attn;
        st = fuse_attention(&f, i);
        if (f.n_attn != before)
            count_uses(&f);
    }
    for (uint32_t i = 0; i < x->n_steps; i++)
        fuse_silu(&f, i);
    if (f.n_silu)
        count_uses(&f);
    for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++)
        st = fuse_epilogue(&f, i);
    for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++)
        st = fuse_conv(&f, i);
    count_uses(&f);
    for (uint32_t i = 0; st == RLX_OK && i < x->n_steps; i++)
        st = fuse_scale(&f, i);
    free(f.uses);
    if (st == RLX_OK)
        st = rlxb_qfuse(be, g, x);
    if (st == RLX_OK)
        st = rlxb_qelem_fuse(be, g, x);
    if (st == RLX_OK)
        st = rlxb_qchain_fuse(be, g, x);
    if (st == RLX_OK)
        st = rlxb_qgap_fuse(be, g, x);
    if (st == RLX_OK && (f.n_epi || f.n_attn))
        rlx_kit_log(be->host, RLX_LOG_DEBUG,
                    "cpu-openblas: fused %u matmul epilogues and %u "
                    "attentions", f.n_epi, f.n_attn);
    if (st == RLX_OK && (f.n_conv || f.n_silu))
        rlx_kit_log(be->host, RLX_LOG_DEBUG,
                    "cpu-openblas: fused %u conv epilogues, %u silus",
                    f.n_conv, f.n_silu);
    if (st == RLX_OK && f.n_scale)
        rlx_kit_log(be->host, RLX_LOG_DEBUG,
                    "cpu-openblas: fused %u channel scales into convs",
                    f.n_scale);
    return st;
}
