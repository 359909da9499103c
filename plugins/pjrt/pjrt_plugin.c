/*
 * pjrt_plugin.c - the entry point of librlx-backend-pjrt.so: a bridge
 * from rlx to any PJRT plugin (libtpu.so, JAX's CUDA and ROCm plugins,
 * vendor plugins).
 *
 * Backends are registered at init, before any PJRT plugin is opened, so
 * which backend a plugin file serves is decided from its name (libtpu,
 * xla_cuda*, xla_rocm*; anything else goes to the generic "pjrt"):
 *   pjrt-tpu   device kind tpu   (TPUs win the default order)
 *   pjrt-cuda  device kind cuda  (priority below the native cuda backend)
 *   pjrt-rocm  device kind rocm  (likewise below a native rocm backend)
 *   pjrt       custom kind "pjrt", any other PJRT platform
 * Loading costs nothing: the probe finds and opens the file (dlopen +
 * GetPjrtApi + version check), and the PJRT client is created at first
 * use (compile, buffers, device listing).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_names.h>

#include "pjrt_internal.h"

rlx_status rlxp_report(const rlxp_backend *be, rlx_status st,
                       const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rlx_host_report(be->host, st, msg);
}

void rlxp_log(const rlxp_backend *be, rlx_log_level level,
              const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rlx_host_log(be->host, level, msg);
}

static rlx_status probe(void *backend, rlx_probe_result *out)
{
    rlxp_backend *be = backend;
    pthread_mutex_lock(&be->lock);
    rlx_status st = rlxp_open(be);
    uint32_t count = be->client ? (uint32_t)be->n_devices : 1;
    pthread_mutex_unlock(&be->lock);
    if (st == RLX_OK && out &&
        RLX_HAS_FIELD(out->struct_size, rlx_probe_result, device_count))
        out->device_count = count;
    return st;
}

static int supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    return rlxp_emit_supports(op, dtype);
}

/* What the lowering cannot take, said before compile so placement can
 * put the node elsewhere. */
