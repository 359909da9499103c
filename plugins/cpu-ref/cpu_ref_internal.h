/*
 * cpu_ref_internal.h - types shared by the files of the reference CPU
 * backend: the backend object, buffers, compiled executables and the
 * per-op plans the kernels run from.
 *
 * Everything a kernel needs is worked out at compile time (strides,
 * counts, scratch space), so execute allocates nothing and cannot fail
 * half-way through a graph.
 */
#ifndef RLX_CPU_REF_INTERNAL_H
#define RLX_CPU_REF_INTERNAL_H

/* cpu-openblas (built with RLXB_VARIANT_NAME) reuses cpu-ref only
 * through cpu_ref_reuse.h; its build fails if it reaches in here. */
#ifdef RLXB_VARIANT_NAME
#error "cpu-openblas must include cpu_ref_reuse.h, not cpu_ref_internal.h"
#endif

#include <stddef.h>
#include <stdint.h>

#include <rlx/backend.h>
#include <rlx/kit.h>
#include <rlx/plugin.h>

#include "cpu_ref_reuse.h"
#include "cpu_ref_vision.h"

/* ---- backend object ------------------------------------------------- */

typedef struct rlx__cpu_ref {
    const rlx_host *host; /* for error reports; outlives the backend */
} rlx__cpu_ref;

/* ---- shapes: the kit's, over a borrowed shape ------------------------ */

/* Element count of SHAPE into *COUNT: 0 for a negative dim, -1 when the
 * bytes overflow size_t, 1 when fine (rlx_kit_shape_count). */
static inline int rlx__cpu_ref_shape_count(rlx__cpu_ref_shape shape,
                                           size_t elem_size, size_t *count)
{
    return rlx_kit_shape_count(shape.rank, shape.dims, elem_size, count);
}

static inline int rlx__cpu_ref_shape_equal(rlx__cpu_ref_shape a,
                                           rlx__cpu_ref_shape b)
{
    return rlx_kit_shape_equal(a.rank, a.dims, b.rank, b.dims);
}

/* Write "[2, 3]" into BUF for messages. */
static inline const char *rlx__cpu_ref_shape_str(rlx__cpu_ref_shape shape,
                                                 char *buf, size_t size)
{
    return rlx_kit_shape_str(shape.rank, shape.dims, buf, size);
}

/* Round a double to the nearest float as IEEE 754 does, without the
 * undefined behaviour C gives an out-of-range conversion. */
float rlx__cpu_ref_to_f32(double x);

/* ---- per-op plans --------------------------------------------------- */

/* Binary op: walk the output, stepping each input by its own strides
 * (0 on a stretched dim). */
typedef struct rlx__cpu_ref_bcast {
    uint32_t rank;      /* of the output */
    size_t *dims;       /* output dims */
    int64_t *a_stride;  /* element strides of each input per output dim */
    int64_t *b_stride;  /* (rlx_kit_broadcast_strides) */
    size_t *index;      /* scratch counter */
} rlx__cpu_ref_bcast;

/* Reductions: walk the input, adding each element into the output slot
 * its index maps to (stride 0 along reduced dims). */
typedef struct rlx__cpu_ref_reduce {
    uint32_t rank;       /* of the input */
    size_t *dims;        /* input dims */
    size_t *out_stride;  /* output element stride per input dim */
    size_t *index;       /* scratch counter */
    size_t per_output;   /* input elements behind each output element */
} rlx__cpu_ref_reduce;

/* A strided copy (transpose, slice): output element at index i comes
 * from input element BASE + sum(i[d] * stride[d]). */
typedef struct rlx__cpu_ref_strided {
    uint32_t rank;       /* of the output */
    size_t *dims;        /* output dims */
    size_t *stride;      /* input element stride per output dim */
    size_t *index;       /* scratch counter */
    size_t base;
} rlx__cpu_ref_strided;

/* Concat: for each of OUTER steps, each input's CHUNK bytes in turn. */
typedef struct rlx__cpu_ref_concat {
    size_t outer;
    size_t *chunk;       /* bytes per step, one per input */
} rlx__cpu_ref_concat;

