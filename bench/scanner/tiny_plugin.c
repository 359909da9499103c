/* tiny_plugin.c - the smallest good plugin, copied 100 times by
 * rlx-bench-scan: each copy registers an emission-only backend whose id
 * comes from its file name (librlx-backend-benchtiny-042.so ->
 * bench-tiny-042), so no two copies collide. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <string.h>

#include <rlx/plugin.h>

static int supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    return op == RLX_OP_ADD && dtype == RLX_DTYPE_F32;
}

static const rlx_backend_vtable vtable = {
    .struct_size = sizeof vtable,
    .supports_op = supports_op,
};

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    char id[64] = "bench-tiny";
    Dl_info info;
    void *self = (void *)(uintptr_t)rlx_plugin_init;
    if (dladdr(self, &info) && info.dli_fname) {
        const char *dash = strrchr(info.dli_fname, '-');
        size_t n = dash ? strcspn(dash + 1, ".") : 0;
        if (n > 0 && n < 16) {
            memcpy(id + 10, "-", 1);
            memcpy(id + 11, dash + 1, n);
            id[11 + n] = '\0';
        }
    }
    rlx_backend_info bi = {
        .struct_size = sizeof bi,
        .id = id,
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "bench",
        .description = "rlx-bench-scan's tiny plugin",
        .vtable = &vtable,
    };
    return rlx_register_backend(host, &bi);
}
