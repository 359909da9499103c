/*
 * vk_errors.c - error reports: formatted messages with a Fix, VkResults
 * named and mapped to rlx statuses (device loss and out-of-memory), and
 * op names for messages.
 */
#include <stdarg.h>
#include <stdio.h>

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
