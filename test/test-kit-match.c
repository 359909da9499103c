/*
 * test-kit-match.c - the kit's pattern matcher (plugin-abi/rlx/
 * kit_match.h) on hand-built graph views, against the plugin-abi headers
 * only: what makes an attention chain, what the caller's rules veto, the
 * epilogue add and transpose permutations.
 */
#include <stdint.h>
#include <string.h>

#include <rlx/kit.h>

#include "harness.h"

/* q k v [2, 4, 8]; s = q k^T * scale -> softmax (last axis, causal)
 * -> matmul(., v). Node 5 (the mul) is rewritten by some tests. */
enum { Q, K, V, SCALE, QK, MUL, SM, PV, N_NODES };

typedef struct graph {
    rlx_node_view nodes[N_NODES];
    const rlx_node_view *ptrs[N_NODES];
    uint32_t in[N_NODES][2];
    rlx_graph_view g;
} graph;

static const int64_t shape_x[] = { 2, 4, 8 }, shape_s[] = { 2, 4, 4 };
static const int64_t attrs_tb[] = { 0, 1 }, attrs_sm[] = { -1, 1 };
static const float scale_value = 0.35f;

static void node(graph *t, uint32_t i, rlx_op op, const int64_t *shape,
                 uint32_t rank, uint32_t a, uint32_t b, uint32_t n_in)
{
    rlx_node_view *v = &t->nodes[i];
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->name = "n";
    v->op = op;
    v->dtype = RLX_DTYPE_F32;
    v->rank = rank;
    v->shape = shape;
    t->in[i][0] = a;
    t->in[i][1] = b;
    v->n_inputs = n_in;
    v->inputs = t->in[i];
    t->ptrs[i] = v;
}

static void build(graph *t)
{
    memset(t, 0, sizeof *t);
    node(t, Q, RLX_OP_INPUT, shape_x, 3, 0, 0, 0);
    node(t, K, RLX_OP_INPUT, shape_x, 3, 0, 0, 0);
    node(t, V, RLX_OP_INPUT, shape_x, 3, 0, 0, 0);
    node(t, SCALE, RLX_OP_CONSTANT, shape_x, 0, 0, 0, 0);
    t->nodes[SCALE].data = &scale_value;
    node(t, QK, RLX_OP_MATMUL, shape_s, 3, Q, K, 2);
    t->nodes[QK].n_int_attrs = 2;
    t->nodes[QK].int_attrs = attrs_tb;
    node(t, MUL, RLX_OP_MUL, shape_s, 3, QK, SCALE, 2);
    node(t, SM, RLX_OP_SOFTMAX, shape_s, 3, MUL, 0, 1);
    t->nodes[SM].n_int_attrs = 2;
    t->nodes[SM].int_attrs = attrs_sm;
    node(t, PV, RLX_OP_MATMUL, shape_x, 3, SM, V, 2);
    t->g.struct_size = sizeof t->g;
    t->g.n_nodes = N_NODES;
    t->g.nodes = t->ptrs;
}

/* The callers' rules: everything read once except the node in NOT_ONCE;
 * the scale a constant. */
static uint32_t not_once = RLX_KIT_NO_NODE;
static const graph *current;

static int once(void *ctx, uint32_t i)
{
    (void)ctx;
    return i != not_once;
}

static int is_const(void *ctx, uint32_t i)
{
    (void)ctx;
    return current->nodes[i].op == RLX_OP_CONSTANT;
}

static int match(graph *t, int allow_div, rlx_kit_attn_match *m)
{
    rlx_kit_attn_rules r = { .single_use = once, .is_scale = is_const,
                             .allow_div = allow_div };
    current = t;
    return rlx_kit_match_attention(&t->g, PV, &r, m);
}

TEST(attention_scaled_causal)
{
    graph t;
    rlx_kit_attn_match m;
    build(&t);
    not_once = RLX_KIT_NO_NODE;
    ASSERT(match(&t, 0, &m));
    ASSERT_EQ(m.pv, PV);
    ASSERT_EQ(m.softmax, SM);
    ASSERT_EQ(m.scaled, MUL);
    ASSERT_EQ(m.scale, SCALE);
    ASSERT_EQ(m.scale_div, 0);
    ASSERT_EQ(m.qk, QK);
    ASSERT_EQ(m.q, Q);
    ASSERT_EQ(m.k, K);
    ASSERT_EQ(m.v, V);
    ASSERT_EQ(m.qk_ta, 0);
    ASSERT_EQ(m.qk_tb, 1);
    ASSERT_EQ(m.pv_ta, 0);
    ASSERT_EQ(m.pv_tb, 0);
    ASSERT_EQ(m.axis, 2);
    ASSERT_EQ(m.causal, 1);
    /* the scale as the mul's first operand */
    t.in[MUL][0] = SCALE;
    t.in[MUL][1] = QK;
    ASSERT(match(&t, 0, &m));
    ASSERT_EQ(m.scale, SCALE);
    ASSERT_EQ(m.qk, QK);
}

