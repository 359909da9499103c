/*
 * partial_npu.c - a pretend accelerator that runs only part of the ops:
 * add and mul (same shape, or the right side a suffix of the left, as a
 * bias), relu, and 2-D matmul, in f32. supports_op declares only those
 * compute ops (never the sources), and supports_node (ABI 1.3) declines
 * a matmul that is not 2-D. Built three ways:
 *   default       "test-npu" on device kind "npu"
 *   -DNPU_FLAKY   "test-flaky" on "flaky": compiles, then every run fails
 *   -DNPU_SLOW    "test-slow" on "slow": every run sleeps 20 ms first
 * Built from plugin-abi headers alone; it must not link librlx.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rlx/plugin.h>

#if defined(NPU_FLAKY)
#define NPU_ID "test-flaky"
#define NPU_DEVICE "flaky"
#elif defined(NPU_SLOW)
#define NPU_ID "test-slow"
#define NPU_DEVICE "slow"
#else
#define NPU_ID "test-npu"
#define NPU_DEVICE "npu"
#endif

typedef struct npu {
    const rlx_host *host;
} npu;

typedef struct npu_node {
    rlx_op op;
    uint32_t in[2];
    size_t count;       /* elements */
    uint32_t slot;
    uint32_t m, k, n;   /* matmul */
    float *val;         /* own storage, or an input's or param's */
    int owned;
} npu_node;

struct rlx_executable {
    uint32_t n_nodes;
    npu_node *nodes;
    uint32_t n_outputs;
    uint32_t *outputs;
};

struct rlx_buffer {
    size_t nbytes;
    float data[];
};

static size_t elements(const rlx_node_view *n)
{
    size_t c = 1;
    for (uint32_t i = 0; i < n->rank; i++)
        c *= (size_t)n->shape[i];
    return c;
}

static int supports_op(void *bd, rlx_op op, rlx_dtype dtype)
{
    (void)bd;
    return dtype == RLX_DTYPE_F32 &&
           (op == RLX_OP_ADD || op == RLX_OP_MUL || op == RLX_OP_RELU ||
            op == RLX_OP_MATMUL);
}

static int supports_node(void *bd, const rlx_graph_view *g, uint32_t node,
                         char *why, size_t why_size)
{
    (void)bd;
    const rlx_node_view *n = g->nodes[node];
    if (n->op == RLX_OP_MATMUL) {
        const rlx_node_view *a = g->nodes[n->inputs[0]];
        const rlx_node_view *b = g->nodes[n->inputs[1]];
        int transposed = 0;
        for (uint32_t j = 0; j < n->n_int_attrs && j < 2; j++)
            transposed |= n->int_attrs[j] != 0;
        if (a->rank != 2 || b->rank != 2 || transposed) {
            snprintf(why, why_size, "matmul only on 2-D operands, "
                                    "untransposed");
            return 0;
        }
    }
    if (n->op == RLX_OP_ADD || n->op == RLX_OP_MUL) {
        size_t x = elements(g->nodes[n->inputs[0]]);
        size_t y = elements(g->nodes[n->inputs[1]]);
        if (x != elements(n) || !y || x % y) {
            snprintf(why, why_size, "only a right-hand bias broadcasts");
            return 0;
        }
    }
    return 1;
}

static void exe_free(void *bd, rlx_executable *e)
{
    (void)bd;
    if (!e)
        return;
    for (uint32_t i = 0; e->nodes && i < e->n_nodes; i++)
        if (e->nodes[i].owned)
            free(e->nodes[i].val);
    free(e->nodes);
    free(e->outputs);
    free(e);
}

static rlx_status oom(const npu *b)
{
    return rlx_host_report(b->host, RLX_ERR_OUT_OF_MEMORY,
                           "out of memory. Fix: free memory");
}

