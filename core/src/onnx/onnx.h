/*
 * onnx.h - the ONNX importer's internal declarations (prefix rlx__onnx).
 *
 * Parsing (onnx_parse.c) unpacks a ModelProto with the protobuf-c code
 * generated from onnx.proto at build time and checks it (onnx_check.c)
 * into an import model: inputs with symbolic dims, initializers (mapped
 * external data: onnx_external.c) and the nodes in topological order.
 * Lowering (onnx_lower.c) builds an rlx graph for concrete input shapes,
 * one table per op family (onnx_lower_<family>.c), folding everything
 * whose inputs are known to constants (onnx_eval.c, or cpu-ref).
 */
#ifndef RLX_ONNX_H
#define RLX_ONNX_H

#include <stddef.h>
#include <stdint.h>

#include "exec/exec.h"
#include "onnx.pb-c.h"

/* Limits: what the checks refuse (docs/model-format.md). */
#define RLX__ONNX_IR_MIN 3
#define RLX__ONNX_IR_MAX 10
#define RLX__ONNX_OPSET_MIN 1
#define RLX__ONNX_OPSET_MAX 21
#define RLX__ONNX_MAX_DEPTH 16           /* nested subgraphs */
#define RLX__ONNX_MAX_ELEMENTS (1LL << 36) /* per tensor: 256 GiB of f32 */
#define RLX__ONNX_FOLD_MAX 65536         /* elements a fold may make */

/* A tensor whose data the importer knows on the host. */
typedef struct rlx__onnx_tensor {
    const char *name;       /* borrowed from the proto */
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[RLX_MAX_RANK];
    const void *data;       /* product(dims) elements of dtype */
    void *owned;            /* what to free, or NULL (proto or mapping) */
} rlx__onnx_tensor;

/* A graph input: its dims as declared (-1 unknown or symbolic) and the
 * concrete dims the model is lowered for. */
typedef struct rlx__onnx_input {
    const char *name;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t decl[RLX_MAX_RANK];
    const char *sym[RLX_MAX_RANK]; /* dim_param names, or NULL */
    int64_t dims[RLX_MAX_RANK];
    void *value;            /* fixed data (rlx_model_set_input_value), or
                             * NULL: then a graph input */
} rlx__onnx_input;

typedef struct rlx__onnx_map {
    void *addr;
    size_t len;
} rlx__onnx_map;

typedef struct rlx__onnx_fnx rlx__onnx_fnx;

typedef struct rlx__onnx_model {
    Onnx__ModelProto *proto;
    rlx__onnx_fnx *fnx;     /* expanded local functions, or NULL */
    char *dir;              /* the model's folder (external data), or NULL */
    int64_t opset;          /* of the default domain */
    uint32_t n_inputs;
    rlx__onnx_input *inputs;
    uint32_t n_inits;
    rlx__onnx_tensor *inits;
    uint32_t n_nodes;
    const Onnx__NodeProto **nodes; /* topological order */
    uint32_t n_maps;
    rlx__onnx_map *maps;
} rlx__onnx_model;

/* ---- onnx_parse.c ---------------------------------------------------- */

/* Parse and check the serialized ModelProto BUF[0..LEN). DIR is the
 * folder external data is relative to (NULL: external data refused).
 * WHAT names the model in messages. The fuzzing entry point. */
rlx_status rlx__onnx_parse(const void *buf, size_t len, const char *dir,
                           const char *what, rlx__onnx_model **out);
void rlx__onnx_free(rlx__onnx_model *m);
/* Is BUF[0..LEN) plausibly a serialized ModelProto (not YAML)? */
int rlx__onnx_sniff(const void *buf, size_t len);

/* ---- onnx_check.c ---------------------------------------------------- */

/* A string -> index table (open addressing; keys borrowed). */
typedef struct rlx__onnx_names {
    uint32_t cap;
    const char **keys;
    int32_t *vals;
} rlx__onnx_names;

rlx_status rlx__onnx_names_init(rlx__onnx_names *t, size_t n);
void rlx__onnx_names_free(rlx__onnx_names *t);
/* The index of KEY, or -1. */
int32_t rlx__onnx_names_get(const rlx__onnx_names *t, const char *key);
/* Add KEY: 0, or 1 when it is already there (VAL not stored). */
int rlx__onnx_names_put(rlx__onnx_names *t, const char *key, int32_t val);

