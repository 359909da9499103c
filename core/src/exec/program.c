/*
 * program.c - compiling a graph on the session's backend (with fallback
 * to the next candidate), params uploaded once, named inputs, runs.
 * Tensors bound to inputs and outputs: bind.c.
 */
#include <stdlib.h>
#include <string.h>

#include "exec.h"
#include "placement.h"
#include "program.h"
#include "session.h"

static rlx_status slot_fill(rlx__slot *slot, const char *name,
                            const rlx__node *n, int host)
{
    slot->name = rlx__strdup(name);
    slot->dtype = n->dtype;
    slot->rank = n->rank;
    memcpy(slot->shape, n->shape, sizeof slot->shape);
    /* the graph checked that this does not overflow */
    slot->nbytes = (size_t)rlx__shape_elements(n->rank, n->shape) *
                   rlx_dtype_size(n->dtype);
    if (host)
        slot->host = calloc(1, slot->nbytes ? slot->nbytes : 1);
    if (host && !slot->host) {
        char shape[160];
        return rlx__error(RLX_ERR_OUT_OF_MEMORY,
                          "cannot allocate %.3g GiB for '%s' (%s %s): out of "
                          "memory. Fix: free memory, or build the graph with "
                          "a smaller shape for it",
                          (double)slot->nbytes / 1073741824.0, name,
                          rlx_dtype_name(n->dtype),
                          rlx__shape_str(shape, sizeof shape, n->rank,
                                         n->shape));
    }
    if (!slot->name)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    return RLX_OK;
}

static rlx_status program_alloc(rlx_program *p, const rlx_graph *g)
{
    p->n_slots[RLX_SLOT_INPUT] = g->n_inputs;
    p->n_slots[RLX_SLOT_PARAM] = g->n_params;
    p->n_slots[RLX_SLOT_OUTPUT] = g->n_outputs;
    for (int k = RLX_SLOT_INPUT; k <= RLX_SLOT_OUTPUT; k++)
        if (!(p->slots[k] = calloc(p->n_slots[k] + 1, sizeof(rlx__slot))))
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    rlx_status st = RLX_OK;
    for (uint32_t i = 0; i < g->n_nodes && st == RLX_OK; i++) {
        const rlx__node *n = &g->nodes[i];
        if (n->op == RLX_OP_INPUT)
            st = slot_fill(&p->slots[RLX_SLOT_INPUT][n->slot], n->name, n, 1);
        else if (n->op == RLX_OP_PARAM)
            st = slot_fill(&p->slots[RLX_SLOT_PARAM][n->slot], n->name, n, 0);
    }
    for (uint32_t i = 0; i < g->n_outputs && st == RLX_OK; i++)
        st = slot_fill(&p->slots[RLX_SLOT_OUTPUT][i], g->outputs[i].name,
                       &g->nodes[g->outputs[i].node], 1);
    return st;
}

/* The error for node BAD of V that B cannot run. */
static rlx_status unsupported(const rlx__view *v, const rlx_backend *b,
                              uint32_t bad, const char *why)
{
    const rlx_node_view *n = v->view.nodes[bad];
    return rlx__error(RLX_ERR_UNSUPPORTED,
                      "node '%s' (op %s, %s) is not supported by backend "
                      "'%s' on device %s: %s. Fix: let the session split the "
                      "graph (RLX_FALLBACK=split, the default), run on "
                      "another device (e.g. cpu), or install a backend that "
                      "supports %s",
                      n->name, rlx_op_name(n->op), rlx_dtype_name(n->dtype),
                      b->id, b->device_name, why, rlx_op_name(n->op));
}

/* 1 when every node of V that B cannot run is one the core runs itself. */
static int only_host_nodes_left(const rlx__view *v, const rlx_backend *b)
{
    char why[512];
    for (uint32_t i = 0; i < v->view.n_nodes; i++)
        if (!rlx__host_kind_for(&v->view, i) &&
            !rlx__capability_node(b, &v->view, i, why, sizeof why))
            return 0;
    return 1;
}

