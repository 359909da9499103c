/*
 * vk_errors.c - failed Vulkan calls reported with their VkResult named
 * and mapped to rlx statuses (device loss and out-of-memory); formatting
 * and op names are the plugin kit's.
 */
#include "vk_internal.h"

rlx_status rlxv_fail_vk(const rlxv_ctx *ctx, VkResult r,
                           const char *what)
{
    const char *dev = ctx->info->props.deviceName;
    unsigned idx = (unsigned)ctx->index;
    const rlx_host *host = ctx->vk->host;
    switch (r) {
    case VK_ERROR_DEVICE_LOST:
        return rlx_kit_fail(host, RLX_ERR_DEVICE,
                            "vulkan:%u (%s): %s failed with "
                            "VK_ERROR_DEVICE_LOST: the device was lost "
                            "(a driver reset, a hang, or a GPU fault). Fix: "
                            "check the kernel log (dmesg) for GPU errors, "
                            "then restart the process", idx, dev, what);
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "vulkan:%u (%s): %s failed with "
                            "VK_ERROR_OUT_OF_DEVICE_MEMORY. Fix: use a "
                            "smaller batch or model, or free GPU memory "
                            "held by other processes", idx, dev, what);
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "vulkan:%u (%s): %s failed with "
                            "VK_ERROR_OUT_OF_HOST_MEMORY. Fix: free host "
                            "memory", idx, dev, what);
    default:
        return rlx_kit_fail(host, RLX_ERR_BACKEND,
                            "vulkan:%u (%s): %s failed with %s (%d). Fix: "
                            "update the Vulkan driver; if it persists, "
                            "report it with `rlx devices` output", idx, dev,
                            what, rlxv_result_name(r), (int)r);
    }
}
