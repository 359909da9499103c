/*
 * model.h - the model room (prefix rlx__): the safetensors reader, the op
 * attribute schema, the tree-to-graph builder and the model record
 * (docs/model-format.md). The JSON and YAML parsers it reads with are in
 * base/base.h. It builds on every room but runner/ (docs/architecture.md).
 */
#ifndef RLX_MODEL_H
#define RLX_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"

/* ---- safetensors.c: a validated, memory-mapped weights file ---------- */

typedef struct rlx__st_tensor {
    char *name;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t shape[RLX_MAX_RANK];
    uint64_t begin, end;    /* data_offsets, relative to the data area */
    const void *data;       /* into the mapping */
} rlx__st_tensor;

typedef struct rlx__safetensors {
    char *path;
    void *map;
    size_t map_size;
    uint32_t n;
    rlx__st_tensor *tensors; /* sorted by name */
} rlx__safetensors;

/* Open, map and validate PATH. Errors start with PATH and end with a
 * Fix; *OUT is NULL on failure. */
rlx_status rlx__safetensors_open(const char *path, rlx__safetensors **out);
void rlx__safetensors_close(rlx__safetensors *st);
const rlx__st_tensor *rlx__safetensors_find(const rlx__safetensors *st,
                                            const char *name);
/* "F32" -> RLX_DTYPE_F32; RLX_DTYPE_INVALID for an unknown name. */
rlx_dtype rlx__safetensors_dtype(const char *name);

/* ---- model_sniff.c: what kind of file a model path names ------------ */

typedef enum rlx__model_format {
    RLX__MODEL_FORMAT_YAML = 1, /* text: an rlx YAML model (or unreadable) */
    RLX__MODEL_FORMAT_ONNX,     /* a protobuf starting with ir_version */
    RLX__MODEL_FORMAT_SAFETENSORS,
    RLX__MODEL_FORMAT_NPY,
    RLX__MODEL_FORMAT_UNKNOWN   /* binary data of no format rlx knows */
} rlx__model_format;

/* From PATH's first bytes. A path that cannot be opened as a regular file
 * counts as YAML: the YAML loader then says why it cannot be read. */
rlx__model_format rlx__model_format_sniff(const char *path);

/* ---- op_attrs.c: YAML attribute names -> int_attrs / float_attrs ----- */

typedef enum rlx__attr_kind {
    RLX__ATTR_BOOL = 1,     /* true/false -> 1/0 */
    RLX__ATTR_INT,
    RLX__ATTR_FLOAT,        /* float_attrs */
    RLX__ATTR_INTS,         /* a list filling int_attrs from INDEX on */
    RLX__ATTR_DTYPE,        /* a dtype name -> its rlx_dtype value */
    RLX__ATTR_GELU,         /* erf|tanh */
    RLX__ATTR_SLICE_AXES,   /* slice: (axis, start, end) triples */
    RLX__ATTR_SLICE_STARTS,
    RLX__ATTR_SLICE_ENDS
} rlx__attr_kind;

typedef struct rlx__attr_schema {
    rlx_op op;
    const char *name;
    rlx__attr_kind kind;
    uint32_t index;
    double dflt;            /* for scalar attributes */
    int required;
} rlx__attr_schema;

/* The row for OP's attribute NAME, or NULL. */
const rlx__attr_schema *rlx__attr_find(rlx_op op, const char *name);
/* Row I of the table (NULL past the end). */
const rlx__attr_schema *rlx__attr_row(uint32_t i);
/* OP's attribute names, comma-separated, or "none" into BUF. */
const char *rlx__attr_names(rlx_op op, char *buf, size_t size);

/* Attributes of one node, converted. Arrays are malloc'd; free with
 * rlx__node_attrs_free. */
typedef struct rlx__node_attrs {
    uint32_t n_ints, n_floats;
    int64_t *ints;
    double *floats;
} rlx__node_attrs;

/* Convert the YAML mapping ATTRS (may be NULL: defaults) of node NAME,
 * op OP, into int/float attributes. Errors are located in PATH, at the
 * offending YAML node or else at AT (the node's own mapping). */
rlx_status rlx__attrs_convert(const char *path, const char *name, rlx_op op,
                              const rlx__ynode *at, const rlx__ynode *attrs,
                              rlx__node_attrs *out);
void rlx__node_attrs_free(rlx__node_attrs *a);

/* ---- model_values.c: scalars, located errors, constants' values ----- */

/* Located error: "PATH:LINE:COL: " + message. */
rlx_status rlx__model_error(rlx_status st, const char *path,
                            const rlx__ynode *at, const char *fmt, ...)
    RLX__PRINTF(4, 5);
/* Scalar parsers; each fails with a located error naming WHAT. */
rlx_status rlx__yaml_int(const char *path, const rlx__ynode *n,
                         const char *what, int64_t *out);
rlx_status rlx__yaml_float(const char *path, const rlx__ynode *n,
                           const char *what, double *out);