/* How session S places a compile on its candidate B. */
static rlx__place_options place_options(const rlx_session *s,
                                        const rlx_backend *b, unsigned flags)
{
    return (rlx__place_options){
        .rt = s->rt,
        .session = s,
        .primary = b,
        .device_index = s->device_index,
        .precision = s->precision,
        .flags = flags,
    };
}

/* B (a session candidate at INDEX) lacks a node of V: what the session's
 * fallback policy makes of that. */
static rlx_status compile_partial(rlx_program *p, rlx_session *s,
                                  const rlx_backend *b, uint32_t bad,
                                  const char *why, int more_candidates)
{
    const rlx__view *v = &p->view;
    if (s->fallback == RLX_FALLBACK_NONE)
        return unsupported(v, b, bad, why);
    rlx__place_options o;
    if (s->fallback == RLX_FALLBACK_WHOLE) {
        if (more_candidates)
            return unsupported(v, b, bad, why);
        /* the last candidate: the whole graph to the CPU backends; the
         * explanation says which backend declined and why */
        const rlx_node_view *n = v->view.nodes[bad];
        rlx__session_note(s, "backend '%s' declined node '%s' (op %s): %s; "
                          "the whole graph moves to the CPU (fallback "
                          "'whole')", b->id, n->name, rlx_op_name(n->op),
                          why);
        o = place_options(s, b, RLX__PLACE_SKIP_PRIMARY);
        return rlx__placement_compile(p, &o);
    }
    /* split; a device that runs none of it fails (the next candidate,
     * or a runner's chain, takes over; RLX_FALLBACK=whole moves it) */
    (void)more_candidates;
    o = place_options(s, b, RLX__PLACE_NEED_PRIMARY);
    return rlx__placement_compile(p, &o);
}

/* P's one view of G. When a host kind claims one of its nodes, the
 * host piece reads that node at run time, after the caller may have
 * destroyed G: the view is then of a private copy (p->graph). */
static rlx_status program_view(rlx_program *p, const rlx_graph *g)
{
    rlx_status st = rlx__view_build(g, &p->view);
    int host = 0;
    for (uint32_t i = 0; st == RLX_OK && i < p->view.view.n_nodes && !host;
         i++)
        host = rlx__host_kind_for(&p->view.view, i) != NULL;
    if (st != RLX_OK || !host)
        return st;
    rlx__view_free(&p->view);
    st = rlx__graph_clone(g, &p->graph);
    return st == RLX_OK ? rlx__view_build(p->graph, &p->view) : st;
}

