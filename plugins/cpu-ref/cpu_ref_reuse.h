/*
 * cpu_ref_reuse.h - the narrow part of the reference CPU backend that
 * other in-tree backends build on (cpu-openblas): cpu-ref's backend
 * object, buffers and whole-graph compile/execute for the ops they do
 * not speed up, and the shape planners of matmul, softmax and the norms
 * so both backends accept and reject exactly the same graphs.
 *
 * Everything else (node plans, kernels, executables) stays private to
 * cpu-ref in cpu_ref_internal.h. Generic helpers are the plugin kit's
 * (rlx/kit.h), not cpu-ref's.
 */
#ifndef RLX_CPU_REF_REUSE_H
#define RLX_CPU_REF_REUSE_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/backend.h>
#include <rlx/plugin.h>

/* ---- the backend object ------------------------------------------- */

/* A cpu-ref backend object reporting through HOST (NULL when out of
 * memory); free it with rlx__cpu_ref_backend_free. The functions below
 * that take "void *backend" take one of these. */
void *rlx__cpu_ref_backend_new(const rlx_host *host);
void rlx__cpu_ref_backend_free(void *backend);

/* Nonzero when cpu-ref runs OP with a result of DTYPE. */
int rlx__cpu_ref_supports(rlx_op op, rlx_dtype dtype);
/* The same for the ops of values 100-149 (ABI 1.4), whose dtype sets
 * differ op by op (cpu_ref_dtypes.c). */
int rlx__cpu_ref_supports_14(rlx_op op, rlx_dtype dtype);

/* ---- buffers (host memory) and whole graphs ----------------------- */

/* A cpu-ref buffer: the bytes of one tensor in host memory. A backend
 * that shares cpu-ref's buffers reads them in place. */
struct rlx_buffer {
    rlx_dtype dtype;
    size_t nbytes;
    unsigned char *bytes; /* never NULL, even when nbytes is 0 */
    uint64_t id;          /* 0, or unique among the buffers of the process:
                             cpu-openblas numbers its own, to key caches
                             of packed weights (an address can be reused) */
    int borrowed;         /* BYTES is the application's (rlx.memory.v1's
                             buffer_wrap): never freed here */
};

rlx_status rlx__cpu_ref_buffer_create(void *backend, uint32_t device_index,
                                      const rlx_tensor_desc *desc,
                                      const void *data, rlx_buffer **out);
rlx_status rlx__cpu_ref_buffer_read(void *backend, rlx_buffer *buffer,
                                    void *dst, size_t nbytes);
rlx_status rlx__cpu_ref_buffer_write(void *backend, rlx_buffer *buffer,
                                     const void *src, size_t nbytes);
void rlx__cpu_ref_buffer_destroy(void *backend, rlx_buffer *buffer);
/* The rlx.memory.v1 table (rlx/memory.h): buffers are host memory. */
const void *rlx__cpu_ref_get_extension(void *backend, const char *name);

rlx_status rlx__cpu_ref_compile(void *backend, const rlx_graph_view *graph,
                                const rlx_compile_options *options,
                                rlx_executable **out);
void rlx__cpu_ref_executable_destroy(void *backend, rlx_executable *exe);
rlx_status rlx__cpu_ref_execute(void *backend, rlx_executable *exe,
                                const rlx_execute_args *args);

/* ---- shape planners ----------------------------------------------- */

/* A borrowed shape. */
typedef struct rlx__cpu_ref_shape {
    uint32_t rank;
    const int64_t *dims;
} rlx__cpu_ref_shape;

/* The shape of node V. */
static inline rlx__cpu_ref_shape rlx__cpu_ref_shape_of(const rlx_node_view *v)
{
    rlx__cpu_ref_shape s = { v->rank, v->shape };
    return s;
}

/* The integer attributes of a node (ints, count) and its float ones,
 * as far as its struct_size carries them. */
typedef struct rlx__cpu_ref_attrs {
    uint32_t n_ints;
    const int64_t *ints;
    uint32_t n_floats;
    const double *floats;
} rlx__cpu_ref_attrs;

/* A node's attributes, reading only what its struct_size covers. */
rlx__cpu_ref_attrs rlx__cpu_ref_attrs_of(const rlx_node_view *v);

/* Matmul after transposes: Y[b] (m x n) = A[b] (m x k) * B[b] (k x n),
 * with element (i, p) of A at i * a_row + p * a_col, and likewise B. */
typedef struct rlx__cpu_ref_matmul {
    size_t m, k, n;
    size_t a_row, a_col;
    size_t b_row, b_col;
    uint32_t batch_rank;
    size_t n_batch;
    size_t *batch_dims;
    int64_t *a_batch_stride; /* element offset per batch step; 0 stretched */
    int64_t *b_batch_stride; /* (rlx_kit_matmul_batch_strides) */
    size_t *index;          /* scratch counter */
} rlx__cpu_ref_matmul;

/* Plan a matmul; *SCRATCH receives the allocation the plan's arrays live
 * in (the caller frees it). Reports and returns an error on bad shapes. */
rlx_status rlx__cpu_ref_matmul_prepare(const rlx_host *host,
                                       const char *name,
                                       rlx__cpu_ref_shape a,
                                       rlx__cpu_ref_shape b,
                                       rlx__cpu_ref_shape out,
                                       int transpose_a, int transpose_b,
                                       rlx__cpu_ref_matmul *plan,
                                       size_t **scratch);

/* Softmax over the middle dim of [outer, len, inner]. With CAUSAL, inner
 * is 1 and line o is row (o % rows) of a [rows, len] matrix. */
typedef struct rlx__cpu_ref_softmax {
    size_t outer, len, inner;
    int causal;
    size_t rows;
} rlx__cpu_ref_softmax;

rlx_status rlx__cpu_ref_softmax_prepare(const rlx_host *host,
                                        const char *name,
                                        rlx__cpu_ref_shape in,
                                        rlx__cpu_ref_shape out, int64_t axis,
                                        int64_t causal,
                                        rlx__cpu_ref_softmax *plan);

/* layer_norm / rms_norm over the last axis: ROWS lines of COLS. */
typedef struct rlx__cpu_ref_norm {
    size_t rows, cols;
    double eps;
} rlx__cpu_ref_norm;

rlx_status rlx__cpu_ref_norm_prepare(const rlx_host *host,
                                     const rlx_graph_view *g,
                                     const rlx_node_view *v,
                                     const rlx__cpu_ref_attrs *a,
                                     rlx__cpu_ref_norm *plan);

#endif /* RLX_CPU_REF_REUSE_H */
