/*
 * exec.h - the execution room (prefix rlx__): tensors, what a backend can
 * run, queued runs, host-run nodes. program.h, placement.h and session.h
 * hold the program, its pieces and the session. It builds on base/,
 * graph/, plugin/ and ffi/ (docs/architecture.md).
 */
#ifndef RLX__EXEC_H
#define RLX__EXEC_H

#include "ffi/ffi.h"
#include "graph/graph.h"
#include "plugin/plugin.h"

/* ---- queue.c: runs queued on a device ("rlx.queue.v1") -------------- */


/* Wait for the runs queued on DEVICE of B, if any: every call that hands
 * the backend a buffer or executable of that device goes through here
 * first. RLX_OK, or the error of a queued run that failed. */
rlx_status rlx__queue_drain(const rlx_backend *b, uint32_t device);

/* ---- session.c: the session's settings -------------------------------- */

/* rlx_compile_options.get_option (ABI 1.4): CONTEXT is the session being
 * compiled, whose own settings come before the host's sources. */
rlx_status rlx__compile_get_option(const void *context, const char *name,
                                   char *value, size_t value_size);

/* ---- tensor.c: tensors bound to program inputs and outputs ---------- */

/*
 * An rlx_tensor. On a backend with RLX_BACKEND_DEVICE_IO it is one of the
 * backend's buffers; elsewhere it is host memory the core owns and copies
 * to and from the program's host slots around each run. REFS counts the
 * application's handle and every binding; the last release frees it.
 */
struct rlx_tensor {
    _Atomic uint32_t refs;
    const rlx_backend *backend;  /* holds a reference on its plugin */
    uint32_t device_index;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t shape[RLX_MAX_RANK];
    size_t nbytes;
    rlx_buffer *buffer;          /* DEVICE_IO backends: the backend's */
    void *host;                  /* other backends: the core's memory */
    int borrowed;                /* rlx_tensor_wrap: HOST or BUFFER's
                                    memory is the application's, */
    void (*release)(void *ctx);  /* given back through this */
    void *release_ctx;
};

void rlx__tensor_acquire(rlx_tensor *t);
void rlx__tensor_release(rlx_tensor *t);

/* ---- capability.c: can backend B run a node? ------------------------ */

/* 1 for INPUT, PARAM and CONSTANT: the core feeds them, no backend is
 * asked about them. */
int rlx__op_is_source(rlx_op op);
/* Can B run node NODE of V? Sources: always 1, nothing asked. Otherwise
 * supports_op, then supports_node (ABI 1.3, when present), then the
 * RLX_OPS_DISABLE mask; 0 with a one-line reason in WHY. The one function
 * every capability question goes through. */
int rlx__capability_node(const rlx_backend *b, const rlx_graph_view *v,
                         uint32_t node, char *why, size_t why_size);
/* First node B cannot run, or UINT32_MAX; WHY gets its reason. */
uint32_t rlx__view_first_unsupported(const rlx__view *v, const rlx_backend *b,
                                     char *why, size_t why_size);
/* RLX_ERR_INVALID_ARGUMENT (with a Fix) when RLX_OPS_DISABLE is set but
 * malformed or names an unknown op. */
rlx_status rlx__ops_mask_check(void);

/* ---- placement.c, placement_host.c: host-run nodes -------------------- */

/*
 * Placement assigns each compute node a target: a backend (and device),
 * or "host": the core runs the node itself. Host nodes become host pieces
 * (one node each) that run between the backend pieces, reading their
 * inputs from and writing their result to host memory
 * (core/src/exec/placement.h has the piece interface: a backend-executable
 * piece is one implementation, a host piece another).
 *
 * To add a host-run node kind (e.g. custom ops called through libffi):
 *   1. write a `const rlx__host_kind` with CLAIMS (1 for the nodes it
 *      runs; asked before any backend, never about sources) and RUN;
 *   2. add its address to rlx__host_kinds[] in placement_host.c.
 * Placement then puts every claimed node in a host piece, whatever the
 * fallback policy, and the program reports it with a NULL backend.
 * RUN keeps nothing between calls but PREPARE's state: the node view
 * (attributes, shapes, and inputs[j] for input j) stays valid while the
 * program lives.
 */
typedef struct rlx__host_kind {
    const char *name;   /* "ffi": shown in placement summaries */
    int (*claims)(const rlx_graph_view *v, uint32_t node);
    /* Compute node NODE of V: INPUTS[j] is input j's data (host, row-
     * major), OUTPUT the node's result (host, its dtype and shape). STATE
     * is what PREPARE made (NULL without one). On failure set the error
     * (rlx__error, with a Fix) and return it. */
    rlx_status (*run)(void *state, const rlx_graph_view *v, uint32_t node,
                      const void *const *inputs, void *output);
    /* Optional: once per program, when the piece is built (compile
     * time): node GNODE of the program's own graph G, which lives as long
     * as the program, for session S (what it allows; NULL: nothing
     * beyond the runtime's rules). *STATE goes to every RUN and to
     * RELEASE. */
    rlx_status (*prepare)(const rlx_graph *g, uint32_t gnode,
                          const rlx_session *s, void **state);
    void (*release)(void *state);
} rlx__host_kind;
/* NULL-terminated. */
extern const rlx__host_kind *const rlx__host_kinds[];
/* The host kind that claims NODE, or NULL. */
const rlx__host_kind *rlx__host_kind_for(const rlx_graph_view *v,
                                         uint32_t node);

/* ---- host_ffi.c: the host kind that runs custom nodes ----------------- */

extern const rlx__host_kind rlx__host_kind_ffi;

#endif /* RLX__EXEC_H */
