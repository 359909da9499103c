/* variant.c - one source, built three times as variants of the family
 * "test-variant" with different host-fit scores (VARIANT_SCORE), to test
 * that only the best variant that can run is initialised. */
#include <stdlib.h>

#include "simple_backend.h"

#define STR2(x) #x
#define STR(x) STR2(x)

RLX_PLUGIN_EXPORT int32_t rlx_plugin_host_fit(const char **family)
{
    *family = "test-variant";
    return VARIANT_SCORE;
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 1 };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-variant",
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "vnpu",
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "variant with score " STR(VARIANT_SCORE),
        .vtable = &simple_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
