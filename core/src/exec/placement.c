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

#include "exec.h"
#include "placement.h"
#include "program.h"

#define MAX_TARGETS 16
#define HOST_TARGET 255u

typedef struct target {
    const rlx_backend *b; /* held while placing */
    uint32_t device;
} target;

static size_t node_bytes(const rlx_node_view *n)
{
    return (size_t)rlx__shape_elements(n->rank, n->shape) *
           rlx_dtype_size(n->dtype);
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
    for (uint32_t i = 0; pl->value && i < pl->n_values; i++)
        if (pl->owned[i])
            free(pl->value[i]);
    free(pl->value);
    free(pl->owned);
    free(pl);
}

/* ---- choosing targets ------------------------------------------------- */

/* PRIMARY first (unless skipped), then every allowed, available CPU
 * backend by rank; each is held until release_targets. */
static uint32_t gather_targets(const rlx__place_options *o, target *t)
{
    rlx_runtime *rt = o->rt;
    const rlx_backend *primary = o->primary;
    uint32_t n = 0;
    if (!(o->flags & RLX__PLACE_SKIP_PRIMARY) &&
        rlx__backend_acquire(primary))
        t[n++] = (target){ primary, o->device_index };
    if (o->flags & RLX__PLACE_WHOLE)
        return n;
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

/* ---- compile ----------------------------------------------------------- */

/* The first compute node's name, for messages. */
static const char *first_name(const rlx_graph_view *v)
{
    for (uint32_t i = 0; i < v->n_nodes; i++)
        if (!rlx__op_is_source(v->nodes[i]->op))
            return v->nodes[i]->name;
    return "none";
}

/* Every compute node of V on target 0, in view order: one piece. */
static uint32_t schedule_whole(const rlx_graph_view *v, unsigned char *where,
                               uint32_t *order, uint32_t *start,
                               uint32_t *piece_of)
{
    uint32_t done = 0;
    for (uint32_t i = 0; i < v->n_nodes; i++)
        if (!rlx__op_is_source(v->nodes[i]->op)) {
            where[i] = 0;
            piece_of[i] = 0;
            order[done++] = i;
        }
    start[0] = 0;
    start[1] = done;
    return 1;
}

/* What crosses between pieces, and the host buffers it crosses in: a
 * value read by another piece, or a graph output, is exported by its
 * piece; host pieces read every input from a buffer. Graph inputs and
 * outputs use the program's own host slots. Returns the transfers (one
 * per value and reading piece) in *TRANSFERS. */
static rlx_status exports(rlx_program *p, rlx__placement *pl,
                          const uint32_t *piece_of, unsigned char *exported,
                          uint32_t *stamp, uint32_t *transfers)
{
    const rlx_graph_view *v = &p->view.view;
    uint32_t n = v->n_nodes;
    *transfers = 0;
    for (uint32_t i = 0; i < n; i++)
        stamp[i] = RLX_PIECE_NONE;
    for (uint32_t k = 0; k < pl->n_pieces; k++) {
        const rlx__piece *pc = &pl->pieces[k];
        for (uint32_t m = 0; m < pc->n_nodes; m++) {
            const rlx_node_view *node = v->nodes[pc->nodes[m]];
            for (uint32_t j = 0; j < node->n_inputs; j++) {
                uint32_t u = node->inputs[j];
                int source = rlx__op_is_source(v->nodes[u]->op);
                if (!source && piece_of[u] != k) {
                    exported[u] = 1;
                    if (stamp[u] != k)
                        ++*transfers;
                    stamp[u] = k;
                }
                if (source && !pc->backend)
                    exported[u] = 1; /* a host piece reads it in place */
            }
        }
    }
    for (uint32_t o = 0; o < v->n_outputs; o++)
        exported[v->outputs[o]] = 1;
    for (uint32_t i = 0; i < n; i++) {
        const rlx_node_view *node = v->nodes[i];
        if (node->op == RLX_OP_INPUT) {
            pl->value[i] = p->slots[RLX_SLOT_INPUT][node->slot].host;
            continue;
        }
        if (!exported[i])
            continue;
        for (uint32_t o = 0; o < v->n_outputs && !pl->value[i]; o++)
            if (v->outputs[o] == i && node->op != RLX_OP_PARAM &&
                node->op != RLX_OP_CONSTANT)
                pl->value[i] = p->slots[RLX_SLOT_OUTPUT][o].host;
        if (pl->value[i])
            continue;
        /* a constant is copied: the caller's graph may go before the
         * program */
        size_t nbytes = node_bytes(node);
        if (!(pl->value[i] = calloc(1, nbytes + 1)))
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        pl->owned[i] = 1;
        if (node->op == RLX_OP_CONSTANT && nbytes)
            memcpy(pl->value[i], node->data, nbytes);
    }
    return RLX_OK;
}

static rlx_status place(rlx_program *p, rlx__placement *pl, target *t,
                        uint32_t nt, const rlx__place_options *o,
                        const rlx_backend **main_out, uint32_t *main_dev_out)
{
    const rlx_graph_view *v = &p->view.view;
    const rlx_graph *g = p->view.graph;
    const rlx_backend *primary = o->primary;
    uint32_t n = v->n_nodes;
    pl->whole = (o->flags & RLX__PLACE_WHOLE) != 0;
    unsigned char *where = calloc(n + 1, 1);
    unsigned char *exported = calloc(n + 1, 1);
    uint32_t *order = malloc((n + 1) * sizeof *order);
    uint32_t *start = malloc((n + 2) * sizeof *start);
    uint32_t *piece_of = malloc((n + 1) * sizeof *piece_of);
    uint32_t *stamp = malloc((n + 1) * sizeof *stamp);
    if (!pl->whole) {
        pl->n_values = n;
        pl->value = calloc(n + 1, sizeof *pl->value);
        pl->owned = calloc(n + 1, 1);
    }
    rlx_status st = RLX_OK;
    if (!where || !exported || !order || !start || !piece_of || !stamp ||
        (!pl->whole && (!pl->value || !pl->owned)))
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; st == RLX_OK && i < n; i++)
        piece_of[i] = RLX_PIECE_NONE;
    if (st == RLX_OK && !pl->whole)
        st = assign(v, t, nt, primary, where);
    if (st == RLX_OK && !pl->whole && (o->flags & RLX__PLACE_NEED_PRIMARY) &&
        !(o->flags & RLX__PLACE_SKIP_PRIMARY)) {
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
        n_pieces = pl->whole ? schedule_whole(v, where, order, start,
                                              piece_of)
                             : schedule(v, where, order, start, piece_of);
        pl->pieces = calloc(n_pieces + 1, sizeof *pl->pieces);
        /* a graph here has compute nodes (a view has outputs, and a
         * source output alone compiles whole): no pieces means schedule
         * ran out of memory */
        if (!pl->pieces || (n_pieces == 0 && !pl->whole))
            st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t k = 0; st == RLX_OK && k < n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        pc->n_nodes = start[k + 1] - start[k];
        pc->nodes = malloc((pc->n_nodes + 1) * sizeof *pc->nodes);
        if (!pc->nodes) {
            st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            break;
        }
        memcpy(pc->nodes, order + start[k], pc->n_nodes * sizeof *pc->nodes);
        uint32_t w = pc->n_nodes ? where[pc->nodes[0]] : 0;
        if (w == HOST_TARGET) {
            pc->host = rlx__host_kind_for(v, pc->nodes[0]);
        } else {
            pc->backend = t[w].b;
            pc->device_index = t[w].device;
        }
        pl->n_pieces = k + 1;
    }
    uint32_t transfers = 0;
    if (st == RLX_OK && !pl->whole)
        st = exports(p, pl, piece_of, exported, stamp, &transfers);
    for (uint32_t k = 0; st == RLX_OK && k < pl->n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        st = rlx__piece_build(p, pl, pc, o, piece_of, k, exported);
        if (st != RLX_OK && !pl->whole)
            rlx__error(st, "placing piece %u of %u (%s on %s): %s", k + 1,
                       pl->n_pieces, pc->n_nodes == 1 ? "one node" : "nodes",
                       pc->backend ? pc->backend->id : "the host",
                       rlx_last_error());
    }
    /* the program's own backend: PRIMARY, or when it was skipped, the
     * first backend piece's */
    const rlx_backend *main_b = primary;
    uint32_t main_dev = o->device_index;
    for (uint32_t k = 0; (nt == 0 || t[0].b != primary) && k < pl->n_pieces;
         k++)
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
        st = rlx__place_report_alloc(r, g->n_nodes, pl->n_pieces);
    if (st == RLX_OK) {
        for (uint32_t k = 0; k < pl->n_pieces; k++) {
            r->piece_backend[k] = pl->pieces[k].backend;
            r->piece_device[k] = pl->pieces[k].device_index;
        }
        for (uint32_t gi = 0; gi < g->n_nodes; gi++) {
            uint32_t i = p->view.remap[gi];
            if (i != UINT32_MAX && !rlx__op_is_source(v->nodes[i]->op)) {
                const rlx__piece *pc = &pl->pieces[piece_of[i]];
                r->node_piece[gi] = piece_of[i];
                r->fallback_nodes += pc->backend != main_b ||
                                     pc->device_index != main_dev;
            }
        }
        r->transfers = transfers;
        rlx__place_report_summary(r, g, main_b, main_dev);
    }
    free(where), free(exported), free(order), free(start), free(piece_of);
    free(stamp);
    return st;
}

rlx_status rlx__placement_compile(rlx_program *p,
                                  const rlx__place_options *o)
{
    rlx__placement *pl = calloc(1, sizeof *pl);
    if (!pl)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    target t[MAX_TARGETS];
    uint32_t nt = gather_targets(o, t);
    const rlx_backend *main_b = o->primary;
    uint32_t main_dev = o->device_index;
    p->place = pl; /* the pieces read it while they are built */
    rlx_status st = place(p, pl, t, nt, o, &main_b, &main_dev);
    release_targets(t, nt);
    if (st != RLX_OK) {
        p->place = NULL;
        rlx__place_report_free(&p->report);
        rlx__placement_free(pl);
        return st;
    }
    /* the program holds its backend, as each backend piece holds its own
     * (the caller holds PRIMARY, a piece any other) */
    rlx__backend_acquire(main_b);
    p->backend = main_b;
    p->device_index = main_dev;
    return RLX_OK;
}