rlx_status rlx__onnx_check_model(const char *what, rlx__onnx_model *m);

/* ---- onnx_function.c ------------------------------------------------ */

/* Expand the calls of model-local functions in every graph of M. */
rlx_status rlx__onnx_functions_expand(const char *what, rlx__onnx_model *m);
/* The default-domain opset node N runs at (a function's own for its
 * body's nodes, else the model's). */
int64_t rlx__onnx_node_opset(const rlx__onnx_model *m,
                             const Onnx__NodeProto *n);
/* Give the proto its node lists back and free the expansion. */
void rlx__onnx_functions_free(rlx__onnx_model *m);

/* ---- onnx_tensor.c --------------------------------------------------- */

/* ONNX data type -> rlx dtype (INVALID when rlx has none). */
rlx_dtype rlx__onnx_dtype(int32_t onnx_type);
const char *rlx__onnx_type_name(int32_t onnx_type);
/* Decode TensorProto T (an initializer, a Constant's value) into OUT,
 * checking dims, dtype and size; external data through M. */
rlx_status rlx__onnx_tensor_decode(const char *what, rlx__onnx_model *m,
                                   const Onnx__TensorProto *t,
                                   rlx__onnx_tensor *out);
/* Elements of a shape, or -1 past RLX__ONNX_MAX_ELEMENTS. */
int64_t rlx__onnx_elements(uint32_t rank, const int64_t *dims);

/* ---- onnx_external.c ------------------------------------------------- */

/* The bytes [offset, offset+length) of external file LOCATION, mapped
 * once per tensor and kept until the model is freed. */
rlx_status rlx__onnx_external(const char *what, rlx__onnx_model *m,
                              const Onnx__TensorProto *t, size_t nbytes,
                              const void **data);

/* ---- onnx_lower.c: the lowering context ----------------------------- */

/* A value during lowering: known on the host, or a node of the graph. */
typedef struct rlx__onnx_val {
    const char *name;       /* the ONNX name */
    int known;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[RLX_MAX_RANK];
    const void *data;       /* known */
    void *owned;
    const char *param;      /* known initializer, lowered as a param */
    int rt;                 /* run-time data on the host (DATA, OWNED):
                             * not known while lowering, a graph input
                             * of the next stage (onnx_walk.c) */
    int has_v;
    rlx_value v;
} rlx__onnx_val;

typedef struct rlx__onnx_ctx rlx__onnx_ctx;
typedef rlx_status (*rlx__onnx_lower_fn)(rlx__onnx_ctx *c,
                                         rlx__onnx_val **in, uint32_t n_in,
                                         rlx__onnx_val *out, uint32_t n_out);

/* One table row: op OP from opset SINCE on (until the next row). */
typedef struct rlx__onnx_op {
    const char *op;
    int since;
    rlx__onnx_lower_fn fn;
    int arg;                /* the family's own selector (an rlx_op...) */
} rlx__onnx_op;

struct rlx__onnx_ctx {
    const rlx__onnx_model *m;
    rlx_graph *g;
    const Onnx__NodeProto *node;
    const rlx__onnx_op *row;
    int64_t opset;
    uint32_t n_made;        /* nodes added for the current ONNX node */
    char *lowered;          /* "add, mul" for rlx check */
    size_t lowered_len;
    int folding;            /* lowering into a scratch graph to fold */
    int needs_value;        /* failed for want of an input's value */
    int needs_runtime;      /* failed at a node that runs at run time */
};

/* The cpu-ref session folds run in, made on first use. */
typedef struct rlx__onnx_folder {
    rlx_runtime *rt;
    rlx_session *s;
} rlx__onnx_folder;

extern const rlx__onnx_op rlx__onnx_ops_elementwise[];
extern const rlx__onnx_op rlx__onnx_ops_math[];
extern const rlx__onnx_op rlx__onnx_ops_movement[];
extern const rlx__onnx_op rlx__onnx_ops_index[];
extern const rlx__onnx_op rlx__onnx_ops_pad[];
extern const rlx__onnx_op rlx__onnx_ops_shape[];
extern const rlx__onnx_op rlx__onnx_ops_vision[];
extern const rlx__onnx_op rlx__onnx_ops_loss[];
extern const rlx__onnx_op rlx__onnx_ops_compose[];
extern const rlx__onnx_op rlx__onnx_ops_signal[];
extern const rlx__onnx_op rlx__onnx_ops_einsum[];
extern const rlx__onnx_op rlx__onnx_ops_rnn[];
extern const rlx__onnx_op rlx__onnx_ops_quant[];

