/*
 * placement.c - one graph over several backends. When the chosen backend
 * cannot run every node, each node goes to the first target that can
 * (the chosen backend, then the CPU backends by rank; a node a host kind
 * claims goes to the core itself), nodes are grouped into as few pieces
 * as a topological order allows, and the pieces run in order as one
 * program, handing values over through host buffers (placement.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "custom.h"
#include "placement.h"
#include "program.h"

#define MAX_TARGETS 16
#define HOST_TARGET 255u

typedef struct target {
    const rlx_backend *b; /* held while placing */
    uint32_t device;
} target;

/* ---- a private copy of the graph ------------------------------------- */

rlx_status rlx__graph_clone(const rlx_graph *g, rlx_graph **out)
{
    rlx_graph *c = calloc(1, sizeof *c);
    if (!c)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    c->nodes = calloc(g->n_nodes + 1, sizeof *c->nodes);
    c->outputs = calloc(g->n_outputs + 1, sizeof *c->outputs);
    int ok = c->nodes && c->outputs;
    for (uint32_t i = 0; ok && i < g->n_nodes; i++) {
        const rlx__node *s = &g->nodes[i];
        rlx__node *d = &c->nodes[i];
        *d = *s;
        d->custom = NULL;
        d->name = rlx__strdup(s->name);
        d->inputs = malloc((s->n_inputs + 1) * sizeof *d->inputs);
        d->ints = s->n_ints ? malloc(s->n_ints * sizeof *d->ints) : NULL;
        d->floats = s->n_floats ? malloc(s->n_floats * sizeof *d->floats)
                                : NULL;
        size_t nbytes = s->data ? (size_t)rlx__shape_elements(s->rank,
                                                              s->shape) *
                                      rlx_dtype_size(s->dtype)
                                : 0;
        d->data = s->data ? malloc(nbytes + 1) : NULL;
        c->n_nodes = i + 1; /* so destroy frees what was copied */
        ok = d->name && d->inputs && (!s->n_ints || d->ints) &&
             (!s->n_floats || d->floats) && (!s->data || d->data);
        if (!ok)
            break;
        if (s->n_inputs)
            memcpy(d->inputs, s->inputs, s->n_inputs * sizeof *d->inputs);
        if (s->n_ints)
            memcpy(d->ints, s->ints, s->n_ints * sizeof *d->ints);
        if (s->n_floats)
            memcpy(d->floats, s->floats, s->n_floats * sizeof *d->floats);
        /* a custom node's spec: the program's own, prepared later */
        if (s->custom && !(d->custom = rlx__custom_dup(s->custom))) {
            ok = 0;
            break;
        }
        if (s->data && nbytes)
            memcpy(d->data, s->data, nbytes);
    }
    for (uint32_t i = 0; ok && i < g->n_outputs; i++) {
        c->outputs[i].node = g->outputs[i].node;
        c->outputs[i].name = rlx__strdup(g->outputs[i].name);
        c->n_outputs = i + 1;
        ok = c->outputs[i].name != NULL;
    }
    c->cap_nodes = c->n_nodes;
    c->n_inputs = g->n_inputs;
    c->n_params = g->n_params;
    if (!ok) {
        rlx_graph_destroy(c);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    *out = c;
    return RLX_OK;
}

static size_t node_bytes(const rlx_node_view *n)
{
    return (size_t)rlx__shape_elements(n->rank, n->shape) *
           rlx_dtype_size(n->dtype);
}

/* ---- pieces ----------------------------------------------------------- */

static rlx_status backend_piece_run(rlx__piece *pc)
{
    return rlx_program_run(pc->impl);
}

static rlx_status backend_piece_set_param(rlx__piece *pc, const char *name,
                                          const void *data, size_t nbytes)
{
    uint32_t index;
    rlx_program *sub = pc->impl;
    if (!rlx__program_find_slot(sub, RLX_SLOT_PARAM, name, &index))
        return RLX_OK;
    return rlx_program_set_param(sub, name, data, nbytes);
}

static void backend_piece_destroy(rlx__piece *pc)
{
    rlx_program_destroy(pc->impl);
}

static const rlx__piece_ops backend_piece_ops = {
    .kind = "backend",
    .run = backend_piece_run,
    .set_param = backend_piece_set_param,
    .destroy = backend_piece_destroy,
};

static rlx_status host_piece_run(rlx__piece *pc)
{
    const rlx_graph_view *v = &pc->pl->view.view;
    uint32_t node = pc->nodes[0];
    return pc->host->run(pc->state, v, node, pc->args,
                         pc->pl->value[node]);
}

static void host_piece_destroy(rlx__piece *pc)
{
    if (pc->host && pc->host->release)
        pc->host->release(pc->state);
    free(pc->args);
}

static const rlx__piece_ops host_piece_ops = {
    .kind = "host",
    .run = host_piece_run,
    .set_param = NULL,
    .destroy = host_piece_destroy,
};

const rlx__host_kind *rlx__host_kind_for(const rlx_graph_view *v,
                                         uint32_t node)
{
    if (rlx__op_is_source(v->nodes[node]->op))
        return NULL;
    for (size_t i = 0; rlx__host_kinds[i]; i++)
        if (rlx__host_kinds[i]->claims(v, node))
            return rlx__host_kinds[i];
    return NULL;
}

void rlx__placement_free(rlx__placement *pl)
{
    if (!pl)
        return;
    for (uint32_t i = 0; i < pl->n_pieces; i++) {
        rlx__piece *pc = &pl->pieces[i];
        if (pc->ops)
            pc->ops->destroy(pc);
        free(pc->nodes);
    }
    free(pl->pieces);
    for (uint32_t i = 0; pl->value && i < pl->view.view.n_nodes; i++)
        if (pl->owned[i])
            free(pl->value[i]);
    free(pl->value);
    free(pl->owned);
    rlx__view_free(&pl->view);
    rlx_graph_destroy(pl->graph);
    free(pl);
}

/* ---- choosing targets ------------------------------------------------- */

/* PRIMARY first (unless skipped), then every allowed, available CPU
 * backend by rank; each is held until release_targets. */
static uint32_t gather_targets(rlx_runtime *rt, const rlx_backend *primary,
                               uint32_t device_index, int skip_primary,
                               target *t)
{
    uint32_t n = 0;
    if (!skip_primary && rlx__backend_acquire(primary))
        t[n++] = (target){ primary, device_index };
    const rlx_backend *ranked[MAX_TARGETS];
    uint32_t nr = rlx__registry_rank(rt, "cpu", ranked, MAX_TARGETS - 1);
    for (uint32_t i = 0; i < nr && n < MAX_TARGETS; i++) {
        uint32_t count = 0;
        const char *why;
        if (ranked[i] == primary || !rlx__policy_allows(rt, ranked[i], &why))
            continue;
        if (rlx_backend_probe(ranked[i], &count) != RLX_OK || count == 0)
            continue;
        if (rlx__backend_acquire(ranked[i]))
            t[n++] = (target){ ranked[i], 0 };
    }
    rlx__error_clear();
    return n;
}

static void release_targets(target *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        rlx__backend_release(t[i].b);
}

/* Each compute node's target index (HOST_TARGET for the core). */
static rlx_status assign(const rlx_graph_view *v, const target *t,
                         uint32_t nt, const rlx_backend *primary,
                         unsigned char *where)
{
    for (uint32_t i = 0; i < v->n_nodes; i++) {
        const rlx_node_view *n = v->nodes[i];
        if (rlx__op_is_source(n->op))
            continue;
        if (rlx__host_kind_for(v, i)) {
            where[i] = HOST_TARGET;
            continue;
        }
        char why[512], first_why[512] = "", cpu_why[1024] = "";
        uint32_t k = 0;
        for (; k < nt; k++) {
            if (rlx__capability_node(t[k].b, v, i, why, sizeof why))
                break;
            if (!first_why[0])
                memcpy(first_why, why, sizeof why);
            else if (strlen(cpu_why) + strlen(why) + 3 < sizeof cpu_why)
                strcat(strcat(cpu_why, "; "), why);
        }
        if (k == nt)
            return rlx__error(RLX_ERR_UNSUPPORTED,
                              "node '%s' (op %s, %s) can run nowhere: %s "
                              "(device %s)%s%s. Fix: install a backend "
                              "that supports %s (a CPU backend takes what "
                              "an accelerator lacks), or drop the rule "
                              "that masks it",
                              n->name, rlx_op_name(n->op),
                              rlx_dtype_name(n->dtype),
                              first_why[0] ? first_why : "no backend",
                              primary->device_name,
                              cpu_why[0] ? "; and " : "; no CPU backend "
                                                      "is available",
                              cpu_why[0] ? cpu_why + 2 : "",
                              rlx_op_name(n->op));
        where[i] = (unsigned char)k;
    }
    return RLX_OK;
}

/* Group compute nodes into pieces: a topological order that stays on
 * one target as long as it can (Kahn's algorithm, preferring the current
 * target's ready nodes). ORDER gets the nodes, START[k] piece k's first
 * entry; returns the piece count. Host nodes are pieces of one. */
static uint32_t schedule(const rlx_graph_view *v, const unsigned char *where,
                         uint32_t *order, uint32_t *start, uint32_t *piece_of)
{
    uint32_t n = v->n_nodes, n_users = 0;
    for (uint32_t i = 0; i < n; i++)
        n_users += v->nodes[i]->n_inputs;
    uint32_t *deg = calloc(n + 1, sizeof *deg);
    uint32_t *first = calloc(n + 2, sizeof *first);
    uint32_t *users = malloc((n_users + 1) * sizeof *users);
    uint32_t *ready = malloc((n + 1) * sizeof *ready);
    if (!deg || !first || !users || !ready) {
        free(deg), free(first), free(users), free(ready);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < v->nodes[i]->n_inputs; j++) {
            uint32_t u = v->nodes[i]->inputs[j];
            if (!rlx__op_is_source(v->nodes[u]->op)) {
                first[u + 1]++;
                deg[i]++;
            }
        }
    for (uint32_t i = 0; i < n; i++)
        first[i + 1] += first[i];
    uint32_t *fill = calloc(n + 1, sizeof *fill);
    for (uint32_t i = 0; fill && i < n; i++)
        for (uint32_t j = 0; j < v->nodes[i]->n_inputs; j++) {
            uint32_t u = v->nodes[i]->inputs[j];
            if (!rlx__op_is_source(v->nodes[u]->op))
                users[first[u] + fill[u]++] = i;
        }
    uint32_t n_ready = 0, done = 0, pieces = 0, total = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!rlx__op_is_source(v->nodes[i]->op)) {
            total++;
            if (deg[i] == 0)
                ready[n_ready++] = i;
        }
    unsigned cur = 0x100; /* no piece open */
    while (fill && done < total) {
        /* the lowest ready node on the current target, else the lowest
         * ready node at all, which opens a new piece */
        uint32_t best = UINT32_MAX, any = UINT32_MAX;
        for (uint32_t r = 0; r < n_ready; r++) {
            uint32_t i = ready[r];
            if (where[i] == cur && cur != HOST_TARGET &&
                (best == UINT32_MAX || i < ready[best]))
                best = r;
            if (any == UINT32_MAX || i < ready[any])
                any = r;
        }
        if (best == UINT32_MAX) {
            best = any;
            cur = where[ready[best]];
            start[pieces++] = done;
        }
        uint32_t i = ready[best];
        ready[best] = ready[--n_ready];
        order[done++] = i;
        piece_of[i] = pieces - 1;
        for (uint32_t e = first[i]; e < first[i + 1]; e++)
            if (--deg[users[e]] == 0)
                ready[n_ready++] = users[e];
    }
    start[pieces] = done;
    if (!fill)
        pieces = 0;
    free(deg), free(first), free(users), free(ready), free(fill);
    return pieces;
}