TEST(attention_div_only_when_allowed)
{
    graph t;
    rlx_kit_attn_match m;
    build(&t);
    not_once = RLX_KIT_NO_NODE;
    t.nodes[MUL].op = RLX_OP_DIV;
    ASSERT(!match(&t, 0, &m));
    ASSERT(match(&t, 1, &m));
    ASSERT_EQ(m.scale_div, 1);
    ASSERT_EQ(m.scale, SCALE);
    /* scale / scores is no scaling of the scores */
    t.in[MUL][0] = SCALE;
    t.in[MUL][1] = QK;
    ASSERT(!match(&t, 1, &m));
}

TEST(attention_unscaled)
{
    graph t;
    rlx_kit_attn_match m;
    build(&t);
    not_once = RLX_KIT_NO_NODE;
    t.in[SM][0] = QK;
    ASSERT(match(&t, 0, &m));
    ASSERT_EQ(m.scaled, RLX_KIT_NO_NODE);
    ASSERT_EQ(m.scale, RLX_KIT_NO_NODE);
    ASSERT_EQ(m.qk, QK);
}

TEST(attention_vetoes)
{
    graph t;
    rlx_kit_attn_match m;
    /* each node of the chain read elsewhere stops the match */
    const uint32_t shared[] = { SM, MUL, QK };
    for (unsigned k = 0; k < 3; k++) {
        build(&t);
        not_once = shared[k];
        ASSERT(!match(&t, 0, &m));
    }
    not_once = RLX_KIT_NO_NODE;
    /* a scale the rules refuse (not a constant) */
    build(&t);
    t.nodes[SCALE].op = RLX_OP_INPUT;
    ASSERT(!match(&t, 0, &m));
    /* q read as k too */
    build(&t);
    t.in[QK][1] = Q;
    ASSERT(!match(&t, 0, &m));
    /* no softmax */
    build(&t);
    t.nodes[SM].op = RLX_OP_EXP;
    ASSERT(!match(&t, 0, &m));
    /* the end is no matmul */
    build(&t);
    t.nodes[PV].op = RLX_OP_ADD;
    ASSERT(!match(&t, 0, &m));
    /* scores of another shape than the scaled value */
    build(&t);
    t.nodes[QK].shape = shape_x;
    ASSERT(!match(&t, 0, &m));
}

TEST(add_other)
{
    graph t;
    build(&t);
    t.nodes[MUL].op = RLX_OP_ADD;
    ASSERT_EQ(rlx_kit_add_other(&t.g, MUL, QK), SCALE);
    ASSERT_EQ(rlx_kit_add_other(&t.g, MUL, SCALE), QK);
    ASSERT_EQ(rlx_kit_add_other(&t.g, MUL, V), RLX_KIT_NO_NODE);
    ASSERT_EQ(rlx_kit_add_other(&t.g, RLX_KIT_NO_NODE, QK), RLX_KIT_NO_NODE);
    t.in[MUL][1] = QK; /* add(x, x) */
    ASSERT_EQ(rlx_kit_add_other(&t.g, MUL, QK), RLX_KIT_NO_NODE);
    t.nodes[MUL].op = RLX_OP_MUL;
    t.in[MUL][1] = SCALE;
    ASSERT_EQ(rlx_kit_add_other(&t.g, MUL, QK), RLX_KIT_NO_NODE);
}

TEST(transpose_perm)
{
    const int64_t swap[] = { 0, -2, 1, 3 }, bad[] = { 0, 4, 1, 3 };
    rlx_node_view v = { .struct_size = sizeof v, .op = RLX_OP_TRANSPOSE,
                        .name = "t", .n_int_attrs = 4, .int_attrs = swap };
    int64_t perm[4];
    ASSERT(rlx_kit_transpose_perm(&v, 4, perm));
    ASSERT_EQ(perm[0], 0);
    ASSERT_EQ(perm[1], 2);
    ASSERT_EQ(perm[2], 1);
    ASSERT_EQ(perm[3], 3);
    ASSERT(!rlx_kit_transpose_perm(&v, 3, perm)); /* 4 axes named */
    v.int_attrs = bad;
    ASSERT(!rlx_kit_transpose_perm(&v, 4, perm));
    v.n_int_attrs = 0; /* none: the dims reversed */
    ASSERT(rlx_kit_transpose_perm(&v, 3, perm));
    ASSERT_EQ(perm[0], 2);
    ASSERT_EQ(perm[1], 1);
    ASSERT_EQ(perm[2], 0);
}

RLX_TEST_LIST(TEST_ENTRY(attention_scaled_causal),
              TEST_ENTRY(attention_div_only_when_allowed),
              TEST_ENTRY(attention_unscaled), TEST_ENTRY(attention_vetoes),
              TEST_ENTRY(add_other), TEST_ENTRY(transpose_perm));