/* Gather: data [outer, dim, inner] by n_idx indices along dim. */
typedef struct rlx__cpu_ref_gather {
    size_t outer, dim, inner, n_idx;
    rlx_dtype index_dtype; /* i32 or i64 */
} rlx__cpu_ref_gather;

/* Elementwise ops of one to three inputs (the ABI 1.4 ops, and the older
 * arithmetic ops on integers): the output walked like an odometer, each
 * input stepped by its own strides (0 on a stretched dim). */
typedef struct rlx__cpu_ref_ew {
    uint32_t rank;       /* of the output */
    size_t *dims;        /* output dims */
    int64_t *stride[3];  /* element strides of each input per output dim */
    size_t *index;       /* scratch counter */
    double fattr[2];     /* float attributes, defaults filled in */
    int64_t iattr[2];    /* integer attributes, defaults filled in; for
                            clip on integers, its bounds rounded inward
                            and saturated to the dtype */
} rlx__cpu_ref_ew;

/* argmax / argmin over the middle dim of [outer, len, inner]. */
typedef struct rlx__cpu_ref_arg {
    size_t outer, len, inner;
    int last;            /* select_last_index */
} rlx__cpu_ref_arg;

/* The 1.4 data movement and indexing ops: their inputs' shapes and
 * dtypes and their attributes, copied at compile time (kernels_layout.c,
 * kernels_index.c, kernels_scan.c). */
#define RLX__CPU_REF_IDX_RANK 8
#define RLX__CPU_REF_IDX_INTS (4 * RLX__CPU_REF_IDX_RANK)
typedef struct rlx__cpu_ref_index {
    uint32_t rank[3];    /* of inputs 0..2 */
    int64_t dims[3][RLX__CPU_REF_IDX_RANK];
    rlx_dtype dtype[3];
    uint32_t out_rank;
    int64_t out_dims[RLX__CPU_REF_IDX_RANK];
    uint32_t n_ints;
    int64_t ints[RLX__CPU_REF_IDX_INTS + 1];
    uint32_t n_floats;
    double f[2];         /* float_attrs, 0 when absent */
} rlx__cpu_ref_index;

/* quantize_linear / dequantize_linear: x seen as [outer, len, inner]
 * around the axis; which scale element each x element uses. */
enum { RLX__CPU_REF_QUANT_TENSOR, RLX__CPU_REF_QUANT_AXIS,
       RLX__CPU_REF_QUANT_BLOCKED };
typedef struct rlx__cpu_ref_quant {
    int mode;            /* RLX__CPU_REF_QUANT_* */
    size_t outer, len, inner;
    size_t block, n_blocks; /* blocked: block_size, ceil(len / block) */
} rlx__cpu_ref_quant;

/* ---- executables ---------------------------------------------------- */

/* Which kernels run a node: the float ones of cpu_ref_execute.c's switch,
 * or the mixed-dtype ones of ABI 1.4 (kernels_ew.c, kernels_reduce_ext.c,
 * kernels_arg.c). */
enum {
    RLX__CPU_REF_EXT_NONE = 0,
    RLX__CPU_REF_EXT_EW,
    RLX__CPU_REF_EXT_REDUCE,
    RLX__CPU_REF_EXT_ARG,
    RLX__CPU_REF_EXT_QUANT /* kernels_quant.c, values 200-219 */
};