/* ---- building the pieces ---------------------------------------------- */

/* The sub-graph of piece PC: its imports as inputs (crossing values and
 * graph inputs), params and constants, its nodes, and as outputs the
 * values other pieces or the graph's outputs read. IN and OUT get the
 * view nodes behind the sub-graph's input and output slots. */
static rlx_status piece_graph(const rlx__placement *pl, const rlx__piece *pc,
                              const uint32_t *piece_of, uint32_t self,
                              const unsigned char *exported, rlx_graph **out,
                              uint32_t *in, uint32_t *n_in, uint32_t *outv,
                              uint32_t *n_out)
{
    const rlx_graph_view *v = &pl->view.view;
    uint32_t n = v->n_nodes;
    uint32_t *map = malloc((n + 1) * sizeof *map);
    rlx_graph *g = NULL;
    rlx_status st = map ? rlx_graph_create(&g)
                        : rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    if (st != RLX_OK) {
        free(map);
        return st;
    }
    for (uint32_t i = 0; i < n; i++)
        map[i] = RLX_VALUE_NONE;
    *n_in = *n_out = 0;
    /* imports, in node order so slots are deterministic */
    unsigned char *need = calloc(n + 1, 1);
    if (!need)
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t k = 0; st == RLX_OK && k < pc->n_nodes; k++) {
        const rlx_node_view *node = v->nodes[pc->nodes[k]];
        for (uint32_t j = 0; j < node->n_inputs; j++) {
            uint32_t u = node->inputs[j];
            if (rlx__op_is_source(v->nodes[u]->op) || piece_of[u] != self)
                need[u] = 1;
        }
    }
    for (uint32_t u = 0; st == RLX_OK && u < n; u++) {
        if (!need[u])
            continue;
        const rlx_node_view *s = v->nodes[u];
        if (s->op == RLX_OP_PARAM) {
            st = rlx_graph_param(g, s->name, s->dtype, s->rank, s->shape,
                                 &map[u]);
        } else if (s->op == RLX_OP_CONSTANT) {
            st = rlx_graph_constant(g, s->name, s->dtype, s->rank, s->shape,
                                    s->data, &map[u]);
        } else {
            st = rlx_graph_input(g, s->name, s->dtype, s->rank, s->shape,
                                 &map[u]);
            in[(*n_in)++] = u;
        }
    }
    for (uint32_t k = 0; st == RLX_OK && k < pc->n_nodes; k++) {
        uint32_t i = pc->nodes[k];
        const rlx_node_view *node = v->nodes[i];
        rlx_value args[64], *argv = args;
        if (node->n_inputs > 64 &&
            !(argv = malloc(node->n_inputs * sizeof *argv))) {
            st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            break;
        }
        for (uint32_t j = 0; j < node->n_inputs; j++)
            argv[j] = map[node->inputs[j]];
        rlx_attrs attrs = {
            .n_ints = node->n_int_attrs,
            .ints = node->int_attrs,
            .n_floats = node->n_float_attrs,
            .floats = node->float_attrs,
        };
        st = rlx_graph_add_node(g, node->name, node->op, node->n_inputs,
                                argv, &attrs, &map[i]);
        if (argv != args)
            free(argv);
    }
    for (uint32_t k = 0; st == RLX_OK && k < pc->n_nodes; k++) {
        uint32_t i = pc->nodes[k];
        if (!exported[i])
            continue;
        st = rlx_graph_output(g, v->nodes[i]->name, map[i]);
        outv[(*n_out)++] = i;
    }
    free(need);
    free(map);
    if (st != RLX_OK) {
        rlx_graph_destroy(g);
        return st;
    }
    *out = g;
    return RLX_OK;
}

