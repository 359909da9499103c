/* program.h - the program record, shared by program.c, bind.c and
 * tensor.c. */
#ifndef RLX_PROGRAM_H
#define RLX_PROGRAM_H

#include "internal.h"
#include "placement.h"

typedef struct rlx__slot {
    char *name;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t shape[RLX_MAX_RANK];
    size_t nbytes;
    void *host;         /* inputs and outputs: host copy */
    rlx_buffer *buffer; /* params: the backend's buffer */
    rlx_tensor *tensor; /* inputs and outputs: the bound tensor, or NULL */
    int set;
    int fresh;          /* outputs: host holds the last run's result */
} rlx__slot;

struct rlx_program {
    const rlx_backend *backend;
    uint32_t device_index;
    rlx_executable *exe;
    uint32_t n_nodes;
    uint32_t n_slots[4];           /* indexed by rlx_slot_kind */
    rlx__slot *slots[4];
    uint32_t n_bound[4];           /* slots bound to a tensor, per kind */
    /* argument arrays built once so run allocates nothing */
    rlx_buffer **param_bufs;
    const void **input_ptrs;       /* NULL where bound on DEVICE_IO */
    void **output_ptrs;
    rlx_buffer **input_bufs;       /* DEVICE_IO: bound tensors' buffers */
    rlx_buffer **output_bufs;
    int has_run;
    rlx__placement *place;         /* split over pieces, or NULL */
    rlx__place_report report;      /* where each node runs */
    /* programs from rlx_model_compile: the per-shape programs
     * (model_shapes.c), or NULL */
    struct rlx__shapes *shapes;
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
/* The execute arguments of P's next run. */
void rlx__program_exec_args(const rlx_program *p, rlx_execute_args *args);
/* After a run: which outputs hold host results. */
void rlx__program_ran(rlx_program *p);

/* ---- bind.c ---------------------------------------------------------- */

/* Drop slot INDEX of KIND's tensor (if any): the slot is host memory
 * again. An input becomes unset. */
void rlx__program_unbind(rlx_program *p, rlx_slot_kind kind, uint32_t index);
/* Backends without device I/O: copy bound inputs' tensors into the host
 * slots before execute, and host outputs into bound tensors after. */
void rlx__program_stage_inputs(rlx_program *p);
void rlx__program_collect_outputs(rlx_program *p);

#endif /* RLX_PROGRAM_H */
