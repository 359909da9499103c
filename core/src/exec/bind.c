/*
 * bind.c - tensors bound to a program's inputs and outputs: the checks,
 * the buffers a whole program's backend with device I/O gets, and the
 * copies around each run for every other program.
 */
#include <string.h>

#include "exec.h"
#include "placement.h"
#include "program.h"

static const char *kind_word(rlx_slot_kind kind)
{
    return kind == RLX_SLOT_INPUT ? "input" : "output";
}

void rlx__program_unbind(rlx_program *p, rlx_slot_kind kind, uint32_t index)
{
    rlx__slot *slot = &p->slots[kind][index];
    if (!slot->tensor)
        return;
    if (rlx__placement_direct(p))
        rlx__placement_bind(p, kind, index, NULL);
    rlx__tensor_release(slot->tensor);
    slot->tensor = NULL;
    p->n_bound[kind]--;
    if (kind == RLX_SLOT_INPUT)
        slot->set = 0; /* its host copy is stale */
}

/* A run must not read and write one tensor, nor write it twice: T may
 * join slot INDEX of KIND only if no output of P holds it, and, for an
 * output, no input either. The slot itself does not count. */
static rlx_status check_alias(const rlx_program *p, rlx_slot_kind kind,
                              uint32_t index, const rlx_tensor *t)
{
    static const rlx_slot_kind kinds[] = { RLX_SLOT_INPUT, RLX_SLOT_OUTPUT };
    for (size_t j = 0; j < 2; j++) {
        rlx_slot_kind k = kinds[j];
        if (k == RLX_SLOT_INPUT && kind == RLX_SLOT_INPUT)
            continue; /* several inputs may read one tensor */
        for (uint32_t i = 0; i < p->n_slots[k]; i++) {
            const rlx__slot *other = &p->slots[k][i];
            if (other->tensor != t || (k == kind && i == index))
                continue;
            return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                              "the tensor is already bound to %s '%s' of "
                              "this program, and a run may not read and "
                              "write one tensor or write it twice. Fix: "
                              "bind another tensor (rlx_tensor_create) to "
                              "%s '%s'",
                              kind_word(k), other->name,
                              kind_word(kind),
                              p->slots[kind][index].name);
        }
    }
    return RLX_OK;
}

static rlx_status check_tensor(const rlx_program *p, rlx_slot_kind kind,
                               const rlx__slot *slot, const rlx_tensor *t)
{
    if (t->backend != p->backend || t->device_index != p->device_index)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "the tensor lives on backend '%s' (%s:%u), the "
                          "program runs on backend '%s' (%s:%u). Fix: "
                          "create the tensor from a program on the same "
                          "backend and device, or copy it through host "
                          "memory (rlx_tensor_read, rlx_tensor_write)",
                          t->backend->id, t->backend->device_name,
                          t->device_index, p->backend->id,
                          p->backend->device_name, p->device_index);
    if (t->dtype == slot->dtype && t->rank == slot->rank &&
        memcmp(t->shape, slot->shape, slot->rank * sizeof *t->shape) == 0)
        return RLX_OK;
    char want[128], got[128];
    return rlx__error(t->dtype != slot->dtype ? RLX_ERR_DTYPE : RLX_ERR_SHAPE,
                      "%s '%s' is %s %s, the tensor is %s %s. Fix: create "
                      "the tensor with the %s's dtype and shape "
                      "(rlx_program_slot gives them)",
                      kind_word(kind), slot->name,
                      rlx_dtype_name(slot->dtype),
                      rlx__shape_str(want, sizeof want, slot->rank,
                                     slot->shape),
                      rlx_dtype_name(t->dtype),
                      rlx__shape_str(got, sizeof got, t->rank, t->shape),
                      kind_word(kind));
}

rlx_status rlx_program_bind(rlx_program *p, rlx_slot_kind kind,
                            const char *name, rlx_tensor *t)
{
    if (!p || !name)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_program_bind: NULL program or name. Fix: "
                          "pass a program and the name of one of its "
                          "inputs or outputs");
    if (kind == RLX_SLOT_PARAM)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_program_bind: '%s': params cannot be bound "
                          "to a tensor. Fix: set params with "
                          "rlx_program_set_param; they stay on the device "
                          "already", name);
    if (kind != RLX_SLOT_INPUT && kind != RLX_SLOT_OUTPUT)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_program_bind: kind %d is not a slot kind. "
                          "Fix: pass RLX_SLOT_INPUT or RLX_SLOT_OUTPUT",
                          (int)kind);
    /* input shapes set since the last run take effect first, so the
     * tensor is checked against the shapes its run will have */
    rlx_status st;
    if (t && p->shapes && !p->n_bound[RLX_SLOT_INPUT] &&
        !p->n_bound[RLX_SLOT_OUTPUT] && (st = p->shapes_apply(p)) != RLX_OK)
        return st;
    uint32_t index;
    rlx__slot *slot = rlx__program_find_slot(p, kind, name, &index);
    if (!slot)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "the program has no %s named '%s'. Fix: use one "
                          "of the names given to rlx_graph_%s",
                          kind_word(kind), name, kind_word(kind));
    if (!t) {
        rlx__program_unbind(p, kind, index);
        return RLX_OK;
    }
    if (p->staged_run) /* its stages' programs are its own */
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "rlx_program_bind: '%s': this program runs its "
                          "model in stages and takes host data only. Fix: "
                          "use rlx_program_set_input and "
                          "rlx_program_output_data", name);
    st = check_tensor(p, kind, slot, t);
    if (st == RLX_OK)
        st = check_alias(p, kind, index, t);
    if (st != RLX_OK)
        return st;

    rlx__tensor_acquire(t); /* first: T may be the tensor unbound here */
    rlx__program_unbind(p, kind, index);
    slot->tensor = t;
    p->n_bound[kind]++;
    /* A whole program's backend with device I/O gets the buffer and a
     * NULL host pointer; the others keep their host pointer (run
     * copies). */
    if (kind == RLX_SLOT_INPUT)
        slot->set = 1;
    if (rlx__placement_direct(p))
        rlx__placement_bind(p, kind, index, t->buffer);
    return RLX_OK;
}

rlx_status rlx__program_stage_inputs(rlx_program *p)
{
    if (!p->n_bound[RLX_SLOT_INPUT] || rlx__placement_direct(p))
        return RLX_OK;
    for (uint32_t i = 0; i < p->n_slots[RLX_SLOT_INPUT]; i++) {
        rlx__slot *slot = &p->slots[RLX_SLOT_INPUT][i];
        rlx_status st;
        if (slot->tensor &&
            (st = rlx_tensor_read(slot->tensor, slot->host, slot->nbytes)) !=
                RLX_OK)
            return st;
    }
    return RLX_OK;
}

rlx_status rlx__program_collect_outputs(rlx_program *p)
{
    if (!p->n_bound[RLX_SLOT_OUTPUT] || rlx__placement_direct(p))
        return RLX_OK;
    for (uint32_t i = 0; i < p->n_slots[RLX_SLOT_OUTPUT]; i++) {
        rlx__slot *slot = &p->slots[RLX_SLOT_OUTPUT][i];
        rlx_status st;
        if (slot->tensor &&
            (st = rlx_tensor_write(slot->tensor, slot->host, slot->nbytes)) !=
                RLX_OK)
            return st;
    }
    return RLX_OK;
}