static rlx_status build_backend_piece(rlx__placement *pl, rlx__piece *pc,
                                      const uint32_t *piece_of, uint32_t self,
                                      const unsigned char *exported,
                                      rlx_precision precision)
{
    uint32_t n = pl->view.view.n_nodes;
    uint32_t *in = malloc((n + 1) * sizeof *in);
    uint32_t *outv = malloc((n + 1) * sizeof *outv);
    uint32_t n_in = 0, n_out = 0;
    rlx_graph *g = NULL;
    rlx_status st = in && outv ? piece_graph(pl, pc, piece_of, self, exported,
                                             &g, in, &n_in, outv, &n_out)
                               : rlx__error(RLX_ERR_OUT_OF_MEMORY,
                                            "out of memory");
    rlx_program *sub = NULL;
    if (st == RLX_OK)
        st = rlx__program_compile(g, pc->backend, pc->device_index,
                                  precision, &sub);
    rlx_graph_destroy(g);
    if (st == RLX_OK) {
        /* the piece reads and writes the shared host buffers directly */
        for (uint32_t k = 0; k < n_in; k++) {
            sub->input_ptrs[k] = pl->value[in[k]];
            sub->slots[RLX_SLOT_INPUT][k].set = 1;
        }
        for (uint32_t k = 0; k < n_out; k++)
            sub->output_ptrs[k] = pl->value[outv[k]];
        pc->impl = sub;
        pc->ops = &backend_piece_ops;
    }
    free(in);
    free(outv);
    return st;
}

