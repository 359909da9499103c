/*
 * gpu_fuse.c - fusion matching, decided before emission: matmul + bias
 * (+ relu / tanh-gelu) into one matmul step, add + layer/rms norm into
 * the norm kernel, and q k^T -> [scale] -> softmax -> p v into
 * one fused attention step; conv + (residual add) + relu into one conv
 * step. The patterns themselves are matched by the kit (kit_match.h);
 * what is checked here is what this backend's kernels need.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_compile.h"

/* Would matmul node I fuse its consumer add (bias) and an activation? */
void rlxg_fuse_matmul(ctx *c, uint32_t i, int *add, int *act)
{
    const rlx_graph_view *g = c->g;
    rlxg_value *vals = c->exe->values;
    const rlx_node_view *v = g->nodes[i];
    *add = *act = -1;
    if (vals[i].uses != 1 || vals[i].is_output || c->consumer[i] < 0)
        return;
    const rlx_node_view *a = g->nodes[v->inputs[0]];
    const rlx_node_view *b = g->nodes[v->inputs[1]];
    int64_t ta = rlx_kit_int_attr(v, 0, 0);
    if (b->rank != 2 || (a->rank > 2 && ta) || a->rank < 1 ||
        vals[i].count == 0)
        return;
    int64_t k = ta && a->rank >= 2 ? a->shape[a->rank - 2]
                                   : a->shape[a->rank - 1];
    if (k == 0)
        return;
    int j = c->consumer[i];
    const rlx_node_view *w = g->nodes[j];
    uint32_t o = rlx_kit_add_other(g, (uint32_t)j, i);
    if (o == RLX_KIT_NO_NODE || w->dtype != v->dtype)
        return;
    int other = (int)o;
    if (vals[j].rank != vals[i].rank ||
        memcmp(vals[j].dims, vals[i].dims, vals[i].rank * sizeof(int64_t)))
        return;
    const rlxg_value *bias = &vals[other];
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
        (x->op == RLX_OP_GELU && rlx_kit_int_attr(x, 0, 0) == RLX_GELU_TANH))
        *act = c->consumer[j];
}

/* ---- fusions decided before emission -------------------------------------- */

/* RLX_CUDA_FUSE=0 (RLX_ROCM_FUSE=0) turns off the attention and norm fusions (A/B). */
static int fusion_enabled(const rlx_executable *exe, const rlx_host *host)
{
    char e[16]; /* setting cuda.fuse / rocm.fuse, read from the compile */
    return !(rlx_compile_get_option(exe->options, host, RLXG_NAME ".fuse", e,
                                    sizeof e) == RLX_OK && e[0] == '0');
}

static int claimable(const ctx *c, int v)
{
    const rlxg_value *x = &c->exe->values[v];
    return x->uses == 1 && !x->is_output && x->storage != -2 && x->count > 0;
}

static int same_dims(const rlxg_value *a, const rlxg_value *b)
{
    return a->rank == b->rank &&
           !memcmp(a->dims, b->dims, a->rank * sizeof *a->dims);
}

/* Would conv node I absorb its consumers: an add of a same-shaped value
 * computed before I (the residual; *RES that value, *ADD the add) and
 * then a relu (*ACT)? -1 where not. The residual must come earlier in
 * node order, since the fused step runs at I's place: of two convs
 * meeting at one add, the later one takes it. */
void rlxg_fuse_conv(ctx *c, uint32_t i, int *add, int *res, int *act)
{
    const rlx_graph_view *g = c->g;
    rlxg_value *vals = c->exe->values;
    const rlx_node_view *v = g->nodes[i];
    *add = *res = *act = -1;
    if (v->op != RLX_OP_CONV || !fusion_enabled(c->exe, c->host) ||
        !claimable(c, (int)i) || c->consumer[i] < 0)
        return;
    int j = c->consumer[i];
    const rlx_node_view *w = g->nodes[j];
    if (w->op == RLX_OP_ADD && w->n_inputs == 2 && w->dtype == v->dtype &&
        claimable(c, j) && same_dims(&vals[j], &vals[i])) {
        uint32_t o = rlx_kit_add_other(g, (uint32_t)j, i);
        int other = (int)o;
        if (o == RLX_KIT_NO_NODE || o > i ||
            !same_dims(&vals[other], &vals[i]) ||
            vals[other].dtype != v->dtype)
            return;
        *add = j;
        *res = other;
        if (c->consumer[j] < 0)
            return;
        j = c->consumer[j];
        w = g->nodes[j];
        if (w->op == RLX_OP_RELU && w->dtype == v->dtype &&
            vals[*add].uses == 1 && !vals[*add].is_output)
            *act = j;
        return;
    }
    if (w->op == RLX_OP_RELU && w->dtype == v->dtype)
        *act = j;
}

