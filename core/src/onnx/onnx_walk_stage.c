/*
 * onnx_walk_stage.c - the walker's run-time stages: a node that needs
 * run-time data ends the stage lowered so far, which is compiled on the
 * session (placement, fallback as usual), run, and every value used
 * later comes back to the host as the next stage's input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_walk.h"

/* A run-time value used as a graph value: the stage's input. */
rlx_status rlx__onnx_walk_rt_input(rlx__onnx_walk *w, rlx__onnx_val *v)
{
    if (!v->rt || v->has_v)
        return RLX_OK;
    if (w->n_seg_in == w->cap_seg_in) {
        uint32_t cap = w->cap_seg_in ? 2 * w->cap_seg_in : 8;
        rlx__onnx_val **grown = realloc(w->seg_in, cap * sizeof *grown);
        if (!grown)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        w->seg_in = grown;
        w->cap_seg_in = cap;
    }
    rlx_status st = rlx_graph_input(w->c.g, v->name, v->dtype, v->rank,
                                    v->dims, &v->v);
    if (st != RLX_OK)
        return st;
    v->has_v = 1;
    w->seg_in[w->n_seg_in++] = v;
    return RLX_OK;
}

static int graph_uses(const Onnx__GraphProto *g, const char *name);

/* Does node N read NAME, itself or in one of its subgraphs? */
static int node_uses(const Onnx__NodeProto *n, const char *name)
{
    for (size_t k = 0; k < n->n_input; k++)
        if (n->input[k] && strcmp(n->input[k], name) == 0)
            return 1;
    for (size_t a = 0; a < n->n_attribute; a++) {
        const Onnx__AttributeProto *at = n->attribute[a];
        if (at->g && graph_uses(at->g, name))
            return 1;
        for (size_t k = 0; k < at->n_graphs; k++)
            if (graph_uses(at->graphs[k], name))
                return 1;
    }
    return 0;
}

static int graph_uses(const Onnx__GraphProto *g, const char *name)
{
    for (size_t i = 0; i < g->n_node; i++)
        if (node_uses(g->node[i], name))
            return 1;
    for (size_t i = 0; i < g->n_output; i++)
        if (g->output[i]->name && strcmp(g->output[i]->name, name) == 0)
            return 1;
    return 0;
}

/* Is NAME read from scope S's current node on (or by a QDQ group's
 * member not lowered yet), or is it an output? */
static int used_later(const rlx__onnx_scope *s, const char *name)
{
    for (uint32_t i = 0; i < s->n_nodes; i++)
        if ((i >= s->pos || rlx__onnx_qdq_pending(s->qdq, i)) &&
            node_uses(s->nodes[i], name))
            return 1;
    for (size_t i = 0; i < s->gp->n_output; i++)
        if (s->gp->output[i]->name &&
            strcmp(s->gp->output[i]->name, name) == 0)
            return 1;
    return 0;
}

void *rlx__onnx_dup_bytes(const void *d, size_t nb)
{
    void *c = malloc(nb ? nb : 1);
    if (c && nb)
        memcpy(c, d, nb);
    return c;
}

/* Set the stage program's params: known initializers by name. */
static rlx_status stage_params(rlx__onnx_walk *w, rlx__onnx_scope *s,
                               rlx_program *p)
{
    for (uint32_t i = 0; i < rlx_program_param_count(p); i++) {
        const char *name;
        rlx_status st = rlx_program_slot(p, RLX_SLOT_PARAM, i, &name, NULL,
                                         NULL, NULL);
        if (st != RLX_OK)
            return st;
        rlx__onnx_val *v = rlx__onnx_scope_lookup(s, name);
        if (!v || !v->known)
            return rlx__onnx_fail(&w->c, RLX_ERR_INTERNAL,
                                  "the stage's param '%s' has no data. Fix: "
                                  "report this model to the rlx developers",
                                  name);
        static const char zero[8];
        size_t nb = rlx__onnx_val_bytes(v);
        if ((st = rlx_program_set_param(p, name, nb ? v->data : zero, nb)) !=
            RLX_OK)
            return st;
    }
    return RLX_OK;
}

