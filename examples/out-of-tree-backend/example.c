/*
 * example.c - a complete small rlx backend, built out of tree against the
 * installed SDK alone (pkg-config rlx-plugin-abi): f32 add and mul with
 * NumPy broadcasting, and relu, computed on the host CPU. Every other op
 * and dtype is declared unsupported through supports_op, so a session
 * falls back to another backend for graphs that use them and
 * `rlx conformance --backend example` reports them UNSUPPORTED.
 *
 * docs/writing-a-backend.md in the rlx sources walks through this file.
 *
 * Threads: the backend object is read-only after init, so probe and
 * supports_op may run anywhere; each executable owns its scratch memory,
 * and the core runs one execute per executable at a time.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit.h> /* the plugin kit: static inline helpers, not ABI */
#include <rlx/plugin.h>

/* The core's graphs are at most rank 8; a deeper one is declined. */
#define EXAMPLE_MAX_RANK 8

/* The backend object: first argument of every vtable slot. */
typedef struct example_backend {
    const rlx_host *host; /* for error reports; lives as long as we do */
} example_backend;

/* One node of a compiled graph. */
typedef struct example_step {
    rlx_op op;
    uint32_t slot;     /* INPUT, PARAM: which input or param */
    uint32_t a, b;     /* operands: node indices */
    size_t count;      /* elements of the result */
    uint32_t rank;     /* of the result */
    int64_t shape[EXAMPLE_MAX_RANK];
    /* ADD, MUL: element strides of each operand along each result
     * dimension; 0 where the operand is broadcast */
    int64_t stride_a[EXAMPLE_MAX_RANK], stride_b[EXAMPLE_MAX_RANK];
} example_step;

/* Opaque to the core: the plugin defines its own executables and buffers. */
struct rlx_executable {
    uint32_t n_nodes;
    example_step *steps;
    const float **val; /* per node: where its values are during a run */
    float **own;       /* per node: memory this executable owns, or NULL */
    uint32_t n_params, n_inputs; /* slots, for the argument check */
    uint32_t n_outputs;
    uint32_t *outputs; /* node index of each graph output */
};

struct rlx_buffer {
    size_t nbytes;
    float data[];
};

static rlx_status out_of_memory(const example_backend *b)
{
    return rlx_host_report(b->host, RLX_ERR_OUT_OF_MEMORY,
                           "example: out of memory. Fix: free memory or "
                           "run a smaller graph");
}

/* ---- what this backend can do --------------------------------------- */

static rlx_status example_probe(void *backend, rlx_probe_result *out)
{
    (void)backend;
    out->device_count = 1; /* the host CPU; never unavailable */
    /* flags arrived in ABI 1.1: write it only if this core's struct has it */
    if (RLX_HAS_FIELD(out->struct_size, rlx_probe_result, flags))
        out->flags = 0; /* native code, not RLX_PROBE_SOFTWARE */
    return RLX_OK;
}

static int example_supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    if (dtype != RLX_DTYPE_F32)
        return 0;
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_ADD: case RLX_OP_MUL: case RLX_OP_RELU:
        return 1;
    default:
        return 0; /* including op values newer than our headers */
    }
}

/* ---- compile ---------------------------------------------------------- */

static void example_executable_destroy(void *backend, rlx_executable *e)
{
    (void)backend;
    if (!e)
        return;
    for (uint32_t i = 0; e->own && i < e->n_nodes; i++)
        free(e->own[i]);
    free(e->steps);
    free((void *)e->val);
    free(e->own);
    free(e->outputs);
    free(e);
}