/* The value as a graph node (known data becomes a constant or param). */
rlx_status rlx__onnx_node_value(rlx__onnx_ctx *c, rlx__onnx_val *v,
                                rlx_value *out);
/* Add op OP to the graph for the current node; *OUT gets the result's
 * description (graph value). */
rlx_status rlx__onnx_add(rlx__onnx_ctx *c, rlx_op op, uint32_t n,
                         const rlx_value *in, const int64_t *ints,
                         uint32_t n_ints, const double *floats,
                         uint32_t n_floats, rlx_value *out);
/* Fill OUT from graph value V. */
rlx_status rlx__onnx_set_out(rlx__onnx_ctx *c, rlx_value v,
                             rlx__onnx_val *out);
/* OUT becomes known data (taking ownership of OWNED). */
void rlx__onnx_set_known(rlx__onnx_val *out, rlx_dtype dtype, uint32_t rank,
                         const int64_t *dims, void *owned);
/* A scalar f32 constant (for alpha, epsilon, 1...) as a graph value of
 * DTYPE. */
rlx_status rlx__onnx_scalar(rlx__onnx_ctx *c, rlx_dtype dtype, double x,
                            rlx_value *out);
/* A constant of host data (copied) with a name unique to the node. */
rlx_status rlx__onnx_constant(rlx__onnx_ctx *c, rlx_dtype dtype,
                              uint32_t rank, const int64_t *dims,
                              const void *data, rlx_value *out);
/* Errors naming the current node and ending in a Fix. */
rlx_status rlx__onnx_fail(rlx__onnx_ctx *c, rlx_status st, const char *fmt,
                          ...) RLX__PRINTF(3, 4);

/* Attributes of the current node. */
const Onnx__AttributeProto *rlx__onnx_attr(rlx__onnx_ctx *c,
                                           const char *name);
int64_t rlx__onnx_attr_int(rlx__onnx_ctx *c, const char *name, int64_t dflt);
double rlx__onnx_attr_float(rlx__onnx_ctx *c, const char *name, double dflt);
/* Ints attribute NAME: count, or -1 when absent; at most MAX copied. */
int rlx__onnx_attr_ints(rlx__onnx_ctx *c, const char *name, int64_t *out,
                        int max);
/* String attribute NAME (at most 63 bytes kept), valid until four more
 * calls. */
const char *rlx__onnx_attr_string(rlx__onnx_ctx *c, const char *name,
                                  const char *dflt);
/* A known integer input as int64 values (at most MAX): count or -1. */
int rlx__onnx_known_ints(const rlx__onnx_val *v, int64_t *out, int max);
/* Normalize AXIS for RANK (negative counts from the end); fails naming
 * the node. */
rlx_status rlx__onnx_axis(rlx__onnx_ctx *c, int64_t axis, uint32_t rank,
                          int64_t *out);

/* Conv's int_attrs (group, then strides, dilations, pads begin and end)
 * from the current node's attributes for X and weights W, into A (room
 * for 1 + 4 * (RLX_MAX_RANK - 2)); *NA gets the count. */
rlx_status rlx__onnx_conv_attrs(rlx__onnx_ctx *c, const rlx__onnx_val *x,
                                const rlx__onnx_val *w, int64_t *a,
                                uint32_t *na);

int rlx__onnx_is_float(rlx_dtype t);
/* Input V must be f32, f16 or bf16. */
rlx_status rlx__onnx_need_float(rlx__onnx_ctx *c, const rlx__onnx_val *v);
/* The same, f64 also accepted: for the elementwise ops and reductions,
 * which compute on it (docs/ops.md). */
rlx_status rlx__onnx_need_float64(rlx__onnx_ctx *c, const rlx__onnx_val *v);
/* Inputs 0..MIN-1 must be present. */
rlx_status rlx__onnx_need_inputs(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                 uint32_t n_in, uint32_t min);

/* ---- onnx_lower_quant.c: the requantization chains ------------------ */

/* QLinearConv's inputs IN (x, x_scale, x_zp, w, w_scale, w_zp, y_scale,
 * y_zp[, B]; zero points may be NULL) lowered to conv_integer, [add],
 * cast, mul, quantize_linear into OUT; the conv attributes are
 * c->node's. */