/* Compile and run the stage's graph for the values in OUTS. */
static rlx_status stage_run(rlx__onnx_walk *w, rlx__onnx_scope *s,
                            rlx__onnx_val **outs, uint32_t n)
{
    rlx_status st = RLX_OK;
    uint32_t *from = calloc(n ? n : 1, sizeof *from); /* 0: graph output k */
    uint32_t n_graph = 0;
    rlx_program *p = NULL;
    if (!from)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        /* a value passed through from an input, or seen already, is
         * copied on the host: a graph output is made once */
        for (uint32_t k = 0; k < w->n_seg_in && !from[i]; k++)
            if (w->seg_in[k]->v == outs[i]->v)
                from[i] = 1 + k;
        for (uint32_t k = 0; k < i && !from[i]; k++)
            if (outs[k]->v == outs[i]->v)
                from[i] = 1 + w->n_seg_in + k;
        if (from[i])
            continue;
        if ((st = rlx_graph_output(w->c.g, outs[i]->name, outs[i]->v)) !=
            RLX_OK)
            goto done;
        n_graph++;
    }
    if (n_graph) {
        int fresh;
        if ((st = rlx__onnx_stages_get(w->stages, w->s, w->c.g, &fresh,
                                       &p)) != RLX_OK ||
            (fresh && (st = stage_params(w, s, p)) != RLX_OK))
            goto done;
        static const char zero[8];
        for (uint32_t k = 0; k < w->n_seg_in; k++) {
            const rlx__onnx_val *v = w->seg_in[k];
            size_t nb = rlx__onnx_val_bytes(v);
            if ((st = rlx_program_set_input(p, v->name, nb ? v->data : zero,
                                            nb)) != RLX_OK)
                goto done;
        }
        if ((st = rlx_program_run(p)) != RLX_OK)
            goto done;
    }
    uint32_t g = 0;
    for (uint32_t i = 0; i < n; i++) {
        rlx__onnx_val *v = outs[i];
        const void *d;
        size_t nb = rlx__onnx_val_bytes(v), got = nb;
        if (!from[i])
            d = rlx_program_output_data(p, g++, &got);
        else if (from[i] <= w->n_seg_in)
            d = w->seg_in[from[i] - 1]->data;
        else
            d = outs[from[i] - 1 - w->n_seg_in]->data;
        if ((nb && !d) || got != nb) {
            st = rlx__onnx_fail(&w->c, RLX_ERR_INTERNAL,
                                "the stage's output '%s' has %zu bytes, not "
                                "%zu. Fix: report this model to the rlx "
                                "developers", v->name, got, nb);
            goto done;
        }
        void *copy = rlx__onnx_dup_bytes(d, nb);
        if (!copy) {
            st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            goto done;
        }
        free(v->owned);
        v->owned = copy;
        v->data = copy;
        v->rt = 1;
    }
done:
    free(from); /* P stays in the stage cache */
    return st;
}

rlx_status rlx__onnx_walk_flush(rlx__onnx_walk *w, rlx__onnx_scope *s)
{
    if (!w->s)
        return rlx__onnx_fail(&w->c, RLX_ERR_INTERNAL,
                              "a stage ended while lowering. Fix: report "
                              "this model to the rlx developers");
    size_t cap = 0, n = 0;
    for (rlx__onnx_scope *sc = s; sc; sc = sc->parent)
        cap += sc->n_vals;
    rlx__onnx_val **outs = calloc(cap ? cap : 1, sizeof *outs);
    if (!outs)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (rlx__onnx_scope *sc = s; sc; sc = sc->parent)
        for (size_t i = 0; i < sc->n_vals; i++) {
            rlx__onnx_val *v = &sc->vals[i];
            if (v->has_v && !v->known && !v->rt && used_later(sc, v->name))
                outs[n++] = v;
        }
    rlx_status st = stage_run(w, s, outs, (uint32_t)n);
    free(outs);
    /* the next stage: a fresh graph; nothing is a graph value yet */
    for (rlx__onnx_scope *sc = s; sc; sc = sc->parent)
        for (size_t i = 0; i < sc->n_vals; i++)
            sc->vals[i].has_v = 0;
    w->n_seg_in = 0;
    rlx_graph_destroy(w->c.g);
    w->c.g = NULL;
    rlx_status st2 = rlx_graph_create(&w->c.g);
    return st != RLX_OK ? st : st2;
}
