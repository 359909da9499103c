/*
 * vk_probe_key.c - what the Vulkan backend's availability depends on,
 * for the core's probe cache (rlx/probe_key.h): the drivers' JSON
 * manifests in every directory the Vulkan loader searches, the variables
 * that steer the loader and Mesa, GPU device nodes, and RLX_VULKAN_DEVICE.
 * Creating an instance on lavapipe costs a process hundreds of
 * milliseconds; with the key unchanged, automatic device choice reuses
 * the last answer instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/probe_key.h>

#include "vk_internal.h"

/* Add DIR/vulkan/icd.d for each directory of a colon-separated LIST. */
static void add_icd_dirs(rlx_kit_probe_key *k, const char *list)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char path[1024];
        snprintf(path, sizeof path, "%s/vulkan/icd.d", d);
        rlx_kit_probe_key_add_dir(k, path, "");
    }
}

static rlx_status vk_probe_key(void *backend, char *key, size_t size)
{
    rlx__vk *vk = backend;
    static const char *const vars[] = {
        "VK_ICD_FILENAMES", "VK_DRIVER_FILES", "VK_ADD_DRIVER_FILES",
        "VK_LOADER_DRIVERS_SELECT", "VK_LOADER_DRIVERS_DISABLE",
        "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_DATA_HOME",
        "XDG_DATA_DIRS", "HOME", "MESA_VK_DEVICE_SELECT",
        "CUDA_VISIBLE_DEVICES",
    };
    rlx_kit_probe_key k;
    rlx_kit_probe_key_init(&k, key, size);
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        rlx_kit_probe_key_add_env(&k, vars[i]);
    /* the device choice is a setting: environment or config file */
    rlx_kit_probe_key_add_option(&k, vk->host, "vulkan.device");
    const char *xdg_config = getenv("XDG_CONFIG_DIRS");
    const char *xdg_data = getenv("XDG_DATA_DIRS");
    add_icd_dirs(&k, xdg_config && *xdg_config ? xdg_config : "/etc/xdg");
    add_icd_dirs(&k, "/etc");
    add_icd_dirs(&k, xdg_data && *xdg_data ? xdg_data
                                           : "/usr/local/share:/usr/share");
    const char *home = getenv("HOME");
    if (home && *home) {
        char path[1024];
        snprintf(path, sizeof path, "%s/.local/share", home);
        add_icd_dirs(&k, path);
        snprintf(path, sizeof path, "%s/.config", home);
        add_icd_dirs(&k, path);
    }
    /* a GPU appearing or going away changes the device list */
    rlx_kit_probe_key_add_dir(&k, "/dev/dri", "");
    rlx_kit_probe_key_add_dir(&k, "/dev", "nvidia");
    rlx_kit_probe_key_add_file(&k, "/proc/driver/nvidia/version");
    return rlx_kit_probe_key_end(&k);
}

static const rlx_ext_probe_key vk_probe_key_ext = {
    .struct_size = sizeof(rlx_ext_probe_key),
    .probe_key = vk_probe_key,
};

const void *rlxv_get_extension(void *backend, const char *name)
{
    (void)backend;
    if (name && strcmp(name, RLX_EXT_PROBE_KEY) == 0)
        return &vk_probe_key_ext;
    return NULL;
}
