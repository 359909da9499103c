/* program.h - the program record, shared by program.c, bind.c and
 * tensor.c. */
#ifndef RLX_PROGRAM_H
#define RLX_PROGRAM_H

#include "exec.h"
#include "placement.h"

typedef struct rlx__slot {
    char *name;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t shape[RLX_MAX_RANK];
    size_t nbytes;
    void *host;         /* inputs and outputs: host copy */
    rlx_tensor *tensor; /* inputs and outputs: the bound tensor, or NULL */
    int set;
    int fresh;          /* outputs: host holds the last run's result */
} rlx__slot;

struct rlx_program {
    const rlx_backend *backend;    /* where its tensors live */
    uint32_t device_index;
    uint32_t n_nodes;
    uint32_t n_slots[4];           /* indexed by rlx_slot_kind */
    rlx__slot *slots[4];
    uint32_t n_bound[4];           /* slots bound to a tensor, per kind */
    int has_run;
    /* The one view every piece is compiled from. Its node records point
     * into the caller's graph (compile time only) unless GRAPH holds a
     * private copy, made when a host piece reads them at run time. */
    rlx__view view;
    rlx_graph *graph;
    rlx__placement *place;         /* the pieces, in run order */
    rlx__place_report report;      /* where each node runs */
    /* programs from rlx_model_compile: the per-shape programs
     * (model_shapes.c), or NULL */
    struct rlx__shapes *shapes;
    /* set with SHAPES by model_shapes.c, whose room (model) comes after
     * this one: switch to the dims set last, and free SHAPES */
    rlx_status (*shapes_apply)(rlx_program *p);
    void (*shapes_free)(struct rlx__shapes *shapes);
    /* programs that run a model in stages (onnx/model_staged.c): their
     * run and free, or NULL */
    rlx_status (*staged_run)(rlx_program *p);
    void (*staged_free)(void *staged);
    void *staged;
};

/* Slot NAME of KIND and its index, or NULL. */
rlx__slot *rlx__program_find_slot(const rlx_program *p, rlx_slot_kind kind,
                                  const char *name, uint32_t *index);

/* RLX_OK when every param and input of P is set, else an error naming
 * the first that is not and CALL ("rlx_program_run"). */
rlx_status rlx__program_check_ready(const rlx_program *p, const char *call);
/* After a run: which outputs hold host results. */
void rlx__program_ran(rlx_program *p);

/* ---- bind.c ---------------------------------------------------------- */

/* Drop slot INDEX of KIND's tensor (if any): the slot is host memory
 * again. An input becomes unset. */
void rlx__program_unbind(rlx_program *p, rlx_slot_kind kind, uint32_t index);
/* Bound tensors a run does not hand the backend as buffers: copy the
 * inputs' into their host slots before the pieces run, and the host
 * outputs into theirs after. */
rlx_status rlx__program_stage_inputs(rlx_program *p);
rlx_status rlx__program_collect_outputs(rlx_program *p);

#endif /* RLX_PROGRAM_H */
