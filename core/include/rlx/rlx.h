/*
 * rlx/rlx.h - the public API of librlx.
 *
 * Applications build a graph, open a session on a device, compile the
 * graph into a program, set its params once and run it with named inputs.
 * Backends are found at run time in plugin files; see rlx/plugin.h.
 *
 * Conventions: every fallible call returns rlx_status; on failure its
 * output pointers are set to NULL (or 0) and rlx_last_error() holds a
 * message for this thread that ends in a "Fix: ..." line. Handles are
 * opaque and each has a create/destroy pair; destroy accepts NULL.
 *
 * Threads: an rlx_runtime may be shared by threads once created; sessions
 * may be created concurrently. A graph, a session and a program are used
 * by one thread at a time.
 */
#ifndef RLX_RLX_H
#define RLX_RLX_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/abi.h>
#include <rlx/ops.h>
#include <rlx/status.h>
#include <rlx/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(RLX_BUILDING_LIBRARY) && (defined(__GNUC__) || defined(__clang__))
#define RLX_API __attribute__((visibility("default")))
#else
#define RLX_API
#endif

#define RLX_VERSION_MAJOR 0
#define RLX_VERSION_MINOR 1
#define RLX_VERSION_PATCH 0
#define RLX_VERSION_STRING "0.1.0"

typedef struct rlx_runtime rlx_runtime;
typedef struct rlx_backend rlx_backend;
typedef struct rlx_graph rlx_graph;
typedef struct rlx_session rlx_session;
typedef struct rlx_program rlx_program;
typedef struct rlx_tensor rlx_tensor;

/* A value in a graph: the result of one node. */
typedef uint32_t rlx_value;
#define RLX_VALUE_NONE UINT32_MAX

/* ---- versions, names, errors ---------------------------------------- */

RLX_API const char *rlx_version(void);      /* "0.1.0" */
RLX_API uint32_t rlx_abi_version(void);     /* RLX_ABI_VERSION of the core */
RLX_API const char *rlx_status_name(rlx_status status);   /* "RLX_ERR_SHAPE" */
RLX_API const char *rlx_status_string(rlx_status status); /* "shape mismatch" */
RLX_API const char *rlx_dtype_name(rlx_dtype dtype);      /* "f32" */
RLX_API const char *rlx_device_kind_name(rlx_device_kind kind); /* "cuda" */
RLX_API const char *rlx_op_name(rlx_op op);                /* "matmul" */
/* Parse names back; RLX_ERR_NOT_FOUND for an unknown name. */
RLX_API rlx_status rlx_dtype_from_name(const char *name, rlx_dtype *out);
RLX_API rlx_status rlx_op_from_name(const char *name, rlx_op *out);
/* Message of this thread's last failed call; "" when none. */
RLX_API const char *rlx_last_error(void);

/* ---- runtime: registry and plugin loader ----------------------------- */

/* rlx_runtime_create flags */
#define RLX_RUNTIME_NO_DISCOVERY 0x1u /* skip RLX_PLUGIN_PATH and plugindir */
/* scan every plugin file again in the scanner, ignoring the registry
 * cache (as RLX_PLUGIN_SCAN=rescan, which a set-user-ID process ignores;
 * docs/scanner.md) */
#define RLX_RUNTIME_RESCAN 0x2u

/* Register the built-in reference CPU backend, then (unless
 * RLX_RUNTIME_NO_DISCOVERY) scan RLX_PLUGIN_PATH and the system plugin
 * directory. Rejected files never fail this call; see the diagnostics. */
RLX_API rlx_status rlx_runtime_create(rlx_runtime **out, uint32_t flags);
/* Frees everything. No session, program or tensor of RT may still exist. */
RLX_API void rlx_runtime_destroy(rlx_runtime *rt);

/* Scan a colon-separated list of directories for librlx-backend-*.so, in
 * that order, each directory's files in byte order of their names. A
 * name seen earlier (in this call or a previous one) shadows later files. */
RLX_API rlx_status rlx_runtime_discover(rlx_runtime *rt, const char *dirs);
/* Load one plugin file by path. Fails, with the reason, if it is rejected;
 * the rejection is also kept in the diagnostics. Safe while other threads
 * use the runtime: new sessions see the new backends. */
RLX_API rlx_status rlx_runtime_load_plugin(rlx_runtime *rt, const char *path);
/* Take a loaded plugin's backends out of the registry, so new sessions no
 * longer see them. Sessions and programs already using them keep working;
 * the backends are destroyed and the file closed when the last of those
 * is released. The built-in backend cannot be unloaded. */
RLX_API rlx_status rlx_runtime_unload_plugin(rlx_runtime *rt,
                                             const char *path);
/* The system plugin directory compiled into this librlx. */
RLX_API const char *rlx_plugin_dir(void);
/* Directories searched so far, in order, with where each came from
 * ("RLX_PLUGIN_PATH", "system" or "rlx_runtime_discover"); NULL past the
 * end. Strings live as long as RT. */
RLX_API const char *rlx_runtime_search_dir(const rlx_runtime *rt,
                                           uint32_t index,
                                           const char **source);

/* Registered backends, in registration order. The list is a snapshot;
 * backend handles stay valid until the runtime is destroyed. */
RLX_API uint32_t rlx_runtime_backend_count(const rlx_runtime *rt);
RLX_API const rlx_backend *rlx_runtime_backend(const rlx_runtime *rt,
                                               uint32_t index);