static int supports_node(void *backend, const rlx_graph_view *graph,
                         uint32_t node, char *why, size_t why_size)
{
    const rlxp_backend *be = backend;
    const rlx_node_view *n = graph->nodes[node];
    if (n->rank > RLXP_MAX_RANK) {
        snprintf(why, why_size, "rank %u; the PJRT bridge lowers up to "
                 "rank %d", n->rank, RLXP_MAX_RANK);
        return 0;
    }
    for (uint32_t i = 0; i < n->n_inputs; i++)
        if (graph->nodes[n->inputs[i]]->rank > RLXP_MAX_RANK) {
            snprintf(why, why_size, "an input of rank above %d",
                     RLXP_MAX_RANK);
            return 0;
        }
    for (uint32_t i = 0; i < n->n_inputs; i++) {
        rlx_dtype dt = graph->nodes[n->inputs[i]]->dtype;
        if (!rlxp_mlir_dtype(dt)) {
            snprintf(why, why_size, "an input of dtype %s; the PJRT bridge "
                     "has no StableHLO type for it", rlx_kit_dtype_name(dt));
            return 0;
        }
    }
    /* the lowerings that add a dimension for a moment */
    uint32_t in_rank = n->n_inputs ? graph->nodes[n->inputs[0]]->rank : 0;
    if (n->op == RLX_OP_CONV_TRANSPOSE && in_rank >= RLXP_MAX_RANK &&
        n->n_int_attrs > RLX_ATTR_CONV_GROUP &&
        n->int_attrs[RLX_ATTR_CONV_GROUP] > 1) {
        snprintf(why, why_size, "grouped conv_transpose with 6 spatial "
                 "axes; the PJRT bridge regroups the kernel at rank 9");
        return 0;
    }
    /* XLA's GPU convolutions (cuDNN, MIOpen) take 1 to 3 spatial axes */
    if ((n->op == RLX_OP_CONV || n->op == RLX_OP_CONV_TRANSPOSE ||
         n->op == RLX_OP_CONV_INTEGER) &&
        in_rank > 5 && (be->family == RLXP_FAMILY_CUDA ||
                        be->family == RLXP_FAMILY_ROCM)) {
        snprintf(why, why_size, "a convolution with %u spatial axes; XLA "
                 "on GPUs convolves up to 3", in_rank - 2);
        return 0;
    }
    if (n->op == RLX_OP_TOPK) {
        rlx_dtype dt = graph->nodes[n->inputs[0]]->dtype;
        int64_t k = n->n_int_attrs > RLX_ATTR_TOPK_K
                        ? n->int_attrs[RLX_ATTR_TOPK_K] : 1;
        int wide = dt == RLX_DTYPE_I64 || dt == RLX_DTYPE_U64;
        if (dt == RLX_DTYPE_F64 || (wide && k > RLXP_TOPK64_MAX_K) ||
            (in_rank && graph->nodes[n->inputs[0]]->shape[in_rank - 1] >
                            ((int64_t)1 << 31))) {
            snprintf(why, why_size, "topk of %s with k %lld; the PJRT "
                     "bridge sorts values up to 32 bits wide, and takes "
                     "64-bit integers in up to %d rounds",
                     rlx_kit_dtype_name(dt), (long long)k,
                     RLXP_TOPK64_MAX_K);
            return 0;
        }
    }
    if (n->op == RLX_OP_DET && in_rank >= 2 &&
        graph->nodes[n->inputs[0]]->shape[in_rank - 1] > RLXP_DET_MAX_M) {
        snprintf(why, why_size, "det of %lld x %lld matrices; the PJRT "
                 "bridge unrolls the elimination up to %d x %d",
                 (long long)graph->nodes[n->inputs[0]]->shape[in_rank - 1],
                 (long long)graph->nodes[n->inputs[0]]->shape[in_rank - 1],
                 RLXP_DET_MAX_M, RLXP_DET_MAX_M);
        return 0;
    }
    if (n->op == RLX_OP_ROI_ALIGN && in_rank == 4 && n->rank == 4) {
        /* every sample of every bin is one gathered element */
        const rlx_node_view *x = graph->nodes[n->inputs[0]];
        int64_t sr = n->n_int_attrs > RLX_ATTR_ROI_ALIGN_SAMPLING_RATIO
                         ? n->int_attrs[RLX_ATTR_ROI_ALIGN_SAMPLING_RATIO]
                         : 0;
        double ky = sr > 0 ? (double)sr : 2.0 * (double)x->shape[2] + 8;
        double kx = sr > 0 ? (double)sr : 2.0 * (double)x->shape[3] + 8;
        double total = ky * kx * (double)n->shape[0] *
                       (double)n->shape[1] * (double)n->shape[2] *
                       (double)n->shape[3];
        if (total > (double)(1 << 26)) {
            snprintf(why, why_size, "roi_align reading %.0f samples; the "
                     "PJRT bridge gathers every sample of every bin at "
                     "once (%s), up to 2^26", total,
                     sr > 0 ? "sampling_ratio per axis"
                            : "adaptive: 2 H + 8 by 2 W + 8 per bin");
            return 0;
        }
    }
    if (n->op == RLX_OP_TILE && n->rank >= RLXP_MAX_RANK) {
        snprintf(why, why_size, "tile of rank %u; the PJRT bridge tiles "
                 "up to rank %d", n->rank, RLXP_MAX_RANK - 1);
        return 0;
    }
    if (n->op == RLX_OP_RESIZE && n->dtype != RLX_DTYPE_F32 &&
        n->dtype != RLX_DTYPE_F16 && n->dtype != RLX_DTYPE_BF16 &&
        n->n_int_attrs > RLX_ATTR_RESIZE_MODE &&
        n->int_attrs[RLX_ATTR_RESIZE_MODE] != RLX_RESIZE_NEAREST) {
        snprintf(why, why_size, "an integer resize that is not nearest");
        return 0;
    }
    /* index tables are written into the text: keep them sane */
    if ((n->op == RLX_OP_RESIZE ||
         (n->op == RLX_OP_PAD && n->n_int_attrs > RLX_ATTR_PAD_MODE &&
          n->int_attrs[RLX_ATTR_PAD_MODE] != RLX_PAD_CONSTANT)))
        for (uint32_t d = 0; d < n->rank; d++)
            if (n->shape[d] > ((int64_t)1 << 22)) {
                snprintf(why, why_size, "an axis of %lld elements; the "
                         "PJRT bridge writes index tables up to 2^22",
                         (long long)n->shape[d]);
                return 0;
            }
    if (n->op == RLX_OP_CONCAT && n->n_inputs > 256) {
        snprintf(why, why_size, "concat of %u inputs; the PJRT bridge "
                 "takes up to 256", n->n_inputs);
        return 0;
    }
    return 1;
}