static rlx_status compile(void *bd, const rlx_graph_view *g,
                          const rlx_compile_options *opts,
                          rlx_executable **out)
{
    npu *b = bd;
    (void)opts;
    rlx_executable *e = calloc(1, sizeof *e);
    if (!e)
        return oom(b);
    e->n_nodes = g->n_nodes;
    e->nodes = calloc(g->n_nodes + 1, sizeof *e->nodes);
    e->outputs = calloc(g->n_outputs + 1, sizeof *e->outputs);
    e->n_outputs = g->n_outputs;
    if (!e->nodes || !e->outputs) {
        exe_free(bd, e);
        return oom(b);
    }
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const rlx_node_view *n = g->nodes[i];
        npu_node *d = &e->nodes[i];
        d->op = n->op;
        d->count = elements(n);
        d->slot = n->slot;
        for (uint32_t j = 0; j < n->n_inputs && j < 2; j++)
            d->in[j] = n->inputs[j];
        if (n->op != RLX_OP_INPUT && n->op != RLX_OP_PARAM &&
            n->op != RLX_OP_CONSTANT && !supports_op(bd, n->op, n->dtype))
            break; /* refused below */
        if (n->op == RLX_OP_MATMUL) {
            const rlx_node_view *a = g->nodes[n->inputs[0]];
            d->m = (uint32_t)a->shape[0];
            d->k = (uint32_t)a->shape[1];
            d->n = (uint32_t)n->shape[1];
        }
        if (n->op != RLX_OP_INPUT && n->op != RLX_OP_PARAM) {
            d->val = calloc(d->count + 1, sizeof(float));
            d->owned = 1;
            if (!d->val) {
                exe_free(bd, e);
                return oom(b);
            }
            if (n->op == RLX_OP_CONSTANT && d->count)
                memcpy(d->val, n->data, d->count * sizeof(float));
        }
    }
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        const rlx_node_view *n = g->nodes[i];
        if (n->op != RLX_OP_INPUT && n->op != RLX_OP_PARAM &&
            n->op != RLX_OP_CONSTANT &&
            (!supports_op(bd, n->op, n->dtype) ||
             !supports_node(bd, g, i, (char[8]){ 0 }, 8))) {
            exe_free(bd, e);
            return rlx_host_report(b->host, RLX_ERR_UNSUPPORTED,
                                   "node not supported here. Fix: ask "
                                   "supports_op and supports_node first");
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
    npu *b = bd;
    size_t c = 1;
    (void)dev;
    for (uint32_t i = 0; i < d->rank; i++)
        c *= (size_t)d->shape[i];
    rlx_buffer *buf = calloc(1, sizeof *buf + c * sizeof(float) + 1);
    if (!buf)
        return oom(b);
    buf->nbytes = c * sizeof(float);
    if (data && c)
        memcpy(buf->data, data, buf->nbytes);
    *out = buf;
    return RLX_OK;
}

static rlx_status buffer_read(void *bd, rlx_buffer *buf, void *dst,
                              size_t nbytes)
{
    npu *b = bd;
    if (nbytes != buf->nbytes)
        return rlx_host_report(b->host, RLX_ERR_INVALID_ARGUMENT,
                               "size mismatch. Fix: read the whole buffer");
    memcpy(dst, buf->data, nbytes);
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
    npu *b = bd;
#if defined(NPU_FLAKY)
    (void)e;
    (void)a;
    return rlx_host_report(b->host, RLX_ERR_BACKEND,
                           "the flaky test device was lost. Fix: this "
                           "test device always fails at run time");
#else
#if defined(NPU_SLOW)
    nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
#endif
    (void)b;
    for (uint32_t i = 0; i < e->n_nodes; i++) {
        npu_node *d = &e->nodes[i];
        const float *x = e->nodes[d->in[0]].val, *y = e->nodes[d->in[1]].val;
        size_t ny = e->nodes[d->in[1]].count;
        switch (d->op) {
        case RLX_OP_INPUT:
            memcpy(&d->val, &a->inputs[d->slot], sizeof d->val);
            break;
        case RLX_OP_PARAM:
            d->val = a->params[d->slot]->data;
            break;
        case RLX_OP_ADD:
            for (size_t k = 0; k < d->count; k++)
                d->val[k] = x[k] + y[k % ny];
            break;
        case RLX_OP_MUL:
            for (size_t k = 0; k < d->count; k++)
                d->val[k] = x[k] * y[k % ny];
            break;
        case RLX_OP_RELU:
            for (size_t k = 0; k < d->count; k++)
                d->val[k] = x[k] > 0 ? x[k] : 0;
            break;
        case RLX_OP_MATMUL:
            for (uint32_t r = 0; r < d->m; r++)
                for (uint32_t c = 0; c < d->n; c++) {
                    float s = 0;
                    for (uint32_t q = 0; q < d->k; q++)
                        s += x[(size_t)r * d->k + q] * y[(size_t)q * d->n + c];
                    d->val[(size_t)r * d->n + c] = s;
                }
            break;
        default:
            break;
        }
    }
    for (uint32_t i = 0; i < e->n_outputs; i++) {
        const npu_node *d = &e->nodes[e->outputs[i]];
        if (d->count)
            memcpy(a->outputs[i], d->val, d->count * sizeof(float));
    }
    return RLX_OK;
#endif
}

static void backend_destroy(void *bd)
{
    free(bd);
}

static const rlx_backend_vtable npu_vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .supports_op = supports_op,
    .compile = compile,
    .executable_destroy = exe_free,
    .buffer_create = buffer_create,
    .buffer_read = buffer_read,
    .buffer_destroy = buffer_destroy,
    .execute = execute,
    .backend_destroy = backend_destroy,
    .supports_node = supports_node,
};

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    npu *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    b->host = host;
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = NPU_ID,
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = NPU_DEVICE,
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "test plugin: add, mul, relu, 2-D matmul in f32",
        .vtable = &npu_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
