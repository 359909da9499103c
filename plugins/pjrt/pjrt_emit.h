/*
 * pjrt_emit.h - lowering a rlx graph view to StableHLO MLIR text.
 *
 * One emitter per op family (pjrt_emit_<family>.c) over the shared
 * helpers here. The text uses MLIR's generic op form ("stablehlo.add"(
 * %1, %2) : (T, T) -> T), which every StableHLO consumer parses and a
 * small checker can verify. Values are numbered %0, %1, ... in order of
 * definition; each carries its tensor type so operands print their
 * types. f16 and bf16 float ops compute in f32 and round the result,
 * as rlx/ops.h specifies.
 *
 * Pure code: no PJRT, no host, so tests and tools can call it alone.
 */
#ifndef RLX_PJRT_EMIT_H
#define RLX_PJRT_EMIT_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/backend.h>

#define RLXP_MAX_RANK 8

typedef struct rlxp_val {
    rlx_dtype dt;
    uint32_t rank;
    int64_t dims[RLXP_MAX_RANK];
} rlxp_val;

typedef struct rlxp_emit {
    const rlx_graph_view *g;
    rlx_precision precision;
    char *buf;               /* the text, NUL-terminated */
    size_t len, cap;
    rlxp_val *vals;          /* type of each SSA value */
    uint32_t n_vals, cap_vals;
    uint32_t *node_val;      /* SSA value of each graph node */
    uint32_t *checks;        /* i1 scalars: a run fails when one is true */
    uint32_t n_checks;
    const char **check_what; /* node name per check */
    rlx_status status;       /* first failure */
    char error[512];         /* its message, ending with a Fix */
} rlxp_emit;

/* Lower GRAPH. On success E->buf holds the module; the executable's
 * results are the graph's outputs followed by E->n_checks i1 flags.
 * Always call rlxp_emit_free. */
rlx_status rlxp_emit_graph(rlxp_emit *e, const rlx_graph_view *graph,
                           rlx_precision precision);
void rlxp_emit_free(rlxp_emit *e);

/* Does the bridge lower OP with result DTYPE? */
int rlxp_emit_supports(rlx_op op, rlx_dtype dtype);
/* The MLIR element type name of DT ("f32", "i1"); NULL if none. */
const char *rlxp_mlir_dtype(rlx_dtype dt);

