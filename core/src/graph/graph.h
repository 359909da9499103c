/*
 * graph.h - the graph room (prefix rlx__): the graph record the builder
 * API fills, shape inference, the view backends get, and custom nodes'
 * signatures and specs (the graph checks them; ffi/ calls them).
 * It builds on base/ only (docs/architecture.md).
 */
#ifndef RLX__GRAPH_H
#define RLX__GRAPH_H

#include "base/base.h"

/* ---- graph.c ---------------------------------------------------------- */

typedef struct rlx__node {
    rlx_op op;
    char *name;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t shape[RLX_MAX_RANK];
    uint32_t n_inputs;
    uint32_t *inputs;
    uint32_t n_ints;
    int64_t *ints;
    uint32_t n_floats;
    double *floats;
    void *data;       /* CONSTANT */
    uint32_t slot;    /* INPUT/PARAM */
    struct rlx__custom *custom; /* RLX__OP_CUSTOM: the owned spec */
} rlx__node;

typedef struct rlx__output {
    char *name;
    uint32_t node;
} rlx__output;

struct rlx_graph {
    rlx__node *nodes;
    uint32_t n_nodes, cap_nodes;
    uint32_t n_inputs, n_params;
    rlx__output *outputs;
    uint32_t n_outputs;
    /* node and output names -> index; the node index catches up with
     * NODES lazily (a clone starts without one) */
    rlx__hash node_names, output_names;
};

/* A unique, non-empty NAME for a new node, or an error. */
rlx_status rlx__graph_check_name(rlx_graph *g, const char *name);
/* Append NODE (which the graph then owns); 0 on out of memory. */
int rlx__graph_push(rlx_graph *g, const rlx__node *node);

/* Elements of a shape, or -1 when it overflows. */
int64_t rlx__shape_elements(uint32_t rank, const int64_t *dims);
/* Check a dtype and shape given by the application (known dtype, rank,
 * dims >= 0, size fits); *NBYTES gets the size. Errors name NAME. */
rlx_status rlx__shape_check(const char *name, rlx_dtype dtype,
                            uint32_t rank, const int64_t *dims,
                            size_t *nbytes);

/* A deep copy of G, for a program that keeps its own (graph.c). */
rlx_status rlx__graph_clone(const rlx_graph *g, rlx_graph **out);

/* ---- shape.c ---------------------------------------------------------- */

/* Infer the result of OP on INPUTS; on mismatch sets an error naming
 * NAME. OUT gets dtype, rank and shape. */
rlx_status rlx__shape_infer(const rlx_graph *g, const char *name, rlx_op op,
                            uint32_t n_inputs, const uint32_t *inputs,
                            const rlx_attrs *attrs, rlx__node *out);

/* ---- view.c: dead-code elimination and the view backends get ---------- */

typedef struct rlx__view {
    rlx_graph_view view;
    rlx_node_view *nodes;
    const rlx_node_view **node_ptrs;
    uint32_t *inputs, *params, *outputs;
    uint32_t *edges;          /* every node's input list, one block */
    uint32_t *remap;          /* graph node -> view node, UINT32_MAX dead */
    const rlx_graph *graph;
} rlx__view;

rlx_status rlx__view_build(const rlx_graph *g, rlx__view *out);
void rlx__view_free(rlx__view *v);

/* ---- custom nodes: signatures (custom_sig.c), specs (graph_custom.c) -- */

#define RLX__SIG_MAX_ARGS 32

/* C types a signature may name. */
typedef enum rlx__ftype {
    RLX__FT_VOID = 0,
    RLX__FT_I8, RLX__FT_I16, RLX__FT_I32, RLX__FT_I64,
    RLX__FT_U8, RLX__FT_U16, RLX__FT_U32, RLX__FT_U64,
    RLX__FT_F32, RLX__FT_F64,
    RLX__FT_PTR
} rlx__ftype;

typedef struct rlx__sig {
    rlx__ftype ret;                       /* VOID or an integer type */
    uint32_t n;
    rlx__ftype args[RLX__SIG_MAX_ARGS];
    /* PTR args: the pointee's dtype ("f32*"), RLX_DTYPE_INVALID for an
     * untyped "ptr" / "void*" */
    rlx_dtype pointee[RLX__SIG_MAX_ARGS];
} rlx__sig;

/* ---- custom_sig.c ------------------------------------------------------ */

/* Parse TEXT; on failure writes a reason naming the position to ERR. */
int rlx__sig_parse(const char *text, rlx__sig *out, char *err, size_t size);
const char *rlx__ftype_name(rlx__ftype t);
int rlx__ftype_is_int(rlx__ftype t);
int rlx__ftype_is_float(rlx__ftype t);
/* 1 when V fits integer type T. */
int rlx__ftype_fits(rlx__ftype t, int64_t v);
/* The C type of one element of DTYPE, VOID for f16/bf16/bool. */
rlx__ftype rlx__ftype_of_dtype(rlx_dtype dtype);


typedef struct rlx__custom {
    char *library, *symbol, *signature, *base_dir;
    rlx_custom_fn fn;
    rlx__sig sig;
    uint32_t n_args;
    rlx_custom_arg *args;
    int32_t init_input;
    uint32_t flags;             /* RLX_CUSTOM_* */
} rlx__custom;

void rlx__custom_free(rlx__custom *c);
/* A deep copy of the spec; NULL on out of memory. */
rlx__custom *rlx__custom_dup(const rlx__custom *c);

/* A deep copy of OP as a spec (graph_custom.c); NULL on out of memory. */
rlx__custom *rlx__custom_from_op(const rlx_custom_op *op, const rlx__sig *sig);

#endif /* RLX__GRAPH_H */
