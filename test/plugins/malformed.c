/* malformed.c - every registration is malformed: a vtable too small for
 * ABI 1.0, a missing required slot, a bad id, an unknown device kind. */
#include <rlx/plugin.h>

static int supports(void *b, rlx_op op, rlx_dtype t)
{
    (void)b, (void)op, (void)t;
    return 1;
}

static const rlx_backend_vtable tiny = { .struct_size = 4 };
static const rlx_backend_vtable no_execute = {
    .struct_size = sizeof(rlx_backend_vtable),
    .supports_op = supports,
};

static rlx_status reg(const rlx_host *host, const char *id,
                      rlx_device_kind kind, const rlx_backend_vtable *vt)
{
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = id,
        .device_kind = kind,
        .flags = RLX_BACKEND_EXECUTES,
        .vtable = vt,
    };
    return rlx_register_backend(host, &info);
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    reg(host, "test-tiny", RLX_DEVICE_CPU, &tiny);
    reg(host, "test-noexec", RLX_DEVICE_CPU, &no_execute);
    reg(host, "Bad Id!", RLX_DEVICE_CPU, &no_execute);
    reg(host, "test-future", (rlx_device_kind)77, &no_execute);
    return RLX_OK;
}