static rlx_status example_compile(void *backend, const rlx_graph_view *g,
                                  const rlx_compile_options *options,
                                  rlx_executable **out)
{
    example_backend *b = backend;
    (void)options; /* one device, and f32 only: precision changes nothing */
    rlx_executable *e = calloc(1, sizeof *e);
    if (!e)
        return out_of_memory(b);
    e->n_nodes = g->n_nodes;
    e->n_params = g->n_params;
    e->n_inputs = g->n_inputs;
    e->n_outputs = g->n_outputs;
    e->steps = calloc(g->n_nodes + 1, sizeof *e->steps);
    e->val = calloc(g->n_nodes + 1, sizeof *e->val);
    e->own = calloc(g->n_nodes + 1, sizeof *e->own);
    e->outputs = calloc(g->n_outputs + 1, sizeof *e->outputs);
    if (!e->steps || !e->val || !e->own || !e->outputs) {
        example_executable_destroy(b, e);
        return out_of_memory(b);
    }

    for (uint32_t i = 0; i < g->n_nodes; i++) {
        /* The graph is borrowed for this call: copy what we keep. */
        const rlx_node_view *v = g->nodes[i];
        example_step *st = &e->steps[i];
        if (v->rank > EXAMPLE_MAX_RANK) {
            example_executable_destroy(b, e);
            return rlx_host_report(b->host, RLX_ERR_UNSUPPORTED,
                                   "example: tensors of rank above 8 are "
                                   "not supported. Fix: reshape to rank 8 "
                                   "or less, or use another backend");
        }
        st->op = v->op;
        st->slot = v->slot;
        st->rank = v->rank;
        st->count = 1;
        for (uint32_t d = 0; d < v->rank; d++) {
            st->shape[d] = v->shape[d];
            st->count *= (size_t)v->shape[d];
        }
        switch (v->op) {
        case RLX_OP_INPUT: case RLX_OP_PARAM:
            continue; /* their memory arrives with each execute */
        case RLX_OP_ADD: case RLX_OP_MUL: {
            const rlx_node_view *x = g->nodes[v->inputs[0]];
            const rlx_node_view *y = g->nodes[v->inputs[1]];
            st->a = v->inputs[0];
            st->b = v->inputs[1];
            /* the kit's NumPy broadcasting: 0 on a stretched dim */
            rlx_kit_broadcast_strides(v->rank, x->rank, x->shape,
                                      st->stride_a);
            rlx_kit_broadcast_strides(v->rank, y->rank, y->shape,
                                      st->stride_b);
            break;
        }
        case RLX_OP_RELU:
            st->a = v->inputs[0];
            break;
        case RLX_OP_CONSTANT:
            break;
        default:
            /* supports_op said no, so the core never sends one; be safe */
            example_executable_destroy(b, e);
            return rlx_host_report(b->host, RLX_ERR_UNSUPPORTED,
                                   "example: op not supported. Fix: use "
                                   "another backend for this graph");
        }
        e->own[i] = malloc(st->count * sizeof(float) + 1);
        if (!e->own[i]) {
            example_executable_destroy(b, e);
            return out_of_memory(b);
        }
        if (v->op == RLX_OP_CONSTANT && st->count)
            memcpy(e->own[i], v->data, st->count * sizeof(float));
        e->val[i] = e->own[i];
    }
    memcpy(e->outputs, g->outputs, g->n_outputs * sizeof *e->outputs);
    *out = e; /* only on success: a failed call leaves *out alone */
    return RLX_OK;
}

/* ---- buffers (params live in these) ---------------------------------- */

static rlx_status example_buffer_create(void *backend, uint32_t device_index,
                                        const rlx_tensor_desc *desc,
                                        const void *data, rlx_buffer **out)
{
    example_backend *b = backend;
    (void)device_index;
    size_t count = 1;
    for (uint32_t d = 0; d < desc->rank; d++)
        count *= (size_t)desc->shape[d];
    size_t nbytes = count * rlx_dtype_size(desc->dtype);
    rlx_buffer *buf = malloc(sizeof *buf + nbytes + 1);
    if (!buf)
        return out_of_memory(b);
    buf->nbytes = nbytes;
    if (data && nbytes)
        memcpy(buf->data, data, nbytes);
    *out = buf;
    return RLX_OK;
}

