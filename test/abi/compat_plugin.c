/*
 * compat_plugin.c - one small backend (add on same-shaped f32 tensors)
 * built against an older or newer copy of the plugin-abi headers
 * (test/abi/1.0, 1.2 and 1.3, copied from history; test/abi/1.5, made by
 * hand)
 * to show that the current core loads and runs plugins of every minor of
 * its major. COMPAT_ID names the backend.
 *
 * From 1.2 on it has device I/O (RLX_BACKEND_DEVICE_IO): bound inputs
 * and outputs come as its buffers. Against the hypothetical 1.5 it also
 * fills what 1.5 appended (a vtable slot, an info field): the core does
 * not know them and must neither read nor call them. The slot returns an
 * error, so a core that called it would fail.
 */
#include <stdlib.h>
#include <string.h>

#include <rlx/plugin.h>

struct rlx_executable {
    uint32_t n_nodes;
    size_t *count;            /* elements per node */
    rlx_op *op;
    uint32_t (*in)[2];
    uint32_t *slot;
    const float **val;        /* per node: inputs point at the caller's */
    float **own;              /* per node: storage of computed nodes */
    uint32_t n_outputs;
    uint32_t *outputs;
};

struct rlx_buffer {
    size_t nbytes;
    float data[];
};

static const rlx_host *host;

static size_t elements(const rlx_node_view *n)
{
    size_t c = 1;
    for (uint32_t i = 0; i < n->rank; i++)
        c *= (size_t)n->shape[i];
    return c;
}

static int supports_op(void *b, rlx_op op, rlx_dtype dtype)
{
    (void)b;
    return dtype == RLX_DTYPE_F32 &&
           (op == RLX_OP_INPUT || op == RLX_OP_PARAM || op == RLX_OP_ADD);
}

static void exe_destroy(void *b, rlx_executable *e)
{
    (void)b;
    if (!e)
        return;
    for (uint32_t i = 0; e->own && i < e->n_nodes; i++)
        free(e->own[i]);
    free(e->count);
    free(e->op);
    free(e->in);
    free(e->slot);
    free((void *)e->val);
    free(e->own);
    free(e->outputs);
    free(e);
}

static rlx_status oom(void)
{
    return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                           "out of memory. Fix: free memory");
}

static rlx_status compile(void *b, const rlx_graph_view *g,
                          const rlx_compile_options *opts,
                          rlx_executable **out)
{
    (void)opts;
    rlx_executable *e = calloc(1, sizeof *e);
    if (!e)
        return oom();
    uint32_t n = g->n_nodes;
    e->n_nodes = n;
    e->n_outputs = g->n_outputs;
    e->count = calloc(n + 1, sizeof *e->count);
    e->op = calloc(n + 1, sizeof *e->op);
    e->in = calloc(n + 1, sizeof *e->in);
    e->slot = calloc(n + 1, sizeof *e->slot);
    e->val = calloc(n + 1, sizeof *e->val);
    e->own = calloc(n + 1, sizeof *e->own);
    e->outputs = calloc(g->n_outputs + 1, sizeof *e->outputs);
    if (!e->count || !e->op || !e->in || !e->slot || !e->val || !e->own ||
        !e->outputs) {
        exe_destroy(b, e);
        return oom();
    }
    for (uint32_t i = 0; i < n; i++) {
        const rlx_node_view *v = g->nodes[i];
        e->op[i] = v->op;
        e->count[i] = elements(v);
        e->slot[i] = v->slot;
        if (v->op != RLX_OP_ADD)
            continue;
        e->in[i][0] = v->inputs[0];
        e->in[i][1] = v->inputs[1];
        if (elements(g->nodes[v->inputs[0]]) != e->count[i] ||
            elements(g->nodes[v->inputs[1]]) != e->count[i]) {
            exe_destroy(b, e);
            return rlx_host_report(host, RLX_ERR_UNSUPPORTED,
                                   "broadcasting is not supported. Fix: "
                                   "use same-shaped operands");
        }
        e->own[i] = calloc(e->count[i] + 1, sizeof(float));
        if (!e->own[i]) {
            exe_destroy(b, e);
            return oom();
        }
        e->val[i] = e->own[i];
    }
    memcpy(e->outputs, g->outputs, g->n_outputs * sizeof *e->outputs);
    *out = e;
    return RLX_OK;
}

