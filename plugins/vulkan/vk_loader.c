/*
 * vk_loader.c - open the Vulkan loader at run time and fetch entry points.
 *
 * Nothing here runs at plugin load: the backend calls it from its first
 * probe, so a host without libvulkan.so.1 still loads the plugin and
 * `rlx devices` can say what is missing.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "vk_fns.h"

int rlxv_loader_open(void **handle, rlxv_instance_fns *fns, char *why,
                        size_t why_size)
{
    memset(fns, 0, sizeof *fns);
    void *h = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *err = dlerror();
        snprintf(why, why_size,
                 "libvulkan.so.1 not found (%s). Fix: install libvulkan1 "
                 "and a Vulkan driver (mesa-vulkan-drivers or the NVIDIA "
                 "driver)", err ? err : "dlopen failed");
        return -1;
    }
    /* POSIX allows converting the object pointer dlsym returns. */
    void *sym = dlsym(h, "vkGetInstanceProcAddr");
    if (!sym) {
        dlclose(h);
        snprintf(why, why_size,
                 "libvulkan.so.1 has no vkGetInstanceProcAddr. Fix: "
                 "reinstall libvulkan1 (the Khronos Vulkan loader)");
        return -1;
    }
    memcpy(&fns->vkGetInstanceProcAddr, &sym, sizeof sym);
#define LOAD_GLOBAL(name, required)                                          \
    fns->name = (PFN_##name)fns->vkGetInstanceProcAddr(NULL, #name);         \
    if ((required) && !fns->name) {                                          \
        dlclose(h);                                                          \
        snprintf(why, why_size, "libvulkan.so.1 has no %s. Fix: install a "  \
                 "newer libvulkan1", #name);                                 \
        return -1;                                                           \
    }
    RLXV_GLOBAL_FNS(LOAD_GLOBAL)
#undef LOAD_GLOBAL
    *handle = h;
    return 0;
}

int rlxv_instance_fns_load(VkInstance instance, rlxv_instance_fns *fns,
                              const char **missing)
{
#define LOAD_INSTANCE(name, required)                                        \
    fns->name = (PFN_##name)fns->vkGetInstanceProcAddr(instance, #name);     \
    if ((required) && !fns->name) {                                          \
        *missing = #name;                                                    \
        return -1;                                                           \
    }
    RLXV_INSTANCE_FNS(LOAD_INSTANCE)
#undef LOAD_INSTANCE
    return 0;
}

int rlxv_device_fns_load(const rlxv_instance_fns *ifns, VkDevice dev,
                            rlxv_device_fns *fns, const char **missing)
{
#define LOAD_DEVICE(name, required)                                          \
    fns->name = (PFN_##name)ifns->vkGetDeviceProcAddr(dev, #name);           \
    if ((required) && !fns->name) {                                          \
        *missing = #name;                                                    \
        return -1;                                                           \
    }
    RLXV_DEVICE_FNS(LOAD_DEVICE)
#undef LOAD_DEVICE
    return 0;
}

const char *rlxv_result_name(VkResult r)
{
    switch (r) {
#define N(x) case x: return #x;
    N(VK_SUCCESS) N(VK_NOT_READY) N(VK_TIMEOUT) N(VK_INCOMPLETE)
    N(VK_ERROR_OUT_OF_HOST_MEMORY) N(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    N(VK_ERROR_INITIALIZATION_FAILED) N(VK_ERROR_DEVICE_LOST)
    N(VK_ERROR_MEMORY_MAP_FAILED) N(VK_ERROR_LAYER_NOT_PRESENT)
    N(VK_ERROR_EXTENSION_NOT_PRESENT) N(VK_ERROR_FEATURE_NOT_PRESENT)
    N(VK_ERROR_INCOMPATIBLE_DRIVER) N(VK_ERROR_TOO_MANY_OBJECTS)
    N(VK_ERROR_FORMAT_NOT_SUPPORTED) N(VK_ERROR_FRAGMENTED_POOL)
    N(VK_ERROR_UNKNOWN) N(VK_ERROR_OUT_OF_POOL_MEMORY)
    N(VK_ERROR_INVALID_EXTERNAL_HANDLE) N(VK_ERROR_FRAGMENTATION)
    N(VK_ERROR_INVALID_SHADER_NV)
#undef N
    default: return "VK_RESULT_UNKNOWN";
    }
}
