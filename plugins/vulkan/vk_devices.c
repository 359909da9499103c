/*
 * vk_devices.c - discovery: open the loader, create the instance, list
 * the physical devices in preference order (discrete GPU, integrated
 * GPU, virtual GPU, CPU implementation), apply RLX_VULKAN_DEVICE, and
 * cache the answer (or the reason there is none) for every later probe.
 *
 * RLX_VULKAN_DEVICE picks the default device, vulkan:0: a decimal index
 * into the preference order, or else a case-insensitive substring of the
 * device name. The picked device moves to index 0; the others keep their
 * order after it. A value that matches no device makes the backend
 * unavailable, with the list of devices in the message.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_internal.h"

#define FIX_DRIVER "Fix: install a Vulkan driver (mesa-vulkan-drivers, or " \
                   "the NVIDIA driver), and if VK_DRIVER_FILES or "          \
                   "VK_ICD_FILENAMES is set, point it at the driver's "      \
                   "JSON manifest or unset it"

static int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU implementation";
    default: return "other";
    }
}

/* Whether PD has VK_KHR_shader_integer_dot_product with its feature on
 * (the features query needs Vulkan 1.1). */
static int has_int_dot(rlx__vk *vk, VkPhysicalDevice pd, uint32_t api,
                       const VkPhysicalDeviceProperties *props)
{
    if (api < VK_API_VERSION_1_1 || props->apiVersion < VK_API_VERSION_1_1 ||
        !vk->fn.vkGetPhysicalDeviceFeatures2)
        return 0;
    uint32_t n = 0;
    if (vk->fn.vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) !=
        VK_SUCCESS)
        return 0;
    VkExtensionProperties *e = calloc(n ? n : 1, sizeof *e);
    int found = 0;
    if (e && vk->fn.vkEnumerateDeviceExtensionProperties(pd, NULL, &n, e) ==
                 VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(e[i].extensionName,
                           VK_KHR_SHADER_INTEGER_DOT_PRODUCT_EXTENSION_NAME) ==
                    0;
    free(e);
    if (!found)
        return 0;
    VkPhysicalDeviceShaderIntegerDotProductFeaturesKHR dot = {
        .sType =
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES_KHR };
    VkPhysicalDeviceFeatures2 f2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &dot };
    vk->fn.vkGetPhysicalDeviceFeatures2(pd, &f2);
    return dot.shaderIntegerDotProduct == VK_TRUE;
}

static void fill_info(rlx__vk *vk, VkPhysicalDevice pd, uint32_t api,
                      rlxv_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->phys = pd;
    vk->fn.vkGetPhysicalDeviceProperties(pd, &d->props);
    vk->fn.vkGetPhysicalDeviceMemoryProperties(pd, &d->mem);
    VkPhysicalDeviceFeatures f;
    vk->fn.vkGetPhysicalDeviceFeatures(pd, &f);
    d->has_int64 = f.shaderInt64 == VK_TRUE;
    d->has_float64 = f.shaderFloat64 == VK_TRUE;
    d->has_int_dot = has_int_dot(vk, pd, api, &d->props);
    for (uint32_t h = 0; h < d->mem.memoryHeapCount; h++)
        if ((d->mem.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            d->mem.memoryHeaps[h].size > d->local_bytes)
            d->local_bytes = d->mem.memoryHeaps[h].size;

    uint32_t nq = 0;
    d->queue_family = UINT32_MAX;
    vk->fn.vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties *q = calloc(nq ? nq : 1, sizeof *q);
    if (q) {
        vk->fn.vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
        for (uint32_t i = 0; i < nq && d->queue_family == UINT32_MAX; i++)
            if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
                d->queue_family = i;
        free(q);
    }

    uint32_t v = d->props.driverVersion;
    snprintf(d->driver, sizeof d->driver, "driver version 0x%x", (unsigned)v);
    if (d->props.vendorID == 0x10de) /* NVIDIA packs 10.8.8.6 bits */
        snprintf(d->driver, sizeof d->driver, "NVIDIA %u.%u.%u",
                 (v >> 22) & 0x3ff, (v >> 14) & 0xff, (v >> 6) & 0xff);
    if (api >= VK_API_VERSION_1_2 && d->props.apiVersion >= VK_API_VERSION_1_2 &&
        vk->fn.vkGetPhysicalDeviceProperties2) {
        VkPhysicalDeviceDriverProperties drv = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES };
        VkPhysicalDeviceProperties2 p2 = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
            .pNext = &drv };
        vk->fn.vkGetPhysicalDeviceProperties2(pd, &p2);
        if (drv.driverName[0])
            snprintf(d->driver, sizeof d->driver, "%.60s %.90s",
                     drv.driverName, drv.driverInfo);
    }
}