/* One element, or one per channel of Y (dims [1, m, 1...] or the like):
 * 0 and 1; -1 neither. */
static int per_channel(const rlxg_value *o, const rlxg_value *y)
{
    if (o->count == 1)
        return 0;
    return o->rank == y->rank && y->rank >= 2 && o->count == y->dims[1] &&
                   o->dims[1] == y->dims[1]
               ? 1 : -1;
}

/* Node V's consumer when V is used once, by a node of OP with N inputs;
 * else -1. EMITTED: V may be marked fused already. */
static int chain_next(ctx *c, int v, rlx_op op, uint32_t n, int emitted)
{
    const rlxg_value *x = &c->exe->values[v];
    int j = c->consumer[v];
    if (j < 0 || x->uses != 1 || x->is_output || x->count == 0 ||
        (!emitted && x->storage == -2))
        return -1;
    const rlx_node_view *w = c->g->nodes[j];
    return w->op == op && w->n_inputs == n ? j : -1;
}

/* The operand of binary node J that is not AT, when it fits the chain
 * (DTYPE, one or one per channel of AT's shape, J AT's shape): its
 * value, *PER set; else -1. */
static int chain_operand(ctx *c, int j, int at, rlx_dtype dtype, int *per)
{
    const rlxg_value *vals = c->exe->values;
    const rlx_node_view *w = c->g->nodes[j];
    int a = (int)w->inputs[0], b = (int)w->inputs[1];
    int o = a == at ? b : a;
    if (a == b || (a != at && b != at) || vals[o].dtype != dtype ||
        !same_dims(&vals[j], &vals[at]))
        return -1;
    *per = per_channel(&vals[o], &vals[at]);
    return *per < 0 ? -1 : o;
}

int rlxg_qchain_match(ctx *c, uint32_t i, int emitted, int *extra, int *mid)
{
    const rlx_graph_view *g = c->g;
    const rlxg_value *vals = c->exe->values;
    const rlx_node_view *v = g->nodes[i];
    int per = 0, n_mid = 0, at = (int)i, j;
    for (int k = 0; k < 8; k++)
        extra[k] = -1;
    for (int k = 0; k < 5; k++)
        mid[k] = -1;
    if (v->op != RLX_OP_CONV_INTEGER || v->n_inputs != 4 ||
        vals[i].dtype != RLX_DTYPE_I32 || vals[i].rank < 3)
        return -1;
    extra[RLXG_QC_ACC] = (int)i;
    if ((j = chain_next(c, at, RLX_OP_ADD, 2, emitted)) >= 0) {
        if (g->nodes[j]->dtype != RLX_DTYPE_I32 ||
            (extra[RLXG_QC_BIAS] = chain_operand(c, j, at, RLX_DTYPE_I32,
                                                 &per)) < 0)
            return -1;
        mid[n_mid++] = at = j;
    }
    if ((j = chain_next(c, at, RLX_OP_CAST, 1, emitted)) < 0 ||
        g->nodes[j]->dtype != RLX_DTYPE_F32)
        return -1;
    mid[n_mid++] = at = j;
    if ((j = chain_next(c, at, RLX_OP_MUL, 2, emitted)) < 0 ||
        g->nodes[j]->dtype != RLX_DTYPE_F32 ||
        (extra[RLXG_QC_MULT] = chain_operand(c, j, at, RLX_DTYPE_F32,
                                             &per)) < 0)
        return -1;
    mid[n_mid++] = at = j;
    if ((j = chain_next(c, at, RLX_OP_QUANTIZE_LINEAR, 3, emitted)) < 0)
        return -1;
    const rlx_node_view *q = g->nodes[j];
    int sc = (int)q->inputs[1], zp = (int)q->inputs[2];
    if ((int)q->inputs[0] != at || !same_dims(&vals[j], &vals[at]) ||
        (q->dtype != RLX_DTYPE_U8 && q->dtype != RLX_DTYPE_I8) ||
        vals[sc].dtype != RLX_DTYPE_F32 || vals[sc].count != 1 ||
        vals[sc].rank > 1 || vals[zp].dtype != q->dtype ||
        vals[zp].count != 1 || vals[zp].rank > 1 ||
        rlx_kit_int_attr(q, RLX_ATTR_QUANT_BLOCK_SIZE, 0) != 0)
        return -1;
    extra[RLXG_QC_SCALE] = sc;
    extra[RLXG_QC_ZP] = zp;
    at = j;
    /* the bounds: max (relu), then min (clip), each of one element */
    static const rlx_op bound_op[2] = { RLX_OP_MAX, RLX_OP_MIN };
    for (int k = 0; k < 2; k++) {
        int b;
        if ((j = chain_next(c, at, bound_op[k], 2, emitted)) < 0 ||
            g->nodes[j]->dtype != q->dtype ||
            (b = chain_operand(c, j, at, q->dtype, &per)) < 0 || per)
            continue;
        extra[k ? RLXG_QC_HI : RLXG_QC_LO] = b;
        mid[n_mid++] = at;
        at = j;
    }
    return at;
}