typedef struct rlx__cpu_ref_node {
    rlx_op op;
    char *name;            /* copied, for messages */
    rlx_dtype dtype;       /* of the result */
    size_t elem;           /* bytes per element */
    size_t count;          /* elements of the result */
    uint32_t n_inputs;
    uint32_t *inputs;      /* node indices, n_inputs of them */
    int64_t gelu_approx;   /* RLX_GELU_ERF or RLX_GELU_TANH */
    rlx_dtype from;        /* CAST: the input's dtype */
    uint32_t slot;         /* INPUT/PARAM: slot index */
    int has_slot;
    int ext;               /* RLX__CPU_REF_EXT_*: which kernels run it */
    unsigned char *data;   /* result, count * elem bytes (at least one) */
    float *f32;            /* float dtypes: the result as f32; data itself
                              for f32, a widened copy for f16 and bf16 */
    size_t *scratch;       /* owns the arrays of the plans below */
    double *acc;           /* REDUCE_*: one accumulator per output */
    rlx__cpu_ref_vision *vis; /* conv, pools, resize, channel norms */
    union {
        rlx__cpu_ref_bcast bcast;
        rlx__cpu_ref_matmul matmul;
        rlx__cpu_ref_softmax softmax;
        rlx__cpu_ref_norm norm;
        rlx__cpu_ref_reduce reduce;
        rlx__cpu_ref_strided strided;
        rlx__cpu_ref_concat concat;
        rlx__cpu_ref_gather gather;
        rlx__cpu_ref_ew ew;
        rlx__cpu_ref_arg arg;
        rlx__cpu_ref_index index;
        rlx__cpu_ref_quant quant;
    } plan;
} rlx__cpu_ref_node;

struct rlx_executable {
    uint32_t n_nodes;
    rlx__cpu_ref_node *nodes;
    uint32_t n_inputs;
    uint32_t *input_nodes;  /* node index of input slot i */
    uint32_t n_params;
    uint32_t *param_nodes;
    uint32_t n_outputs;
    uint32_t *output_nodes;
};

/* ---- kernels -------------------------------------------------------- */

/* Unary: Y[i] = f(X[i]). APPROX only matters for GELU. */
void rlx__cpu_ref_unary(rlx_op op, int64_t approx, const float *x, float *y,
                        size_t count);
/* One element of a unary op of ABI 1.0 (relu to atan), in double. */
double rlx__cpu_ref_unary_apply(rlx_op op, int64_t approx, double x);

/* Prepare a broadcast plan; SCRATCH receives the allocation the plan's
 * arrays live in. Reports and returns an error on bad shapes. */
rlx_status rlx__cpu_ref_binary_prepare(const rlx_host *host,
                                       const char *name,
                                       rlx__cpu_ref_shape a,
                                       rlx__cpu_ref_shape b,
                                       rlx__cpu_ref_shape out,
                                       rlx__cpu_ref_bcast *plan,
                                       size_t **scratch);
void rlx__cpu_ref_binary(rlx_op op, rlx__cpu_ref_bcast *plan,
                         const float *a, const float *b, float *y,
                         size_t count);

void rlx__cpu_ref_matmul_run(rlx__cpu_ref_matmul *plan, const float *a,
                             const float *b, float *y, size_t count);

void rlx__cpu_ref_softmax_run(const rlx__cpu_ref_softmax *plan,
                              const float *x, float *y);

/* kernels_norm.c */
void rlx__cpu_ref_norm_run(rlx_op op, const rlx__cpu_ref_norm *plan,
                           const float *x, const float *gamma,
                           const float *beta, float *y);

/* kernels_reduce.c */
rlx_status rlx__cpu_ref_reduce_prepare(const rlx_host *host,
                                       const rlx_graph_view *g,
                                       const rlx_node_view *v,
                                       const rlx__cpu_ref_attrs *a,
                                       rlx__cpu_ref_node *n);
void rlx__cpu_ref_reduce_run(rlx__cpu_ref_node *n, const float *x,
                             size_t in_count);
/* Walk N's input (IN_COUNT elements) in order, calling FOLD(n, CTX, o, i)
 * with each element I and the output slot O it reduces into. */
typedef void (*rlx__cpu_ref_fold)(rlx__cpu_ref_node *n, const void *ctx,
                                  size_t o, size_t i);
void rlx__cpu_ref_reduce_walk(rlx__cpu_ref_node *n, size_t in_count,
                              rlx__cpu_ref_fold fold, const void *ctx);

/* kernels_movement.c: reshape, transpose, slice, concat, gather */
rlx_status rlx__cpu_ref_movement_prepare(const rlx_host *host,
                                         const rlx_graph_view *g,
                                         const rlx_node_view *v,
                                         const rlx__cpu_ref_attrs *a,
                                         rlx__cpu_ref_node *n);
/* Run N, reading its inputs' results in EXE; fails only for a gather
 * index out of range (reported with the node's name). */