static rlx_status device_describe(void *backend, uint32_t index,
                                  rlx_device_info *out)
{
    rlxp_backend *be = backend;
    pthread_mutex_lock(&be->lock);
    rlx_status st = rlxp_client(be);
    if (st == RLX_OK && index >= be->n_devices)
        st = rlxp_report(be, RLX_ERR_INVALID_ARGUMENT, "%s: no device %u; "
                         "the PJRT plugin has %zu. Fix: use an index "
                         "below %zu", be->id, index, be->n_devices,
                         be->n_devices);
    if (st != RLX_OK) {
        pthread_mutex_unlock(&be->lock);
        return st;
    }
    const PJRT_Api *api = be->api;
    PJRT_Device *dev = be->devices[index];
    char kind[128] = "?", text[160] = "";
    int id = -1;
    RLXP_ARGS(PJRT_Device_GetDescription_Args, g);
    g->device = dev;
    PJRT_Error *err = api->Device_GetDescription
                          ? api->Device_GetDescription(g) : NULL;
    if (!err && g->desc) {
        RLXP_ARGS(PJRT_DeviceDescription_String_Args, k);
        k->desc = g->desc;
        if (api->DeviceDescription_Kind &&
            !(err = api->DeviceDescription_Kind(k)))
            snprintf(kind, sizeof kind, "%.*s", (int)k->str_size, k->str);
        RLXP_ARGS(PJRT_DeviceDescription_Id_Args, i);
        i->desc = g->desc;
        if (!err && api->DeviceDescription_Id &&
            !(err = api->DeviceDescription_Id(i)))
            id = i->id;
        RLXP_ARGS(PJRT_DeviceDescription_String_Args, t);
        t->desc = g->desc;
        if (!err && api->DeviceDescription_ToString &&
            !(err = api->DeviceDescription_ToString(t)))
            snprintf(text, sizeof text, "%.*s", (int)t->str_size, t->str);
    }
    if (err) { /* descriptive only: report nothing, show what we have */
        RLXP_ARGS(PJRT_Error_Destroy_Args, d);
        d->error = err;
        api->Error_Destroy(d);
    }
    if (api->Device_MemoryStats) {
        RLXP_ARGS(PJRT_Device_MemoryStats_Args, m);
        m->device = dev;
        err = api->Device_MemoryStats(m);
        if (!err && m->bytes_limit_is_set && m->bytes_limit > 0) {
            out->memory_total = (uint64_t)m->bytes_limit;
            out->memory_free = m->bytes_limit > m->bytes_in_use
                ? (uint64_t)(m->bytes_limit - m->bytes_in_use) : 0;
        } else if (err) {
            RLXP_ARGS(PJRT_Error_Destroy_Args, d);
            d->error = err;
            api->Error_Destroy(d);
        }
    }
    snprintf(out->name, sizeof out->name, "%s", kind);
    snprintf(out->type, sizeof out->type, "PJRT %.20s", be->platform);
    char detail[sizeof be->path + 512];
    snprintf(detail, sizeof detail, "PJRT device id %d (%s), platform %s "
             "%s, PJRT C API %d.%d, plugin %s", id, text, be->platform,
             be->platform_version, be->api_major, be->api_minor, be->path);
    size_t dl = strlen(detail);
    if (dl >= sizeof out->detail)
        dl = sizeof out->detail - 1;
    memcpy(out->detail, detail, dl);
    out->detail[dl] = '\0';
    pthread_mutex_unlock(&be->lock);
    return RLX_OK;
}

