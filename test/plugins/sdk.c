/*
 * sdk.c - the test backend of the SDK checks (test-sdk.c): it reads its
 * settings through the host's get_option (ABI 1.3) outside compile and
 * through the compile options (ABI 1.4) in it, never getenv, and exports
 * one extension through get_extension. Settings:
 *   test_sdk.off     probe fails (RLX_TEST_SDK_OFF)
 *   test_sdk.refuse  compile refuses every graph (RLX_TEST_SDK_REFUSE)
 *   test_sdk.refuse_thread  the same, read on a thread compile starts:
 *                    the session's settings reach every thread
 *   test_sdk.host_refuse  the same, read through the host only, which
 *                    answers for no session
 *   test_sdk.relu_nan_zero  relu(NaN) gives 0, against docs/ops.md
 *                    (RLX_TEST_SDK_RELU_NAN_ZERO)
 * Its reports start with its own id ("test-sdk: ..."), as many plugins'
 * do: the core must not name the backend twice.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "simple_backend.h"

/* The extension "rlx.test.answer.v1": a struct_size, then the answer. */
typedef struct test_answer_ext {
    uint32_t struct_size;
    int32_t answer;
} test_answer_ext;

static const test_answer_ext answer_ext = { sizeof answer_ext, 42 };

static int option_set(const rlx_host *host, const char *name)
{
    char v[64];
    return rlx_host_get_option(host, name, v, sizeof v) == RLX_OK && v[0] &&
           strcmp(v, "0") != 0;
}

/* Setting NAME of the compile with options O. */
static int compile_option_set(const rlx_compile_options *o,
                              const rlx_host *host, const char *name)
{
    char v[64];
    return rlx_compile_get_option(o, host, name, v, sizeof v) == RLX_OK &&
           v[0] && strcmp(v, "0") != 0;
}

typedef struct option_read {
    const rlx_compile_options *o;
    const rlx_host *host;
    int set;
} option_read;

static void *read_on_thread(void *arg)
{
    option_read *r = arg;
    r->set = compile_option_set(r->o, r->host, "test_sdk.refuse_thread");
    return NULL;
}

static rlx_status sdk_probe(void *bd, rlx_probe_result *out)
{
    simple_backend *b = bd;
    if (option_set(b->host, "test_sdk.off"))
        return rlx_host_report(b->host, RLX_ERR_UNAVAILABLE,
                               "test-sdk: switched off by option "
                               "test_sdk.off. Fix: unset RLX_TEST_SDK_OFF");
    return simple_vtable.probe(bd, out);
}

static rlx_status sdk_compile(void *bd, const rlx_graph_view *g,
                              const rlx_compile_options *o,
                              rlx_executable **out)
{
    simple_backend *b = bd;
    option_read r = { o, b->host, 0 };
    pthread_t th;
    if (pthread_create(&th, NULL, read_on_thread, &r) != 0)
        return rlx_host_report(b->host, RLX_ERR_BACKEND,
                               "test-sdk: cannot start a thread. Fix: "
                               "raise the process's thread limit");
    pthread_join(th, NULL);
    if (compile_option_set(o, b->host, "test_sdk.refuse") || r.set ||
        option_set(b->host, "test_sdk.host_refuse"))
        return rlx_host_report(b->host, RLX_ERR_UNSUPPORTED,
                               "test-sdk: refusing every graph on purpose. "
                               "Fix: unset RLX_TEST_SDK_REFUSE");
    /* written only when it changes: concurrent compiles (test-sdk's
     * threads) then only read it */
    int nan_zero = compile_option_set(o, b->host, "test_sdk.relu_nan_zero");
    if (b->relu_nan_zero != nan_zero)
        b->relu_nan_zero = nan_zero;
    return simple_vtable.compile(bd, g, o, out);
}

static const void *sdk_get_extension(void *bd, const char *name)
{
    (void)bd;
    return name && strcmp(name, "rlx.test.answer.v1") == 0 ? &answer_ext
                                                          : NULL;
}

static rlx_backend_vtable sdk_vtable;

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    simple_backend *b = calloc(1, sizeof *b);
    if (!b)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "test-sdk: out of memory. Fix: free memory");
    *b = (simple_backend){ .host = host, .devices = 1 };
    sdk_vtable = simple_vtable;
    sdk_vtable.probe = sdk_probe;
    sdk_vtable.compile = sdk_compile;
    sdk_vtable.get_extension = sdk_get_extension;
    rlx_backend_info info = {
        .struct_size = sizeof info,
        .id = "test-sdk",
        .device_kind = RLX_DEVICE_CUSTOM,
        .device_name = "sdknpu",
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "test plugin: settings through get_option, one "
                       "extension",
        .vtable = &sdk_vtable,
        .backend = b,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        free(b);
    return st;
}