rlx_status rlx__cpu_ref_movement_run(const rlx_host *host,
                                     const rlx_executable *exe,
                                     rlx__cpu_ref_node *n);

/* kernels_index.c: the 1.4 data movement and indexing ops (pad to
 * non_zero). Prepare checks shapes and attributes once; run fails only
 * for an index out of range or more nonzeros than non_zero's columns. */
int rlx__cpu_ref_is_index_op(rlx_op op);
rlx_status rlx__cpu_ref_index_prepare(const rlx_host *host,
                                      const rlx_graph_view *g,
                                      const rlx_node_view *v,
                                      const rlx__cpu_ref_attrs *a,
                                      rlx__cpu_ref_node *n);
rlx_status rlx__cpu_ref_index_run(const rlx_host *host,
                                  const rlx_executable *exe,
                                  rlx__cpu_ref_node *n);

/* Row-major coordinates of element I of a tensor of RANK dims DIMS. */
void rlx__cpu_ref_unravel(size_t i, uint32_t rank, const int64_t *dims,
                          int64_t *coord);
/* The element index of COORD in a tensor of dims DIMS. */
size_t rlx__cpu_ref_ravel(uint32_t rank, const int64_t *dims,
                          const int64_t *coord);

/* kernels_grid.c: grid_sample (its plan in plan.index: the dims of x
 * and the grid, the mode, padding and align_corners). */
rlx_status rlx__cpu_ref_grid_prepare(const rlx_host *host,
                                     const rlx_graph_view *g,
                                     const rlx_node_view *v,
                                     const rlx__cpu_ref_attrs *a,
                                     rlx__cpu_ref_node *n);
void rlx__cpu_ref_grid_run(const rlx__cpu_ref_node *n, const float *x,
                           const float *grid, float *y);

/* kernels_det.c: det, its plan in plan.arg (outer: the matrices, len:
 * m) and an m x m double scratch in acc. */
rlx_status rlx__cpu_ref_det_prepare(const rlx_host *host,
                                    const rlx_graph_view *g,
                                    const rlx_node_view *v,
                                    rlx__cpu_ref_node *n);
void rlx__cpu_ref_det_run(const rlx_executable *exe, rlx__cpu_ref_node *n);

/* kernels_roi.c: roi_align (plan in plan.index: x's dims, R, the
 * attributes); run fails for a batch index out of range. */
rlx_status rlx__cpu_ref_roi_prepare(const rlx_host *host,
                                    const rlx_graph_view *g,
                                    const rlx_node_view *v,
                                    const rlx__cpu_ref_attrs *a,
                                    rlx__cpu_ref_node *n);
rlx_status rlx__cpu_ref_roi_run(const rlx_host *host,
                                const rlx_executable *exe,
                                rlx__cpu_ref_node *n);

/* kernels_layout.c: pad, expand, tile, strided_slice, trilu (by bytes) */
void rlx__cpu_ref_layout_run(rlx__cpu_ref_node *n, const unsigned char *x);

/* kernels_scan.c: cumsum, topk, range */
void rlx__cpu_ref_scan_run(rlx__cpu_ref_node *n, const unsigned char *x);

/* kernels_cast.c: cast and fill */
/* Convert COUNT elements of dtype FROM at SRC to dtype TO at DST. */
void rlx__cpu_ref_convert(rlx_dtype from, const void *src, rlx_dtype to,
                          void *dst, size_t count);
/* Store X, converted as a cast from f64 would, COUNT times at DST. */
void rlx__cpu_ref_fill(double x, rlx_dtype to, void *dst, size_t count);
/* f16/bf16 nodes: refresh N's f32 copy from its data (widen), or round
 * the f32 results into data and refresh the copy (narrow). Other dtypes:
 * nothing to do. */
void rlx__cpu_ref_node_widen(rlx__cpu_ref_node *n);
void rlx__cpu_ref_node_narrow(rlx__cpu_ref_node *n);

/* ---- the ABI 1.4 ops and integer arithmetic ------------------------- */

