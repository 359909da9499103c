/* reg_then_fail.c - registers a backend, then fails its init. The core
 * owns a registered backend from then on and destroys it exactly once
 * (rlx/plugin.h); this plugin must not free it too. Each destroy appends
 * this process's id to $RLX_TEST_DESTROY_LOG, so a test can count them. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "simple_backend.h"

static rlx_backend_vtable vtable;

static void destroy_logged(void *bd)
{
    const char *log = getenv("RLX_TEST_DESTROY_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "%ld\n", (long)getpid());
        fclose(f);
    }
    free(bd);
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 1 };
    vtable = simple_vtable;
    vtable.backend_destroy = destroy_logged;
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-regfail",
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "npu",
        .flags = RLX_BACKEND_EXECUTES,
        .vtable = &vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK) {
        free(b); /* refused: still ours */
        return st;
    }
    /* registered: the core's now, even though init fails below */
    return rlx_host_report(host, RLX_ERR_UNAVAILABLE,
                           "second device failed after the first was "
                           "registered. Fix: plug in the test device");
}