static void backend_destroy(void *backend)
{
    rlxp_backend *be = backend;
    rlxp_queue_drain(be); /* the core waited already; nothing is left */
    if (be->client && be->api && be->api->Client_Destroy) {
        RLXP_ARGS(PJRT_Client_Destroy_Args, d);
        d->client = be->client;
        PJRT_Error *err = be->api->Client_Destroy(d);
        if (err) {
            RLXP_ARGS(PJRT_Error_Destroy_Args, x);
            x->error = err;
            be->api->Error_Destroy(x);
        }
    }
    /* PJRT plugins are never dlclose-d: they keep threads and
     * process-wide state alive after their last client */
    pthread_mutex_destroy(&be->queue_lock);
    pthread_mutex_destroy(&be->lock);
    free(be);
}

static const rlx_backend_vtable vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .probe = probe,
    .supports_op = supports_op,
    .compile = rlxp_compile,
    .executable_destroy = rlxp_executable_destroy,
    .buffer_create = rlxp_buffer_create,
    .buffer_read = rlxp_buffer_read,
    .buffer_destroy = rlxp_buffer_destroy,
    .execute = rlxp_execute,
    .backend_destroy = backend_destroy,
    .device_describe = device_describe,
    .buffer_write = rlxp_buffer_write,
    .supports_node = supports_node,
    .get_extension = rlxp_get_extension,
};

static const struct {
    const char *id;
    rlx_device_kind kind;
    const char *custom;
    int32_t priority;
    const char *description;
} table[RLXP_FAMILY_COUNT] = {
    [RLXP_FAMILY_TPU] = { "pjrt-tpu", RLX_DEVICE_TPU, NULL,
                          RLX_PRIORITY_DEFAULT,
                          "TPU through its PJRT plugin (libtpu.so)" },
    [RLXP_FAMILY_CUDA] = { "pjrt-cuda", RLX_DEVICE_CUDA, NULL,
                           RLX_PRIORITY_DEFAULT - 50,
                           "NVIDIA GPU through a PJRT plugin (JAX's "
                           "xla_cuda_plugin.so)" },
    [RLXP_FAMILY_ROCM] = { "pjrt-rocm", RLX_DEVICE_ROCM, NULL,
                           RLX_PRIORITY_DEFAULT - 50,
                           "AMD GPU through a PJRT plugin (JAX's "
                           "xla_rocm_plugin.so)" },
    [RLXP_FAMILY_OTHER] = { "pjrt", RLX_DEVICE_CUSTOM, "pjrt",
                            RLX_PRIORITY_DEFAULT,
                            "any other PJRT plugin named by RLX_PJRT_PLUGIN" },
};

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    for (int f = 0; f < RLXP_FAMILY_COUNT; f++) {
        rlxp_backend *be = calloc(1, sizeof *be);
        if (!be)
            return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                                   "pjrt: out of memory. Fix: free memory");
        be->host = host;
        be->family = (rlxp_family)f;
        be->id = table[f].id;
        pthread_mutex_init(&be->lock, NULL);
        pthread_mutex_init(&be->queue_lock, NULL);
        rlx_backend_info info = {
            .struct_size = sizeof(rlx_backend_info),
            .id = table[f].id,
            .device_kind = table[f].kind,
            .device_name = table[f].custom,
            .priority = table[f].priority,
            .flags = RLX_BACKEND_EXECUTES | RLX_BACKEND_DEVICE_IO,
            .description = table[f].description,
            .vtable = &vtable,
            .backend = be,
        };
        rlx_status st = rlx_register_backend(host, &info);
        if (st != RLX_OK) {
            pthread_mutex_destroy(&be->queue_lock);
            pthread_mutex_destroy(&be->lock);
            free(be);
            return st;
        }
    }
    return RLX_OK;
}
