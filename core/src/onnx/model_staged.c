/*
 * model_staged.c - the program rlx_model_compile gives for an ONNX model
 * that has no single graph (control flow on run-time values, ops whose
 * result size depends on data). The application sees an ordinary
 * rlx_program: it sets inputs, runs, reads outputs. Behind it each run
 * drives the model in stages (onnx_walk.c): graph stages compiled on the
 * program's session by the usual path and kept for the next runs
 * (onnx_stages.c), host steps in between. Output
 * shapes may change from run to run; rlx_program_slot tells them after
 * each run. Other input shapes go through the per-shape cache
 * (model_shapes.c) like any program of rlx_model_compile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "exec/program.h"
#include "onnx.h"

typedef struct staged {
    rlx_model *m;
    rlx_session *s;
    rlx__onnx_stages *stages; /* compiled by earlier runs */
} staged;

static void staged_free(void *p)
{
    staged *x = p;
    if (x)
        rlx__onnx_stages_free(x->stages);
    free(x);
}

static rlx_status staged_run(rlx_program *p)
{
    staged *x = p->staged;
    rlx_status st = rlx__program_check_ready(p, "rlx_program_run");
    if (st != RLX_OK)
        return st;
    uint32_t ni = p->n_slots[RLX_SLOT_INPUT], no = p->n_slots[RLX_SLOT_OUTPUT];
    rlx__onnx_host *in = calloc(ni ? ni : 1, sizeof *in);
    rlx__onnx_host *out = calloc(no ? no : 1, sizeof *out);
    if (!in || !out) {
        free(in);
        free(out);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < ni; i++) { /* the dims it was compiled for */
        const rlx__slot *slot = &p->slots[RLX_SLOT_INPUT][i];
        in[i].dtype = slot->dtype;
        in[i].rank = slot->rank;
        memcpy(in[i].dims, slot->shape, sizeof in[i].dims);
        in[i].data = slot->host;
        in[i].nbytes = slot->nbytes;
    }
    st = rlx__onnx_exec(x->m->onnx, x->s, x->stages, in, out);
    if (st != RLX_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rlx_last_error());
        st = rlx__error(st, "%s: %s", x->m->path, msg);
    }
    for (uint32_t i = 0; i < no; i++) {
        rlx__slot *slot = &p->slots[RLX_SLOT_OUTPUT][i];
        if (st != RLX_OK) {
            free(out[i].data);
            slot->fresh = 0;
            continue;
        }
        free(slot->host);
        slot->host = out[i].data;
        slot->dtype = out[i].dtype;
        slot->rank = out[i].rank;
        memcpy(slot->shape, out[i].dims, sizeof slot->shape);
        slot->nbytes = out[i].nbytes;
        slot->fresh = 1;
    }
    free(in);
    free(out);
    if (st == RLX_OK)
        p->has_run = 1;
    return st;
}

static rlx_status slot_init(rlx__slot *slot, const char *name,
                            rlx_dtype dtype, uint32_t rank,
                            const int64_t *dims)
{
    slot->name = rlx__strdup(name);
    slot->dtype = dtype;
    slot->rank = rank;
    if (rank)
        memcpy(slot->shape, dims, rank * sizeof *dims);
    int64_t n = rlx__onnx_elements(rank, dims);
    slot->nbytes = n < 0 ? 0 : (size_t)n * rlx_dtype_size(dtype);
    slot->host = calloc(1, slot->nbytes ? slot->nbytes : 1);
    if (!slot->name || !slot->host)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    return RLX_OK;
}

rlx_status rlx__model_onnx_compile_staged(rlx_model *m, rlx_session *s,
                                          rlx_program **out)
{
    const rlx__onnx_model *om = m->onnx;
    const Onnx__GraphProto *gp = om->proto->graph;
    rlx_program *p = calloc(1, sizeof *p);
    staged *x = calloc(1, sizeof *x);
    if (!p || !x) {
        free(p);
        free(x);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    x->m = m;
    x->s = s;
    if (rlx__onnx_stages_create(&x->stages) != RLX_OK) {
        free(p);
        free(x);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    p->staged = x;
    p->staged_run = staged_run;
    p->staged_free = staged_free;
    p->backend = rlx_session_backend(s);
    p->device_index = rlx_session_device_index(s);
    p->report.summary = rlx__printf_alloc(
        "in stages: graph stages compiled for %s:%u as runs reach them, "
        "host steps between them", rlx_backend_device_name(p->backend),
        (unsigned)p->device_index);
    uint32_t ni = 0;
    for (uint32_t i = 0; i < om->n_inputs; i++)
        ni += !om->inputs[i].value;
    p->slots[RLX_SLOT_INPUT] = calloc(ni ? ni : 1, sizeof(rlx__slot));
    p->slots[RLX_SLOT_OUTPUT] = calloc(gp->n_output ? gp->n_output : 1,
                                       sizeof(rlx__slot));
    p->slots[RLX_SLOT_PARAM] = calloc(1, sizeof(rlx__slot));
    rlx_status st = RLX_OK;
    if (!p->slots[RLX_SLOT_INPUT] || !p->slots[RLX_SLOT_OUTPUT] ||
        !p->slots[RLX_SLOT_PARAM])
        st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; st == RLX_OK && i < om->n_inputs; i++) {
        const rlx__onnx_input *in = &om->inputs[i];
        if (in->value)
            continue;
        st = slot_init(&p->slots[RLX_SLOT_INPUT][p->n_slots[RLX_SLOT_INPUT]],
                       in->name, in->dtype, in->rank, in->dims);
        p->n_slots[RLX_SLOT_INPUT]++;
    }
    /* outputs: the declared type until a run tells the real one */
    for (size_t i = 0; st == RLX_OK && i < gp->n_output; i++) {
        const Onnx__ValueInfoProto *vi = gp->output[i];
        rlx_dtype t = RLX_DTYPE_F32;
        if (vi->type && vi->type->tensor_type &&
            rlx__onnx_dtype(vi->type->tensor_type->elem_type) !=
                RLX_DTYPE_INVALID)
            t = rlx__onnx_dtype(vi->type->tensor_type->elem_type);
        st = slot_init(&p->slots[RLX_SLOT_OUTPUT][i],
                       vi->name ? vi->name : "", t, 0, NULL);
        p->n_slots[RLX_SLOT_OUTPUT]++;
    }
    if (st != RLX_OK) {
        rlx_program_destroy(p);
        return st;
    }
    *out = p;
    return RLX_OK;
}
