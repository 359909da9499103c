/*
 * piece.c - the pieces every program runs, in order: a backend piece is
 * an executable compiled from its slice of the program's one view (the
 * whole view when its backend runs everything), with its execute
 * arguments built once; a host piece is one node the core runs itself.
 * Runs, param uploads and bound tensors of whole and split programs go
 * through here alike (placement.c decides the pieces).
 */
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "program.h"

/* ---- backend pieces ---------------------------------------------------- */

int rlx__placement_direct(const rlx_program *p)
{
    return p->place && p->place->whole && rlx__backend_device_io(p->backend);
}

void rlx__piece_exec_args(const rlx_program *p, const rlx__piece *pc,
                          rlx_execute_args *args)
{
    /* Only a whole program's backend with device I/O sees the bound
     * buffers; for the others bound tensors are staged through host
     * memory around the run. */
    int direct = rlx__placement_direct(p);
    *args = (rlx_execute_args){
        .struct_size = sizeof *args,
        .n_params = pc->n_slots[RLX_SLOT_PARAM],
        .params = pc->params,
        .n_inputs = pc->n_slots[RLX_SLOT_INPUT],
        .inputs = pc->inputs,
        .n_outputs = pc->n_slots[RLX_SLOT_OUTPUT],
        .outputs = pc->outputs,
        .input_buffers = direct && p->n_bound[RLX_SLOT_INPUT]
                             ? pc->input_bufs : NULL,
        .output_buffers = direct && p->n_bound[RLX_SLOT_OUTPUT]
                              ? pc->output_bufs : NULL,
    };
}

static rlx_status backend_piece_run(rlx_program *p, rlx__piece *pc)
{
    const rlx_backend *b = pc->backend;
    rlx_status st = rlx__queue_drain(b, pc->device_index);
    if (st != RLX_OK)
        return st;
    rlx_execute_args args;
    rlx__piece_exec_args(p, pc, &args);
    rlx__report_clear();
    st = b->vt.execute(b->backend, pc->exe, &args);
    return st == RLX_OK ? RLX_OK : rlx__error_from_backend(st, b, "run");
}

static rlx_status backend_piece_set_param(rlx_program *p, rlx__piece *pc,
                                          uint32_t slot, const void *data,
                                          size_t nbytes)
{
    (void)nbytes; /* the program checked it against the slot */
    const rlx_backend *b = pc->backend;
    const rlx__slot *ps = &p->slots[RLX_SLOT_PARAM][slot];
    for (uint32_t j = 0; j < pc->n_slots[RLX_SLOT_PARAM]; j++) {
        if (pc->slot_of[RLX_SLOT_PARAM][j] != slot)
            continue;
        /* queued runs may be reading the buffer replaced below */
        rlx_status st = rlx__queue_drain(b, pc->device_index);
        if (st != RLX_OK)
            return st;
        rlx_tensor_desc desc = {
            .struct_size = sizeof desc,
            .dtype = ps->dtype,
            .rank = ps->rank,
            .shape = ps->shape,
        };
        rlx_buffer *buf = NULL;
        rlx__report_clear();
        st = b->vt.buffer_create(b->backend, pc->device_index, &desc, data,
                                 &buf);
        if (st != RLX_OK || !buf)
            return rlx__error_from_backend(st != RLX_OK ? st
                                                        : RLX_ERR_BACKEND,
                                           b, "uploading a param");
        if (pc->params[j])
            b->vt.buffer_destroy(b->backend, pc->params[j]);
        pc->params[j] = buf;
    }
    return RLX_OK;
}

static void backend_piece_destroy(rlx__piece *pc)
{
    const rlx_backend *b = pc->backend;
    /* The executable goes first: backends may hold on to the host input
     * and output memory (pinned for DMA) until executable_destroy. Runs
     * still queued finish before; their errors have nobody to go to. */
    if (pc->exe) {
        rlx__queue_drain(b, pc->device_index);
        b->vt.executable_destroy(b->backend, pc->exe);
    }
    for (uint32_t j = 0; pc->params && j < pc->n_slots[RLX_SLOT_PARAM]; j++)
        if (pc->params[j])
            b->vt.buffer_destroy(b->backend, pc->params[j]);
    for (int k = RLX_SLOT_INPUT; k <= RLX_SLOT_OUTPUT; k++)
        free(pc->slot_of[k]);
    free(pc->params);
    free(pc->inputs);
    free(pc->outputs);
    free(pc->input_bufs);
    free(pc->output_bufs);
    /* last: this may close the plugin whose code ran just above */
    rlx__backend_release(b);
}

