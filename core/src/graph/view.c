/*
 * view.c - dead-code elimination and the read-only graph view handed to a
 * backend's compile. Inputs and params are kept even when unused so that a
 * program's signature does not depend on which outputs were asked for.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

void rlx__view_free(rlx__view *v)
{
    free(v->nodes);
    free(v->node_ptrs);
    free(v->inputs);
    free(v->params);
    free(v->outputs);
    free(v->edges);
    free(v->remap);
    memset(v, 0, sizeof *v);
}

rlx_status rlx__view_build(const rlx_graph *g, rlx__view *v)
{
    memset(v, 0, sizeof *v);
    if (g->n_outputs == 0)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "the graph has no outputs. Fix: mark results with "
                          "rlx_graph_output");
    uint32_t n = g->n_nodes;
    unsigned char *live = calloc(n, 1);
    v->remap = malloc(n * sizeof *v->remap);
    if (!live || !v->remap) {
        free(live);
        rlx__view_free(v);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < g->n_outputs; i++)
        live[g->outputs[i].node] = 1;
    /* Inputs always precede their users, so one backward sweep suffices. */
    for (uint32_t i = n; i-- > 0;) {
        const rlx__node *node = &g->nodes[i];
        if (node->op == RLX_OP_INPUT || node->op == RLX_OP_PARAM)
            live[i] = 1;
        if (!live[i])
            continue;
        for (uint32_t j = 0; j < node->n_inputs; j++)
            live[node->inputs[j]] = 1;
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++)
        v->remap[i] = live[i] ? kept++ : UINT32_MAX;
    free(live);

    v->nodes = calloc(kept, sizeof *v->nodes);
    v->node_ptrs = calloc(kept, sizeof *v->node_ptrs);
    v->inputs = calloc(g->n_inputs + 1, sizeof *v->inputs);
    v->params = calloc(g->n_params + 1, sizeof *v->params);
    v->outputs = calloc(g->n_outputs, sizeof *v->outputs);
    uint32_t total_inputs = 0;
    for (uint32_t i = 0; i < n; i++)
        if (v->remap[i] != UINT32_MAX)
            total_inputs += g->nodes[i].n_inputs;
    /* one block for every node's remapped input list */
    uint32_t *edges = NULL;
    if (v->nodes && v->node_ptrs && v->inputs && v->params && v->outputs)
        edges = malloc((total_inputs + 1) * sizeof *edges);
    if (!edges) {
        rlx__view_free(v);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }

    uint32_t e = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = v->remap[i];
        if (k == UINT32_MAX)
            continue;
        const rlx__node *src = &g->nodes[i];
        rlx_node_view *dst = &v->nodes[k];
        *dst = (rlx_node_view){
            .struct_size = sizeof *dst,
            .op = src->op,
            .name = src->name,
            .dtype = src->dtype,
            .rank = src->rank,
            .shape = src->shape,
            .n_inputs = src->n_inputs,
            .inputs = edges + e,
            .n_int_attrs = src->n_ints,
            .int_attrs = src->ints,
            .n_float_attrs = src->n_floats,
            .float_attrs = src->floats,
            .data = src->data,
            .slot = src->slot,
        };
        for (uint32_t j = 0; j < src->n_inputs; j++)
            edges[e++] = v->remap[src->inputs[j]];
        v->node_ptrs[k] = dst;
        if (src->op == RLX_OP_INPUT)
            v->inputs[src->slot] = k;
        if (src->op == RLX_OP_PARAM)
            v->params[src->slot] = k;
    }
    for (uint32_t i = 0; i < g->n_outputs; i++)
        v->outputs[i] = v->remap[g->outputs[i].node];
    v->view = (rlx_graph_view){
        .struct_size = sizeof v->view,
        .n_nodes = kept,
        .nodes = v->node_ptrs,
        .n_inputs = g->n_inputs,
        .inputs = v->inputs,
        .n_params = g->n_params,
        .params = v->params,
        .n_outputs = g->n_outputs,
        .outputs = v->outputs,
    };
    v->edges = edges;
    v->graph = g;
    return RLX_OK;
}
