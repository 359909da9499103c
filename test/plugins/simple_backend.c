/* simple_backend.c - see simple_backend.h. */
#include "simple_backend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit.h>

struct rlx_executable {
    uint32_t n_nodes;
    rlx_op *ops;
    uint32_t (*in)[2];
    size_t *count;        /* elements per node */
    uint32_t *slot;
    float **val;          /* per-node storage (inputs/params point in) */
    uint32_t n_outputs;
    uint32_t *outputs;
};

struct rlx_buffer {
    size_t nbytes;
    float data[];
};

/* Elements of N (0 when the count would overflow: compile then fails
 * its allocation). */
static size_t elements(const rlx_node_view *n)
{
    size_t c = 0;
    rlx_kit_shape_count(n->rank, n->shape, sizeof(float), &c);
    return c;
}

static rlx_status probe(void *bd, rlx_probe_result *out)
{
    simple_backend *b = bd;
    if (b->unavailable_env && getenv(b->unavailable_env))
        return rlx_host_report(b->host, RLX_ERR_UNAVAILABLE,
                               "test device switched off by the "
                               "environment. Fix: unset the variable");
    out->device_count = b->devices;
    if (RLX_HAS_FIELD(out->struct_size, rlx_probe_result, flags))
        out->flags = b->probe_flags;
    return RLX_OK;
}

static int supports_op(void *bd, rlx_op op, rlx_dtype dtype)
{
    simple_backend *b = bd;
    if (dtype != RLX_DTYPE_F32)
        return 0;
    if (b->wrong_add && (op == RLX_OP_MUL || op == RLX_OP_RELU))
        return 0;
    return op == RLX_OP_INPUT || op == RLX_OP_PARAM ||
           op == RLX_OP_CONSTANT || op == RLX_OP_ADD || op == RLX_OP_MUL ||
           op == RLX_OP_RELU;
}

static void exe_free(void *bd, rlx_executable *e)
{
    (void)bd;
    if (!e)
        return;
    for (uint32_t i = 0; e->val && i < e->n_nodes; i++)
        if (e->ops[i] != RLX_OP_INPUT && e->ops[i] != RLX_OP_PARAM)
            free(e->val[i]);
    free(e->ops);
    free(e->in);
    free(e->count);
    free(e->slot);
    free(e->val);
    free(e->outputs);
    free(e);
}

static rlx_status compile(void *bd, const rlx_graph_view *g,
                          const rlx_compile_options *opts,
                          rlx_executable **out)
{
    simple_backend *b = bd;
    (void)opts;
    rlx_executable *e = calloc(1, sizeof *e);
    if (!e)
        return rlx_host_report(b->host, RLX_ERR_OUT_OF_MEMORY,
                               "out of memory. Fix: free memory");
    uint32_t n = g->n_nodes;
    e->n_nodes = n;
    e->ops = calloc(n + 1, sizeof *e->ops);
    e->in = calloc(n + 1, sizeof *e->in);
    e->count = calloc(n + 1, sizeof *e->count);
    e->slot = calloc(n + 1, sizeof *e->slot);
    e->val = calloc(n + 1, sizeof *e->val);
    e->outputs = calloc(g->n_outputs + 1, sizeof *e->outputs);
    e->n_outputs = g->n_outputs;
    if (!e->ops || !e->in || !e->count || !e->slot || !e->val ||
        !e->outputs) {
        exe_free(bd, e);
        return rlx_host_report(b->host, RLX_ERR_OUT_OF_MEMORY,
                               "out of memory. Fix: free memory");
    }
    for (uint32_t i = 0; i < n; i++) {
        const rlx_node_view *node = g->nodes[i];
        e->ops[i] = node->op;
        e->count[i] = elements(node);
        e->slot[i] = node->slot;
        for (uint32_t j = 0; j < node->n_inputs && j < 2; j++) {
            e->in[i][j] = node->inputs[j];
            if (elements(g->nodes[node->inputs[j]]) != e->count[i]) {
                exe_free(bd, e);
                return rlx_host_report(b->host, RLX_ERR_UNSUPPORTED,
                                       "broadcasting is not supported. Fix: "
                                       "use same-shaped operands");
            }
        }
        if (node->op != RLX_OP_INPUT && node->op != RLX_OP_PARAM) {
            e->val[i] = calloc(e->count[i] + 1, sizeof(float));
            if (!e->val[i]) {
                exe_free(bd, e);
                return rlx_host_report(b->host, RLX_ERR_OUT_OF_MEMORY,
                                       "out of memory. Fix: free memory");
            }
            if (node->op == RLX_OP_CONSTANT && e->count[i])
                memcpy(e->val[i], node->data, e->count[i] * sizeof(float));
        }
    }
    memcpy(e->outputs, g->outputs, g->n_outputs * sizeof *e->outputs);
    *out = e;
    return RLX_OK;
}

