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

#include <stddef.h>
#include <stdint.h>

#include <rlx/backend.h>
#include <rlx/plugin.h>

#if defined(__GNUC__) || defined(__clang__)
#define RLX__CPU_REF_PRINTF(fmt, args) \
    __attribute__((format(printf, fmt, args)))
#else
#define RLX__CPU_REF_PRINTF(fmt, args)
#endif

/* ---- backend object ------------------------------------------------- */

typedef struct rlx__cpu_ref {
    const rlx_host *host; /* for error reports; outlives the backend */
} rlx__cpu_ref;

/* Format a message (which should end in "Fix: ...") and report it. */
rlx_status rlx__cpu_ref_fail(const rlx_host *host, rlx_status status,
                             const char *fmt, ...) RLX__CPU_REF_PRINTF(3, 4);

/* Lower-case op name for messages; "unknown" for a value not in ops.h. */
const char *rlx__cpu_ref_op_name(rlx_op op);
/* Number of inputs of OP, or -1 for a value not in ops.h. */
int rlx__cpu_ref_op_arity(rlx_op op);

/* ---- shapes --------------------------------------------------------- */

/* A borrowed shape. */
typedef struct rlx__cpu_ref_shape {
    uint32_t rank;
    const int64_t *dims;
} rlx__cpu_ref_shape;

/* Element count of SHAPE into *COUNT. Returns 0 when a dim is negative,
 * 1 when fine, -1 when the count times ELEM_SIZE overflows size_t. */
int rlx__cpu_ref_shape_count(rlx__cpu_ref_shape shape, size_t elem_size,
                             size_t *count);
/* Nonzero when both shapes have the same rank and dims. */
int rlx__cpu_ref_shape_equal(rlx__cpu_ref_shape a, rlx__cpu_ref_shape b);
/* Write "[2, 3]" into BUF for messages. */
const char *rlx__cpu_ref_shape_str(rlx__cpu_ref_shape shape, char *buf,
                                   size_t size);

/* Round a double to the nearest float as IEEE 754 does, without the
 * undefined behaviour C gives an out-of-range conversion. */
float rlx__cpu_ref_to_f32(double x);

/* ---- buffers -------------------------------------------------------- */

struct rlx_buffer {
    rlx_dtype dtype;
    size_t nbytes;
    unsigned char *bytes; /* never NULL, even when nbytes is 0 */
};

rlx_status rlx__cpu_ref_buffer_create(void *backend, uint32_t device_index,
                                      const rlx_tensor_desc *desc,
                                      const void *data, rlx_buffer **out);
rlx_status rlx__cpu_ref_buffer_read(void *backend, rlx_buffer *buffer,
                                    void *dst, size_t nbytes);
void rlx__cpu_ref_buffer_destroy(void *backend, rlx_buffer *buffer);

/* ---- per-op plans --------------------------------------------------- */

/* Binary op: walk the output, stepping each input by its own strides
 * (0 on a stretched dim). */
typedef struct rlx__cpu_ref_bcast {
    uint32_t rank;      /* of the output */
    size_t *dims;       /* output dims */
    size_t *a_stride;   /* element strides of each input per output dim */
    size_t *b_stride;
    size_t *index;      /* scratch counter */
} rlx__cpu_ref_bcast;

/* Matmul after transposes: Y[b] (m x n) = A[b] (m x k) * B[b] (k x n),
 * with element (i, p) of A at i * a_row + p * a_col, and likewise B. */
typedef struct rlx__cpu_ref_matmul {
    size_t m, k, n;
    size_t a_row, a_col;
    size_t b_row, b_col;
    uint32_t batch_rank;
    size_t n_batch;
    size_t *batch_dims;
    size_t *a_batch_stride; /* element offset per batch step; 0 stretched */
    size_t *b_batch_stride;
    size_t *index;          /* scratch counter */
} rlx__cpu_ref_matmul;

/* Softmax over the middle dim of [outer, len, inner]. */
typedef struct rlx__cpu_ref_softmax {
    size_t outer, len, inner;
} rlx__cpu_ref_softmax;

/* ---- executables ---------------------------------------------------- */

typedef struct rlx__cpu_ref_node {
    rlx_op op;
    char *name;            /* copied, for messages */
    size_t count;          /* elements of the result */
    uint32_t n_inputs;
    uint32_t inputs[2];    /* node indices */
    int64_t gelu_approx;   /* RLX_GELU_ERF or RLX_GELU_TANH */
    uint32_t slot;         /* INPUT/PARAM: slot index */
    int has_slot;
    float *data;           /* result, count elements (at least one) */
    size_t *scratch;       /* owns the arrays of the plans below */
    union {
        rlx__cpu_ref_bcast bcast;
        rlx__cpu_ref_matmul matmul;
        rlx__cpu_ref_softmax softmax;
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

rlx_status rlx__cpu_ref_compile(void *backend, const rlx_graph_view *graph,
                                const rlx_compile_options *options,
                                rlx_executable **out);
void rlx__cpu_ref_executable_destroy(void *backend, rlx_executable *exe);
rlx_status rlx__cpu_ref_execute(void *backend, rlx_executable *exe,
                                const rlx_execute_args *args);

/* ---- kernels -------------------------------------------------------- */

/* Unary: Y[i] = f(X[i]). APPROX only matters for GELU. */
void rlx__cpu_ref_unary(rlx_op op, int64_t approx, const float *x, float *y,
                        size_t count);

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

rlx_status rlx__cpu_ref_matmul_prepare(const rlx_host *host,
                                       const char *name,
                                       rlx__cpu_ref_shape a,
                                       rlx__cpu_ref_shape b,
                                       rlx__cpu_ref_shape out,
                                       int transpose_a, int transpose_b,
                                       rlx__cpu_ref_matmul *plan,
                                       size_t **scratch);
void rlx__cpu_ref_matmul_run(rlx__cpu_ref_matmul *plan, const float *a,
                             const float *b, float *y, size_t count);

rlx_status rlx__cpu_ref_softmax_prepare(const rlx_host *host,
                                        const char *name,
                                        rlx__cpu_ref_shape in,
                                        rlx__cpu_ref_shape out, int64_t axis,
                                        rlx__cpu_ref_softmax *plan);
void rlx__cpu_ref_softmax_run(const rlx__cpu_ref_softmax *plan,
                              const float *x, float *y);

#endif /* RLX_CPU_REF_INTERNAL_H */