RLX_API const rlx_backend *rlx_runtime_find_backend(const rlx_runtime *rt,
                                                    const char *id);

/* The best available executing backend for a device name ("cpu", "cuda",
 * "npu"), or NULL with the reason in rlx_last_error(). */
RLX_API const rlx_backend *rlx_runtime_choose(rlx_runtime *rt,
                                              const char *device);

/* Files that were found but not loaded, and shadowed files. */
typedef enum rlx_diag_kind {
    RLX_DIAG_REJECTED = 1, /* the file (or one of its backends) was refused */
    RLX_DIAG_SHADOWED = 2, /* a file of the same name came earlier */
    RLX_DIAG_VARIANT = 3   /* a variant another variant outscored here */
} rlx_diag_kind;
RLX_API const char *rlx_diag_kind_name(rlx_diag_kind kind); /* "shadowed" */
RLX_API uint32_t rlx_runtime_diag_count(const rlx_runtime *rt);
/* Each string out-parameter may be NULL; strings live as long as RT. */
RLX_API rlx_status rlx_runtime_diag(const rlx_runtime *rt, uint32_t index,
                                    rlx_diag_kind *kind, const char **path,
                                    const char **reason, const char **fix);

/* Selection policy: RLX_BACKEND_FORCE ("cpu=cpu-ref,..."), then
 * RLX_BACKEND_DISABLE ("glob,..."), then the config file. Returns 1 when
 * B may be chosen automatically; *why (may be NULL) gets a sentence
 * naming the rule and where it came from, or NULL when no rule applies.
 * The text is valid until the next call on this thread. */
RLX_API int rlx_runtime_backend_allowed(const rlx_runtime *rt,
                                        const rlx_backend *b,
                                        const char **why);
/* The config file that was read, or NULL. */
RLX_API const char *rlx_runtime_config_path(const rlx_runtime *rt);

/* ---- backends -------------------------------------------------------- */

RLX_API const char *rlx_backend_id(const rlx_backend *b);
RLX_API rlx_device_kind rlx_backend_device_kind(const rlx_backend *b);
/* "cpu", "cuda", ... or the custom kind's own name. */
RLX_API const char *rlx_backend_device_name(const rlx_backend *b);
RLX_API int32_t rlx_backend_priority(const rlx_backend *b);
RLX_API int rlx_backend_executes(const rlx_backend *b);
/* 1 when B keeps bound tensors in its device's memory and runs read and
 * write them there (RLX_BACKEND_DEVICE_IO, a plugin of ABI 1.2 or later);
 * 0 when binding costs one host copy per run instead. */
RLX_API int rlx_backend_device_io(const rlx_backend *b);
/* 1 when rlx_program_submit on B queues runs and returns before they
 * finish (device I/O and the "rlx.queue.v1" extension, rlx/queue.h); 0
 * when submit runs to completion, as rlx_program_run does. */
RLX_API int rlx_backend_queues(const rlx_backend *b);
RLX_API const char *rlx_backend_description(const rlx_backend *b);
/* Plugin file path, or "(built-in)". */
RLX_API const char *rlx_backend_plugin_path(const rlx_backend *b);
/* ABI version the plugin was compiled against. */
RLX_API uint32_t rlx_backend_abi_version(const rlx_backend *b);
RLX_API int rlx_backend_supports_op(const rlx_backend *b, rlx_op op,
                                    rlx_dtype dtype);
/* B's extension table named NAME ("vendor.feature.v1"; ABI 1.3
 * get_extension), or NULL when B has none of that name, has no
 * get_extension slot (plugins older than 1.3) or was unloaded. The table
 * starts with a uint32_t struct_size; its layout is defined by whoever
 * defined NAME. It stays valid while B's plugin is loaded. */
RLX_API const void *rlx_backend_get_extension(const rlx_backend *b,
                                              const char *name);
/* Describe device INDEX of B (name, type, memory, driver details; see
 * rlx_device_info in rlx/types.h). Set out->struct_size = sizeof
 * (rlx_device_info) first. RLX_ERR_UNSUPPORTED when the backend cannot
 * describe its devices, RLX_ERR_NOT_FOUND for an index it does not have. */
RLX_API rlx_status rlx_backend_device(const rlx_backend *b, uint32_t index,
                                      rlx_device_info *out);
/* The plugin's host-fit score (rlx_plugin_host_fit), or -1 when it has
 * none. */
RLX_API int32_t rlx_backend_host_fit(const rlx_backend *b);
/* 0 once the backend's plugin has been unloaded. */
RLX_API int rlx_backend_is_loaded(const rlx_backend *b);
/* Run the availability probe now. On RLX_OK, *device_count is set; on
 * failure rlx_last_error() holds the reason and its Fix. */
RLX_API rlx_status rlx_backend_probe(const rlx_backend *b,
                                     uint32_t *device_count);
/* The same, also giving the probe's RLX_PROBE_* flags (rlx/types.h):
 * RLX_PROBE_SOFTWARE marks a software device such as lavapipe. */
RLX_API rlx_status rlx_backend_probe_ex(const rlx_backend *b,
                                        uint32_t *device_count,
                                        uint32_t *flags);

/* ---- graphs ---------------------------------------------------------- */

RLX_API rlx_status rlx_graph_create(rlx_graph **out);
RLX_API void rlx_graph_destroy(rlx_graph *g);