static rlx_status build_host_piece(rlx__placement *pl, rlx__piece *pc)
{
    const rlx_node_view *node = pl->view.view.nodes[pc->nodes[0]];
    pc->args = calloc(node->n_inputs + 1, sizeof *pc->args);
    if (!pc->args)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t j = 0; j < node->n_inputs; j++)
        pc->args[j] = pl->value[node->inputs[j]];
    pc->ops = &host_piece_ops;
    if (!pc->host->prepare)
        return RLX_OK;
    uint32_t gnode = 0; /* the graph node behind the view node */
    while (gnode < pl->graph->n_nodes &&
           pl->view.remap[gnode] != pc->nodes[0])
        gnode++;
    return pc->host->prepare(pl->graph, gnode, &pc->state);
}

/* ---- compile ----------------------------------------------------------- */

/* The first compute node's name, for messages. */
static const char *first_name(const rlx_graph_view *v)
{
    for (uint32_t i = 0; i < v->n_nodes; i++)
        if (!rlx__op_is_source(v->nodes[i]->op))
            return v->nodes[i]->name;
    return "none";
}

static rlx_status place(rlx_program *p, rlx__placement *pl, target *t,
                        uint32_t nt, const rlx_backend *primary,
                        uint32_t device_index, rlx_precision precision,
                        int need_primary, const rlx_backend **main_out,
                        uint32_t *main_dev_out)
{
    const rlx_graph_view *v = &pl->view.view;
    uint32_t n = v->n_nodes;
    unsigned char *where = calloc(n + 1, 1);
    unsigned char *exported = calloc(n + 1, 1);
    uint32_t *order = malloc((n + 1) * sizeof *order);
    uint32_t *start = malloc((n + 2) * sizeof *start);
    uint32_t *piece_of = malloc((n + 1) * sizeof *piece_of);
    uint32_t *stamp = malloc((n + 1) * sizeof *stamp);
    pl->value = calloc(n + 1, sizeof *pl->value);
    pl->owned = calloc(n + 1, 1);
    rlx_status st = RLX_OK;
    if (!where || !exported || !order || !start || !piece_of || !stamp ||
        !pl->value || !pl->owned)
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    if (st == RLX_OK)
        st = assign(v, t, nt, primary, where);
    if (st == RLX_OK && need_primary) {
        int any = 0;
        for (uint32_t i = 0; i < n && !any; i++)
            any = !rlx__op_is_source(v->nodes[i]->op) && where[i] == 0 &&
                  t[0].b == primary;
        if (!any)
            st = rlx__error(RLX_ERR_UNSUPPORTED,
                            "backend '%s' can run none of the graph's "
                            "nodes (the first: %s). Fix: run on another "
                            "device, or set RLX_FALLBACK=whole to move the "
                            "whole graph to the CPU", primary->id,
                            first_name(v));
    }
    uint32_t n_pieces = 0;
    if (st == RLX_OK) {
        for (uint32_t i = 0; i < n; i++)
            piece_of[i] = RLX_PIECE_NONE;
        n_pieces = schedule(v, where, order, start, piece_of);
        pl->pieces = calloc(n_pieces + 1, sizeof *pl->pieces);
        /* placement only runs for a node some backend lacks, so a graph
         * here has compute nodes: no pieces means schedule ran out of
         * memory */
        if (!pl->pieces || n_pieces == 0)
            st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t k = 0; st == RLX_OK && k < n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        uint32_t first = order[start[k]];
        pc->pl = pl;
        pc->n_nodes = start[k + 1] - start[k];
        pc->nodes = malloc(pc->n_nodes * sizeof *pc->nodes);
        if (!pc->nodes) {
            st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            break;
        }
        memcpy(pc->nodes, order + start[k], pc->n_nodes * sizeof *pc->nodes);
        if (where[first] == HOST_TARGET) {
            pc->host = rlx__host_kind_for(v, first);
        } else {
            pc->backend = t[where[first]].b;
            pc->device_index = t[where[first]].device;
        }
        pl->n_pieces = k + 1;
    }
    /* What crosses: a value read by another piece, or a graph output,
     * is exported by its piece; host pieces read every input from a
     * buffer. One transfer per (value, reading piece). */
    uint32_t transfers = 0;
    for (uint32_t i = 0; st == RLX_OK && i < n; i++)
        stamp[i] = RLX_PIECE_NONE;
    for (uint32_t k = 0; st == RLX_OK && k < pl->n_pieces; k++) {
        const rlx__piece *pc = &pl->pieces[k];
        for (uint32_t m = 0; m < pc->n_nodes; m++) {
            const rlx_node_view *node = v->nodes[pc->nodes[m]];
            for (uint32_t j = 0; j < node->n_inputs; j++) {
                uint32_t u = node->inputs[j];
                int source = rlx__op_is_source(v->nodes[u]->op);
                if (!source && piece_of[u] != k) {
                    exported[u] = 1;
                    if (stamp[u] != k)
                        transfers++;
                    stamp[u] = k;
                }
                if (source && !pc->backend)
                    exported[u] = 1; /* a host piece reads it in place */
            }
        }
    }
    for (uint32_t o = 0; st == RLX_OK && o < v->n_outputs; o++)
        exported[v->outputs[o]] = 1;
    /* host buffers: graph inputs and outputs are the program's own */
    for (uint32_t i = 0; st == RLX_OK && i < n; i++) {
        const rlx_node_view *node = v->nodes[i];
        if (node->op == RLX_OP_INPUT) {
            pl->value[i] = p->slots[RLX_SLOT_INPUT][node->slot].host;
        } else if (node->op == RLX_OP_CONSTANT) {
            pl->value[i] = (void *)node->data;
        } else if (exported[i]) {
            for (uint32_t o = 0; o < v->n_outputs && !pl->value[i]; o++)
                if (v->outputs[o] == i && node->op != RLX_OP_PARAM)
                    pl->value[i] = p->slots[RLX_SLOT_OUTPUT][o].host;
            if (!pl->value[i]) {
                pl->value[i] = calloc(1, node_bytes(node) + 1);
                pl->owned[i] = 1;
                if (!pl->value[i])
                    st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            }
        }
    }
    for (uint32_t k = 0; st == RLX_OK && k < pl->n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        st = pc->backend ? build_backend_piece(pl, pc, piece_of, k, exported,
                                               precision)
                         : build_host_piece(pl, pc);
        if (st != RLX_OK)
            rlx__error(st, "placing piece %u of %u (%s on %s): %s", k + 1,
                       pl->n_pieces, pc->n_nodes == 1 ? "one node" : "nodes",
                       pc->backend ? pc->backend->id : "the host",
                       rlx_last_error());
    }
    /* the program's own backend: PRIMARY, or when it was skipped, the
     * first backend piece's */
    const rlx_backend *main_b = primary;
    uint32_t main_dev = device_index;
    for (uint32_t k = 0; t[0].b != primary && k < pl->n_pieces; k++)
        if (pl->pieces[k].backend) {
            main_b = pl->pieces[k].backend;
            main_dev = pl->pieces[k].device_index;
            break;
        }
    *main_out = main_b;
    *main_dev_out = main_dev;
    /* the report, by graph node */
    rlx__place_report *r = &p->report;
    if (st == RLX_OK)
        st = rlx__place_report_alloc(r, pl->graph->n_nodes, pl->n_pieces);
    if (st == RLX_OK) {
        for (uint32_t k = 0; k < pl->n_pieces; k++) {
            r->piece_backend[k] = pl->pieces[k].backend;
            r->piece_device[k] = pl->pieces[k].device_index;
        }
        for (uint32_t gi = 0; gi < pl->graph->n_nodes; gi++) {
            uint32_t i = pl->view.remap[gi];
            if (i != UINT32_MAX && !rlx__op_is_source(v->nodes[i]->op)) {
                const rlx__piece *pc = &pl->pieces[piece_of[i]];
                r->node_piece[gi] = piece_of[i];
                r->fallback_nodes += pc->backend != main_b ||
                                     pc->device_index != main_dev;
            }
        }
        r->transfers = transfers;
        rlx__place_report_summary(r, pl->graph, main_b, main_dev);
    }
    free(where), free(exported), free(order), free(start), free(piece_of);
    free(stamp);
    return st;
}