rlx_status rlx_session_compile(rlx_session *s, const rlx_graph *g,
                               rlx_program **out)
{
    if (out)
        *out = NULL;
    if (!s || !g || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_session_compile: NULL argument");
    rlx_status st = rlx__ops_mask_check();
    if (st != RLX_OK)
        return st;
    rlx_program *p = calloc(1, sizeof *p);
    if (!p)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    st = program_view(p, g);
    if (st == RLX_OK)
        st = program_alloc(p, g);
    const rlx__view *v = &p->view;
    p->n_nodes = v->view.n_nodes;

    /* Start at the session's current backend; fall back along the
     * candidates, and stay on the one that worked. */
    uint32_t first = 0;
    while (first < s->n_candidates && s->candidates[first] != s->backend)
        first++;
    char first_error[RLX_MSG_MAX] = "";
    for (uint32_t i = first; st == RLX_OK && i < s->n_candidates; i++) {
        const rlx_backend *b = s->candidates[i];
        char why[512];
        uint32_t bad = rlx__view_first_unsupported(v, b, why, sizeof why);
        int more = i + 1 < s->n_candidates;
        /* nodes the core runs itself (custom ops) are placed on the
         * host whatever the fallback policy, when B takes the rest */
        rlx__place_options o = place_options(
            s, b, bad == UINT32_MAX ? RLX__PLACE_WHOLE : 0);
        rlx_status cst =
            bad == UINT32_MAX || only_host_nodes_left(v, b)
                ? rlx__placement_compile(p, &o)
                : compile_partial(p, s, b, bad, why, more);
        if (cst == RLX_OK && !p->place->whole)
            rlx__session_note(s, "placed over %u piece%s: %s",
                              p->report.n_pieces,
                              p->report.n_pieces == 1 ? "" : "s",
                              p->report.summary);
        if (cst != RLX_OK && bad != UINT32_MAX &&
            s->fallback == RLX_FALLBACK_NONE) {
            st = cst; /* refused: no other device either */
            break;
        }
        if (cst == RLX_OK) {
            if (b != s->backend)
                rlx__session_note(s, "fell back to backend '%s'", b->id);
            s->backend = b;
            break;
        }
        if (!first_error[0])
            memcpy(first_error, rlx_last_error(), sizeof first_error);
        rlx__session_note(s, "backend '%s' could not compile the graph: %s",
                          b->id, rlx_last_error());
        if (i + 1 == s->n_candidates)
            st = i == first ? cst
                            : rlx__error(cst, "%s (and every fallback "
                                              "failed: see the session's "
                                              "explanation)", first_error);
    }
    if (st != RLX_OK) {
        rlx_program_destroy(p);
        return st;
    }
    rlx__error_clear();
    *out = p;
    return RLX_OK;
}

void rlx_program_destroy(rlx_program *p)
{
    if (!p)
        return;
    if (p->shapes) { /* the programs parked for other shapes */
        struct rlx__shapes *sh = p->shapes;
        p->shapes = NULL;
        p->shapes_free(sh);
    }
    if (p->staged_free)
        p->staged_free(p->staged);
    /* the pieces first: they hold their own backends, and backends may
     * hold on to the host slots (pinned for DMA) until their executable
     * goes */
    rlx__placement_free(p->place);
    rlx__place_report_free(&p->report);
    for (int k = RLX_SLOT_INPUT; k <= RLX_SLOT_OUTPUT; k++) {
        for (uint32_t i = 0; p->slots[k] && i < p->n_slots[k]; i++) {
            rlx__slot *slot = &p->slots[k][i];
            rlx__tensor_release(slot->tensor); /* may free it */
            free(slot->name);
            free(slot->host);
        }
        free(p->slots[k]);
    }
    rlx__view_free(&p->view);
    rlx_graph_destroy(p->graph);
    /* last: this may close the plugin whose code ran just above */
    if (p->place && p->backend)
        rlx__backend_release(p->backend);
    free(p);
}

rlx__slot *rlx__program_find_slot(const rlx_program *p, rlx_slot_kind kind,
                                  const char *name, uint32_t *index)
{
    for (uint32_t i = 0; i < p->n_slots[kind]; i++)
        if (strcmp(p->slots[kind][i].name, name) == 0) {
            *index = i;
            return &p->slots[kind][i];
        }
    return NULL;
}

static rlx_status slot_for_set(rlx_program *p, rlx_slot_kind kind,
                               const char *name, const void *data,
                               size_t nbytes, rlx__slot **out,
                               uint32_t *index)
{
    const char *what = kind == RLX_SLOT_PARAM ? "param" : "input";
    if (!p || !name || (nbytes && !data))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_program_set_%s: NULL argument", what);
    rlx__slot *slot = rlx__program_find_slot(p, kind, name, index);
    if (!slot)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "the program has no %s named '%s'. Fix: use one "
                          "of the names given to rlx_graph_%s",
                          what, name, what);
    if (nbytes != slot->nbytes) {
        char shape[128];
        return rlx__error(RLX_ERR_SHAPE,
                          "%s '%s' is %s %s (%zu bytes), got %zu bytes. "
                          "Fix: pass exactly the tensor's size",
                          what, name, rlx_dtype_name(slot->dtype),
                          rlx__shape_str(shape, sizeof shape, slot->rank,
                                         slot->shape),
                          slot->nbytes, nbytes);
    }
    *out = slot;
    return RLX_OK;
}