/* Sources. Names are unique per graph; dims may hold 0 (empty tensor). */
RLX_API rlx_status rlx_graph_input(rlx_graph *g, const char *name,
                                   rlx_dtype dtype, uint32_t rank,
                                   const int64_t *dims, rlx_value *out);
RLX_API rlx_status rlx_graph_param(rlx_graph *g, const char *name,
                                   rlx_dtype dtype, uint32_t rank,
                                   const int64_t *dims, rlx_value *out);
/* DATA is copied: product(dims) elements of DTYPE, row-major. */
RLX_API rlx_status rlx_graph_constant(rlx_graph *g, const char *name,
                                      rlx_dtype dtype, uint32_t rank,
                                      const int64_t *dims, const void *data,
                                      rlx_value *out);

typedef struct rlx_attrs {
    uint32_t n_ints;
    const int64_t *ints;
    uint32_t n_floats;
    const double *floats;
} rlx_attrs;

/* Add an op node. NAME may be NULL (one is made up); ATTRS may be NULL
 * (defaults). Shapes and dtypes are checked now: a mismatch fails with a
 * message naming the node, the op and both shapes, and adds nothing. */
RLX_API rlx_status rlx_graph_add_node(rlx_graph *g, const char *name,
                                      rlx_op op, uint32_t n_inputs,
                                      const rlx_value *inputs,
                                      const rlx_attrs *attrs, rlx_value *out);
/* Mark VALUE as a graph output called NAME. */
RLX_API rlx_status rlx_graph_output(rlx_graph *g, const char *name,
                                    rlx_value value);

RLX_API uint32_t rlx_graph_node_count(const rlx_graph *g);
/* Name and op of node V (a value is the node that makes it); either
 * out-parameter may be NULL; the name lives as long as G. */
RLX_API rlx_status rlx_graph_node(const rlx_graph *g, rlx_value v,
                                  const char **name, rlx_op *op);
/* Shape of a value; *dims points into the graph. */
RLX_API rlx_status rlx_graph_value_shape(const rlx_graph *g, rlx_value v,
                                         rlx_dtype *dtype, uint32_t *rank,
                                         const int64_t **dims);

/* ---- plugin settings (ABI 1.3 get_option) ------------------------------ */

/* The settings plugins of RT have asked for so far, in first-asked order
 * (for listings such as `rlx devices`); NULL past the end. */
RLX_API uint32_t rlx_runtime_option_count(rlx_runtime *rt);
RLX_API const char *rlx_runtime_option_name(rlx_runtime *rt, uint32_t i);
/* NAME resolved as a plugin outside any session sees it: environment
 * (RLX_ + NAME upper-cased, '.' and '-' as '_'), then the config file.
 * RLX_OK with the value; RLX_ERR_NOT_FOUND when unset (VALUE ""). SOURCE
 * (may be NULL) receives where it came from: the variable's name or the
 * config file's path (when unset, the variable that would set it). */
RLX_API rlx_status rlx_runtime_get_option(rlx_runtime *rt, const char *name,
                                          char *value, size_t value_size,
                                          char *source, size_t source_size);

/* ---- custom ops: foreign kernels called by C signature (docs/custom-ops.md)
 *
 * A custom node calls a C function from another library (or from the
 * application) through libffi, with no glue code: its signature is given
 * as text ("void(i32, f32, f32*, i32, f32*, i32)") and each argument comes
 * from a tensor, a tensor's size or a literal. Custom nodes always run on
 * the CPU, in the core, on host memory; in a graph compiled for another
 * device they are placed on the host and their tensors moved there. A
 * custom node has one output. A whole-tensor kernel gets pointers and
 * must write all of the output (or start from a copy of an input,
 * INIT_INPUT, for kernels that update in place, like cblas_saxpy). An
 * elementwise kernel (RLX_CUSTOM_ELEMENTWISE: a scalar function such as
 * libm's erff) is called once per output element with the elements of
 * its tensor arguments, and returns that output element. */

typedef enum rlx_custom_arg_kind {
    RLX_CUSTOM_ARG_TENSOR = 1, /* pointer to input INDEX's data (read-only) or,
                                  INDEX RLX_CUSTOM_OUTPUT, the output's */
    RLX_CUSTOM_ARG_NUMEL = 2,  /* element count of tensor INDEX */
    RLX_CUSTOM_ARG_DIM = 3,    /* dimension AXIS of tensor INDEX (<0: from
                                  the end) */
    RLX_CUSTOM_ARG_INT = 4,    /* the literal I */
    RLX_CUSTOM_ARG_FLOAT = 5   /* the literal F (for f32 and f64 params) */
} rlx_custom_arg_kind;

#define RLX_CUSTOM_OUTPUT UINT32_MAX

typedef struct rlx_custom_arg {
    rlx_custom_arg_kind kind;
    uint32_t index;  /* TENSOR, NUMEL, DIM: input index or RLX_CUSTOM_OUTPUT */
    int32_t axis;    /* DIM */
    int64_t i;       /* INT */
    double f;        /* FLOAT */
} rlx_custom_arg;

/* A kernel called from C: the function's type does not matter, its
 * signature string says how to call it. */
typedef void (*rlx_custom_fn)(void);