rlx_status rlx__placement_compile(rlx_program *p, rlx_runtime *rt,
                                  const rlx_graph *g,
                                  const rlx_backend *primary,
                                  uint32_t device_index,
                                  rlx_precision precision, int skip_primary,
                                  int need_primary)
{
    rlx__placement *pl = calloc(1, sizeof *pl);
    if (!pl)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    pl->outer = p;
    rlx_status st = rlx__graph_clone(g, &pl->graph);
    if (st == RLX_OK)
        st = rlx__view_build(pl->graph, &pl->view);
    if (st != RLX_OK) {
        rlx__placement_free(pl);
        return st;
    }
    target t[MAX_TARGETS];
    uint32_t nt = gather_targets(rt, primary, device_index, skip_primary, t);
    const rlx_backend *main_b = primary;
    uint32_t main_dev = device_index;
    st = place(p, pl, t, nt, primary, device_index, precision,
               need_primary && !skip_primary, &main_b, &main_dev);
    release_targets(t, nt);
    if (st != RLX_OK) {
        rlx__place_report_free(&p->report);
        rlx__placement_free(pl);
        return st;
    }
    /* the program holds its backend like a whole program does (the
     * caller holds PRIMARY; a piece holds any other) */
    rlx__backend_acquire(main_b);
    p->backend = main_b;
    p->device_index = main_dev;
    p->place = pl;
    return RLX_OK;
}

