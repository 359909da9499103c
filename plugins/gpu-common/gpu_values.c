/*
 * gpu_values.c - values and storage: one value per node (dtype, dims,
 * bytes), the param and input/output slots, and where each value lives:
 * an arena storage, a param buffer, the uploaded constants, or its
 * input's storage (reshape).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_compile.h"

#define NODE_MIN_SIZE RLX_STRUCT_SIZE_TO(rlx_node_view, inputs)

rlx_status rlxg_values_init(ctx *c)
{
    const rlx_graph_view *g = c->g;
    rlx_executable *exe = c->exe;
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const rlx_node_view *v = g->nodes[i];
        rlxg_value *x = &exe->values[i];
        if (!v || v->struct_size < NODE_MIN_SIZE)
            return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                                RLXG_NAME " compile: node %u is missing or "
                                "truncated." FIX_BUG, (unsigned)i);
        if (v->rank > RLXG_MAX_RANK || (v->rank && !v->shape))
            return rlx_kit_fail(c->host, RLX_ERR_UNSUPPORTED,
                                RLXG_NAME " compile: node '%s' has rank %u; the "
                                RLXG_NAME " backend takes up to %d. Fix: reshape to "
                                "fewer dims", v->name, (unsigned)v->rank,
                                RLXG_MAX_RANK);
        if (v->n_inputs && !v->inputs)
            return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                                RLXG_NAME " compile: node '%s' has no input list."
                                FIX_BUG, v->name);
        x->dtype = v->dtype;
        x->rank = v->rank;
        x->count = 1;
        for (uint32_t d = 0; d < v->rank; d++) {
            if (v->shape[d] < 0)
                return rlx_kit_fail(c->host, RLX_ERR_SHAPE,
                                    RLXG_NAME " compile: node '%s' has a negative "
                                    "dim." FIX_BUG, v->name);
            x->dims[d] = v->shape[d];
            x->count *= v->shape[d];
        }
        size_t elem = rlx_dtype_size(v->dtype);
        if (elem == 0)
            return rlx_kit_fail(c->host, RLX_ERR_UNSUPPORTED,
                                RLXG_NAME " compile: node '%s' has unknown dtype %d. "
                                "Fix: use a dtype from rlx/types.h", v->name,
                                (int)v->dtype);
        x->nbytes = (size_t)x->count * elem;
        x->storage = -1;
        for (uint32_t j = 0; j < v->n_inputs; j++) {
            if (v->inputs[j] >= i)
                return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                                    RLXG_NAME " compile: node '%s' reads a later "
                                    "node." FIX_BUG, v->name);
            exe->values[v->inputs[j]].uses++;
            c->consumer[v->inputs[j]] = (int)i;
        }
    }
    for (uint32_t o = 0; o < g->n_outputs; o++) {
        if (g->outputs[o] >= g->n_nodes)
            return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                                RLXG_NAME " compile: output %u names no node."
                                FIX_BUG, (unsigned)o);
        exe->values[g->outputs[o]].is_output = 1;
    }
    return RLX_OK;
}

static rlx_status add_storage(ctx *c, int v)
{
    rlx_executable *exe = c->exe;
    rlxg_storage *s = realloc(exe->storages,
                              (exe->n_storages + 1) * sizeof *s);
    if (!s)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " compile: out of memory. Fix: free "
                               "memory");
    exe->storages = s;
    s[exe->n_storages].nbytes = exe->values[v].nbytes;
    s[exe->n_storages].first = INT32_MAX;
    s[exe->n_storages].last = -1;
    exe->values[v].loc = RLXG_LOC_ARENA;
    exe->values[v].storage = (int)exe->n_storages++;
    return RLX_OK;
}

/* Give every materialized value a location, once the steps are known. */
rlx_status rlxg_values_locate(ctx *c)
{
    const rlx_graph_view *g = c->g;
    rlx_executable *exe = c->exe;
    unsigned char *written = calloc(g->n_nodes ? g->n_nodes : 1, 1);
    if (!written)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " compile: out of memory. Fix: free "
                               "memory");
    for (uint32_t s = 0; s < exe->n_steps; s++) {
        const rlxg_step *t = &exe->steps[s];
        written[t->out] = 1;
        if (t->kind == RLXG_STEP_QUANT && t->q.chain) /* its accumulators */
            written[t->extra[RLXG_QC_ACC]] = 1;
    }
    rlx_status st = RLX_OK;
    size_t const_at = 0;
    for (uint32_t i = 0; i < g->n_nodes && st == RLX_OK; i++) {
        const rlx_node_view *v = g->nodes[i];
        rlxg_value *x = &exe->values[i];
        x->storage = -1;
        if (x->count == 0)
            continue;
        switch (v->op) {
        case RLX_OP_PARAM:
            x->loc = RLXG_LOC_PARAM;
            break;
        case RLX_OP_CONSTANT:
            x->loc = RLXG_LOC_CONST;
            x->offset = const_at;
            const_at = rlx_kit_align_up(const_at + x->nbytes, ALIGN);
            break;
        case RLX_OP_RESHAPE: {
            const rlxg_value *in = &exe->values[v->inputs[0]];
            x->loc = in->loc;
            x->storage = in->storage;
            x->slot = in->slot;
            x->offset = in->offset;
            break;
        }
        case RLX_OP_INPUT:
            st = add_storage(c, (int)i);
            break;
        default:
            if (written[i])
                st = add_storage(c, (int)i);
            break;
        }
    }
    free(written);
    exe->const_bytes = const_at;
    return st;
}

