/*
 * vk_plugin.c - the plugin entry point: registers the "vulkan" backend
 * (no Vulkan call happens here; the first probe opens the loader), its
 * vtable, op support, the probe, and error reporting helpers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <rlx/plugin.h>

#include "vk_internal.h"

rlx_status rlx__vk_fail(const rlx_host *host, rlx_status status,
                        const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rlx_host_report(host, status, msg);
}

rlx_status rlx__vk_fail_vk(const rlx__vk_ctx *ctx, VkResult r,
                           const char *what)
{
    const char *dev = ctx->info->props.deviceName;
    unsigned idx = (unsigned)ctx->index;
    const rlx_host *host = ctx->vk->host;
    switch (r) {
    case VK_ERROR_DEVICE_LOST:
        return rlx__vk_fail(host, RLX_ERR_DEVICE,
                            "vulkan:%u (%s): %s failed with "
                            "VK_ERROR_DEVICE_LOST: the device was lost "
                            "(a driver reset, a hang, or a GPU fault). Fix: "
                            "check the kernel log (dmesg) for GPU errors, "
                            "then restart the process", idx, dev, what);
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return rlx__vk_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "vulkan:%u (%s): %s failed with "
                            "VK_ERROR_OUT_OF_DEVICE_MEMORY. Fix: use a "
                            "smaller batch or model, or free GPU memory "
                            "held by other processes", idx, dev, what);
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return rlx__vk_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "vulkan:%u (%s): %s failed with "
                            "VK_ERROR_OUT_OF_HOST_MEMORY. Fix: free host "
                            "memory", idx, dev, what);
    default:
        return rlx__vk_fail(host, RLX_ERR_BACKEND,
                            "vulkan:%u (%s): %s failed with %s (%d). Fix: "
                            "update the Vulkan driver; if it persists, "
                            "report it with `rlx devices` output", idx, dev,
                            what, rlx__vk_result_name(r), (int)r);
    }
}

const char *rlx__vk_op_name(rlx_op op)
{
    switch ((int)op) {
#define NAME(name, value, text, arity) case value: return text;
        RLX_OP_MAP(NAME)
#undef NAME
    default: return "unknown";
    }
}

int rlx__vk_op_arity(rlx_op op)
{
    switch ((int)op) {
#define ARITY(name, value, text, arity) case value: return arity;
        RLX_OP_MAP(ARITY)
#undef ARITY
    default: return -2;
    }
}

static int is_float(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 || t == RLX_DTYPE_BF16;
}

/* Every op of ops.h: float ops on f32, f16 and bf16; data movement,
 * sources, cast and fill on every dtype of types.h. */
static int vk_supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    if (rlx__vk_op_arity(op) < -1 || !rlx__vk_dtype_words(dtype))
        return 0;
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL:
        return 1;
    default:
        return is_float(dtype);
    }
}

static rlx_status vk_probe(void *backend, rlx_probe_result *out)
{
    rlx__vk *vk = backend;
    rlx_status st = rlx__vk_discover(vk);
    if (st == RLX_OK && out &&
        RLX_HAS_FIELD(out->struct_size, rlx_probe_result, device_count))
        out->device_count = vk->n_devices;
    return st;
}

static void vk_backend_destroy(void *backend)
{
    rlx__vk *vk = backend;
    rlx__vk_teardown(vk);
    pthread_mutex_destroy(&vk->lock);
    free(vk);
}

static const rlx_backend_vtable vk_vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .probe = vk_probe,
    .supports_op = vk_supports_op,
    .compile = rlx__vk_compile,
    .executable_destroy = rlx__vk_executable_destroy,
    .buffer_create = rlx__vk_buffer_create,
    .buffer_read = rlx__vk_buffer_read,
    .buffer_destroy = rlx__vk_buffer_destroy,
    .execute = rlx__vk_execute,
    .backend_destroy = vk_backend_destroy,
};

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    if (!host || !host->register_backend)
        return RLX_ERR_INVALID_ARGUMENT;
    rlx__vk *vk = calloc(1, sizeof *vk);
    if (!vk)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "vulkan: out of memory while registering. "
                               "Fix: free memory and retry");
    vk->host = host;
    pthread_mutex_init(&vk->lock, NULL);
    const rlx_backend_info info = {
        .struct_size = sizeof(rlx_backend_info),
        .id = "vulkan",
        .device_kind = RLX_DEVICE_VULKAN,
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "Vulkan compute (SPIR-V shaders; f32, f16, bf16; "
                       "RLX_VULKAN_DEVICE picks vulkan:0; RLX_LOG=info "
                       "lists devices)",
        .vtable = &vk_vtable,
        .backend = vk,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK) {
        pthread_mutex_destroy(&vk->lock);
        free(vk);
    }
    return st;
}
