/*
 * cuda_probe_key.c - what the CUDA backend's availability depends on, for
 * the core's probe cache (rlx/probe_key.h): the NVIDIA device nodes and
 * kernel driver, the driver library the CUDA runtime opens (found through
 * the dynamic loader's cache and LD_LIBRARY_PATH), and the variables that
 * select devices. Without a GPU the answer stays "unavailable" until one
 * of these changes, and automatic choice skips the CUDA runtime entirely.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/memory.h>
#include <rlx/probe_key.h>
#include <rlx/queue.h>

#include "gpu_internal.h"

static rlx_status cuda_probe_key(void *backend, char *key, size_t size)
{
    (void)backend;
    static const char *const vars[] = {
        "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "LD_LIBRARY_PATH",
    };
    static const char *const libs[] = {
        "/etc/ld.so.cache",
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
        "/usr/lib/aarch64-linux-gnu/libcuda.so.1",
        "/usr/lib64/libcuda.so.1",
        "/usr/local/nvidia/lib64/libcuda.so.1",
        "/proc/driver/nvidia/version",
    };
    rlx_kit_probe_key k;
    rlx_kit_probe_key_init(&k, key, size);
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        rlx_kit_probe_key_add_env(&k, vars[i]);
    for (size_t i = 0; i < sizeof libs / sizeof *libs; i++)
        rlx_kit_probe_key_add_file(&k, libs[i]);
    /* a driver library on LD_LIBRARY_PATH wins over the system one */
    const char *llp = getenv("LD_LIBRARY_PATH");
    if (llp && *llp) {
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", llp);
        char *save = NULL;
        for (char *d = strtok_r(buf, ":", &save); d;
             d = strtok_r(NULL, ":", &save)) {
            char path[1100];
            snprintf(path, sizeof path, "%.1000s/libcuda.so.1", d);
            rlx_kit_probe_key_add_file(&k, path);
        }
    }
    rlx_kit_probe_key_add_dir(&k, "/dev", "nvidia");
    return rlx_kit_probe_key_end(&k);
}

static const rlx_ext_probe_key cuda_probe_key_ext = {
    .struct_size = sizeof(rlx_ext_probe_key),
    .probe_key = cuda_probe_key,
};

const void *rlxg_get_extension(void *backend, const char *name)
{
    (void)backend;
    if (name && strcmp(name, RLX_EXT_PROBE_KEY) == 0)
        return &cuda_probe_key_ext;
    if (name && strcmp(name, RLX_EXT_QUEUE) == 0)
        return &rlxg_queue_ext;
    if (name && strcmp(name, RLX_EXT_MEMORY) == 0)
        return &rlxg_memory_ext;
    return NULL;
}