static rlx_status buffer_create(void *bd, uint32_t dev,
                                const rlx_tensor_desc *d, const void *data,
                                rlx_buffer **out)
{
    simple_backend *b = bd;
    size_t c = 1;
    (void)dev;
    /* without RLX_BACKEND_DEVICE_IO only params come here, with data */
    if (!data && !b->device_io)
        return rlx_host_report(b->host, RLX_ERR_INVALID_ARGUMENT,
                               "test backend: buffer_create without data. "
                               "Fix: this backend has no device I/O");
    for (uint32_t i = 0; i < d->rank; i++)
        c *= (size_t)d->shape[i];
    rlx_buffer *buf = malloc(sizeof *buf + c * sizeof(float) + 1);
    if (!buf)
        return rlx_host_report(b->host, RLX_ERR_OUT_OF_MEMORY,
                               "out of memory. Fix: free memory");
    buf->nbytes = c * sizeof(float);
    if (data && c)
        memcpy(buf->data, data, buf->nbytes);
    else if (c)
        memset(buf->data, 0, buf->nbytes);
    *out = buf;
    return RLX_OK;
}

static rlx_status buffer_read(void *bd, rlx_buffer *buf, void *dst,
                              size_t nbytes)
{
    simple_backend *b = bd;
    if (nbytes != buf->nbytes)
        return rlx_host_report(b->host, RLX_ERR_INVALID_ARGUMENT,
                               "size mismatch. Fix: read the whole buffer");
    memcpy(dst, buf->data, nbytes);
    return RLX_OK;
}

static rlx_status buffer_write(void *bd, rlx_buffer *buf, const void *src,
                               size_t nbytes)
{
    simple_backend *b = bd;
    if (nbytes != buf->nbytes)
        return rlx_host_report(b->host, RLX_ERR_INVALID_ARGUMENT,
                               "size mismatch. Fix: write the whole buffer");
    if (nbytes)
        memcpy(buf->data, src, nbytes);
    return RLX_OK;
}

static void buffer_destroy(void *bd, rlx_buffer *buf)
{
    (void)bd;
    free(buf);
}

