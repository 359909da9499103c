/* wrong_add.c - a backend that is wrong on purpose, for the conformance
 * tool's tests: it takes only add on f32, and its add subtracts. It sits
 * on its own custom device ("wrongnpu") so that loading the whole test
 * plugin directory changes no other test's choice of backend. */
#include <stdlib.h>

#include "simple_backend.h"

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 1, .wrong_add = 1 };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-wrongadd",
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "wrongnpu",
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "test plugin: add on f32 that subtracts",
        .vtable = &simple_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
