/*
 * shape_internal.h - what the shape_*.c files share: the node being
 * inferred, attribute access and the one error format
 * ("node 'NAME' (op): what. Fix: how").
 */
#ifndef RLX_SHAPE_INTERNAL_H
#define RLX_SHAPE_INTERNAL_H

#include "graph.h"

#define RLX__SHAPE_BUF 128

/* The node being added: its name, op, inputs and attributes. */
typedef struct rlx__shape_ctx {
    const rlx_graph *g;
    const char *name;
    rlx_op op;
    uint32_t n_inputs;
    const uint32_t *inputs; /* checked to exist */
    const rlx_attrs *attrs; /* may be NULL */
} rlx__shape_ctx;

/* Input I of the node. */
static inline const rlx__node *rlx__shape_in(const rlx__shape_ctx *c,
                                             uint32_t i)
{
    return &c->g->nodes[c->inputs[i]];
}

/* Integer attribute I, or DFLT when absent. */
static inline int64_t rlx__shape_int(const rlx__shape_ctx *c, uint32_t i,
                                     int64_t dflt)
{
    return c->attrs && i < c->attrs->n_ints ? c->attrs->ints[i] : dflt;
}

static inline uint32_t rlx__shape_n_ints(const rlx__shape_ctx *c)
{
    return c->attrs ? c->attrs->n_ints : 0;
}

/* Set the error "node 'NAME' (op): <detail>"; returns ST. */
rlx_status rlx__shape_error(const rlx__shape_ctx *c, rlx_status st,
                            const char *fmt, ...) RLX__PRINTF(3, 4);

/* "[2,3]" of node N into BUF. */
const char *rlx__shape_of(char *buf, size_t size, const rlx__node *n);

/* Normalize AXIS (negative counts from the end) for RANK into *OUT;
 * sets an error naming WHAT ("axis", "reduce axis") when out of range. */
rlx_status rlx__shape_axis(const rlx__shape_ctx *c, const char *what,
                           int64_t axis, uint32_t rank, uint32_t *out);

/* Broadcast A and B (NumPy rules) into OUT's rank and shape. */
rlx_status rlx__shape_broadcast(const rlx__shape_ctx *c, const rlx__node *a,
                                const rlx__node *b, rlx__node *out);

/* ---- shape_dtype.c: ops whose inputs may be more than f32/f16/bf16 ----- */

/* Nonzero when OP's dtype rule is shape_dtype.c's table. */
int rlx__shape_has_dtype_row(rlx_op op);
/* Check the inputs' dtypes against OP's row; *RESULT gets the result's. */
rlx_status rlx__shape_dtypes(const rlx__shape_ctx *c, rlx_dtype *result);

/* ---- shape_ew.c: the elementwise, select and arg ops of ABI 1.4 -------- */

rlx_status rlx__shape_ew14(const rlx__shape_ctx *c, rlx__node *out);

/* ---- shape_norm.c: layer_norm, rms_norm, reductions -------------------- */

rlx_status rlx__shape_norm(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_reduce(const rlx__shape_ctx *c, rlx__node *out);

/* ---- shape_movement.c: reshape, transpose, concat, slice, gather ------- */

rlx_status rlx__shape_reshape(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_transpose(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_concat(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_slice(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_gather(const rlx__shape_ctx *c, rlx__node *out);

/* ---- shape_create.c: cast, fill ---------------------------------------- */

rlx_status rlx__shape_cast(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_fill(const rlx__shape_ctx *c, rlx__node *out);

/* ---- shape_conv.c, shape_resize.c, shape_chnorm.c (since 1.4) ------- */

rlx_status rlx__shape_conv(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_pool(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_resize(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_grid_sample(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_roi_align(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_chnorm(const rlx__shape_ctx *c, rlx__node *out);
/* ---- shape_layout.c: pad, expand, tile, strided_slice, trilu ----------- */

rlx_status rlx__shape_pad(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_expand(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_tile(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_strided_slice(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_trilu(const rlx__shape_ctx *c, rlx__node *out);

/* ---- shape_index.c: gathers, scatters, scans, range, one_hot, non_zero - */

rlx_status rlx__shape_gather_elements(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_gather_nd(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_scatter_elements(const rlx__shape_ctx *c,
                                       rlx__node *out);
rlx_status rlx__shape_scatter_nd(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_cumsum(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_topk(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_range(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_one_hot(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_non_zero(const rlx__shape_ctx *c, rlx__node *out);

/* ---- shape_quant.c: quantize/dequantize_linear, the integer ops ------ */

rlx_status rlx__shape_quant(const rlx__shape_ctx *c, rlx__node *out);
rlx_status rlx__shape_matmul_integer(const rlx__shape_ctx *c,
                                     rlx__node *out);
rlx_status rlx__shape_conv_integer(const rlx__shape_ctx *c, rlx__node *out);

#endif /* RLX_SHAPE_INTERNAL_H */
