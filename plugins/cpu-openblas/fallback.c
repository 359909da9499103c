/*
 * fallback.c - a node without a fast kernel (f16/bf16 math, cast, gather,
 * concat, slice, fill, odd layouts) runs through cpu-ref: compile a graph
 * of just that node, its operands made graph inputs, and at run time feed
 * it the operands' storage and take its one output. Correct for every op
 * and dtype cpu-ref supports, by construction; it costs one copy in and
 * out and cpu-ref's own node memory, outside our arena plan.
 */
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"
#include "cpu_ref_reuse.h"

rlx_status rlxb_fallback_compile(rlxb_backend *be,
                                      const rlx_graph_view *g, uint32_t i,
                                      void **out)
{
    const rlx_node_view *v = g->nodes[i];
    uint32_t n_in = v->n_inputs, n = n_in + 1;
    rlx_node_view *nodes = calloc(n, sizeof *nodes);
    const rlx_node_view **ptrs = calloc(n, sizeof *ptrs);
    uint32_t *idx = calloc(n, sizeof *idx);
    if (!nodes || !ptrs || !idx) {
        free(nodes);
        free(ptrs);
        free(idx);
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory for "
                            "node '%s'. Fix: free memory", v->name);
    }
    for (uint32_t j = 0; j < n_in; j++) {
        const rlx_node_view *src = g->nodes[v->inputs[j]];
        nodes[j] = (rlx_node_view){
            .struct_size = sizeof(rlx_node_view),
            .op = RLX_OP_INPUT,
            .name = src->name,
            .dtype = src->dtype,
            .rank = src->rank,
            .shape = src->shape,
            .slot = j,
        };
        idx[j] = j;
    }
    /* the node itself, as far as its writer's struct reaches */
    size_t have = v->struct_size < sizeof *v ? v->struct_size : sizeof *v;
    memcpy(&nodes[n_in], v, have);
    nodes[n_in].struct_size = (uint32_t)have;
    nodes[n_in].inputs = idx;
    for (uint32_t j = 0; j < n; j++)
        ptrs[j] = &nodes[j];
    uint32_t out_idx = n_in;
    const rlx_graph_view sub = {
        .struct_size = sizeof sub,
        .n_nodes = n,
        .nodes = ptrs,
        .n_inputs = n_in,
        .inputs = idx,
        .n_params = 0,
        .outputs = &out_idx,
        .n_outputs = 1,
    };
    const rlx_compile_options opts = { .struct_size = sizeof opts };
    rlx_executable *exe = NULL;
    rlx_status st = rlx__cpu_ref_compile(be->ref, &sub, &opts, &exe);
    free(nodes);
    free(ptrs);
    free(idx);
    if (st == RLX_OK)
        *out = exe;
    return st;
}

rlx_status rlxb_fallback_run(rlxb_backend *be, void *fb,
                                  const void *const *inputs,
                                  uint32_t n_inputs, void *output)
{
    void *outs[1] = { output };
    const rlx_execute_args args = {
        .struct_size = sizeof args,
        .n_params = 0,
        .params = NULL,
        .n_inputs = n_inputs,
        .inputs = inputs,
        .n_outputs = 1,
        .outputs = outs,
    };
    return rlx__cpu_ref_execute(be->ref, fb, &args);
}

void rlxb_fallback_destroy(rlxb_backend *be, void *fb)
{
    if (fb)
        rlx__cpu_ref_executable_destroy(be->ref, fb);
}