static rlx_status buffer_create(void *b, uint32_t dev,
                                const rlx_tensor_desc *d, const void *data,
                                rlx_buffer **out)
{
    size_t c = 1;
    (void)b;
    (void)dev;
    for (uint32_t i = 0; i < d->rank; i++)
        c *= (size_t)d->shape[i];
    rlx_buffer *buf = malloc(sizeof *buf + c * sizeof(float) + 1);
    if (!buf)
        return oom();
    buf->nbytes = c * sizeof(float);
    if (data && c)
        memcpy(buf->data, data, buf->nbytes);
    else if (c) /* 1.2 device I/O: no data means zeros */
        memset(buf->data, 0, buf->nbytes);
    *out = buf;
    return RLX_OK;
}

static rlx_status buffer_read(void *b, rlx_buffer *buf, void *dst,
                              size_t nbytes)
{
    (void)b;
    if (nbytes != buf->nbytes)
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "size mismatch. Fix: read the whole buffer");
    memcpy(dst, buf->data, nbytes);
    return RLX_OK;
}

static void buffer_destroy(void *b, rlx_buffer *buf)
{
    (void)b;
    free(buf);
}

/* The buffer bound to input or output slot S (1.2 device I/O), read only
 * as far as the core's struct has the arrays; NULL when none. */
static rlx_buffer *bound(const rlx_execute_args *a, int output, uint32_t s)
{
#if RLX_ABI_MINOR >= 2
    if (!RLX_HAS_FIELD(a->struct_size, rlx_execute_args, output_buffers))
        return NULL;
    rlx_buffer *const *bufs = output ? a->output_buffers : a->input_buffers;
    return bufs ? bufs[s] : NULL;
#else
    (void)a, (void)output, (void)s;
    return NULL;
#endif
}

static rlx_status execute(void *b, rlx_executable *e,
                          const rlx_execute_args *a)
{
    (void)b;
    for (uint32_t i = 0; i < e->n_nodes; i++) {
        if (e->op[i] == RLX_OP_INPUT) {
            const rlx_buffer *buf = bound(a, 0, e->slot[i]);
            e->val[i] = buf ? buf->data : a->inputs[e->slot[i]];
            if (!e->val[i])
                return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                                       "input without data. Fix: pass a "
                                       "host pointer or a bound buffer");
        } else if (e->op[i] == RLX_OP_PARAM) {
            e->val[i] = a->params[e->slot[i]]->data;
        } else {
            const float *x = e->val[e->in[i][0]], *y = e->val[e->in[i][1]];
            for (size_t k = 0; k < e->count[i]; k++)
                e->own[i][k] = x[k] + y[k];
        }
    }
    for (uint32_t i = 0; i < e->n_outputs; i++) {
        rlx_buffer *buf = bound(a, 1, i);
        if (e->count[e->outputs[i]])
            memcpy(buf ? (void *)buf->data : a->outputs[i],
                   e->val[e->outputs[i]],
                   e->count[e->outputs[i]] * sizeof(float));
    }
    return RLX_OK;
}

#if RLX_ABI_MINOR >= 2
static rlx_status buffer_write(void *b, rlx_buffer *buf, const void *src,
                               size_t nbytes)
{
    (void)b;
    if (nbytes != buf->nbytes)
        return rlx_host_report(host, RLX_ERR_INVALID_ARGUMENT,
                               "size mismatch. Fix: write the whole buffer");
    memcpy(buf->data, src, nbytes);
    return RLX_OK;
}
#endif

#if RLX_ABI_MINOR >= 5
static rlx_status buffer_copy(void *b, rlx_buffer *dst,
                              const rlx_buffer *src)
{
    (void)b;
    (void)dst;
    (void)src;
    return rlx_host_report(host, RLX_ERR_INTERNAL,
                           "buffer_copy is a 1.5 slot this core must not "
                           "know. Fix: none, this is a test");
}
#endif

static const rlx_backend_vtable vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .supports_op = supports_op,
    .compile = compile,
    .executable_destroy = exe_destroy,
    .buffer_create = buffer_create,
    .buffer_read = buffer_read,
    .buffer_destroy = buffer_destroy,
    .execute = execute,
#if RLX_ABI_MINOR >= 2
    .buffer_write = buffer_write,
#endif
#if RLX_ABI_MINOR >= 5
    .buffer_copy = buffer_copy,
#endif
};

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *h)
{
    host = h;
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = COMPAT_ID,
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "abitest",
        .priority = RLX_PRIORITY_DEFAULT,
#if RLX_ABI_MINOR >= 2
        .flags = RLX_BACKEND_EXECUTES | RLX_BACKEND_DEVICE_IO,
#else
        .flags = RLX_BACKEND_EXECUTES,
#endif
        .description = "ABI compatibility test: add on f32",
        .vtable = &vtable,
        .backend = NULL,
#if RLX_ABI_MINOR >= 5
        .version = "1.5-test",
#endif
    };
    return rlx_register_backend(h, &info);
}