/* Each conv_integer whose requantization chain fuses: the chain's inner
 * values are never stored, and its one step runs at the chain's end
 * (where the multiplier and bias it reads exist). */
static void plan_qchains(ctx *c)
{
    int extra[8], mid[5];
    for (uint32_t i = 0; i < c->g->n_nodes; i++) {
        int end = rlxg_qchain_match(c, i, 0, extra, mid);
        if (end < 0)
            continue;
        c->qchain[i] = -2;
        c->qchain[end] = (int)i;
        for (int k = 0; k < 5 && mid[k] >= 0; k++)
            c->exe->values[mid[k]].storage = -2;
    }
}

/* layer_norm / rms_norm reading add(a, b) of one shape, the add used only
 * there: the norm kernel adds. */
static void plan_norm_fusions(ctx *c)
{
    const rlx_graph_view *g = c->g;
    rlxg_value *vals = c->exe->values;
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
    int64_t dims[RLXG_MAX_RANK], stride[RLXG_MAX_RANK];
} view;

static int view_reshape(view *w, uint32_t rank, const int64_t *nd)
{
    int64_t id[RLXG_MAX_RANK], is[RLXG_MAX_RANK], ns[RLXG_MAX_RANK];
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
    const rlxg_value *y = &c->exe->values[i];
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
                int64_t st[RLXG_MAX_RANK], perm[RLXG_MAX_RANK];
                if (w->rank != y->rank ||
                    !rlx_kit_transpose_perm(v, y->rank, perm))
                    return 0;
                for (uint32_t d = 0; d < y->rank; d++)
                    st[d] = w->stride[perm[d]];
                memcpy(w->stride, st, y->rank * sizeof *st);
                memcpy(w->dims, y->dims, y->rank * sizeof *y->dims);
                return 1;
            }
            /* slice */
            uint32_t na = rlx_kit_n_int_attrs(v);
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
    rlx_kit_contiguous_strides(y->rank, y->dims, w->stride);
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
        memcpy(&h, v->data, sizeof h);
        return rlx_kit_bf16_to_f32(h);
    }
    return NAN;
}

/* The attention chain's rules (kit_match.h) on this backend's values:
 * a value no other fusion claimed, read once; a one-element constant of
 * the chain's dtype as the scale. */
typedef struct attn_rules_ctx {
    ctx *c;
    rlx_dtype dt;
    uint32_t rank;
} attn_rules_ctx;

static int attn_single_use(void *rc, uint32_t i)
{
    return claimable(((attn_rules_ctx *)rc)->c, (int)i);
}

static int attn_is_scale(void *rc, uint32_t i)
{
    const attn_rules_ctx *r = rc;
    const rlx_node_view *v = r->c->g->nodes[i];
    const rlxg_value *x = &r->c->exe->values[i];
    return v->op == RLX_OP_CONSTANT && x->count == 1 && x->rank <= r->rank &&
           v->dtype == r->dt && !isnan(const_scalar(v));
}

/* matmul(softmax(matmul(q, k^T) [* scale]), v), optionally followed by a
 * transpose: one attention kernel reading q, k and v through their
 * slice / reshape / transpose chains and writing the transposed layout. */
