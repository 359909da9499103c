/*
 * demo_mlp.c - builds the demo MLP through the public graph API and fills
 * its weights and input from a fixed xorshift generator, so every run on
 * every backend sees the same numbers and the checksums can be compared.
 */
#include "demo_mlp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* xorshift32: tiny, and identical on every platform. */
static uint32_t xorshift32(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* Uniform in [-scale, scale). */
static void fill_uniform(float *dst, size_t n, uint32_t *state, float scale)
{
    for (size_t i = 0; i < n; i++) {
        float u = (float)(xorshift32(state) >> 8) / 16777216.0f;
        dst[i] = (2.0f * u - 1.0f) * scale;
    }
}

static const struct {
    const char *name;
    int64_t rows, cols; /* cols == 0: a rank-1 bias of length rows */
    int64_t fan_in;
} mlp_layout[CLI_MLP_PARAMS] = {
    { "w1", CLI_MLP_IN, CLI_MLP_HIDDEN, CLI_MLP_IN },
    { "b1", CLI_MLP_HIDDEN, 0, CLI_MLP_IN },
    { "w2", CLI_MLP_HIDDEN, CLI_MLP_HIDDEN, CLI_MLP_HIDDEN },
    { "b2", CLI_MLP_HIDDEN, 0, CLI_MLP_HIDDEN },
    { "w3", CLI_MLP_HIDDEN, CLI_MLP_OUT, CLI_MLP_HIDDEN },
    { "b3", CLI_MLP_OUT, 0, CLI_MLP_HIDDEN },
};

static int mlp_data_fill(cli_mlp *m)
{
    uint32_t state = 0x2545f491u;

    for (int i = 0; i < CLI_MLP_PARAMS; i++) {
        cli_mlp_param *p = &m->params[i];
        size_t n = (size_t)mlp_layout[i].rows *
                   (size_t)(mlp_layout[i].cols ? mlp_layout[i].cols : 1);
        p->name = mlp_layout[i].name;
        p->rank = mlp_layout[i].cols ? 2 : 1;
        p->dims[0] = mlp_layout[i].rows;
        p->dims[1] = mlp_layout[i].cols;
        p->nbytes = n * sizeof(float);
        p->data = malloc(p->nbytes);
        if (!p->data)
            return -1;
        /* ~1/sqrt(fan_in) keeps activations near unit scale per layer. */
        fill_uniform(p->data, n, &state,
                     1.0f / sqrtf((float)mlp_layout[i].fan_in));
    }
    size_t n = (size_t)m->batch * CLI_MLP_IN;
    m->input_nbytes = n * sizeof(float);
    m->input = malloc(m->input_nbytes ? m->input_nbytes : 1);
    if (!m->input)
        return -1;
    state = 0x9e3779b9u;
    fill_uniform(m->input, n, &state, 1.0f);
    return 0;
}

/* out = act(matmul(in, w) + b); act RLX_OP_INVALID means none. */
static rlx_status mlp_layer(rlx_graph *g, const char *name, rlx_value in,
                            rlx_value w, rlx_value b, rlx_op act,
                            rlx_value *out)
{
    char node[32];
    rlx_value mm, sum, pair[2];
    rlx_status st;

    snprintf(node, sizeof node, "%s_matmul", name);
    pair[0] = in;
    pair[1] = w;
    st = rlx_graph_add_node(g, node, RLX_OP_MATMUL, 2, pair, NULL, &mm);
    if (st != RLX_OK)
        return st;
    snprintf(node, sizeof node, "%s_bias", name);
    pair[0] = mm;
    pair[1] = b;
    st = rlx_graph_add_node(g, node, RLX_OP_ADD, 2, pair, NULL, &sum);
    if (st != RLX_OK || act == RLX_OP_INVALID) {
        *out = sum;
        return st;
    }
    snprintf(node, sizeof node, "%s_%s", name, rlx_op_name(act));
    return rlx_graph_add_node(g, node, act, 1, &sum, NULL, out);
}

static rlx_status mlp_graph_build(cli_mlp *m)
{
    rlx_graph *g;
    rlx_value x, p[CLI_MLP_PARAMS], h1, h2, logits, probs;
    int64_t xdims[2] = { m->batch, CLI_MLP_IN };
    rlx_status st = rlx_graph_create(&g);

    if (st != RLX_OK)
        return st;
    m->graph = g;
    st = rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, xdims, &x);
    for (int i = 0; st == RLX_OK && i < CLI_MLP_PARAMS; i++)
        st = rlx_graph_param(g, m->params[i].name, RLX_DTYPE_F32,
                             m->params[i].rank, m->params[i].dims, &p[i]);
    if (st == RLX_OK)
        st = mlp_layer(g, "fc1", x, p[0], p[1], RLX_OP_GELU, &h1);
    if (st == RLX_OK)
        st = mlp_layer(g, "fc2", h1, p[2], p[3], RLX_OP_RELU, &h2);
    if (st == RLX_OK)
        st = mlp_layer(g, "fc3", h2, p[4], p[5], RLX_OP_INVALID, &logits);
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, "softmax", RLX_OP_SOFTMAX, 1, &logits,
                                NULL, &probs);
    if (st == RLX_OK)
        st = rlx_graph_output(g, "probs", probs);
    return st;
}

rlx_status cli_mlp_create(cli_mlp *m, int64_t batch)
{
    rlx_status st;

    memset(m, 0, sizeof *m);
    m->batch = batch;
    if (mlp_data_fill(m) != 0) {
        cli_mlp_destroy(m);
        return RLX_ERR_OUT_OF_MEMORY;
    }
    st = mlp_graph_build(m);
    if (st != RLX_OK)
        cli_mlp_destroy(m);
    return st;
}

void cli_mlp_destroy(cli_mlp *m)
{
    rlx_graph_destroy(m->graph);
    for (int i = 0; i < CLI_MLP_PARAMS; i++)
        free(m->params[i].data);
    free(m->input);
    memset(m, 0, sizeof *m);
}