typedef struct rlx_custom_op {
    uint32_t struct_size;   /* sizeof(rlx_custom_op) */
    /* Either LIBRARY and SYMBOL: a path or soname and a function in it,
     * loaded under the rules of docs/custom-ops.md when the graph is
     * compiled, if the application allowed it
     * (rlx_runtime_allow_custom_ops); or FN: a function of the
     * application (LIBRARY NULL). */
    const char *library;
    const char *symbol;
    rlx_custom_fn fn;
    /* "RET(T, ...)": RET void or an integer type (a non-zero value fails
     * the run), or for ELEMENTWISE the output's element type; T one of
     * i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 ptr, or a typed pointer
     * f32* i32* ... checked against the tensor's dtype. */
    const char *signature;
    uint32_t n_args;
    const rlx_custom_arg *args;
    /* The output. */
    rlx_dtype dtype;
    uint32_t rank;
    const int64_t *dims;
    /* Input index whose data the output starts as (an in-place kernel
     * such as cblas_saxpy, which overwrites y), or -1 for none. */
    int32_t init_input;
    /* Directory that relative library paths are under (a model's own);
     * NULL: relative paths are refused. */
    const char *base_dir;
    uint32_t flags;         /* RLX_CUSTOM_* */
} rlx_custom_op;

/* Call the kernel once per output element: a TENSOR argument passes that
 * element's value (a one-element tensor passes its only element), typed
 * by the signature (f32 for an f32 tensor, ...), and the kernel's return
 * value, of the output's dtype, is the output element. */
#define RLX_CUSTOM_ELEMENTWISE 0x1u

/* Add a custom node calling OP's function on INPUTS. The signature, its
 * arity and each argument's type are checked now (a mismatch fails naming
 * the argument and adds nothing); the library is loaded and the symbol
 * found when the graph is compiled. NAME may be NULL. */
RLX_API rlx_status rlx_graph_add_custom(rlx_graph *g, const char *name,
                                        uint32_t n_inputs,
                                        const rlx_value *inputs,
                                        const rlx_custom_op *op,
                                        rlx_value *out);

/* A model file is data: a custom node's LIBRARY is opened (at compile
 * time, never when a model is loaded) only when the application allowed
 * it here (docs/security.md). PATH is a library file (the model may name
 * it by path or by its file name), a directory (bare names in a model
 * are looked up there, and paths inside it are allowed), or a bare
 * soname such as "libm.so.6" (a model naming exactly that soname gets it
 * through the system loader). Files and directories are resolved now
 * (symlinks, ".."), and must exist. The C library, the dynamic loader
 * and anything under the system library directories load only when
 * allowed by their exact file or soname, never through a directory.
 * Custom nodes given a function pointer (FN) need no allowance. The
 * runtime's list applies to every session of RT (and its runners);
 * thread-safe. */
RLX_API rlx_status rlx_runtime_allow_custom_ops(rlx_runtime *rt,
                                                const char *path);

/* Register OP's kernel for op OP_TYPE of the custom domain DOMAIN
 * ("com.example", "MyGelu"), for model importers (ONNX) that meet nodes
 * of custom domains: without a registration such a node is refused by
 * name. OP is copied (its output dtype and shape are ignored: the
 * importer infers them); a LIBRARY in it counts as allowed by its exact
 * name for RT's sessions. */
RLX_API rlx_status rlx_runtime_register_custom_op(rlx_runtime *rt,
                                                  const char *domain,
                                                  const char *op_type,
                                                  const rlx_custom_op *op);
/* ---- sessions and programs ------------------------------------------ */

/* DEVICE: NULL or "" for the best available (RLX_DEVICE, then the order
 * tpu, cuda, rocm, vulkan, custom kinds, cpu), a device name with an
 * optional index ("cuda", "cuda:1", "npu"), or a backend id ("cpu-ref"). */
RLX_API rlx_status rlx_session_create(rlx_runtime *rt, const char *device,
                                      rlx_session **out);
RLX_API void rlx_session_destroy(rlx_session *s);
RLX_API const rlx_backend *rlx_session_backend(const rlx_session *s);
RLX_API uint32_t rlx_session_device_index(const rlx_session *s);
/* Why this backend: candidates considered and the reason each lost. */
RLX_API const char *rlx_session_explain(const rlx_session *s);
/* How far later compiles may trade precision for speed (rlx/types.h):
 * STRICT (the default, or RLX_PRECISION=strict), ALLOW_TF32 ("tf32": f32
 * matmuls may use TF32 units) or ALLOW_REDUCED ("reduced"). */
RLX_API rlx_status rlx_session_set_precision(rlx_session *s,
                                             rlx_precision precision);
RLX_API rlx_precision rlx_session_precision(const rlx_session *s);
/* Plugin setting NAME ("cuda.matmul") for this session's later compiles:
 * it wins over the environment (RLX_CUDA_MATMUL) and the config file's
 * `options:`. VALUE NULL removes it. See docs/abi.md, "Settings". */
RLX_API rlx_status rlx_session_set_option(rlx_session *s, const char *name,
                                          const char *value);
/* rlx_runtime_allow_custom_ops for this session's later compiles only. */
RLX_API rlx_status rlx_session_allow_custom_ops(rlx_session *s,
                                                const char *path);

/* Validate, remove dead nodes, check every live op against the backend,
 * compile. When the session chose its device itself and the backend
 * cannot take the graph, the next candidate is tried (and the session
 * moves to it); with an explicit device the first unsupported op is named. */
RLX_API rlx_status rlx_session_compile(rlx_session *s, const rlx_graph *g,
                                       rlx_program **out);
RLX_API void rlx_program_destroy(rlx_program *p);

/* Copy a param's data into the backend (once; later runs reuse it).
 * NBYTES must equal the param's size. Every param must be set before run. */