static rlx_status execute(void *bd, rlx_executable *e,
                          const rlx_execute_args *a)
{
    const simple_backend *b = bd;
    /* bound buffers (ABI 1.2) only with device I/O; never otherwise */
    int has_bufs = RLX_HAS_FIELD(a->struct_size, rlx_execute_args,
                                 output_buffers) &&
                   (a->input_buffers || a->output_buffers);
    if (has_bufs && !b->device_io)
        return rlx_host_report(b->host, RLX_ERR_INVALID_ARGUMENT,
                               "test backend: got bound buffers. Fix: this "
                               "backend has no device I/O");
    /* exactly one of host pointer and bound buffer per slot */
    for (uint32_t i = 0; i < e->n_nodes; i++)
        if (e->ops[i] == RLX_OP_INPUT &&
            !a->inputs[e->slot[i]] == !rlx_kit_bound_input(a, e->slot[i]))
            return rlx_host_report(b->host, RLX_ERR_INVALID_ARGUMENT,
                                   "test backend: an input has both or "
                                   "neither of a host pointer and a bound "
                                   "buffer. Fix: pass one");
    for (uint32_t i = 0; i < e->n_outputs; i++)
        if (!a->outputs[i] == !rlx_kit_bound_output(a, i))
            return rlx_host_report(b->host, RLX_ERR_INVALID_ARGUMENT,
                                   "test backend: an output has both or "
                                   "neither of a host pointer and a bound "
                                   "buffer. Fix: pass one");
    for (uint32_t i = 0; i < e->n_nodes; i++) {
        float *o;
        const float *x = e->val[e->in[i][0]], *y = e->val[e->in[i][1]];
        switch (e->ops[i]) {
        case RLX_OP_INPUT:
            /* the core keeps inputs alive and unchanged during execute;
             * a bound buffer is read in place */
            if (rlx_kit_bound_input(a, e->slot[i]))
                e->val[i] = rlx_kit_bound_input(a, e->slot[i])->data;
            else
                memcpy(&e->val[i], &a->inputs[e->slot[i]], sizeof(float *));
            break;
        case RLX_OP_PARAM:
            e->val[i] = a->params[e->slot[i]]->data;
            break;
        case RLX_OP_ADD: case RLX_OP_MUL: case RLX_OP_RELU:
            o = e->val[i];
            for (size_t k = 0; k < e->count[i]; k++)
                o[k] = e->ops[i] == RLX_OP_ADD   ? (b->wrong_add ? x[k] - y[k]
                                                                 : x[k] + y[k])
                       : e->ops[i] == RLX_OP_MUL ? x[k] * y[k]
                       : (x[k] > 0 || (isnan(x[k]) && !b->relu_nan_zero)
                              ? x[k]
                              : 0); /* relu: NaN stays, -0 gives +0 */
            break;
        default:
            break;
        }
    }
    for (uint32_t i = 0; i < e->n_outputs; i++) {
        uint32_t node = e->outputs[i];
        rlx_buffer *ob = rlx_kit_bound_output(a, i);
        void *dst = ob ? (void *)ob->data : a->outputs[i];
        if (e->count[node])
            memcpy(dst, e->val[node], e->count[node] * sizeof(float));
    }
    return RLX_OK;
}

static rlx_status device_describe(void *bd, uint32_t index,
                                  rlx_device_info *out)
{
    simple_backend *b = bd;
    if (index >= b->devices)
        return rlx_host_report(b->host, RLX_ERR_NOT_FOUND,
                               "no such test device. Fix: use an index "
                               "below the probe's device count");
    snprintf(out->name, sizeof out->name, "test device %u", index);
    snprintf(out->type, sizeof out->type, "%s",
             b->probe_flags & RLX_PROBE_SOFTWARE ? "CPU" : "accelerator");
    out->memory_total = (uint64_t)(index + 1) << 30;
    out->memory_free = (uint64_t)(index + 1) << 29;
    snprintf(out->detail, sizeof out->detail, "made up by the test plugin");
    out->flags = b->probe_flags;
    return RLX_OK;
}

static void backend_destroy(void *bd)
{
    free(bd);
}

const rlx_backend_vtable simple_vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .probe = probe,
    .supports_op = supports_op,
    .compile = compile,
    .executable_destroy = exe_free,
    .buffer_create = buffer_create,
    .buffer_read = buffer_read,
    .buffer_destroy = buffer_destroy,
    .execute = execute,
    .backend_destroy = backend_destroy,
    .device_describe = device_describe,
};

const rlx_backend_vtable simple_vtable_io = {
    .struct_size = sizeof(rlx_backend_vtable),
    .probe = probe,
    .supports_op = supports_op,
    .compile = compile,
    .executable_destroy = exe_free,
    .buffer_create = buffer_create,
    .buffer_read = buffer_read,
    .buffer_destroy = buffer_destroy,
    .execute = execute,
    .backend_destroy = backend_destroy,
    .device_describe = device_describe,
    .buffer_write = buffer_write,
};