/* ---- shared helpers (pjrt_emit.c) ------------------------------------- */
void rlxp_put(rlxp_emit *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
rlx_status rlxp_fail(rlxp_emit *e, rlx_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A new SSA value of type V; returns its number (UINT32_MAX on OOM). */
uint32_t rlxp_new(rlxp_emit *e, const rlxp_val *v);
const rlxp_val *rlxp_type_of(const rlxp_emit *e, uint32_t id);
/* Appends "tensor<2x3xf32>" for V. */
void rlxp_put_type(rlxp_emit *e, const rlxp_val *v);
rlxp_val rlxp_val_make(rlx_dtype dt, uint32_t rank, const int64_t *dims);
rlxp_val rlxp_val_of_node(const rlx_node_view *n);
int64_t rlxp_val_count(const rlxp_val *v);

/* Generic op with N operands, one result of type RES, attribute text
 * ATTRS (without braces, may be NULL). */
uint32_t rlxp_op(rlxp_emit *e, const char *name, uint32_t n,
                 const uint32_t *operands, const rlxp_val *res,
                 const char *attrs);
uint32_t rlxp_un(rlxp_emit *e, const char *name, uint32_t a);
uint32_t rlxp_bin(rlxp_emit *e, const char *name, uint32_t a, uint32_t b);
uint32_t rlxp_convert(rlxp_emit *e, uint32_t a, rlx_dtype dt);
/* A tensor of RES's type with every element VALUE (converted to the
 * dtype exactly as a cast would). */
uint32_t rlxp_splat(rlxp_emit *e, const rlxp_val *res, double value);
/* A tensor of RES's type with every element the literal text LIT
 * (exact integers past 2^53). */
uint32_t rlxp_splat_text(rlxp_emit *e, const rlxp_val *res, const char *lit);
/* Is DT an unsigned integer type (ui8..ui64)? */
int rlxp_dt_unsigned(rlx_dtype dt);
/* Splat VALUE shaped like A, same dtype. */
uint32_t rlxp_splat_like(rlxp_emit *e, uint32_t a, double value);
uint32_t rlxp_broadcast(rlxp_emit *e, uint32_t a, const rlxp_val *to,
                        const int64_t *map);
/* NumPy broadcast of A to TO's shape (dims aligned from the right). */
uint32_t rlxp_broadcast_to(rlxp_emit *e, uint32_t a, const rlxp_val *to);
uint32_t rlxp_reshape(rlxp_emit *e, uint32_t a, uint32_t rank,
                      const int64_t *dims);
uint32_t rlxp_transpose(rlxp_emit *e, uint32_t a, const int64_t *perm);
/* Compare: DIR is "EQ", "NE", "LT", "LE", "GT", "GE". */
uint32_t rlxp_compare(rlxp_emit *e, uint32_t a, uint32_t b,
                      const char *dir);
uint32_t rlxp_select(rlxp_emit *e, uint32_t pred, uint32_t a, uint32_t b);
uint32_t rlxp_iota(rlxp_emit *e, const rlxp_val *res, uint32_t dim);
/* Reduce A over the NAXES axes (ascending) with BODY ("stablehlo.add",
 * "stablehlo.maximum", "stablehlo.or") from INIT. */
uint32_t rlxp_reduce(rlxp_emit *e, uint32_t a, uint32_t naxes,
                     const int64_t *axes, const char *body, double init);
/* Node input I's value as f32 (converted when f16/bf16). */
uint32_t rlxp_in_f32(rlxp_emit *e, const rlx_node_view *n, uint32_t i);
/* Finish a float op computed in f32: back to the node's dtype. */
uint32_t rlxp_out(rlxp_emit *e, const rlx_node_view *n, uint32_t v);

/* R (X reduced over the NA axes AXES) broadcast back to X's shape. */
uint32_t rlxp_unreduce(rlxp_emit *e, uint32_t r, uint32_t x, uint32_t na,
                       const int64_t *axes);
/* reduce_window of A with BODY from INIT into RES's shape; every array
 * has A's rank; LO and HI the padding. */
uint32_t rlxp_reduce_window(rlxp_emit *e, uint32_t a, const char *body,
                            double init, const rlxp_val *res,
                            const int64_t *win, const int64_t *strides,
                            const int64_t *dil, const int64_t *lo,
                            const int64_t *hi);
/* Attribute text builders (pjrt_emit_conv.c): append to S (SIZE bytes),
 * a ", " first when S is not empty. */
void rlxp_cat(char *s, size_t size, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void rlxp_cat_array(char *s, size_t size, const char *key, uint32_t n,
                    const int64_t *v);
void rlxp_cat_padding(char *s, size_t size, uint32_t n, const int64_t *lo,
                      const int64_t *hi);
/* X's slices V[0..COUNT) along AXIS (pjrt_emit_index.c). */
uint32_t rlxp_take(rlxp_emit *e, uint32_t x, uint32_t axis,
                   const int64_t *v, int64_t count);
/* An i64 [COUNT] constant of V (pjrt_emit_index.c). */
uint32_t rlxp_i64_table(rlxp_emit *e, const int64_t *v, int64_t count);
/* IDX (i64) with negatives moved up by DIMS (IDX's shape), and a run
 * check "some index outside [0, dim)" for node N. */
uint32_t rlxp_wrap_check(rlxp_emit *e, const rlx_node_view *n, uint32_t idx,
                         uint32_t dims);
struct rlx_kit_spatial;
/* The spatial attributes of conv/pool node N; -1 (E failed) if bad. */
int rlxp_spatial(rlxp_emit *e, const rlx_node_view *n,
                 struct rlx_kit_spatial *sp);

/* The matmul of A by B (one dtype, f32 or f64; TA, TB transpose flags)
 * in that dtype, shaped as node N (pjrt_emit_matmul.c). */
uint32_t rlxp_dot(rlxp_emit *e, const rlx_node_view *n, uint32_t a,
                  uint32_t b, int ta, int tb);
/* The convolution of X by W (one float dtype) with conv node N's
 * window, in that dtype, without bias (pjrt_emit_conv.c). */
uint32_t rlxp_conv(rlxp_emit *e, const rlx_node_view *n, uint32_t x,
                   uint32_t w);

/* ---- the op families -------------------------------------------------- */
uint32_t rlxp_emit_elementwise(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_matmul(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_rows(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_reduce(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_movement(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_source(rlxp_emit *e, const rlx_node_view *n);
/* since ABI 1.4 */
uint32_t rlxp_emit_compare(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_math(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_arg(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_conv(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_pool(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_norm(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_index(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_resize(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_scatter(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_topk(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_quant(rlxp_emit *e, const rlx_node_view *n);
/* det unrolls the elimination: matrices up to this size */
#define RLXP_DET_MAX_M 32
uint32_t rlxp_emit_det(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_pool_index(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_grid_sample(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_roi_align(rlxp_emit *e, const rlx_node_view *n);
uint32_t rlxp_emit_non_zero(rlxp_emit *e, const rlx_node_view *n);
/* topk of i64 and u64 takes k rounds: up to this k */
#define RLXP_TOPK64_MAX_K 64

#define RLXP_NONE UINT32_MAX

#endif /* RLX_PJRT_EMIT_H */
