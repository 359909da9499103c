/*
 * onnx_qdq.c - QDQ recognition: a quantized model in ONNX's QDQ form
 * spells each integer op as DequantizeLinear -> float op ->
 * QuantizeLinear. Before the top graph is walked, this finds the groups
 * rlx runs on the integers:
 *   DQ(x_q), DQ(w_q)[, DQ(bias_i32)] -> Conv | MatMul | Gemm
 *     -> [Relu | Clip] -> Q       the requantization chain QLinearConv
 *                                  and QLinearMatMul lower to, Relu and
 *                                  Clip as max/min on the quantized value
 *   DQ -> MaxPool | Reshape | Flatten | Transpose -> Q (same scale and
 *                                  zero point): the op on the integers
 * The walker defers a group's members and lowers the group at its Q. The
 * checks that need values (constant scales of the right shapes, a bias
 * scale of x_scale * w_scale) are made there; a group that fails them,
 * and every other op between Q/DQ nodes, runs as dequantize, float op,
 * quantize, and `rlx check` says why.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_qdq.h"

#define NONE RLX__QDQ_NONE

typedef rlx__onnx_qdq_group group;

/* ---- the pre-pass ----------------------------------------------------- */

typedef struct names_info {
    rlx__onnx_names t;     /* node output name -> slot */
    uint32_t *prod;        /* slot -> node */
    uint32_t *uses;        /* slot -> readers (subgraphs included) */
    uint8_t *is_out;       /* slot -> a graph output */
} names_info;

static int32_t slot(const names_info *ni, const char *name)
{
    return name && *name ? rlx__onnx_names_get(&ni->t, name) : -1;
}

static void count_graph_uses(names_info *ni, const Onnx__GraphProto *g);

static void count_node_uses(names_info *ni, const Onnx__NodeProto *n)
{
    for (size_t k = 0; k < n->n_input; k++) {
        int32_t s = slot(ni, n->input[k]);
        if (s >= 0)
            ni->uses[s]++;
    }
    for (size_t a = 0; a < n->n_attribute; a++) {
        const Onnx__AttributeProto *at = n->attribute[a];
        if (at->g)
            count_graph_uses(ni, at->g);
        for (size_t k = 0; k < at->n_graphs; k++)
            count_graph_uses(ni, at->graphs[k]);
    }
}

static void count_graph_uses(names_info *ni, const Onnx__GraphProto *g)
{
    for (size_t i = 0; i < g->n_node; i++)
        count_node_uses(ni, g->node[i]);
    for (size_t i = 0; i < g->n_output; i++) {
        int32_t s = slot(ni, g->output[i]->name);
        if (s >= 0)
            ni->uses[s]++;
    }
}

static int is_op(const Onnx__NodeProto *n, const char *op)
{
    return strcmp(n->op_type, op) == 0;
}

/* The node making input K of N, or NONE. */
static uint32_t producer(const names_info *ni, const Onnx__NodeProto *n,
                         size_t k)
{
    if (k >= n->n_input)
        return NONE;
    int32_t s = slot(ni, n->input[k]);
    return s < 0 ? NONE : ni->prod[s];
}

static const char *out0(const Onnx__NodeProto *n)
{
    return n->n_output ? n->output[0] : NULL;
}

/* Why node N's single output cannot be folded into the group (NULL:
 * it can): read once, by the next node of the group only. */
static const char *private_output(const names_info *ni,
                                  const Onnx__NodeProto *n)
{
    int32_t s = slot(ni, out0(n));
    if (s < 0)
        return "its output has no name";
    if (ni->is_out[s])
        return "its output is a graph output";
    if (ni->uses[s] != 1)
        return "its output has more than one consumer";
    return NULL;
}

static int is_dq(const rlx__onnx_model *m, uint32_t i)
{
    return i != NONE && is_op(m->nodes[i], "DequantizeLinear");
}

static void set_why(rlx__onnx_qdq *q, uint32_t i, const char *fmt,
                    const char *a)
{
    if (i == NONE || q->why[i])
        return;
    q->why[i] = rlx__printf_alloc(fmt, a);
}

