/* soft_gpu.c - a "vulkan" backend whose only device is a software
 * implementation (as lavapipe is): automatic choice must rank it after
 * the native CPU, an explicit request must still get it. */
#include <stdlib.h>

#include "simple_backend.h"

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 1,
                           .probe_flags = RLX_PROBE_SOFTWARE };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-softgpu",
        .device_kind = RLX_DEVICE_VULKAN,
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "test plugin: a GPU backend on a software device",
        .vtable = &simple_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