static rlx_status example_buffer_read(void *backend, rlx_buffer *buffer,
                                      void *dst, size_t nbytes)
{
    example_backend *b = backend;
    if (nbytes != buffer->nbytes)
        return rlx_host_report(b->host, RLX_ERR_INVALID_ARGUMENT,
                               "example: buffer_read of a different size "
                               "than the buffer. Fix: read it whole");
    if (nbytes)
        memcpy(dst, buffer->data, nbytes);
    return RLX_OK;
}

static void example_buffer_destroy(void *backend, rlx_buffer *buffer)
{
    (void)backend;
    free(buffer);
}

/* ---- execute ---------------------------------------------------------- */

/* out = x OP y over the result's shape, walking the operands with their
 * broadcast strides (last dimension fastest). */
static void binary(const example_step *st, const float *x, const float *y,
                   float *out)
{
    int64_t idx[EXAMPLE_MAX_RANK] = { 0 };
    int64_t ox = 0, oy = 0;
    for (size_t k = 0; k < st->count; k++) {
        out[k] = st->op == RLX_OP_ADD ? x[ox] + y[oy] : x[ox] * y[oy];
        for (uint32_t d = st->rank; d-- > 0;) {
            ox += st->stride_a[d];
            oy += st->stride_b[d];
            if (++idx[d] < st->shape[d])
                break;
            ox -= st->stride_a[d] * st->shape[d];
            oy -= st->stride_b[d] * st->shape[d];
            idx[d] = 0;
        }
    }
}

static rlx_status example_execute(void *backend, rlx_executable *e,
                                  const rlx_execute_args *args)
{
    example_backend *b = backend;
    /* the kit checks the struct's size and one entry per slot */
    rlx_status st0 = rlx_kit_check_execute_args(
        b->host, "example execute", args, e->n_params, e->n_inputs,
        e->n_outputs);
    if (st0 != RLX_OK)
        return st0;
    for (uint32_t i = 0; i < e->n_nodes; i++) {
        const example_step *st = &e->steps[i];
        switch (st->op) {
        case RLX_OP_INPUT: /* the caller's memory, valid for this call */
            e->val[i] = args->inputs[st->slot];
            break;
        case RLX_OP_PARAM:
            e->val[i] = args->params[st->slot]->data;
            break;
        case RLX_OP_ADD: case RLX_OP_MUL:
            binary(st, e->val[st->a], e->val[st->b], e->own[i]);
            break;
        case RLX_OP_RELU:
            for (size_t k = 0; k < st->count; k++) {
                float x = e->val[st->a][k];
                e->own[i][k] = x > 0 || isnan(x) ? x : 0.0f; /* NaN stays */
            }
            break;
        default: /* CONSTANT: filled at compile */
            break;
        }
    }
    for (uint32_t o = 0; o < e->n_outputs; o++) {
        const example_step *st = &e->steps[e->outputs[o]];
        if (st->count)
            memcpy(args->outputs[o], e->val[e->outputs[o]],
                   st->count * sizeof(float));
    }
    return RLX_OK;
}

static void example_backend_destroy(void *backend)
{
    free(backend);
}

/* ---- registration ------------------------------------------------------ */

static const rlx_backend_vtable example_vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .probe = example_probe,
    .supports_op = example_supports_op,
    .compile = example_compile,
    .executable_destroy = example_executable_destroy,
    .buffer_create = example_buffer_create,
    .buffer_read = example_buffer_read,
    .buffer_destroy = example_buffer_destroy,
    .execute = example_execute,
    .backend_destroy = example_backend_destroy,
};

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    example_backend *b = calloc(1, sizeof *b);
    if (!b)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "example: out of memory. Fix: free memory");
    b->host = host;
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "example",
        .device_kind = RLX_DEVICE_CPU,
        .priority = RLX_PRIORITY_REFERENCE + 10, /* just above cpu-ref */
        .flags = RLX_BACKEND_EXECUTES,
        .description = "out-of-tree example: f32 add, mul (broadcasting), "
                       "relu",
        .vtable = &example_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b); /* refused: the backend object is still ours */
    return st;
}
