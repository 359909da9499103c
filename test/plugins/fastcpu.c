/* fastcpu.c - a "tuned" CPU backend at a higher priority than cpu-ref
 * that supports only add, mul and relu: it must win for cpu, and graphs
 * it cannot run must fall back to cpu-ref. Its probe fails while
 * RLX_TEST_FASTCPU_OFF is set. */
#include <stdlib.h>

#include "simple_backend.h"

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 1,
                           .unavailable_env = "RLX_TEST_FASTCPU_OFF" };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-fastcpu",
        .device_kind = RLX_DEVICE_CPU,
        .priority = RLX_PRIORITY_TUNED,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "test plugin: a tuned CPU backend with three ops",
        .vtable = &simple_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