rlx_status rlx__onnx_qlinear_conv(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                  uint32_t n_in, rlx__onnx_val *out);
/* QLinearMatMul's inputs IN likewise, BIAS (int32, one per column, or
 * NULL) added to the accumulator. */
rlx_status rlx__onnx_qlinear_matmul(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                    uint32_t n_in, rlx__onnx_val *bias,
                                    rlx__onnx_val *out);

/* ---- onnx_eval.c: a small evaluator for known integer data ---------- */

/* Evaluate the current node on known inputs when the evaluator handles
 * it (integer and shape arithmetic cpu-ref has no kernel for):
 * 1 handled (OUT set), 0 not handled, or -1 after an error. */
int rlx__onnx_eval(rlx__onnx_ctx *c, rlx__onnx_val **in, uint32_t n_in,
                   rlx__onnx_val *out, uint32_t n_out, rlx_status *st);

/* ---- onnx_lower.c: one node ------------------------------------------ */

/* Lower c->node (its row looked up by op and opset) with inputs IN (NULL
 * where left out; each known or a graph value) into c->g, folding when
 * its inputs are known. OUT[i].name set by the caller; *REPORT gets what
 * it became (malloc'd). */
rlx_status rlx__onnx_lower_node(rlx__onnx_ctx *c, rlx__onnx_folder *f,
                                rlx__onnx_val **in, uint32_t n_in,
                                rlx__onnx_val *out, uint32_t n_out,
                                char **report);
void rlx__onnx_folder_free(rlx__onnx_folder *f);

/* ---- onnx_walk.c: the whole model ------------------------------------ */

/* What each ONNX node became, for `rlx check`. */
typedef struct rlx__onnx_report {
    int needs_value;        /* the failure: an input must be fixed */
    int needs_runtime;      /* the failure: a node runs at run time
                             * (rlx__onnx_exec) */
    uint32_t n;
    char **lowered;         /* per node of m->nodes */
} rlx__onnx_report;

/* Build the graph for the inputs' current dims. On failure REP is
 * emptied, unless the model needs run-time data (rep->needs_runtime):
 * then it says what each node became up to there. */
rlx_status rlx__onnx_lower(const rlx__onnx_model *m, rlx_graph **out,
                           rlx__onnx_report *rep);
void rlx__onnx_report_free(rlx__onnx_report *r);

/* A host tensor: a run's output. */
typedef struct rlx__onnx_host {
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[RLX_MAX_RANK];
    void *data;             /* malloc'd, product(dims) elements */
    size_t nbytes;
} rlx__onnx_host;

/* Run the model in stages (If on a run-time condition, Loop, Scan, ops
 * whose result size depends on data): graph stages compiled on S, host
 * steps in between. IN: each input without a fixed value, in model
 * order (its dims may differ from the model's current ones). OUT: one
 * per graph output. STAGES: the stages compiled by earlier runs. */
typedef struct rlx__onnx_stages rlx__onnx_stages;
rlx_status rlx__onnx_exec(rlx__onnx_model *m, rlx_session *s,
                          rlx__onnx_stages *stages,
                          const rlx__onnx_host *in, rlx__onnx_host *out);

/* ---- onnx_stages.c: compiled stages kept from run to run ------------ */

rlx_status rlx__onnx_stages_create(rlx__onnx_stages **out);
void rlx__onnx_stages_free(rlx__onnx_stages *c);
/* The program for graph G: one compiled earlier from the same graph
 * content, or compiled on S now (*FRESH 1: its params are to be set).
 * The cache owns it. */
rlx_status rlx__onnx_stages_get(rlx__onnx_stages *c, rlx_session *s,
                                const rlx_graph *g, int *fresh,
                                rlx_program **out);

/* ---- onnx_control.c, onnx_host.c: what the walker runs itself -------- */

typedef struct rlx__onnx_walk rlx__onnx_walk;
typedef struct rlx__onnx_scope rlx__onnx_scope;

/* Lower or run subgraph GP in a scope under PARENT (its outer names
 * visible), its inputs bound to BIND (n_bind of them; may be 0) and
 * sharing the walker's current graph; OUTS (gp->n_output) get its
 * outputs, owning their data. TO_HOST (run time only): end the stage
 * after it, so that every output is host data. */