/* Nonzero when node V runs on the kernels below rather than the float
 * ones: every op of values 100-149, and older arithmetic on integers. */
int rlx__cpu_ref_is_ew(const rlx_graph_view *g, const rlx_node_view *v);

/* kernels_ew.c: plan and run an elementwise node (1 to 3 inputs). */
rlx_status rlx__cpu_ref_ew_prepare(const rlx_host *host,
                                   const rlx_graph_view *g,
                                   const rlx_node_view *v,
                                   const rlx__cpu_ref_attrs *a,
                                   rlx__cpu_ref_node *n);
void rlx__cpu_ref_ew_run(const rlx_executable *exe, rlx__cpu_ref_node *n);

/* Element I of node N as an integer (integer and bool dtypes) or as a
 * double (any dtype; float ones through their f32 view). */
int64_t rlx__cpu_ref_load_int(const rlx__cpu_ref_node *n, size_t i);
double rlx__cpu_ref_load_double(const rlx__cpu_ref_node *n, size_t i);
/* Store V into element I of a float node N: rounded once to f32 (then
 * to f16/bf16 by node_narrow), or as it is for f64. */
void rlx__cpu_ref_store_double(rlx__cpu_ref_node *n, size_t i, double v);
/* Nonzero for the ops cpu-ref also runs on f64: the elementwise ops and
 * reductions (kernels_ew.c, kernels_reduce_ext.c, kernels_arg.c). */
int rlx__cpu_ref_takes_f64(rlx_op op);
/* Store V into element I of N, wrapping to the width of N's integer
 * dtype (bool: nonzero is 1). */
void rlx__cpu_ref_store_int(rlx__cpu_ref_node *n, size_t i, int64_t v);
/* Nonzero for the integer dtypes (i8 to i64, u8 to u64) and bool. */
int rlx__cpu_ref_is_int(rlx_dtype t);
/* The least and greatest value of integer dtype T. */
void rlx__cpu_ref_int_range(rlx_dtype t, int64_t *lo, int64_t *hi);

/* kernels_ew_int.c and kernels_ew_float.c: one element of OP. */
int64_t rlx__cpu_ref_int_op(rlx_op op, const rlx__cpu_ref_ew *p, int64_t x,
                            int64_t y);
double rlx__cpu_ref_float_op(rlx_op op, const rlx__cpu_ref_ew *p, double x,
                             double y);

/* kernels_ew_u64.c: the ops that read u64 operands as unsigned (they
 * order or divide), one element; their clip bounds as bit patterns. */
int rlx__cpu_ref_u64_orders(rlx_op op);
uint64_t rlx__cpu_ref_u64_op(rlx_op op, const rlx__cpu_ref_ew *p,
                             uint64_t x, uint64_t y);
int64_t rlx__cpu_ref_u64_bound(double b, int up);

/* kernels_reduce_ext.c: reductions of values 100-149 on any of their
 * dtypes, and reduce_sum/mean/max on integers (plan: reduce_prepare). */
void rlx__cpu_ref_reduce_ext_run(const rlx_executable *exe,
                                 rlx__cpu_ref_node *n);

/* kernels_arg.c: argmax, argmin. */
rlx_status rlx__cpu_ref_arg_prepare(const rlx_host *host,
                                    const rlx_graph_view *g,
                                    const rlx_node_view *v,
                                    const rlx__cpu_ref_attrs *a,
                                    rlx__cpu_ref_node *n);
void rlx__cpu_ref_arg_run(const rlx_executable *exe, rlx__cpu_ref_node *n);

/* kernels_quant.c: quantize_linear, dequantize_linear, matmul_integer,
 * conv_integer. */
int rlx__cpu_ref_is_quant_op(rlx_op op);
rlx_status rlx__cpu_ref_quant_prepare(const rlx_host *host,
                                      const rlx_graph_view *g,
                                      const rlx_node_view *v,
                                      const rlx__cpu_ref_attrs *a,
                                      rlx__cpu_ref_node *n);
void rlx__cpu_ref_quant_run(const rlx_executable *exe, rlx__cpu_ref_node *n);

#endif /* RLX_CPU_REF_INTERNAL_H */