RLX_API rlx_status rlx_program_set_param(rlx_program *p, const char *name,
                                         const void *data, size_t nbytes);
/* Inputs are copied at set time. Setting an input that is bound to a
 * tensor unbinds it first: the host data given here wins. */
RLX_API rlx_status rlx_program_set_input(rlx_program *p, const char *name,
                                         const void *data, size_t nbytes);
/* Where input NAME lives: a buffer of *nbytes that the program owns and
 * hands to the backend at every run (a GPU backend may have pinned it for
 * DMA). Writing the input there saves the copy rlx_program_set_input
 * makes. Valid until the program is destroyed; marks the input as set.
 * Fails (NULL) while the input is bound to a tensor; while bound, what is
 * written here is not read. */
RLX_API void *rlx_program_input_buffer(rlx_program *p, const char *name,
                                       size_t *nbytes);
/* Run once. Bound inputs are read from their tensors and bound outputs
 * written to theirs; after a failed run a bound output's contents are
 * unspecified. */
RLX_API rlx_status rlx_program_run(rlx_program *p);

RLX_API uint32_t rlx_program_input_count(const rlx_program *p);
RLX_API uint32_t rlx_program_param_count(const rlx_program *p);
RLX_API uint32_t rlx_program_output_count(const rlx_program *p);
/* Describe input, param or output I; any out-parameter may be NULL. */
typedef enum rlx_slot_kind {
    RLX_SLOT_INPUT = 1,
    RLX_SLOT_PARAM = 2,
    RLX_SLOT_OUTPUT = 3
} rlx_slot_kind;
RLX_API rlx_status rlx_program_slot(const rlx_program *p, rlx_slot_kind kind,
                                    uint32_t index, const char **name,
                                    rlx_dtype *dtype, uint32_t *rank,
                                    const int64_t **dims);
/* Output I of the last run, owned by P until the next run or destroy.
 * NULL for an output that is bound to a tensor, or was during the last
 * run: its data is in the tensor (rlx_tensor_read). */
RLX_API const void *rlx_program_output_data(const rlx_program *p,
                                            uint32_t index, size_t *nbytes);
/* Nodes the program kept after dead-code elimination. */
RLX_API uint32_t rlx_program_node_count(const rlx_program *p);

/* ---- capability: which nodes a backend can run (docs/placement.md) --- */

/* One question decides everywhere (sessions, placement, the runner,
 * `rlx check`): can backend B run node N? The op and dtype
 * (supports_op), then the node's shapes and attributes (a 1.3 plugin's
 * supports_node), then RLX_OPS_DISABLE ("cuda:gelu,softmax,npu:matmul":
 * a backend id, device name or * before the colon). Sources (inputs,
 * params, constants) are fed by the core and never asked about. */
typedef struct rlx_capability rlx_capability;
/* The report for every node of G on B (dead nodes are not asked). */
RLX_API rlx_status rlx_capability_create(const rlx_backend *b,
                                         const rlx_graph *g,
                                         rlx_capability **out);
RLX_API void rlx_capability_destroy(rlx_capability *c);
RLX_API uint32_t rlx_capability_node_count(const rlx_capability *c);
RLX_API uint32_t rlx_capability_unsupported_count(const rlx_capability *c);
/* *SUPPORTED: 1 yes, 0 no, -1 not asked (a source, a dead node, or a
 * custom node, which the core runs on the host); *WHY
 * one line saying why not ("" when supported). Strings live as long as
 * C. */
RLX_API rlx_status rlx_capability_node(const rlx_capability *c,
                                       rlx_value node, int *supported,
                                       const char **why);
/* The first node B cannot run, or RLX_VALUE_NONE; *WHY (may be NULL)
 * its reason. */
RLX_API rlx_value rlx_capability_first_unsupported(const rlx_capability *c,
                                                   const char **why);

/* ---- placement: one program over several backends -------------------- */

/* What rlx_session_compile does when the session's backend cannot run
 * every node. The default is RLX_FALLBACK, else SPLIT. */
typedef enum rlx_fallback {
    /* the nodes it cannot run go to the best CPU backend that can; the
     * pieces run in order as one program, tensors crossing through host
     * memory (one copy per crossing, none between CPU pieces) */
    RLX_FALLBACK_SPLIT = 0,
    /* the whole graph moves: to the next candidate device when the
     * session chose its device, else to the best CPU backend */
    RLX_FALLBACK_WHOLE = 1,
    /* refuse: the error names the first node and the device */
    RLX_FALLBACK_NONE = 2
} rlx_fallback;
RLX_API rlx_status rlx_session_set_fallback(rlx_session *s, rlx_fallback f);
RLX_API rlx_fallback rlx_session_fallback(const rlx_session *s);

#define RLX_PIECE_NONE UINT32_MAX
/* Where node NODE of the compiled graph runs: *PIECE its piece (pieces
 * run in order) or RLX_PIECE_NONE for sources and removed dead nodes;
 * *BACKEND the piece's backend and *DEVICE_INDEX its device, or NULL
 * when the core itself runs the node (a host piece). Any out-parameter
 * may be NULL. */
RLX_API rlx_status rlx_program_placement(const rlx_program *p,
                                         rlx_value node,
                                         const rlx_backend **backend,
                                         uint32_t *device_index,
                                         uint32_t *piece);
/* The backend the program was compiled for (a split program's main
 * backend) and its device index. */