rlx_status rlx_program_set_param(rlx_program *p, const char *name,
                                 const void *data, size_t nbytes)
{
    rlx__slot *slot = NULL; /* set on success: -O3 cannot tell */
    uint32_t index = 0;
    rlx_status st = slot_for_set(p, RLX_SLOT_PARAM, name, data, nbytes,
                                 &slot, &index);
    if (st != RLX_OK)
        return st;
    if ((st = rlx__placement_set_param(p, index, data, nbytes)) != RLX_OK)
        return st;
    slot->set = 1;
    return RLX_OK;
}

rlx_status rlx_program_set_input(rlx_program *p, const char *name,
                                 const void *data, size_t nbytes)
{
    rlx__slot *slot = NULL; /* set on success: -O3 cannot tell */
    uint32_t index = 0;
    rlx_status st;
    /* a program following its shapes switches to the dims set last */
    if (p && p->shapes && (st = p->shapes_apply(p)) != RLX_OK)
        return st;
    st = slot_for_set(p, RLX_SLOT_INPUT, name, data, nbytes, &slot, &index);
    if (st != RLX_OK)
        return st;
    rlx__program_unbind(p, RLX_SLOT_INPUT, index); /* host data wins */
    if (nbytes)
        memcpy(slot->host, data, nbytes);
    slot->set = 1;
    return RLX_OK;
}

void *rlx_program_input_buffer(rlx_program *p, const char *name,
                               size_t *nbytes)
{
    uint32_t index;
    if (nbytes)
        *nbytes = 0;
    if (!p || !name)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_program_input_buffer: NULL argument"),
               NULL;
    if (p->shapes && p->shapes_apply(p) != RLX_OK)
        return NULL;
    rlx__slot *slot = rlx__program_find_slot(p, RLX_SLOT_INPUT, name, &index);
    if (!slot)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "the program has no input named '%s'. Fix: use "
                          "one of the names given to rlx_graph_input", name),
               NULL;
    if (slot->tensor)
        return rlx__error(RLX_ERR_STATE,
                          "input '%s' is bound to a tensor. Fix: write it "
                          "with rlx_tensor_write, or unbind it first "
                          "(rlx_program_bind with a NULL tensor)", name),
               NULL;
    slot->set = 1;
    if (nbytes)
        *nbytes = slot->nbytes;
    return slot->host;
}

rlx_status rlx__program_check_ready(const rlx_program *p, const char *call)
{
    if (!p)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT, "%s: NULL program",
                          call);
    static const struct {
        rlx_slot_kind kind;
        const char *what, *call;
    } need[] = {
        { RLX_SLOT_PARAM, "param", "rlx_program_set_param" },
        { RLX_SLOT_INPUT, "input", "rlx_program_set_input" },
    };
    for (size_t k = 0; k < 2; k++)
        for (uint32_t i = 0; i < p->n_slots[need[k].kind]; i++)
            if (!p->slots[need[k].kind][i].set)
                return rlx__error(RLX_ERR_STATE,
                                  "%s '%s' has not been set. Fix: call %s "
                                  "before %s",
                                  need[k].what,
                                  p->slots[need[k].kind][i].name,
                                  need[k].call, call);
    return RLX_OK;
}

void rlx__program_ran(rlx_program *p)
{
    for (uint32_t i = 0; i < p->n_slots[RLX_SLOT_OUTPUT]; i++) {
        rlx__slot *slot = &p->slots[RLX_SLOT_OUTPUT][i];
        slot->fresh = !slot->tensor;
    }
    p->has_run = 1;
}

rlx_status rlx_program_run(rlx_program *p)
{
    rlx_status st;
    if (p && p->staged_run) /* a model run in stages drives itself */
        return p->staged_run(p);
    if (p && p->shapes && (st = p->shapes_apply(p)) != RLX_OK)
        return st;
    st = rlx__program_check_ready(p, "rlx_program_run");
    if (st != RLX_OK)
        return st;
    if ((st = rlx__placement_run(p)) != RLX_OK)
        return st;
    rlx__program_ran(p);
    return RLX_OK;
}

uint32_t rlx_program_input_count(const rlx_program *p)
{
    return p ? p->n_slots[RLX_SLOT_INPUT] : 0;
}