static int icase_contains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) ==
                   tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* Apply the setting vulkan.device (RLX_VULKAN_DEVICE, read through the
 * host); 0 when fine, else a message in vk->probe_msg. */
static int apply_choice(rlx__vk *vk)
{
    char want[128];
    if (rlx_host_get_option(vk->host, "vulkan.device", want,
                            sizeof want) != RLX_OK || !*want)
        return 0;
    uint32_t pick = UINT32_MAX;
    char *end = NULL;
    unsigned long n = strtoul(want, &end, 10);
    if (isdigit((unsigned char)want[0]) && end && !*end) {
        if (n < vk->n_devices)
            pick = (uint32_t)n;
    } else {
        for (uint32_t i = 0; i < vk->n_devices && pick == UINT32_MAX; i++)
            if (icase_contains(vk->devices[i].props.deviceName, want))
                pick = i;
    }
    if (pick == UINT32_MAX) {
        int k = snprintf(vk->probe_msg, sizeof vk->probe_msg,
                         "RLX_VULKAN_DEVICE='%.64s' matches none of the %u "
                         "Vulkan devices:", want, (unsigned)vk->n_devices);
        for (uint32_t i = 0; i < vk->n_devices && k > 0 &&
                             (size_t)k < sizeof vk->probe_msg; i++)
            k += snprintf(vk->probe_msg + k, sizeof vk->probe_msg - (size_t)k,
                          " %u '%.80s';", (unsigned)i,
                          vk->devices[i].props.deviceName);
        if (k > 0 && (size_t)k < sizeof vk->probe_msg)
            snprintf(vk->probe_msg + k, sizeof vk->probe_msg - (size_t)k,
                     " Fix: set RLX_VULKAN_DEVICE to one of these indices "
                     "or a part of a name, or unset it");
        return -1;
    }
    rlxv_device_info chosen = vk->devices[pick];
    memmove(vk->devices + 1, vk->devices, pick * sizeof *vk->devices);
    vk->devices[0] = chosen;
    return 0;
}

static void log_devices(rlx__vk *vk)
{
    for (uint32_t i = 0; i < vk->n_devices; i++) {
        const rlxv_device_info *d = &vk->devices[i];
        char line[512];
        snprintf(line, sizeof line,
                 "vulkan:%u: %s (%s), %.1f GiB device-local memory, %s, "
                 "Vulkan %u.%u", (unsigned)i, d->props.deviceName,
                 type_name(d->props.deviceType),
                 (double)d->local_bytes / (1024.0 * 1024.0 * 1024.0),
                 d->driver, VK_API_VERSION_MAJOR(d->props.apiVersion),
                 VK_API_VERSION_MINOR(d->props.apiVersion));
        rlx_host_log(vk->host, RLX_LOG_INFO, line);
    }
}