RLX_API const rlx_backend *rlx_program_backend(const rlx_program *p);
RLX_API uint32_t rlx_program_device_index(const rlx_program *p);
/* Pieces (1 for a program on one backend). */
RLX_API uint32_t rlx_program_piece_count(const rlx_program *p);
/* Tensors handed from one piece to another at every run. */
RLX_API uint32_t rlx_program_transfer_count(const rlx_program *p);
/* Compute nodes that run anywhere but on the program's backend. */
RLX_API uint32_t rlx_program_fallback_count(const rlx_program *p);
/* One line: "41 nodes on cuda:0, 2 on cpu-openblas (gelu x2), 4
 * transfers". Lives as long as P. */
RLX_API const char *rlx_program_placement_summary(const rlx_program *p);

/* ---- the multi-device runner (docs/multi-device.md) ------------------ */

/* One graph on every device it may run on: programs compiled lazily per
 * device and cached, params set once and mirrored to every device
 * compiled before or after, runs on a named device, on the best one, or
 * along a fallback chain, and device choice by measurement. Built only
 * on the public session and program API. One thread at a time. */
typedef struct rlx_runner rlx_runner;
/* POLICY (NULL: RLX_DEVICE_POLICY, else "default"): "default" (the
 * session's automatic order), "prefer-cpu", "prefer-gpu", "prefer-npu"
 * (custom kinds and TPUs first), "max-performance" (measure on the
 * caller's inputs), or "cpu-only", "gpu-only", "npu-only". Backends
 * RLX_BACKEND_FORCE, RLX_BACKEND_DISABLE or the config file rule out are
 * left out. The graph is copied. Fails when no device satisfies the
 * policy. */
RLX_API rlx_status rlx_runner_create(rlx_runtime *rt, const rlx_graph *g,
                                     const char *policy, rlx_runner **out);
RLX_API void rlx_runner_destroy(rlx_runner *r);
/* Devices the policy allows, best first ("cuda:0", "npu:0", "cpu:0"). */
RLX_API uint32_t rlx_runner_device_count(const rlx_runner *r);
RLX_API const char *rlx_runner_device(const rlx_runner *r, uint32_t index);
/* Kept by the runner and given to every program, now and later. */
RLX_API rlx_status rlx_runner_set_param(rlx_runner *r, const char *name,
                                        const void *data, size_t nbytes);
RLX_API rlx_status rlx_runner_set_input(rlx_runner *r, const char *name,
                                        const void *data, size_t nbytes);
/* The program for DEVICE (a device name, "name:index" or a backend id),
 * compiled on first use; owned by the runner. */
RLX_API rlx_status rlx_runner_program(rlx_runner *r, const char *device,
                                      rlx_program **out);
/* Compile for every device the policy allows now (seed 004's warm_all),
 * so later runs start at once; each device is an attempt
 * (rlx_runner_attempt). *COMPILED (may be NULL) counts the programs. Fails
 * only when no device compiles. */
RLX_API rlx_status rlx_runner_compile_all(rlx_runner *r, uint32_t *compiled);
/* Drop every cached program and the benchmark's winner (after plugins
 * were loaded or unloaded, say); params and inputs are kept and go to the
 * programs compiled next. */
RLX_API void rlx_runner_clear(rlx_runner *r);
/* Run on DEVICE, or (NULL) on the best device: the policy's first, or
 * under "max-performance" the benchmark's winner. *RAN (may be NULL) is
 * the program that ran: read its outputs there. */
RLX_API rlx_status rlx_runner_run(rlx_runner *r, const char *device,
                                  rlx_program **ran);
/* Try each device of CHAIN ("cuda,vulkan,cpu"; NULL: RLX_DEVICE_CHAIN,
 * else the policy's order) until one compiles and runs. Every attempt is
 * recorded (rlx_runner_attempt); on failure the error lists them. */
RLX_API rlx_status rlx_runner_run_chain(rlx_runner *r, const char *chain,
                                        rlx_program **ran);
RLX_API uint32_t rlx_runner_attempt_count(const rlx_runner *r);
/* Attempt INDEX of the last run: its device, status (RLX_OK for the one
 * that ran) and reason. */
RLX_API rlx_status rlx_runner_attempt(const rlx_runner *r, uint32_t index,
                                      const char **device,
                                      rlx_status *status,
                                      const char **reason);
/* Called with every program the runner compiles, after its params are
 * set, so an application can set what the runner does not hold (a
 * model's weights: rlx_model_set_params) or inputs per program. A
 * failure fails that compile. FN NULL removes the hook. */
typedef rlx_status (*rlx_runner_compile_hook)(void *ctx, rlx_program *p);
RLX_API rlx_status rlx_runner_set_compile_hook(rlx_runner *r,
                                               rlx_runner_compile_hook fn,
                                               void *ctx);
/* The fallback policy of every session the runner compiles with (see
 * rlx_session_set_fallback). Until this is called, each session has its
 * default (RLX_FALLBACK, else SPLIT). Cached programs compiled under
 * another policy are dropped (rlx_runner_clear). */
RLX_API rlx_status rlx_runner_set_fallback(rlx_runner *r, rlx_fallback f);
/* The chain rlx_runner_run_chain and rlx_runner_benchmark use when given
 * none: RLX_DEVICE_CHAIN's value, or NULL when it is unset or empty, or
 * the process ignores its environment (set-user-ID). An application that
 * runs one session can say the chain is not what it used. */