/* Match the group ending at Q node QI; 1 when it is one. */
static int match(rlx__onnx_qdq *q, const names_info *ni, uint32_t qi,
                 group *g)
{
    const rlx__onnx_model *m = q->m;
    const Onnx__NodeProto *const *nodes = m->nodes;
    uint32_t t = producer(ni, nodes[qi], 0);
    if (!out0(nodes[qi]) || !*out0(nodes[qi]) || t == NONE || is_dq(m, t) || is_op(nodes[t], "QuantizeLinear"))
        return 0;
    g->q = qi;
    g->act = NONE;
    g->dq[0] = g->dq[1] = g->dq[2] = NONE;
    const char *why;
    if (is_op(nodes[t], "Relu") || is_op(nodes[t], "Clip")) {
        uint32_t u = producer(ni, nodes[t], 0);
        if (u == NONE || (!is_op(nodes[u], "Conv") &&
                          !is_op(nodes[u], "MatMul") &&
                          !is_op(nodes[u], "Gemm")))
            return 0; /* a plain Relu or Clip: the adjacency note says */
        if ((why = private_output(ni, nodes[t])) != NULL) {
            set_why(q, t, "%s", why);
            return 0;
        }
        g->act = t;
        t = u;
    }
    const Onnx__NodeProto *mid = nodes[t];
    int integer = is_op(mid, "Conv") || is_op(mid, "MatMul") ||
                  is_op(mid, "Gemm");
    int moves = is_op(mid, "MaxPool") || is_op(mid, "Reshape") ||
                is_op(mid, "Flatten") || is_op(mid, "Transpose");
    if (!integer && !moves)
        return 0;
    if ((why = private_output(ni, mid)) != NULL) {
        set_why(q, t, "%s", why);
        return 0;
    }
    if (mid->n_output != 1 && !(is_op(mid, "MaxPool") &&
                                (mid->n_output < 2 || !*mid->output[1]))) {
        set_why(q, t, "%s", "its Indices output is used");
        return 0;
    }
    g->mid = t;
    uint32_t need = integer ? 2 : 1;
    for (uint32_t k = 0; k < need; k++) {
        g->dq[k] = producer(ni, mid, k);
        if (!is_dq(m, g->dq[k])) {
            set_why(q, t, "input %s is not a DequantizeLinear output",
                    k ? "1 (the weights)" : "0");
            return 0;
        }
    }
    if (integer && mid->n_input > 2 && mid->input[2] && *mid->input[2]) {
        g->dq[2] = producer(ni, mid, 2);
        if (!is_dq(m, g->dq[2])) {
            set_why(q, t, "%s", "its bias is not a dequantized int32 "
                                "(DequantizeLinear of int32, scale x_scale "
                                "* w_scale, zero point 0)");
            return 0;
        }
    }
    return 1;
}

static int fusable_op(const Onnx__NodeProto *n)
{
    static const char *const ops[] = { "Conv", "MatMul", "Gemm", "MaxPool",
                                       "Reshape", "Flatten", "Transpose",
                                       NULL };
    for (int i = 0; ops[i]; i++)
        if (is_op(n, ops[i]))
            return 1;
    return 0;
}

/* Notes for the ops next to Q/DQ nodes that are in no group. */
static void note_unfused(rlx__onnx_qdq *q, const names_info *ni,
                         const uint8_t *member, uint8_t *q_read)
{
    const rlx__onnx_model *m = q->m;
    for (uint32_t j = 0; j < q->n; j++) /* whose output a Q reads */
        if (is_op(m->nodes[j], "QuantizeLinear") &&
            producer(ni, m->nodes[j], 0) != NONE)
            q_read[producer(ni, m->nodes[j], 0)] = 1;
    for (uint32_t i = 0; i < q->n; i++) {
        const Onnx__NodeProto *n = m->nodes[i];
        if (member[i] || is_op(n, "QuantizeLinear") ||
            is_op(n, "DequantizeLinear") || q->why[i])
            continue;
        int dq_in = 0, q_out = q_read[i];
        for (size_t k = 0; k < n->n_input; k++)
            dq_in |= is_dq(m, producer(ni, n, k));
        if (!dq_in && !q_out)
            continue;
        if (fusable_op(n) && !q_out)
            set_why(q, i, "%s", "no QuantizeLinear reads its output; it "
                                "runs on the dequantized floats");
        else if (fusable_op(n))
            set_why(q, i, "%s", "its inputs are not all dequantized; it "
                                "runs as dequantize, float op, quantize");
        else if (is_op(n, "Relu") || is_op(n, "Clip"))
            q->why[i] = rlx__printf_alloc(
                "%s: folded only after a Conv, MatMul or Gemm; runs as "
                "dequantize, f32 %s, quantize", n->op_type, n->op_type);
        else
            q->why[i] = rlx__printf_alloc(
                "%s: no integer kernel, runs as dequantize, f32 %s, "
                "quantize", n->op_type, n->op_type);
    }
}

