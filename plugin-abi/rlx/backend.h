/*
 * rlx/backend.h - what a backend implements: its info and its vtable.
 *
 * Rules (docs/abi.md has the long form):
 * - Every struct starts with struct_size, set by its writer to sizeof as
 *   compiled. Readers never touch a field past it; a missing field means
 *   "absent". Fields are only appended, each marked with its version.
 * - Slots marked Required must be non-NULL; the core checks Optional ones
 *   and falls back. A backend without RLX_BACKEND_EXECUTES needs only
 *   supports_op.
 * - Capability questions (supports_op, supports_node) are about compute
 *   nodes only: the core never asks about sources (RLX_OP_INPUT,
 *   RLX_OP_PARAM, RLX_OP_CONSTANT). Every executing backend takes them;
 *   a backend declares only the compute ops it implements.
 * - Whoever allocates frees: executables and buffers are destroyed through
 *   the backend's own slots. Strings passed in are borrowed for the call.
 * - Every fallible slot returns rlx_status; on failure it reports a
 *   message ending in a "Fix: ..." remediation through rlx_host_report()
 *   and leaves its output pointers untouched.
 * - Threads: probe and supports_op may run concurrently from any thread.
 *   compile, buffer_create, buffer_read and buffer_write may run
 *   concurrently with each other and with execute on other executables.
 *   A given executable runs at most one execute at a time; a buffer is
 *   not written or destroyed while an execute that uses it runs. execute
 *   returns only when its work is complete: a later buffer_read sees it.
 */
#ifndef RLX_BACKEND_H
#define RLX_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "abi.h"
#include "graph_view.h"
#include "status.h"
#include "types.h"

/* Opaque to the core; each backend defines them. */
typedef struct rlx_executable rlx_executable;
typedef struct rlx_buffer rlx_buffer;

typedef struct rlx_tensor_desc {
    uint32_t struct_size;
    /* --- since 1.0 --- */
    rlx_dtype dtype;
    uint32_t rank;
    const int64_t *shape;
} rlx_tensor_desc;

typedef struct rlx_compile_options {
    uint32_t struct_size;
    /* --- since 1.0 --- */
    uint32_t device_index;    /* which of the backend's devices */
    rlx_precision precision;
    /* --- since 1.4 --- */
    /* The settings this compile runs with: get_option(option_context,
     * NAME, VALUE, VALUE_SIZE) answers like rlx_host.get_option, but for
     * the session being compiled (its rlx_session_set_option values come
     * first). Both are the core's and valid only while compile runs, on
     * any thread: a backend reads what it needs there and keeps the
     * values. Plugins call rlx_compile_get_option (rlx/plugin.h), which
     * falls back to the host for older cores. */
    rlx_status (*get_option)(const void *option_context, const char *name,
                             char *value, size_t value_size);
    const void *option_context;
} rlx_compile_options;

typedef struct rlx_probe_result {
    uint32_t struct_size;
    /* --- since 1.0 --- */
    uint32_t device_count;    /* usable devices; the core preset 1 */
    /* --- since 1.1 --- */
    uint32_t flags;           /* RLX_PROBE_*; the core preset 0. Check
                                 RLX_HAS_FIELD(out->struct_size,
                                 rlx_probe_result, flags) before writing */
} rlx_probe_result;

/* rlx_probe_result.flags: RLX_PROBE_* (rlx/types.h). */

typedef struct rlx_execute_args {
    uint32_t struct_size;
    /* --- since 1.0 --- */
    uint32_t n_params;
    rlx_buffer *const *params;   /* one per param slot, this backend's */
    uint32_t n_inputs;
    const void *const *inputs;   /* host memory, row-major, per input slot */
    uint32_t n_outputs;
    void *const *outputs;        /* host memory the core allocated */
    /* --- since 1.2; only to backends with RLX_BACKEND_DEVICE_IO --- */
    /* Per slot: NULL, or one of this backend's buffers (same device as
     * the executable, the slot's dtype and size) bound by the
     * application. A bound input is read from the buffer and its
     * inputs[i] is NULL; a bound output is written to the buffer and its
     * outputs[i] is NULL. Either array may be NULL: nothing bound. */
    rlx_buffer *const *input_buffers;
    rlx_buffer *const *output_buffers;
} rlx_execute_args;

/* rlx_device_info (device_describe) and rlx_precision are in rlx/types.h:
 * the public API uses them too. */

