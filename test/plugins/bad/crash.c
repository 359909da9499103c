/* crash.c - a plugin that takes its process down in one way, chosen at
 * build time (BAD_*), to prove the scanner contains it. It would register
 * a working backend otherwise, so a file that slipped through would show. */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "simple_backend.h"

#ifdef BAD_CTOR_SEGV
__attribute__((constructor)) static void crash_on_load(void)
{
    raise(SIGSEGV);
}
#endif

#ifdef BAD_FIT_SIGILL
RLX_PLUGIN_EXPORT int32_t rlx_plugin_host_fit(const char **family)
{
    *family = "test-bad-variant";
    raise(SIGILL); /* as an instruction this CPU lacks would */
    return 10;
}
#endif

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
#if defined(BAD_INIT_SEGV)
    raise(SIGSEGV);
#elif defined(BAD_INIT_ABORT)
    abort();
#elif defined(BAD_INIT_EXIT)
    _exit(7);
#elif defined(BAD_INIT_HANG)
    for (;;)
        pause();
#endif
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 1 };
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-bad-" BAD_NAME,
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "npu",
        .priority = RLX_PRIORITY_DEFAULT + 50,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "test plugin that should never load",
        .vtable = &simple_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