static void plan_attention_at(ctx *c, uint32_t m2)
{
    const rlx_graph_view *g = c->g;
    rlxg_value *vals = c->exe->values;
    const rlx_node_view *v2 = g->nodes[m2];
    rlx_dtype dt = v2->dtype;
    if (v2->n_inputs != 2 || vals[m2].count == 0)
        return;
    attn_rules_ctx rc = { c, dt, vals[v2->inputs[0]].rank };
    rlx_kit_attn_rules rules = { .ctx = &rc, .single_use = attn_single_use,
                                 .is_scale = attn_is_scale };
    rlx_kit_attn_match mt;
    if (!rlx_kit_match_attention(g, m2, &rules, &mt) || mt.pv_ta != 0)
        return;
    int p = (int)mt.softmax, sc = (int)mt.qk, mul = -1;
    const rlx_node_view *sm = g->nodes[p];
    if (sm->dtype != dt)
        return;
    uint32_t rank = vals[p].rank;
    int64_t causal = mt.causal;
    if (rank < 2 || rank > 4 || mt.axis != (int64_t)rank - 1 ||
        (causal != 0 && causal != 1))
        return;
    double scale = 1.0;
    if (mt.scaled != RLX_KIT_NO_NODE) {
        if (g->nodes[mt.scaled]->dtype != dt)
            return;
        scale = const_scalar(g->nodes[mt.scale]);
        mul = (int)mt.scaled;
    }
    const rlx_node_view *m1 = g->nodes[sc];
    if (m1->dtype != dt || vals[sc].rank != rank)
        return;
    int64_t ta = mt.qk_ta, tb = mt.qk_tb, tv = mt.pv_tb;
    if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1) || (tv != 0 && tv != 1))
        return;
    int ops[3] = { (int)mt.q, (int)mt.k, (int)mt.v };
    int chain[3][16], nch[3] = { 0, 0, 0 };
    view vw[3];
    int64_t t[3] = { ta, !tb, tv }; /* k^T: k is [.., sk, dh] when tb */
    for (int o = 0; o < 3; o++) {
        if (vals[ops[o]].dtype != dt || vals[ops[o]].rank != rank ||
            !operand_view(c, ops[o], &vw[o], chain[o], &nch[o]) ||
            vw[o].rank != rank)
            return;
        for (int k = 0; k < nch[o]; k++)
            if (c->attn[chain[o][k]] >= 0 ||
                vals[chain[o][k]].storage == -2)
                return;
    }
    const rlxg_value *sv = &vals[sc], *y = &vals[m2];
    for (uint32_t d = 0; d + 2 < rank; d++)
        for (int o = 0; o < 3; o++)
            if (vw[o].dims[d] != y->dims[d])
                return;
    rlxg_attn_plan ap;
    memset(&ap, 0, sizeof ap);
    ap.batch = rank >= 4 ? y->dims[rank - 4] : 1;
    ap.heads = rank >= 3 ? y->dims[rank - 3] : 1;
    ap.sq = sv->dims[rank - 2];
    ap.sk = sv->dims[rank - 1];
    ap.dh = ta ? vw[0].dims[rank - 2] : vw[0].dims[rank - 1];
    ap.dv = y->dims[rank - 1];
    if (ap.sq == 0 || ap.sk == 0 || ap.dh == 0 || ap.dh > RLXG_ATTN_MAX_D ||
        ap.dv > RLXG_ATTN_MAX_D || ap.batch * ap.heads > 65535 ||
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
    rlx_kit_contiguous_strides(rank, y->dims, ov.stride);
    int tr = c->consumer[m2];
    if (claimable(c, (int)m2) && tr >= 0 &&
        g->nodes[tr]->op == RLX_OP_TRANSPOSE && g->nodes[tr]->dtype == dt &&
        vals[tr].rank == rank && vals[tr].count == y->count &&
        c->attn[tr] < 0 && vals[tr].storage != -2) {
        int64_t ts[RLXG_MAX_RANK], perm[RLXG_MAX_RANK];
        rlx_kit_contiguous_strides(rank, vals[tr].dims, ts);
        if (rlx_kit_transpose_perm(g->nodes[tr], rank, perm)) {
            for (uint32_t d = 0; d < rank; d++)
                ov.stride[perm[d]] = ts[d];
            out = tr;
        }
    }
    strides4(&ov, 0, ap.o_s);

    rlxg_step *np = realloc(c->attn_plans, (c->n_attn + 1) * sizeof *np);
    if (!np)
        return; /* unfused is still right */
    c->attn_plans = np;
    rlxg_step *a = &np[c->n_attn];
    memset(a, 0, sizeof *a);
    a->kind = RLXG_STEP_ATTENTION;
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

void rlxg_fuse_plan(ctx *c)
{
    if (!fusion_enabled(c->exe, c->host))
        return;
    for (uint32_t i = 0; i < c->g->n_nodes; i++)
        if (c->g->nodes[i]->op == RLX_OP_MATMUL)
            plan_attention_at(c, i);
    plan_norm_fusions(c);
    plan_qchains(c);
}