static rlx_status discover_locked(rlx__vk *vk)
{
    char *msg = vk->probe_msg;
    size_t msz = sizeof vk->probe_msg;
    if (rlxv_loader_open(&vk->lib, &vk->fn, msg, msz) != 0)
        return RLX_ERR_UNAVAILABLE;

    uint32_t api = VK_API_VERSION_1_0;
    if (vk->fn.vkEnumerateInstanceVersion &&
        vk->fn.vkEnumerateInstanceVersion(&api) != VK_SUCCESS)
        api = VK_API_VERSION_1_0;
    if (api > VK_API_VERSION_1_2)
        api = VK_API_VERSION_1_2;
    const VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "rlx", .pEngineName = "rlx",
        .apiVersion = api };
    const VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app };
    VkResult r = vk->fn.vkCreateInstance(&ici, NULL, &vk->instance);
    if (r != VK_SUCCESS) {
        vk->instance = VK_NULL_HANDLE;
        if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
            snprintf(msg, msz, "no Vulkan driver (ICD) was found: "
                     "vkCreateInstance returned %s. " FIX_DRIVER,
                     rlxv_result_name(r));
        else
            snprintf(msg, msz, "vkCreateInstance failed with %s. "
                     FIX_DRIVER, rlxv_result_name(r));
        return RLX_ERR_UNAVAILABLE;
    }
    const char *missing = NULL;
    if (rlxv_instance_fns_load(vk->instance, &vk->fn, &missing) != 0) {
        snprintf(msg, msz, "the Vulkan loader lacks %s. Fix: install a "
                 "newer libvulkan1", missing);
        return RLX_ERR_UNAVAILABLE;
    }

    uint32_t n = 0;
    r = vk->fn.vkEnumeratePhysicalDevices(vk->instance, &n, NULL);
    VkPhysicalDevice *pd = NULL;
    if (r == VK_SUCCESS && n) {
        pd = calloc(n, sizeof *pd);
        if (!pd) {
            snprintf(msg, msz, "out of memory listing Vulkan devices. Fix: "
                     "free memory");
            return RLX_ERR_UNAVAILABLE;
        }
        r = vk->fn.vkEnumeratePhysicalDevices(vk->instance, &n, pd);
        if (r == VK_INCOMPLETE)
            r = VK_SUCCESS;
    }
    if (r != VK_SUCCESS || n == 0) {
        free(pd);
        if (r != VK_SUCCESS)
            snprintf(msg, msz, "vkEnumeratePhysicalDevices failed with %s. "
                     FIX_DRIVER, rlxv_result_name(r));
        else
            snprintf(msg, msz, "the Vulkan loader found no device. "
                     FIX_DRIVER);
        return RLX_ERR_UNAVAILABLE;
    }
    vk->devices = calloc(n, sizeof *vk->devices);
    if (!vk->devices) {
        free(pd);
        snprintf(msg, msz, "out of memory listing Vulkan devices. Fix: "
                 "free memory");
        return RLX_ERR_UNAVAILABLE;
    }
    /* Keep devices with a compute queue, stable-sorted by type. */
    for (int rank = 0; rank <= 4; rank++) {
        for (uint32_t i = 0; i < n; i++) {
            rlxv_device_info d;
            fill_info(vk, pd[i], api, &d);
            if (type_rank(d.props.deviceType) == rank &&
                d.queue_family != UINT32_MAX)
                vk->devices[vk->n_devices++] = d;
        }
    }
    free(pd);
    if (vk->n_devices == 0) {
        snprintf(msg, msz, "no Vulkan device has a compute queue. "
                 FIX_DRIVER);
        return RLX_ERR_UNAVAILABLE;
    }
    if (apply_choice(vk) != 0)
        return RLX_ERR_UNAVAILABLE;
    vk->ctx = calloc(vk->n_devices, sizeof *vk->ctx);
    if (!vk->ctx) {
        snprintf(msg, msz, "out of memory. Fix: free memory");
        return RLX_ERR_UNAVAILABLE;
    }
    log_devices(vk);
    return RLX_OK;
}

rlx_status rlxv_discover(rlx__vk *vk)
{
    pthread_mutex_lock(&vk->lock);
    if (!vk->probed) {
        vk->probe_status = discover_locked(vk);
        vk->probed = 1;
    }
    rlx_status st = vk->probe_status;
    pthread_mutex_unlock(&vk->lock);
    if (st != RLX_OK)
        return rlx_host_report(vk->host, st, vk->probe_msg);
    return RLX_OK;
}

void rlxv_teardown(rlx__vk *vk)
{
    for (uint32_t i = 0; vk->ctx && i < vk->n_devices; i++)
        if (vk->ctx[i])
            rlxv_context_destroy(vk->ctx[i]);
    free(vk->ctx);
    free(vk->devices);
    if (vk->instance && vk->fn.vkDestroyInstance)
        vk->fn.vkDestroyInstance(vk->instance, NULL);
    /* The loader stays mapped: drivers may keep threads that outlive
     * vkDestroyInstance, and unmapping under them crashes. */
    vk->lib = NULL;
}

rlx_status rlxv_device_describe(void *backend, uint32_t index,
                                   rlx_device_info *out)
{
    rlx__vk *vk = backend;
    rlx_status st = rlxv_discover(vk);
    if (st != RLX_OK)
        return st;
    if (index >= vk->n_devices)
        return rlx_host_report(vk->host, RLX_ERR_NOT_FOUND,
                               "vulkan: no such device. Fix: use an index "
                               "below the device count `rlx devices` "
                               "shows");
    const rlxv_device_info *d = &vk->devices[index];
    snprintf(out->name, sizeof out->name, "%.127s", d->props.deviceName);
    snprintf(out->type, sizeof out->type, "%s",
             type_name(d->props.deviceType));
    out->memory_total = d->local_bytes; /* free needs VK_EXT_memory_budget */
    snprintf(out->detail, sizeof out->detail, "%.160s, Vulkan %u.%u",
             d->driver, VK_API_VERSION_MAJOR(d->props.apiVersion),
             VK_API_VERSION_MINOR(d->props.apiVersion));
    if (d->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        out->flags |= RLX_PROBE_SOFTWARE;
    return RLX_OK;
}