typedef struct rlx_backend_vtable {
    uint32_t struct_size;
    /* --- since 1.0 --- */

    /* Optional. Is this backend usable on this host now? Do the least
     * that answers: no context creation. RLX_OK or RLX_ERR_UNAVAILABLE
     * with a reported reason and Fix. Absent means always available. */
    rlx_status (*probe)(void *backend, rlx_probe_result *out);

    /* Required. Nonzero when the backend executes OP on DTYPE (the dtype
     * of the node's result). Unknown values must answer 0. Never asked
     * about sources (input, param, constant), which every executing
     * backend takes. */
    int (*supports_op)(void *backend, rlx_op op, rlx_dtype dtype);

    /* Required with EXECUTES. Compile a validated graph. */
    rlx_status (*compile)(void *backend, const rlx_graph_view *graph,
                          const rlx_compile_options *options,
                          rlx_executable **out);
    /* Required with EXECUTES. */
    void (*executable_destroy)(void *backend, rlx_executable *exe);

    /* Required with EXECUTES. A device buffer initialised from host DATA
     * (row-major, desc's dtype and shape); params live in these so GPU
     * backends keep weights resident across runs. Since 1.2, with
     * RLX_BACKEND_DEVICE_IO: DATA may be NULL for a zero-filled buffer. */
    rlx_status (*buffer_create)(void *backend, uint32_t device_index,
                                const rlx_tensor_desc *desc,
                                const void *data, rlx_buffer **out);
    /* Required with EXECUTES. Copy NBYTES of the buffer to host DST. */
    rlx_status (*buffer_read)(void *backend, rlx_buffer *buffer, void *dst,
                              size_t nbytes);
    /* Required with EXECUTES. */
    void (*buffer_destroy)(void *backend, rlx_buffer *buffer);

    /* Required with EXECUTES. Run once: read inputs and params, write
     * every output. Sizes match the graph view given to compile. The core
     * passes the same input and output pointers at every run of an
     * executable, valid until executable_destroy returns, so a backend
     * may pin them for DMA once; a slot bound to a buffer (since 1.2) has
     * a NULL pointer instead. A buffer bound to an output is bound to no
     * other slot of the same run. */
    rlx_status (*execute)(void *backend, rlx_executable *exe,
                          const rlx_execute_args *args);

    /* Optional. Called once when the backend is unregistered, after its
     * last executable and buffer are gone; frees BACKEND. */
    void (*backend_destroy)(void *backend);

    /* --- since 1.1 --- */
    /* Optional. Describe device INDEX (below the probe's device_count):
     * fill OUT's fields up to out->struct_size, which the core sets and
     * zero-fills. Cheap: may run whenever `rlx devices` lists. */
    rlx_status (*device_describe)(void *backend, uint32_t index,
                                  rlx_device_info *out);

    /* --- since 1.2 --- */
    /* Required with RLX_BACKEND_DEVICE_IO, else optional. Overwrite the
     * whole buffer (NBYTES, its size) from host SRC. Not called while an
     * execute that uses the buffer runs. */
    rlx_status (*buffer_write)(void *backend, rlx_buffer *buffer,
                               const void *src, size_t nbytes);

    /* --- since 1.3 --- */
    /* Optional. Finer than supports_op, asked at placement time: can this
     * backend compute node NODE of GRAPH (a compute node: the core never
     * asks about input, param or constant nodes) with its dtypes, shapes
     * and attributes? Nonzero: yes. 0: no, and WHY (WHY_SIZE bytes, never
     * NULL) may say why in one line ("softmax only on the last axis").
     * Called only for nodes whose op and dtype supports_op accepted.
     * Absent: supports_op alone decides. May run concurrently. */
    int (*supports_node)(void *backend, const rlx_graph_view *graph,
                         uint32_t node, char *why, size_t why_size);

    /* Optional. The backend's extension table named NAME
     * ("vendor.feature.v1"), or NULL when it has none of that name. The
     * table's layout is defined by whoever defines the name, starts with
     * a uint32_t struct_size and lives as long as the backend. Lets
     * optional features arrive without new vtable slots. */
    const void *(*get_extension)(void *backend, const char *name);
} rlx_backend_vtable;

/* rlx_backend_info.flags */
/* Since 1.0: the backend runs graphs. Without it the backend is listed and
 * answers capability queries (supports_op, `rlx ops`) but no session is
 * ever opened on it; it needs only supports_op. The old name for this,
 * "emission-only", is retired (1.3): the core has no emit slot, and a
 * backend that emits code offers that as an extension (get_extension,
 * e.g. "acme.emit.v1"). See docs/abi.md, "Backends that do not execute". */
#define RLX_BACKEND_EXECUTES 0x1u
/* Since 1.2: execute honours rlx_execute_args.input_buffers and
 * output_buffers, buffer_create takes DATA == NULL, and buffer_write is
 * implemented, so applications keep run inputs and outputs on the device
 * (rlx_tensor). The core ignores the flag from plugins built for 1.0/1.1. */
#define RLX_BACKEND_DEVICE_IO 0x2u

/* Priorities (RLX_PRIORITY_*): rlx/types.h. */

typedef struct rlx_backend_info {
    uint32_t struct_size;
    /* --- since 1.0 --- */
    const char *id;            /* Required. 1-63 chars of [a-z0-9._-],
                                  unique in the process: "cpu-openblas" */
    rlx_device_kind device_kind;
    const char *device_name;   /* Required for RLX_DEVICE_CUSTOM: the kind's
                                  name, [a-z0-9_]+ ("npu"); else ignored */
    int32_t priority;
    uint32_t flags;            /* RLX_BACKEND_* */
    const char *description;   /* Optional, one line */
    const rlx_backend_vtable *vtable; /* Required; must outlive the plugin */
    void *backend;             /* first argument of every vtable slot */
} rlx_backend_info;

#endif /* RLX_BACKEND_H */