RLX_API const char *rlx_runner_default_chain(void);
/* Time each device of DEVICES (a chain; NULL: RLX_DEVICE_CHAIN, else
 * every allowed device) on the inputs set so far: one warm-up run, then
 * RUNS timed runs. The fastest becomes the runner's best device; *WINNER
 * (may be NULL) names it. */
RLX_API rlx_status rlx_runner_benchmark(rlx_runner *r, const char *devices,
                                        uint32_t runs, const char **winner);
RLX_API uint32_t rlx_runner_bench_count(const rlx_runner *r);
/* Row INDEX of the last benchmark: device, median milliseconds per run
 * (negative when it failed), status and reason. */
RLX_API rlx_status rlx_runner_bench_result(const rlx_runner *r,
                                           uint32_t index,
                                           const char **device, double *ms,
                                           rlx_status *status,
                                           const char **reason);

/* ---- tensors: run inputs and outputs that stay on the device --------- */

/* A tensor in the memory of P's device (one of the backend's buffers), so
 * runs can read inputs and write outputs there with no host copy, and one
 * program's output can feed another's input on the device (compare ONNX
 * Runtime's IoBinding). DATA NULL: zeros; else row-major bytes of the
 * whole tensor. The tensor keeps P's backend loaded, can be bound to any
 * program on the same backend and device, and outlives P; destroy it
 * before the runtime. On a backend without device I/O
 * (rlx_backend_device_io() is 0) it is host memory and every run copies
 * it once: the same results, one copy. */
RLX_API rlx_status rlx_tensor_create(rlx_program *p, rlx_dtype dtype,
                                     uint32_t rank, const int64_t *dims,
                                     const void *data, rlx_tensor **out);
/* Drop the caller's reference. Programs it is bound to keep it alive
 * until they unbind it or are destroyed. */
RLX_API void rlx_tensor_destroy(rlx_tensor *t);
/* Overwrite the whole tensor from host DATA; NBYTES must equal its size. */
RLX_API rlx_status rlx_tensor_write(rlx_tensor *t, const void *data,
                                    size_t nbytes);
/* Copy the whole tensor to host DST; NBYTES must equal its size. */
RLX_API rlx_status rlx_tensor_read(const rlx_tensor *t, void *dst,
                                   size_t nbytes);
/* Any out-parameter may be NULL; *dims points into the tensor. */
RLX_API rlx_status rlx_tensor_shape(const rlx_tensor *t, rlx_dtype *dtype,
                                    uint32_t *rank, const int64_t **dims);

/* Where T's data lives, for libraries that share tensors without
 * copies (DLPack: PyTorch, CuPy, JAX): *ADDRESS its first byte, valid
 * while T lives; *KIND one of RLX_MEMORY_* (rlx/types.h, DLPack's device
 * type numbers: CPU 1, CUDA 2, ROCm 10) and *ID the device's number
 * there (the CUDA ordinal). Queued runs of T's device are waited for
 * first. RLX_ERR_UNSUPPORTED where T's backend keeps tensors in memory
 * no other library addresses (Vulkan, PJRT): rlx_tensor_read copies. */
RLX_API rlx_status rlx_tensor_memory(rlx_tensor *t, void **address,
                                     int32_t *kind, int32_t *id);
/* A tensor over memory the caller owns: ADDRESS on device (KIND, ID) as
 * rlx_tensor_memory names it, row-major, aligned to the element size,
 * DTYPE and DIMS; no copy. It must be memory P's device uses (host
 * memory for a CPU backend, the same CUDA device for cuda), else
 * RLX_ERR_UNSUPPORTED says which device would take it. Runs read and
 * write that memory in place. RELEASE(CTX), when not NULL, is called
 * once when the last reference to the tensor goes (after its last
 * run), also when this call fails; the caller keeps the memory alive
 * until then. */
RLX_API rlx_status rlx_tensor_wrap(rlx_program *p, rlx_dtype dtype,
                                   uint32_t rank, const int64_t *dims,
                                   void *address, int32_t kind, int32_t id,
                                   void (*release)(void *ctx), void *ctx,
                                   rlx_tensor **out);

/* Bind T as input or output NAME of P (KIND RLX_SLOT_INPUT or
 * RLX_SLOT_OUTPUT; params already stay on the device): later runs read or
 * write it there, with no host copy where the backend supports device I/O.
 * T's dtype and shape must equal the slot's, and T must come from a
 * program on the same backend and device. Binding an input marks it set.
 * One tensor may feed several inputs, but a tensor bound to an output of
 * P is bound to no other slot of P. T NULL unbinds: the slot goes back to
 * host memory, and an unbound input is unset until set again. P holds a
 * reference on T while bound. While P runs, other threads may read the
 * tensors bound to P's inputs (rlx_tensor_read, or as inputs of their own
 * programs) but must not write them, nor touch P's output tensors. */
RLX_API rlx_status rlx_program_bind(rlx_program *p, rlx_slot_kind kind,
                                    const char *name, rlx_tensor *t);

/* Queue one run of P and return without waiting for it, where P's
 * backend queues runs (rlx_backend_queues) and every input and output of
 * P is bound to a tensor; otherwise run it to completion here, exactly as
 * rlx_program_run. Queued runs of one device execute in the order
 * submitted, across programs, so a program may read a tensor that an
 * earlier submitted run of another program writes. The launch and the
 * wait of a run on a GPU cost microseconds, so queuing many runs and
 * waiting once is faster than running each (docs/abi.md, "Queued runs").
 * A failure found while queuing is returned here and nothing is queued;
 * one that happens while a run executes is returned by the next wait. */