/* ---- the executable ---------------------------------------------------------- */

rlx_status rlxg_values_slots(ctx *c)
{
    const rlx_graph_view *g = c->g;
    rlx_executable *exe = c->exe;
    exe->n_inputs = g->n_inputs;
    exe->n_params = g->n_params;
    exe->n_outputs = g->n_outputs;
    if ((g->n_inputs && !g->inputs) || (g->n_params && !g->params) ||
        (g->n_outputs && !g->outputs))
        return rlx_host_report(c->host, RLX_ERR_INVALID_ARGUMENT,
                               RLXG_NAME " compile: a slot list is NULL." FIX_BUG);
    exe->input_values = calloc(g->n_inputs + 1, sizeof(uint32_t));
    exe->param_values = calloc(g->n_params + 1, sizeof(uint32_t));
    exe->output_values = calloc(g->n_outputs + 1, sizeof(uint32_t));
    exe->input_stage = calloc(g->n_inputs + 1, sizeof(size_t));
    exe->output_stage = calloc(g->n_outputs + 1, sizeof(size_t));
    exe->graph_params = calloc(g->n_params + 1, sizeof(void *));
    size_t n_io = (size_t)g->n_inputs + g->n_outputs + 1;
    exe->io_user = calloc(n_io, sizeof(void *));
    exe->io_reg = calloc(n_io, 1);
    exe->io_host = calloc(n_io, sizeof(void *));
    exe->graph_io = calloc(n_io, sizeof(void *));
    exe->io_dev = calloc(n_io, sizeof(void *));
    exe->graph_dev = calloc(n_io, sizeof(void *));
    exe->out_direct = calloc(g->n_outputs + 1, 1);
    if (!exe->io_user || !exe->io_reg || !exe->io_host || !exe->graph_io ||
        !exe->io_dev || !exe->graph_dev || !exe->out_direct ||
        !exe->input_values || !exe->param_values || !exe->output_values ||
        !exe->input_stage || !exe->output_stage || !exe->graph_params)
        return rlx_host_report(c->host, RLX_ERR_OUT_OF_MEMORY,
                               RLXG_NAME " compile: out of memory. Fix: free "
                               "memory");
    for (uint32_t i = 0; i < g->n_inputs; i++) {
        if (g->inputs[i] >= g->n_nodes ||
            g->nodes[g->inputs[i]]->op != RLX_OP_INPUT)
            return rlx_host_report(c->host, RLX_ERR_INVALID_ARGUMENT,
                                   RLXG_NAME " compile: an input slot names a "
                                   "node that is not an input." FIX_BUG);
        exe->input_values[i] = g->inputs[i];
    }
    for (uint32_t i = 0; i < g->n_params; i++) {
        if (g->params[i] >= g->n_nodes ||
            g->nodes[g->params[i]]->op != RLX_OP_PARAM)
            return rlx_host_report(c->host, RLX_ERR_INVALID_ARGUMENT,
                                   RLXG_NAME " compile: a param slot names a "
                                   "node that is not a param." FIX_BUG);
        exe->param_values[i] = g->params[i];
        exe->values[g->params[i]].slot = i;
    }
    for (uint32_t i = 0; i < g->n_outputs; i++)
        exe->output_values[i] = g->outputs[i];
    return RLX_OK;
}