static const rlx__piece_ops backend_piece_ops = {
    .kind = "backend",
    .run = backend_piece_run,
    .set_param = backend_piece_set_param,
    .destroy = backend_piece_destroy,
};

/* ---- host pieces ------------------------------------------------------- */

static rlx_status host_piece_run(rlx_program *p, rlx__piece *pc)
{
    uint32_t node = pc->nodes[0];
    return pc->host->run(pc->state, &p->view.view, node, pc->args,
                         p->place->value[node]);
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

/* ---- building ---------------------------------------------------------- */

/* Piece PC's own slots: NP params, NI inputs, NO outputs. */
static rlx_status piece_alloc(rlx__piece *pc, uint32_t np, uint32_t ni,
                              uint32_t no)
{
    const uint32_t n[4] = { 0, ni, np, no };
    int ok = 1;
    for (int k = RLX_SLOT_INPUT; k <= RLX_SLOT_OUTPUT; k++) {
        pc->n_slots[k] = n[k];
        ok &= (pc->slot_of[k] = malloc((n[k] + 1) * sizeof(uint32_t))) !=
              NULL;
    }
    pc->params = calloc(np + 1, sizeof *pc->params);
    pc->inputs = calloc(ni + 1, sizeof *pc->inputs);
    pc->input_bufs = calloc(ni + 1, sizeof *pc->input_bufs);
    pc->outputs = calloc(no + 1, sizeof *pc->outputs);
    pc->output_bufs = calloc(no + 1, sizeof *pc->output_bufs);
    if (!ok || !pc->params || !pc->inputs || !pc->input_bufs ||
        !pc->outputs || !pc->output_bufs)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    return RLX_OK;
}

/* A piece's slice of the program's view, what its backend compiles. */
typedef struct slice {
    rlx_graph_view view;
    rlx_node_view *nodes;
    const rlx_node_view **ptrs;
    uint32_t *edges, *inputs, *params, *outputs;
} slice;

static void slice_free(slice *sl)
{
    free(sl->nodes);
    free(sl->ptrs);
    free(sl->edges);
    free(sl->inputs);
    free(sl->params);
    free(sl->outputs);
}

/* The slice of piece PC (number SELF): first its imports in node order
 * (values of other pieces and graph inputs become inputs; params and
 * constants stay themselves), then its nodes with their inputs
 * renumbered; its outputs are its EXPORTED values. PC's slots map to
 * the program's and its host pointers to the placement's buffers. The
 * node records are the view's own: nothing is rebuilt or re-inferred. */
static rlx_status slice_build(const rlx_program *p, const rlx__placement *pl,
                              rlx__piece *pc, const uint32_t *piece_of,
                              uint32_t self, const unsigned char *exported,
                              slice *sl)
{
    const rlx_graph_view *v = &p->view.view;
    uint32_t n = v->n_nodes;
    uint32_t *map = malloc((n + 1) * sizeof *map);
    unsigned char *need = calloc(n + 1, 1);
    if (!map || !need) {
        free(map);
        free(need);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    uint32_t n_imp = 0, ni = 0, np = 0, no = 0, n_edges = 0;
    for (uint32_t k = 0; k < pc->n_nodes; k++) {
        const rlx_node_view *node = v->nodes[pc->nodes[k]];
        n_edges += node->n_inputs;
        no += exported[pc->nodes[k]];
        for (uint32_t j = 0; j < node->n_inputs; j++) {
            uint32_t u = node->inputs[j];
            if (rlx__op_is_source(v->nodes[u]->op) || piece_of[u] != self)
                need[u] = 1;
        }
    }
    for (uint32_t u = 0; u < n; u++)
        if (need[u]) {
            n_imp++;
            np += v->nodes[u]->op == RLX_OP_PARAM;
            ni += v->nodes[u]->op != RLX_OP_PARAM &&
                  v->nodes[u]->op != RLX_OP_CONSTANT;
        }
    uint32_t total = n_imp + pc->n_nodes;
    sl->nodes = calloc(total + 1, sizeof *sl->nodes);
    sl->ptrs = calloc(total + 1, sizeof *sl->ptrs);
    sl->edges = malloc((n_edges + 1) * sizeof *sl->edges);
    sl->inputs = malloc((ni + 1) * sizeof *sl->inputs);
    sl->params = malloc((np + 1) * sizeof *sl->params);
    sl->outputs = malloc((no + 1) * sizeof *sl->outputs);
    rlx_status st = sl->nodes && sl->ptrs && sl->edges && sl->inputs &&
                            sl->params && sl->outputs
                        ? piece_alloc(pc, np, ni, no)
                        : rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    uint32_t at = 0, ki = 0, kp = 0, ko = 0, e = 0;
    for (uint32_t u = 0; st == RLX_OK && u < n; u++) {
        if (!need[u])
            continue;
        const rlx_node_view *src = v->nodes[u];
        rlx_node_view nv = *src;
        if (src->op == RLX_OP_PARAM) {
            nv.slot = kp;
            sl->params[kp] = at;
            pc->slot_of[RLX_SLOT_PARAM][kp++] = src->slot;
        } else if (src->op != RLX_OP_CONSTANT) {
            nv = (rlx_node_view){
                .struct_size = sizeof nv,
                .op = RLX_OP_INPUT,
                .name = src->name,
                .dtype = src->dtype,
                .rank = src->rank,
                .shape = src->shape,
                .slot = ki,
            };
            sl->inputs[ki] = at;
            pc->slot_of[RLX_SLOT_INPUT][ki] =
                src->op == RLX_OP_INPUT ? src->slot : UINT32_MAX;
            pc->inputs[ki++] = pl->value[u];
        }
        sl->nodes[at] = nv;
        sl->ptrs[at] = &sl->nodes[at];
        map[u] = at++;
    }
    for (uint32_t k = 0; st == RLX_OK && k < pc->n_nodes; k++) {
        uint32_t i = pc->nodes[k];
        rlx_node_view nv = *v->nodes[i];
        nv.inputs = sl->edges + e;
        for (uint32_t j = 0; j < nv.n_inputs; j++)
            sl->edges[e++] = map[v->nodes[i]->inputs[j]];
        sl->nodes[at] = nv;
        sl->ptrs[at] = &sl->nodes[at];
        map[i] = at++;
    }
    for (uint32_t k = 0; st == RLX_OK && k < pc->n_nodes; k++) {
        uint32_t i = pc->nodes[k];
        if (!exported[i])
            continue;
        uint32_t slot = UINT32_MAX; /* the graph output it writes in place */
        for (uint32_t o = 0; o < v->n_outputs && slot == UINT32_MAX; o++)
            if (v->outputs[o] == i &&
                pl->value[i] == p->slots[RLX_SLOT_OUTPUT][o].host)
                slot = o;
        sl->outputs[ko] = map[i];
        pc->slot_of[RLX_SLOT_OUTPUT][ko] = slot;
        pc->outputs[ko++] = pl->value[i];
    }
    sl->view = (rlx_graph_view){
        .struct_size = sizeof sl->view,
        .n_nodes = at,
        .nodes = sl->ptrs,
        .n_inputs = ki,
        .inputs = sl->inputs,
        .n_params = kp,
        .params = sl->params,
        .n_outputs = ko,
        .outputs = sl->outputs,
    };
    free(map);
    free(need);
    return st;
}

/* The whole view as one piece: its slots are the program's. */
static rlx_status whole_build(const rlx_program *p, rlx__piece *pc)
{
    const rlx_graph_view *v = &p->view.view;
    rlx_status st = piece_alloc(pc, v->n_params, v->n_inputs, v->n_outputs);
    for (int k = RLX_SLOT_INPUT; st == RLX_OK && k <= RLX_SLOT_OUTPUT; k++)
        for (uint32_t j = 0; j < pc->n_slots[k]; j++)
            pc->slot_of[k][j] = j;
    for (uint32_t j = 0; st == RLX_OK && j < v->n_inputs; j++)
        pc->inputs[j] = p->slots[RLX_SLOT_INPUT][j].host;
    for (uint32_t j = 0; st == RLX_OK && j < v->n_outputs; j++)
        pc->outputs[j] = p->slots[RLX_SLOT_OUTPUT][j].host;
    return st;
}

static rlx_status piece_compile(const rlx__place_options *o, rlx__piece *pc,
                                const rlx_graph_view *gv)
{
    const rlx_backend *b = pc->backend;
    /* the session's settings go with the compile, to whatever thread of
     * the backend reads them */
    rlx_compile_options opts = {
        .struct_size = sizeof opts,
        .device_index = pc->device_index,
        .precision = o->precision,
        .get_option = o->session ? rlx__compile_get_option : NULL,
        .option_context = o->session,
    };
    rlx__report_clear();
    rlx_executable *exe = NULL;
    rlx_status st = b->vt.compile(b->backend, gv, &opts, &exe);
    if (st != RLX_OK || !exe)
        return rlx__error_from_backend(st != RLX_OK ? st : RLX_ERR_BACKEND, b,
                                       "compile");
    pc->exe = exe;
    return RLX_OK;
}

static rlx_status host_build(rlx_program *p, rlx__placement *pl,
                             rlx__piece *pc, const rlx_session *s)
{
    const rlx_node_view *node = p->view.view.nodes[pc->nodes[0]];
    pc->args = calloc(node->n_inputs + 1, sizeof *pc->args);
    if (!pc->args)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t j = 0; j < node->n_inputs; j++)
        pc->args[j] = pl->value[node->inputs[j]];
    pc->ops = &host_piece_ops;
    if (!pc->host->prepare)
        return RLX_OK;
    const rlx_graph *g = p->view.graph;
    if (!p->graph) /* the compile did not keep the nodes for run time */
        return rlx__error(RLX_ERR_STATE,
                          "a host piece without the program's own graph. "
                          "Fix: report this as a bug in rlx");
    uint32_t gnode = 0; /* the graph node behind the view node */
    while (gnode < g->n_nodes && p->view.remap[gnode] != pc->nodes[0])
        gnode++;
    return pc->host->prepare(g, gnode, s, &pc->state);
}

rlx_status rlx__piece_build(rlx_program *p, rlx__placement *pl,
                            rlx__piece *pc, const rlx__place_options *o,
                            const uint32_t *piece_of, uint32_t self,
                            const unsigned char *exported)
{
    if (!pc->backend)
        return host_build(p, pl, pc, o->session);
    /* the targets are held while placing, so this reference cannot fail */
    rlx__backend_acquire(pc->backend);
    pc->ops = &backend_piece_ops;
    if (pl->whole) {
        rlx_status st = whole_build(p, pc);
        return st == RLX_OK ? piece_compile(o, pc, &p->view.view) : st;
    }
    slice sl = { 0 };
    rlx_status st = slice_build(p, pl, pc, piece_of, self, exported, &sl);
    if (st == RLX_OK)
        st = piece_compile(o, pc, &sl.view);
    slice_free(&sl);
    return st;
}

/* ---- running ----------------------------------------------------------- */

rlx_status rlx__placement_run(rlx_program *p)
{
    rlx__placement *pl = p->place;
    const rlx_graph_view *v = &p->view.view;
    rlx_status st = rlx__program_stage_inputs(p);
    if (st != RLX_OK)
        return st;
    for (uint32_t k = 0; k < pl->n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        if ((st = pc->ops->run(p, pc)) == RLX_OK)
            continue;
        if (pl->n_pieces == 1)
            return st;
        return rlx__error(st, "piece %u of %u (on %s) failed: %s", k + 1,
                          pl->n_pieces,
                          pc->backend ? pc->backend->id : "the host",
                          rlx_last_error());
    }
    /* outputs no piece wrote in place: sources, and a value that two
     * outputs name (a whole piece writes every output itself) */
    for (uint32_t o = 0; pl->value && o < v->n_outputs; o++) {
        rlx__slot *slot = &p->slots[RLX_SLOT_OUTPUT][o];
        const void *src = pl->value[v->outputs[o]];
        if (src && src != slot->host && slot->nbytes)
            memcpy(slot->host, src, slot->nbytes);
    }
    return rlx__program_collect_outputs(p);
}

rlx_status rlx__placement_set_param(rlx_program *p, uint32_t slot,
                                    const void *data, size_t nbytes)
{
    rlx__placement *pl = p->place;
    for (uint32_t k = 0; k < pl->n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        rlx_status st;
        if (pc->ops->set_param &&
            (st = pc->ops->set_param(p, pc, slot, data, nbytes)) != RLX_OK)
            return st;
    }
    /* the host copy host pieces and graph outputs read */
    uint32_t node = p->view.view.params[slot];
    if (pl->value && pl->value[node] && pl->owned[node] && nbytes)
        memcpy(pl->value[node], data, nbytes);
    return RLX_OK;
}

void rlx__placement_bind(rlx_program *p, rlx_slot_kind kind, uint32_t index,
                         rlx_buffer *buf)
{
    rlx__placement *pl = p->place;
    void *host = p->slots[kind][index].host;
    for (uint32_t k = 0; k < pl->n_pieces; k++) {
        rlx__piece *pc = &pl->pieces[k];
        for (uint32_t j = 0; pc->backend && j < pc->n_slots[kind]; j++) {
            if (pc->slot_of[kind][j] != index)
                continue;
            if (kind == RLX_SLOT_INPUT) {
                pc->inputs[j] = buf ? NULL : host;
                pc->input_bufs[j] = buf;
            } else {
                pc->outputs[j] = buf ? NULL : host;
                pc->output_bufs[j] = buf;
            }
        }
    }
}
