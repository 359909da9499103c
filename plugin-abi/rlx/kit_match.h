/*
 * kit_match.h - plugin kit: the graph patterns backends fuse, matched
 * once so every backend agrees on what the pattern is:
 *
 * - attention: matmul(q, k) -> [mul / div by a one-element scale] ->
 *   softmax -> matmul(., v). rlx_kit_match_attention walks it back from
 *   the last matmul and describes the match (node ids, transposes,
 *   softmax axis and causal flag); each backend then checks what its
 *   kernel needs (dtypes, ranks, layouts) and builds its own plan.
 * - epilogues: the add that reads a value and one other operand (a bias
 *   or residual) and the transpose permutation an output is written
 *   through.
 *
 * What "read once" means differs (one consuming step, a value no other
 * fusion claimed...), so the caller says it through a predicate, as it
 * does for which node can be the scale (a runtime scalar, a constant).
 * Not ABI (see kit.h): header-only over graph_view.h.
 */
#ifndef RLX_KIT_MATCH_H
#define RLX_KIT_MATCH_H

#include <stdint.h>
#include <string.h> /* memset */

#include "graph_view.h"
#include "kit_attrs.h"
#include "kit_shape.h"

#define RLX_KIT_NO_NODE UINT32_MAX

/* 1 when node NODE qualifies, as the caller (CTX) judges. */
typedef int (*rlx_kit_node_test)(void *ctx, uint32_t node);

/* What a backend accepts in an attention chain. */
typedef struct rlx_kit_attn_rules {
    void *ctx;
    /* NODE is read only by the next node of the chain and is no graph
     * output: the chain may fold it away. */
    rlx_kit_node_test single_use;
    /* NODE can be the one-element scale of the scores. */
    rlx_kit_node_test is_scale;
    int allow_div; /* scores / scale, besides scores * scale */
} rlx_kit_attn_rules;

/* A matched chain. Transpose flags are the matmul attributes as given
 * (the caller checks the values it supports). */
typedef struct rlx_kit_attn_match {
    uint32_t pv;      /* matmul(probabilities, v): where it was matched */
    uint32_t softmax; /* the probabilities */
    uint32_t scaled;  /* the mul / div scaling the scores, or NO_NODE */
    uint32_t scale;   /* its one-element operand, or NO_NODE */
    int scale_div;    /* scores / scale */
    uint32_t qk;      /* matmul(q, k): the scores */
    uint32_t q, k, v; /* three distinct operands */
    int64_t qk_ta, qk_tb, pv_ta, pv_tb;
    int64_t axis;   /* softmax axis normalised to its rank, -1 if out */
    int64_t causal; /* the softmax's causal attribute */
} rlx_kit_attn_match;

/* Nodes A and B have one shape. */
static inline int rlx_kit__match_same(const rlx_node_view *a,
                                      const rlx_node_view *b)
{
    return rlx_kit_shape_equal(a->rank, a->shape, b->rank, b->shape);
}

/* Is node PV the end of an attention chain? Fills *M and returns 1, or
 * returns 0 (M then says nothing). */
static inline int rlx_kit_match_attention(const rlx_graph_view *g,
                                          uint32_t pv,
                                          const rlx_kit_attn_rules *r,
                                          rlx_kit_attn_match *m)
{
    const rlx_node_view *pn = g->nodes[pv];
    memset(m, 0, sizeof *m);
    m->scaled = m->scale = RLX_KIT_NO_NODE;
    if (pn->op != RLX_OP_MATMUL || pn->n_inputs != 2)
        return 0;
    m->pv = pv;
    m->softmax = pn->inputs[0];
    m->v = pn->inputs[1];
    m->pv_ta = rlx_kit_int_attr(pn, RLX_ATTR_MATMUL_TRANSPOSE_A, 0);
    m->pv_tb = rlx_kit_int_attr(pn, RLX_ATTR_MATMUL_TRANSPOSE_B, 0);
    const rlx_node_view *sm = g->nodes[m->softmax];
    if (sm->op != RLX_OP_SOFTMAX || sm->n_inputs < 1 ||
        !r->single_use(r->ctx, m->softmax))
        return 0;
    m->axis = rlx_kit_norm_axis(
        rlx_kit_int_attr(sm, RLX_ATTR_SOFTMAX_AXIS, -1), sm->rank);
    m->causal = rlx_kit_int_attr(sm, RLX_ATTR_SOFTMAX_CAUSAL, 0);
    uint32_t s = sm->inputs[0];
    const rlx_node_view *w = g->nodes[s];
    if ((w->op == RLX_OP_MUL || (w->op == RLX_OP_DIV && r->allow_div)) &&
        w->n_inputs == 2) {
        /* the scale: the second operand, else the first of a mul */
        uint32_t a = w->inputs[0], b = w->inputs[1];
        if (a == b || !r->single_use(r->ctx, s) ||
            !rlx_kit__match_same(w, sm))
            return 0;
        m->scaled = s;
        m->scale_div = w->op == RLX_OP_DIV;
        if (r->is_scale(r->ctx, b) && rlx_kit__match_same(g->nodes[a], w)) {
            m->scale = b;
            s = a;
        } else if (!m->scale_div && r->is_scale(r->ctx, a) &&
                   rlx_kit__match_same(g->nodes[b], w)) {
            m->scale = a;
            s = b;
        } else {
            return 0;
        }
    }
    const rlx_node_view *qk = g->nodes[s];
    if (qk->op != RLX_OP_MATMUL || qk->n_inputs != 2 ||
        !r->single_use(r->ctx, s))
        return 0;
    m->qk = s;
    m->q = qk->inputs[0];
    m->k = qk->inputs[1];
    m->qk_ta = rlx_kit_int_attr(qk, RLX_ATTR_MATMUL_TRANSPOSE_A, 0);
    m->qk_tb = rlx_kit_int_attr(qk, RLX_ATTR_MATMUL_TRANSPOSE_B, 0);
    /* one node read twice: its uses are not the chain's alone */
    return m->q != m->k && m->q != m->v && m->k != m->v;
}

/* Node ADD is a two-input add reading CUR and another node: that node,
 * else RLX_KIT_NO_NODE (CUR read twice included). */
static inline uint32_t rlx_kit_add_other(const rlx_graph_view *g,
                                         uint32_t add, uint32_t cur)
{
    if (add == RLX_KIT_NO_NODE)
        return RLX_KIT_NO_NODE;
    const rlx_node_view *w = g->nodes[add];
    if (w->op != RLX_OP_ADD || w->n_inputs != 2 ||
        w->inputs[0] == w->inputs[1] ||
        (w->inputs[0] != cur && w->inputs[1] != cur))
        return RLX_KIT_NO_NODE;
    return w->inputs[0] == cur ? w->inputs[1] : w->inputs[0];
}

/* The permutation of transpose node T over RANK dims into PERM (output
 * dim d reads input dim PERM[d]; no attributes: the dims reversed).
 * Returns 0 when the attributes do not name RANK axes. */
static inline int rlx_kit_transpose_perm(const rlx_node_view *t,
                                         uint32_t rank, int64_t *perm)
{
    uint32_t na = rlx_kit_n_int_attrs(t);
    if (na != 0 && na != rank)
        return 0;
    for (uint32_t d = 0; d < rank; d++) {
        perm[d] = na ? rlx_kit_norm_axis(t->int_attrs[d], rank)
                     : (int64_t)(rank - 1 - d);
        if (perm[d] < 0)
            return 0;
    }
    return 1;
}

#endif
