/* good.c - a well-behaved plugin with two backends: one that executes on
 * a custom "npu" device kind and one emission-only. Built from plugin-abi
 * headers alone; it must not link librlx. */
#include <stdlib.h>

#include "simple_backend.h"

static rlx_status register_one(const rlx_host *host, const char *id,
                               uint32_t flags)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "out of memory. Fix: free memory");
    *b = (simple_backend){ .host = host, .devices = 2 };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = id,
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "npu",
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = flags,
        .description = "test plugin: add, mul, relu on a pretend NPU",
        .vtable = &simple_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b); /* a refused registration leaves ownership with us */
    return st;
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    rlx_status st = register_one(host, "test-good", RLX_BACKEND_EXECUTES);
    if (st == RLX_OK)
        st = register_one(host, "test-emit", 0);
    return st;
}