uint32_t rlx_program_param_count(const rlx_program *p)
{
    return p ? p->n_slots[RLX_SLOT_PARAM] : 0;
}

uint32_t rlx_program_output_count(const rlx_program *p)
{
    return p ? p->n_slots[RLX_SLOT_OUTPUT] : 0;
}

uint32_t rlx_program_node_count(const rlx_program *p)
{
    return p ? p->n_nodes : 0;
}

rlx_status rlx_program_slot(const rlx_program *p, rlx_slot_kind kind,
                            uint32_t index, const char **name,
                            rlx_dtype *dtype, uint32_t *rank,
                            const int64_t **dims)
{
    if (!p || kind < RLX_SLOT_INPUT || kind > RLX_SLOT_OUTPUT ||
        index >= p->n_slots[kind])
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "rlx_program_slot: no such slot (kind %d, index "
                          "%u)", (int)kind, index);
    const rlx__slot *slot = &p->slots[kind][index];
    if (name)
        *name = slot->name;
    if (dtype)
        *dtype = slot->dtype;
    if (rank)
        *rank = slot->rank;
    if (dims)
        *dims = slot->shape;
    return RLX_OK;
}

const void *rlx_program_output_data(const rlx_program *p, uint32_t index,
                                    size_t *nbytes)
{
    if (nbytes)
        *nbytes = 0;
    if (!p || index >= p->n_slots[RLX_SLOT_OUTPUT])
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "rlx_program_output_data: no output %u", index),
               NULL;
    const rlx__slot *slot = &p->slots[RLX_SLOT_OUTPUT][index];
    if (slot->tensor)
        return rlx__error(RLX_ERR_STATE,
                          "output '%s' is bound to a tensor. Fix: read it "
                          "with rlx_tensor_read", slot->name),
               NULL;
    if (!p->has_run)
        return rlx__error(RLX_ERR_STATE,
                          "no outputs yet. Fix: call rlx_program_run "
                          "first"),
               NULL;
    if (!slot->fresh)
        return rlx__error(RLX_ERR_STATE,
                          "output '%s' was bound to a tensor during the "
                          "last run, so it went there. Fix: read that "
                          "tensor (rlx_tensor_read), or run again",
                          slot->name),
               NULL;
    if (nbytes)
        *nbytes = slot->nbytes;
    return slot->host;
}

/* ---- placement report ---------------------------------------------------- */

rlx_status rlx_program_placement(const rlx_program *p, rlx_value node,
                                 const rlx_backend **backend,
                                 uint32_t *device_index, uint32_t *piece)
{
    if (backend)
        *backend = NULL;
    if (device_index)
        *device_index = 0;
    if (piece)
        *piece = RLX_PIECE_NONE;
    if (!p || node >= p->report.n_graph_nodes)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "rlx_program_placement: the program's graph has "
                          "no node %u. Fix: pass a value of the graph it "
                          "was compiled from", node);
    uint32_t pc = p->report.node_piece[node];
    if (pc == RLX_PIECE_NONE)
        return RLX_OK;
    if (backend)
        *backend = p->report.piece_backend[pc];
    if (device_index)
        *device_index = p->report.piece_device[pc];
    if (piece)
        *piece = pc;
    return RLX_OK;
}

uint32_t rlx_program_piece_count(const rlx_program *p)
{
    return p ? p->report.n_pieces : 0;
}

uint32_t rlx_program_transfer_count(const rlx_program *p)
{
    return p ? p->report.transfers : 0;
}

uint32_t rlx_program_fallback_count(const rlx_program *p)
{
    return p ? p->report.fallback_nodes : 0;
}

const char *rlx_program_placement_summary(const rlx_program *p)
{
    return p && p->report.summary ? p->report.summary : "";
}

const rlx_backend *rlx_program_backend(const rlx_program *p)
{
    return p ? p->backend : NULL;
}

uint32_t rlx_program_device_index(const rlx_program *p)
{
    return p ? p->device_index : 0;
}