rlx_status rlx__yaml_bool(const char *path, const rlx__ynode *n,
                          const char *what, int *out);

/* The inline VALUE of constant NAME (a scalar, a flat list or lists
 * nested like the shape) as DTYPE elements in a malloc'd buffer. */
rlx_status rlx__constant_values(const char *path, const char *name,
                                rlx_dtype dtype, uint32_t rank,
                                const int64_t *dims, const rlx__ynode *value,
                                void **out);

/* ---- model_build.c: tree + weights -> graph -------------------------- */

typedef struct rlx__model_parts {
    char *name;
    rlx_graph *graph;
    rlx__safetensors *weights; /* NULL when the model has no weights */
} rlx__model_parts;

/* Build the graph described by ROOT (loaded from PATH). On failure
 * everything built so far is freed and PARTS is left zeroed. */
rlx_status rlx__model_build(const char *path, const rlx__ynode *root,
                            rlx__model_parts *parts);

/* ---- model_custom.c: `op: custom` nodes ------------------------------ */

/* The value named NAME so far in the model, or RLX_VALUE_NONE. */
typedef rlx_value (*rlx__model_lookup)(void *ctx, const char *name);
/* Add custom node NAME described by the mapping E of model PATH. */
rlx_status rlx__model_custom(const char *path, rlx_graph *g,
                             const rlx__ynode *e, const char *name,
                             rlx__model_lookup lookup, void *ctx,
                             rlx_value *out);

/* ---- model.c, model_onnx.c: the model record ------------------------- */

struct rlx__onnx_model;

struct rlx_model {
    char *path;
    char *name;
    rlx_graph *graph;
    rlx__safetensors *weights; /* YAML models: NULL when it has none */
    struct rlx__onnx_model *onnx; /* ONNX models, else NULL */
    uint32_t n_report;         /* ONNX: what each node became */
    char **report;
    /* ONNX: why there is no graph (an input's value is needed: see
     * rlx_model_set_input_value), or NULL */
    char *pending;
    rlx_status pending_status;
    /* ONNX: the model needs run-time data to go on (an If on a run-time
     * condition, Loop, Scan, NonZero...): no graph; rlx_model_compile
     * makes a program that runs it in stages (onnx/model_staged.c) */
    int staged;
};

/* Is the file at PATH an ONNX model (by its first bytes, or its name
 * when it is too short to tell)? */
int rlx__model_is_onnx(const char *path);
/* Load the ONNX file PATH into M (path already set). */
rlx_status rlx__model_onnx_load(rlx_model *m);
/* Rebuild M's graph for its inputs' current dims; on failure M keeps its
 * graph. */
rlx_status rlx__model_onnx_relower(rlx_model *m);
rlx_status rlx__model_onnx_set_params(const rlx_model *m, rlx_program *p);
/* A program running staged model M on session S (which must outlive
 * it), for the inputs' current dims. */
rlx_status rlx__model_onnx_compile_staged(rlx_model *m, rlx_session *s,
                                          rlx_program **out);
void rlx__model_onnx_free(rlx_model *m);
/* Input I's declared and current dims (ONNX models). */
rlx_status rlx__model_onnx_input(const rlx_model *m, uint32_t i,
                                 const char **name, rlx_dtype *dtype,
                                 uint32_t *rank, const int64_t **decl,
                                 const char *const **sym, int64_t **cur);
uint32_t rlx__model_onnx_input_count(const rlx_model *m);
/* When input NAME is one that nothing in the model reads, give it
 * RANK/DIMS whatever its declared shape (and relower): *DONE 1. */
rlx_status rlx__model_onnx_unread_shape(rlx_model *m, const char *name,
                                        uint32_t rank, const int64_t *dims,
                                        int *done);
rlx_status rlx__model_onnx_set_value(rlx_model *m, const char *name,
                                     rlx_dtype dtype, uint32_t rank,
                                     const int64_t *dims, const void *data);
rlx_status rlx__model_onnx_node(const rlx_model *m, uint32_t i,
                                const char **name, const char **op_type,
                                const char **output, const char **lowered);

/* Give the N inputs NAMES the dims in SIG (rank, then dims, per input)
 * at once: one lowering. On failure M keeps its shapes. */
rlx_status rlx__model_set_shapes(rlx_model *m, uint32_t n,
                                 const char *const *names,
                                 const int64_t *sig);

/* ---- model_shapes.c: programs that follow their inputs' shapes ------- */

struct rlx__shapes;
/* Attach a shape cache for model M compiled on S to program P. */
rlx_status rlx__shapes_attach(rlx_program *p, rlx_model *m, rlx_session *s);
void rlx__shapes_free(struct rlx__shapes *c);
/* Switch P to the dims rlx_program_set_input_shape recorded, if any
 * (compiling for them when they are new). */
rlx_status rlx__shapes_apply(rlx_program *p);

#endif /* RLX_MODEL_H */