/* ---- run ---------------------------------------------------------------- */

rlx_status rlx__placement_run(rlx_program *p)
{
    rlx__placement *pl = p->place;
    const rlx_graph_view *v = &pl->view.view;
    /* bound inputs: read once into the input's host buffer */
    for (uint32_t i = 0; p->n_bound[RLX_SLOT_INPUT] &&
                         i < p->n_slots[RLX_SLOT_INPUT]; i++) {
        rlx__slot *slot = &p->slots[RLX_SLOT_INPUT][i];
        rlx_status st;
        if (slot->tensor &&
            (st = rlx_tensor_read(slot->tensor, slot->host, slot->nbytes)) !=
                RLX_OK)
            return st;
    }
    for (uint32_t k = 0; k < pl->n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        rlx_status st = pc->ops->run(pc);
        if (st != RLX_OK)
            return rlx__error(st, "piece %u of %u (on %s) failed: %s", k + 1,
                              pl->n_pieces,
                              pc->backend ? pc->backend->id : "the host",
                              rlx_last_error());
    }
    /* outputs no piece wrote in place: sources, and a value that two
     * outputs name */
    for (uint32_t o = 0; o < v->n_outputs; o++) {
        rlx__slot *slot = &p->slots[RLX_SLOT_OUTPUT][o];
        const void *src = pl->value[v->outputs[o]];
        if (src && src != slot->host && slot->nbytes)
            memcpy(slot->host, src, slot->nbytes);
    }
    for (uint32_t i = 0; p->n_bound[RLX_SLOT_OUTPUT] &&
                         i < p->n_slots[RLX_SLOT_OUTPUT]; i++) {
        rlx__slot *slot = &p->slots[RLX_SLOT_OUTPUT][i];
        rlx_status st;
        if (slot->tensor &&
            (st = rlx_tensor_write(slot->tensor, slot->host, slot->nbytes)) !=
                RLX_OK)
            return st;
    }
    return RLX_OK;
}

rlx_status rlx__placement_set_param(rlx_program *p, const char *name,
                                    const void *data, size_t nbytes)
{
    rlx__placement *pl = p->place;
    const rlx_graph_view *v = &pl->view.view;
    for (uint32_t k = 0; k < pl->n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        rlx_status st;
        if (pc->ops->set_param &&
            (st = pc->ops->set_param(pc, name, data, nbytes)) != RLX_OK)
            return st;
    }
    /* the host copy host pieces and graph outputs read */
    for (uint32_t i = 0; i < v->n_params; i++) {
        uint32_t node = v->params[i];
        if (pl->value[node] && pl->owned[node] &&
            strcmp(v->nodes[node]->name, name) == 0 && nbytes)
            memcpy(pl->value[node], data, nbytes);
    }
    return RLX_OK;
}