rlx_status rlx__onnx_walk_subgraph(rlx__onnx_walk *w, rlx__onnx_scope *parent,
                                   const Onnx__GraphProto *gp,
                                   rlx__onnx_val *const *bind,
                                   uint32_t n_bind, rlx__onnx_val *outs,
                                   int to_host);
/* At run time: end the current stage so every value is host data. */
rlx_status rlx__onnx_walk_flush(rlx__onnx_walk *w, rlx__onnx_scope *s);
/* The run-time session, or NULL while lowering at load. */
rlx_session *rlx__onnx_walk_session(const rlx__onnx_walk *w);
/* The lowering context: the current node and graph. */
rlx__onnx_ctx *rlx__onnx_walk_ctx(rlx__onnx_walk *w);

/* If, Loop, Scan: handled by the walker (onnx_control.c). 1 when OP is
 * one of them. */
int rlx__onnx_is_control(const char *op);
rlx_status rlx__onnx_control(rlx__onnx_walk *w, rlx__onnx_scope *s,
                             rlx__onnx_val **in, uint32_t n_in,
                             rlx__onnx_val *out, uint32_t n_out);
/* Ops whose result size depends on data, computed on the host from known
 * or run-time inputs (onnx_host.c). 1 when OP is one of them. */
int rlx__onnx_is_host_op(const char *op);
/* Compute c->node on the host; outputs known when KNOWN, else run-time
 * data. */
rlx_status rlx__onnx_host_op(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out, int known);
/* ---- onnx_qdq.c: QDQ groups of the top graph ------------------------ */

/* The QDQ groups of the top graph found before walking it: DQ -> Conv |
 * MatMul | Gemm -> [Relu | Clip] -> Q run as the requantization chain,
 * DQ -> MaxPool | Reshape | Flatten | Transpose -> Q on the integers. The
 * group's members are deferred; at its last node (the Q, its anchor)
 * the group is lowered fused, or, when the values say it cannot be
 * (a scale not constant, scales that differ), its members one by one. */
typedef struct rlx__onnx_qdq rlx__onnx_qdq;
enum { RLX__QDQ_PLAIN, RLX__QDQ_DEFER, RLX__QDQ_ANCHOR };

rlx_status rlx__onnx_qdq_find(const rlx__onnx_model *m, rlx__onnx_qdq **out);
void rlx__onnx_qdq_free(rlx__onnx_qdq *q);
/* What the walker does with node I: plain, deferred, or an anchor. */
int rlx__onnx_qdq_role(const rlx__onnx_qdq *q, uint32_t i);
/* Is node I deferred and not lowered yet (its inputs are still read)? */
int rlx__onnx_qdq_pending(const rlx__onnx_qdq *q, uint32_t i);
/* Why node I, next to Q/DQ nodes, is not fused (NULL: it is, or it is
 * no QDQ op); or, for a deferred node, what it was fused into. */
const char *rlx__onnx_qdq_why(const rlx__onnx_qdq *q, uint32_t i);
/* REP (malloc'd, consumed) prefixed with "not fused (WHY): ". */
char *rlx__onnx_qdq_prefix(const char *why, char *rep);

/* What the walker lends a group's lowering: GET a value read by the
 * group (a run-time value becomes a graph input of the stage), SLOT
 * where a value is kept, NODE lower node I as usual (*REP its report). */
typedef struct rlx__onnx_qdq_env {
    rlx_status (*get)(void *arg, const char *name, rlx__onnx_val **out);
    rlx__onnx_val *(*slot)(void *arg, const char *name);
    rlx_status (*node)(void *arg, uint32_t i, char **rep);
    void *arg;
} rlx__onnx_qdq_env;
/* The group whose QuantizeLinear is node ANCHOR (c->node): lowered fused
 * (*REP its report), or, when its values fail a check, its members not
 * lowered yet one by one (their lines in REPORT, per node, or NULL), the
 * reason on the op's line, then the anchor itself. */
rlx_status rlx__onnx_qdq_walk(rlx__onnx_ctx *c, rlx__onnx_folder *f,
                              rlx__onnx_qdq *q, uint32_t anchor,
                              const rlx__onnx_qdq_env *env, char **report,
                              char **rep);

/* Host tensor helpers shared by the control ops. */
size_t rlx__onnx_val_bytes(const rlx__onnx_val *v);

#endif /* RLX_ONNX_H */