rlx_status rlx__onnx_qdq_find(const rlx__onnx_model *m, rlx__onnx_qdq **out)
{
    *out = NULL;
    rlx__onnx_qdq *q = calloc(1, sizeof *q);
    names_info ni;
    memset(&ni, 0, sizeof ni);
    uint32_t n = m->n_nodes, n_slots = 0;
    for (uint32_t i = 0; i < n; i++)
        n_slots += (uint32_t)m->nodes[i]->n_output;
    uint8_t *member = calloc(n ? n : 1, 1), *q_read = calloc(n ? n : 1, 1);
    uint32_t *group_reads = calloc(n_slots ? n_slots : 1,
                                   sizeof *group_reads);
    rlx_status st = RLX_ERR_OUT_OF_MEMORY;
    if (!q || !member || !q_read || !group_reads ||
        rlx__onnx_names_init(&ni.t, n_slots) != RLX_OK)
        goto fail;
    q->m = m;
    q->n = n;
    q->role = calloc(n ? n : 1, 1);
    q->pending = calloc(n ? n : 1, 1);
    q->why = calloc(n ? n : 1, sizeof *q->why);
    q->gi = calloc(n ? n : 1, sizeof *q->gi);
    q->groups = calloc(n ? n : 1, sizeof *q->groups);
    ni.prod = calloc(n_slots ? n_slots : 1, sizeof *ni.prod);
    ni.uses = calloc(n_slots ? n_slots : 1, sizeof *ni.uses);
    ni.is_out = calloc(n_slots ? n_slots : 1, 1);
    if (!q->role || !q->pending || !q->why || !q->gi || !q->groups ||
        !ni.prod || !ni.uses || !ni.is_out)
        goto fail;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        for (size_t o = 0; o < m->nodes[i]->n_output; o++) {
            const char *nm = m->nodes[i]->output[o];
            if (nm && *nm && !rlx__onnx_names_put(&ni.t, nm, (int32_t)k))
                ni.prod[k++] = i;
        }
    for (uint32_t i = 0; i < n; i++)
        count_node_uses(&ni, m->nodes[i]);
    const Onnx__GraphProto *gp = m->proto->graph;
    for (size_t i = 0; i < gp->n_output; i++) {
        int32_t s = slot(&ni, gp->output[i]->name);
        if (s >= 0)
            ni.is_out[s] = 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        group g;
        if (!is_op(m->nodes[i], "QuantizeLinear") || !match(q, &ni, i, &g))
            continue;
        q->gi[i] = q->n_groups;
        q->groups[q->n_groups++] = g;
        q->role[i] = RLX__QDQ_ANCHOR;
        member[g.mid] = 1;
        q->role[g.mid] = q->pending[g.mid] = RLX__QDQ_DEFER;
        if (g.act != NONE) {
            member[g.act] = 1;
            q->role[g.act] = q->pending[g.act] = RLX__QDQ_DEFER;
        }
        free(q->why[g.mid]);
        q->why[g.mid] = rlx__printf_alloc(
            "fused into the QDQ group ending at QuantizeLinear '%s'",
            out0(m->nodes[i]) ? out0(m->nodes[i]) : "?");
        if (g.act != NONE)
            q->why[g.act] = rlx__strdup(q->why[g.mid]);
    }
    /* a DQ is deferred when every reader is the middle op of a group
     * (group_reads: per value, its reads by those) */
    for (uint32_t j = 0; j < n; j++) {
        const Onnx__NodeProto *r = m->nodes[j];
        if (!member[j] || !fusable_op(r))
            continue;
        for (size_t a = 0; a < r->n_input; a++) {
            int32_t s = slot(&ni, r->input[a]);
            if (s >= 0)
                group_reads[s]++;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!is_dq(m, i))
            continue;
        int32_t s = slot(&ni, out0(m->nodes[i]));
        if (s < 0 || ni.is_out[s] || !ni.uses[s])
            continue;
        if (group_reads[s] == ni.uses[s]) {
            q->role[i] = q->pending[i] = RLX__QDQ_DEFER;
            q->why[i] = rlx__strdup("folded into the QDQ group(s) it feeds");
        }
    }
    note_unfused(q, &ni, member, q_read);
    st = RLX_OK;
    *out = q;
    q = NULL;
fail:
    rlx__onnx_names_free(&ni.t);
    free(ni.prod);
    free(ni.uses);
    free(ni.is_out);
    free(member);
    free(q_read);
    free(group_reads);
    rlx__onnx_qdq_free(q);
    return st == RLX_OK ? st : rlx__error(st, "out of memory");
}

void rlx__onnx_qdq_free(rlx__onnx_qdq *q)
{
    if (!q)
        return;
    for (uint32_t i = 0; q->why && i < q->n; i++)
        free(q->why[i]);
    free(q->why);
    free(q->role);
    free(q->pending);
    free(q->gi);
    free(q->groups);
    free(q);
}

int rlx__onnx_qdq_role(const rlx__onnx_qdq *q, uint32_t i)
{
    return q && i < q->n ? q->role[i] : RLX__QDQ_PLAIN;
}

int rlx__onnx_qdq_pending(const rlx__onnx_qdq *q, uint32_t i)
{
    return q && i < q->n && q->pending[i];
}

const char *rlx__onnx_qdq_why(const rlx__onnx_qdq *q, uint32_t i)
{
    return q && i < q->n ? q->why[i] : NULL;
}

char *rlx__onnx_qdq_prefix(const char *why, char *rep)
{
    if (!why)
        return rep;
    char *r = rlx__printf_alloc("not fused (%s): %s", why,
                                rep ? rep : "nothing");
    free(rep);
    return r;
}