RLX_API rlx_status rlx_program_submit(rlx_program *p);
/* Block until every run queued on P's device has finished. RLX_OK, or the
 * error of the first queued run of that device that failed since the
 * last wait. Reading or writing a tensor of the device
 * (rlx_tensor_read, rlx_tensor_write), rlx_program_run, setting a param
 * and destroying a program or tensor wait the same way first, so results
 * are never read early, and return a queued run's failure as theirs. Same
 * threading rules as rlx_program_run. */
RLX_API rlx_status rlx_program_wait(rlx_program *p);

/* ---- models: ONNX, or YAML graph + safetensors weights --------------- */
/* (docs/model-format.md) */

typedef struct rlx_model rlx_model;

/* Load the model at PATH: an ONNX file (recognised by its content) or a
 * YAML model with its safetensors weights. Validate it and build the
 * graph (an ONNX model's for its inputs' declared shapes, a symbolic or
 * unknown dimension taken as 1 until rlx_model_set_input_shape). Errors
 * name the file, the line and column or the node, and end with a Fix;
 * nothing is left half-loaded. A model is data: this opens no library
 * and runs no code (a custom op's library opens at compile time, if
 * allowed: rlx_runtime_allow_custom_ops). */
RLX_API rlx_status rlx_model_load(const char *path, rlx_model **out);
RLX_API void rlx_model_destroy(rlx_model *m);
/* The model's graph, owned by the model. NULL (and rlx_last_error says
 * why) while an ONNX model needs an input's value to be built: a shape
 * argument fed as an input, see rlx_model_set_input_value. */
RLX_API const rlx_graph *rlx_model_graph(const rlx_model *m);
RLX_API const char *rlx_model_name(const rlx_model *m);
/* Set every param of P (compiled from this model's graph) from the
 * model's weights. */
RLX_API rlx_status rlx_model_set_params(const rlx_model *m, rlx_program *p);
/* "onnx" or "rlx" (YAML). */
RLX_API const char *rlx_model_format(const rlx_model *m);

/* The model's inputs as declared: DIMS holds -1 for a symbolic or
 * unknown dimension, whose name (ONNX dim_param) is SYMBOLS[i] (NULL when
 * it has none); any out-parameter may be NULL. */
RLX_API uint32_t rlx_model_input_count(const rlx_model *m);
RLX_API rlx_status rlx_model_input(const rlx_model *m, uint32_t index,
                                   const char **name, rlx_dtype *dtype,
                                   uint32_t *rank, const int64_t **dims,
                                   const char *const **symbols);
/* Give input NAME concrete dims (declared dims must match) and rebuild
 * the graph for them: every shape computation of the model is folded
 * again. On failure the model keeps its previous shapes and graph. A
 * graph got from rlx_model_graph before is invalid after this call. */
RLX_API rlx_status rlx_model_set_input_shape(rlx_model *m, const char *name,
                                             uint32_t rank,
                                             const int64_t *dims);

/* Fix input NAME of an ONNX model to DATA (DTYPE, RANK, DIMS as the
 * input's, at most 65536 elements): it becomes a constant and leaves the
 * graph's inputs, so shape arguments fed as inputs (a Reshape's shape, a
 * Slice's starts) fold. DATA NULL makes it an input again. The graph is
 * rebuilt as by rlx_model_set_input_shape. */
RLX_API rlx_status rlx_model_set_input_value(rlx_model *m, const char *name,
                                             rlx_dtype dtype, uint32_t rank,
                                             const int64_t *dims,
                                             const void *data);

/* Compile the model's graph on S and set its params: a program that
 * follows its inputs' shapes. rlx_program_set_input_shape on it compiles
 * the model again for new shapes (or takes a program compiled before for
 * them from a cache of at most RLX_MODEL_SHAPE_CACHE shape signatures per
 * program, least recently used evicted). M and S must outlive the
 * program; compiling for new shapes changes M's current shapes. */
#define RLX_MODEL_SHAPE_CACHE 8
RLX_API rlx_status rlx_model_compile(rlx_model *m, rlx_session *s,
                                     rlx_program **out);
/* Run P with input NAME of these dims from now on. A program from
 * rlx_model_compile records them and, at the next rlx_program_set_input,
 * rlx_program_input_buffer, run or submit, switches to (and if need be
 * compiles) the program for its inputs' new shapes, so inputs that share
 * a dimension change one after the other; errors of that compile are
 * returned there. Its inputs must then be set again (tensors bound to it
 * must be unbound first). Any other program accepts only the shape it
 * was compiled for. */
RLX_API rlx_status rlx_program_set_input_shape(rlx_program *p,
                                               const char *name,
                                               uint32_t rank,
                                               const int64_t *dims);

/* ONNX models: per ONNX node (in the order lowered), its name, op type,
 * first output (the rlx nodes made for it are named "OUTPUT#...") and
 * what it became in the rlx graph ("matmul, add", "constant
 * (folded)"). Count 0 for a YAML model. */
RLX_API uint32_t rlx_model_source_node_count(const rlx_model *m);
RLX_API rlx_status rlx_model_source_node(const rlx_model *m, uint32_t index,
                                         const char **name,
                                         const char **op_type,
                                         const char **output,
                                         const char **lowered);

#ifdef __cplusplus
}
#endif

#endif /* RLX_RLX_H */
