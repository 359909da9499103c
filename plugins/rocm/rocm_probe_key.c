/*
 * rocm_probe_key.c - what the ROCm backend's availability depends on, for
 * the core's probe cache (rlx/probe_key.h): the HIP runtime library the
 * probe opens (the setting rocm.hip_library, else libamdhip64.so.5 found
 * through LD_LIBRARY_PATH, the dynamic loader's cache and the default
 * folders), the AMD GPU device nodes (/dev/kfd, /dev/dri), and the
 * variables that select or hide devices. Every item comes from the kit,
 * so without an AMD GPU the core skips the plugin at start-up without
 * opening it until one of these changes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/memory.h>
#include <rlx/probe_key.h>
#include <rlx/queue.h>

#include "gpu_internal.h"

#define HIP_SONAME "libamdhip64.so.5"

static rlx_status rocm_probe_key(void *backend, char *key, size_t size)
{
    rlxg_backend *be = backend;
    static const char *const vars[] = {
        "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
        "GPU_DEVICE_ORDINAL", "HSA_OVERRIDE_GFX_VERSION", "LD_LIBRARY_PATH",
    };
    static const char *const dirs[] = {
        "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
        "/usr/lib64", "/lib", "/usr/lib", "/opt/rocm/lib",
    };
    rlx_kit_probe_key k;
    rlx_kit_probe_key_init(&k, key, size);
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        rlx_kit_probe_key_add_env(&k, vars[i]);
    rlx_kit_probe_key_add_option(&k, be->host, "rocm.hip_library");
    char name[1024];
    if (rlx_host_get_option(be->host, "rocm.hip_library", name,
                            sizeof name) != RLX_OK || !name[0])
        snprintf(name, sizeof name, "%s", HIP_SONAME);
    rlx_kit_probe_key_add_file(&k, "/etc/ld.so.cache");
    if (strchr(name, '/')) {
        rlx_kit_probe_key_add_file(&k, name); /* a path: only that file */
    } else {
        char path[2200];
        const char *llp = getenv("LD_LIBRARY_PATH");
        char buf[2048];
        snprintf(buf, sizeof buf, "%s", llp ? llp : "");
        char *save = NULL;
        for (char *d = strtok_r(buf, ":", &save); d;
             d = strtok_r(NULL, ":", &save)) {
            snprintf(path, sizeof path, "%.1000s/%.1000s", d, name);
            rlx_kit_probe_key_add_file(&k, path);
        }
        for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
            snprintf(path, sizeof path, "%s/%.1000s", dirs[i], name);
            rlx_kit_probe_key_add_file(&k, path);
        }
    }
    /* a GPU appearing or going away */
    rlx_kit_probe_key_add_file(&k, "/dev/kfd");
    rlx_kit_probe_key_add_dir(&k, "/dev/dri", "");
    return rlx_kit_probe_key_end(&k);
}

static const rlx_ext_probe_key rocm_probe_key_ext = {
    .struct_size = sizeof(rlx_ext_probe_key),
    .probe_key = rocm_probe_key,
};

const void *rlxr_get_extension(void *backend, const char *name)
{
    (void)backend;
    if (name && strcmp(name, RLX_EXT_PROBE_KEY) == 0)
        return &rocm_probe_key_ext;
    if (name && strcmp(name, RLX_EXT_QUEUE) == 0)
        return &rlxg_queue_ext;
    if (name && strcmp(name, RLX_EXT_MEMORY) == 0)
        return &rlxg_memory_ext;
    return NULL;
}
