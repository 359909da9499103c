/*
 * probe_key.c - a backend ("test-probekey", device "probenpu") that
 * exports the rlx.probe_key.v1 extension, so the core's probe cache can
 * be tested: its key is RLX_TEST_PROBE_KEY, each live probe appends a
 * line to the file RLX_TEST_PROBE_LOG, and RLX_TEST_PROBE_FAIL=1 makes
 * it unavailable. For lazy loading (test-lazy-plugins): being opened
 * (its constructor) and initialised append "open PID" and "init PID" to
 * RLX_TEST_LOAD_LOG; RLX_TEST_COMPILE_FAIL=1 makes compile fail;
 * RLX_TEST_PROBE_KEY_TEXT=1 adds a free-text item, which the core cannot
 * check by itself. RLX_TEST_PROBE_RENDEZVOUS=FILE: a live probe appends
 * its id to FILE and waits (up to 3 s) until FILE has two lines, then
 * appends "alone" if it had to give up: two probes that run concurrently
 * meet, two that run one after the other do not. Built twice: the second
 * copy is "test-probekey2" on device "probenpu2".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/probe_key.h>
#include <time.h>

#include "simple_backend.h"

#ifndef PROBEKEY_ID
#define PROBEKEY_ID "test-probekey"
#define PROBEKEY_DEVICE "probenpu"
#endif

static int file_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    if (!f)
        return 0;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static void append(const char *path, const char *line)
{
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s\n", line);
        fclose(f);
    }
}

static void rendezvous(void)
{
    const char *file = getenv("RLX_TEST_PROBE_RENDEZVOUS");
    if (!file || !*file)
        return;
    append(file, PROBEKEY_ID);
    for (int i = 0; i < 300 && file_lines(file) < 2; i++)
        nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
    if (file_lines(file) < 2)
        append(file, "alone");
}

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
    rendezvous();
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
        .id = PROBEKEY_ID,
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = PROBEKEY_DEVICE,
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
