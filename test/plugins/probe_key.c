/*
 * probe_key.c - a backend ("test-probekey", device "probenpu") that
 * exports the rlx.probe_key.v1 extension, so the core's probe cache can
 * be tested: its key is RLX_TEST_PROBE_KEY, each live probe appends a
 * line to the file RLX_TEST_PROBE_LOG, and RLX_TEST_PROBE_FAIL=1 makes
 * it unavailable. For lazy loading (test-lazy-plugins): being opened
 * (its constructor) and initialised append "open PID" and "init PID" to
 * RLX_TEST_LOAD_LOG; RLX_TEST_COMPILE_FAIL=1 makes compile fail;
 * RLX_TEST_PROBE_KEY_TEXT=1 adds a free-text item, which the core cannot
 * check by itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/probe_key.h>

#include "simple_backend.h"

static rlx_backend_vtable vtable;

static void load_log(const char *what)
{
    const char *log = getenv("RLX_TEST_LOAD_LOG");
    if (!log || !*log)
        return;
    FILE *f = fopen(log, "a");
    if (f) {
        fprintf(f, "%s %ld\n", what, (long)getpid());
        fclose(f);
    }
}

__attribute__((constructor)) static void opened(void)
{
    load_log("open");
}

static rlx_status compile(void *backend, const rlx_graph_view *graph,
                          const rlx_compile_options *options,
                          rlx_executable **out)
{
    simple_backend *b = backend;
    const char *fail = getenv("RLX_TEST_COMPILE_FAIL");
    if (fail && strcmp(fail, "1") == 0)
        return rlx_host_report(b->host, RLX_ERR_UNAVAILABLE,
                               "test-probekey: the device went away. Fix: "
                               "unset RLX_TEST_COMPILE_FAIL");
    return simple_vtable.compile(backend, graph, options, out);
}

static rlx_status probe(void *backend, rlx_probe_result *out)
{
    simple_backend *b = backend;
    const char *log = getenv("RLX_TEST_PROBE_LOG");
    if (log && *log) {
        FILE *f = fopen(log, "a");
        if (f) {
            fputs("probe\n", f);
            fclose(f);
        }
    }
    const char *fail = getenv("RLX_TEST_PROBE_FAIL");
    if (fail && strcmp(fail, "1") == 0)
        return rlx_host_report(b->host, RLX_ERR_UNAVAILABLE,
                               "test-probekey: the test said no.\tTabbed\\"
                               "\nsecond line. Fix: unset "
                               "RLX_TEST_PROBE_FAIL");
    out->device_count = 2;
    return RLX_OK;
}

static rlx_status probe_key(void *backend, char *key, size_t size)
{
    (void)backend;
    rlx_kit_probe_key k;
    rlx_kit_probe_key_init(&k, key, size);
    rlx_kit_probe_key_add_env(&k, "RLX_TEST_PROBE_KEY");
    const char *text = getenv("RLX_TEST_PROBE_KEY_TEXT");
    if (text && strcmp(text, "1") == 0)
        rlx_kit_probe_key_addf(&k, "opaque %d", 42);
    return rlx_kit_probe_key_end(&k);
}

static const rlx_ext_probe_key key_ext = {
    .struct_size = sizeof key_ext,
    .probe_key = probe_key,
};

static const void *get_extension(void *backend, const char *name)
{
    (void)backend;
    return strcmp(name, RLX_EXT_PROBE_KEY) == 0 ? &key_ext : NULL;
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    load_log("init");
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return RLX_ERR_OUT_OF_MEMORY;
    *b = (simple_backend){ .host = host, .devices = 2 };
    vtable = simple_vtable;
    vtable.struct_size = sizeof vtable;
    vtable.probe = probe;
    vtable.compile = compile;
    vtable.get_extension = get_extension;
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-probekey",
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "probenpu",
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "test plugin: probes cached through rlx.probe_key.v1",
        .vtable = &vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
