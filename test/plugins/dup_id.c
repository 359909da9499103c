/* dup_id.c - registers "test-dup" twice and "cpu-ref" (the built-in's
 * id): the repeats are refused, the first "test-dup" stays. */
#include <stdlib.h>

#include "simple_backend.h"

static rlx_status reg(const rlx_host *host, const char *id,
                      rlx_device_kind kind)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 1 };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = id,
        .device_kind = kind,
        .device_name = "npu",
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .vtable = &simple_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    reg(host, "test-dup", RLX_DEVICE_CUSTOM);
    reg(host, "test-dup", RLX_DEVICE_CUSTOM);
    reg(host, "cpu-ref", RLX_DEVICE_CPU);
    return RLX_OK;
}
