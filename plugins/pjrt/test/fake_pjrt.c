/*
 * fake_pjrt.c - a stand-in PJRT plugin for the bridge's tests on
 * machines without one. It exports GetPjrtApi with the table layout of
 * ../pjrt_capi.h and API major FAKE_MAJOR (built once as 0, once as an
 * unknown major). Its client has one device, accepts any program that
 * looks like an MLIR module and keeps buffers in host memory. It
 * "executes" only programs of one argument, as a copy of it to the one
 * result (right for a reshape, which the tests use to move data through
 * the bridge); any other program fails with a PJRT error, so the tests
 * see how PJRT errors become rlx errors. A run's completion event is a
 * real object (destroyed by Event_Destroy, so leaks show under ASan); a
 * run whose input starts with a NaN "fails on the device": its event's
 * await reports the failure, as a GPU fault would surface.
 *
 * Built with FAKE_NUMPY it executes every program: the module and the
 * arguments go to a temporary folder, RLX_FAKE_PJRT_PYTHON runs
 * stablehlo_numpy.py (RLX_FAKE_PJRT_EVAL) on it, and the results come
 * back as buffers, so the tests can compare the lowerings' numbers with
 * cpu-ref on machines without an accelerator.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../pjrt_capi.h"

#ifndef FAKE_MAJOR
#define FAKE_MAJOR 0
#endif

struct PJRT_Error { int code; char msg[256]; };
struct PJRT_Client { int dummy; };
struct PJRT_Device { int dummy; };
struct PJRT_DeviceDescription { int dummy; };
struct PJRT_LoadedExecutable { char *code; };
struct PJRT_Buffer { size_t size; unsigned char *data; };
struct PJRT_Event { int failed; };

static PJRT_Client the_client;
static PJRT_Device the_device;
static PJRT_Device *devices[1] = { &the_device };
static PJRT_DeviceDescription the_desc;

static PJRT_Error *fail(int code, const char *msg)
{
    PJRT_Error *e = calloc(1, sizeof *e);
    if (!e)
        abort();
    e->code = code;
    snprintf(e->msg, sizeof e->msg, "%s", msg);
    return e;
}

static void error_destroy(PJRT_Error_Destroy_Args *a) { free(a->error); }

static void error_message(PJRT_Error_Message_Args *a)
{
    a->message = a->error->msg;
    a->message_size = strlen(a->error->msg);
}

static PJRT_Error *error_code(PJRT_Error_GetCode_Args *a)
{
    a->code = a->error->code;
    return NULL;
}

static PJRT_Error *initialize(PJRT_Plugin_Initialize_Args *a)
{
    (void)a;
    return NULL;
}

static PJRT_Error *event_await(PJRT_Event_Args *a)
{
    return a->event && a->event->failed
               ? fail(PJRT_CODE_INTERNAL, "the fake device failed the run "
                                          "(its input began with a NaN)")
               : NULL;
}

static PJRT_Error *event_destroy(PJRT_Event_Args *a)
{
    free(a->event);
    return NULL;
}

static PJRT_Error *client_create(PJRT_Client_Create_Args *a)
{
    /* like a TPU plugin, refuse the GPU options */
    if (a->num_options)
        return fail(PJRT_CODE_INVALID_ARGUMENT, "unknown create option");
    a->client = &the_client;
    return NULL;
}

static PJRT_Error *client_destroy(PJRT_Client_Destroy_Args *a)
{
    (void)a;
    return NULL;
}

static PJRT_Error *platform_name(PJRT_Client_String_Args *a)
{
    a->name = "fake";
    a->name_size = 4;
    return NULL;
}

static PJRT_Error *platform_version(PJRT_Client_String_Args *a)
{
    a->name = "fake 1.0";
    a->name_size = 8;
    return NULL;
}

static PJRT_Error *addressable(PJRT_Client_AddressableDevices_Args *a)
{
    a->devices = devices;
    a->num_devices = 1;
    return NULL;
}

static PJRT_Error *compile(PJRT_Client_Compile_Args *a)
{
    if (a->program->format_size != 4 ||
        memcmp(a->program->format, "mlir", 4) != 0 ||
        a->program->code_size < 7 ||
        memcmp(a->program->code, "module ", 7) != 0)
        return fail(PJRT_CODE_INVALID_ARGUMENT, "not an MLIR module");
#ifdef FAKE_NUMPY
    PJRT_LoadedExecutable *e = calloc(1, sizeof *e);
    if (!e || !(e->code = malloc(a->program->code_size + 1))) {
        free(e);
        return fail(PJRT_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    memcpy(e->code, a->program->code, a->program->code_size);
    e->code[a->program->code_size] = '\0';
    a->executable = e;
#else
    static PJRT_LoadedExecutable exe;
    a->executable = &exe;
#endif
    return NULL;
}

static PJRT_Error *buffer_from_host(PJRT_Client_BufferFromHostBuffer_Args *a)
{
    /* element sizes by PJRT_Buffer_Type; a type outside the table is
     * refused (XLA's plugin aborts on one) */
    static const size_t sizes[] = { 0, 1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8,
                                    2 };
    if (a->type <= PJRT_Buffer_Type_INVALID ||
        a->type > PJRT_Buffer_Type_BF16)
        return fail(PJRT_CODE_INVALID_ARGUMENT, "buffer type is not "
                    "supported in the C API layer");
    size_t es = sizes[a->type];
    size_t n = 1;
    for (size_t i = 0; i < a->num_dims; i++)
        n *= (size_t)a->dims[i];
    PJRT_Buffer *b = calloc(1, sizeof *b);
    if (!b)
        return fail(PJRT_CODE_RESOURCE_EXHAUSTED, "out of memory");
    b->size = n * es;
    b->data = malloc(b->size ? b->size : 1);
    if (!b->data) {
        free(b);
        return fail(PJRT_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    memcpy(b->data, a->data, b->size);
    a->buffer = b;
    a->done_with_host_buffer = NULL;
    return NULL;
}

static PJRT_Error *buffer_destroy(PJRT_Buffer_Destroy_Args *a)
{
    if (a->buffer)
        free(a->buffer->data);
    free(a->buffer);
    return NULL;
}

static PJRT_Error *to_host(PJRT_Buffer_ToHostBuffer_Args *a)
{
    if (a->dst_size < a->src->size)
        return fail(PJRT_CODE_INVALID_ARGUMENT, "destination too small");
    memcpy(a->dst, a->src->data, a->src->size);
    a->event = NULL;
    return NULL;
}

#ifdef FAKE_NUMPY
static int write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t n = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) == 0 && n == size ? 0 : -1;
}

static PJRT_Error *read_buffer(const char *path, PJRT_Buffer **out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(PJRT_CODE_INTERNAL, "the evaluator wrote no result");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    PJRT_Buffer *b = calloc(1, sizeof *b);
    if (!b || n < 0 || !(b->data = malloc(n ? (size_t)n : 1))) {
        free(b);
        fclose(f);
        return fail(PJRT_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    b->size = (size_t)n;
    int ok = !n || fread(b->data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    if (!ok) {
        free(b->data);
        free(b);
        return fail(PJRT_CODE_INTERNAL, "short result file");
    }
    *out = b;
    return NULL;
}

/* The run by stablehlo_numpy.py, in a temporary folder. */
static PJRT_Error *execute_numpy(PJRT_LoadedExecutable_Execute_Args *a)
{
    const char *py = getenv("RLX_FAKE_PJRT_PYTHON");
    const char *script = getenv("RLX_FAKE_PJRT_EVAL");
    if (!py || !script)
        return fail(PJRT_CODE_UNIMPLEMENTED, "RLX_FAKE_PJRT_PYTHON and "
                    "RLX_FAKE_PJRT_EVAL are not set");
    char dir[64] = "/tmp/rlx-fake-pjrt-XXXXXX", path[128], cmd[4096];
    if (!mkdtemp(dir))
        return fail(PJRT_CODE_INTERNAL, "no temporary folder");
    PJRT_Error *err = NULL;
    snprintf(path, sizeof path, "%s/module.mlir", dir);
    if (write_file(path, a->executable->code, strlen(a->executable->code)))
        err = fail(PJRT_CODE_INTERNAL, "cannot write the module");
    for (size_t i = 0; !err && i < a->num_args; i++) {
        const PJRT_Buffer *b = a->argument_lists[0][i];
        snprintf(path, sizeof path, "%s/arg%zu.bin", dir, i);
        if (write_file(path, b->data, b->size))
            err = fail(PJRT_CODE_INTERNAL, "cannot write an argument");
    }
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' 2>'%s/err.txt'", py, script,
             dir, dir);
    if (!err && system(cmd) != 0) {
        char msg[200];
        snprintf(path, sizeof path, "%s/err.txt", dir);
        FILE *f = fopen(path, "r");
        size_t n = 0;
        msg[0] = '\0';
        if (f) {
            /* the last line of the traceback says what failed */
            char line[200];
            while (fgets(line, sizeof line, f))
                if (line[0] != ' ' && line[0] != '\n')
                    snprintf(msg, sizeof msg, "%s", line);
            fclose(f);
            n = strlen(msg);
        }
        if (n && msg[n - 1] == '\n')
            msg[n - 1] = '\0';
        err = fail(PJRT_CODE_UNIMPLEMENTED, msg[0] ? msg
                                                   : "the evaluator failed");
    }
    int nout = 0;
    snprintf(path, sizeof path, "%s/nout", dir);
    FILE *f = err ? NULL : fopen(path, "r");
    if (!err && (!f || fscanf(f, "%d", &nout) != 1))
        err = fail(PJRT_CODE_INTERNAL, "the evaluator wrote no count");
    if (f)
        fclose(f);
    for (int i = 0; !err && i < nout; i++) {
        snprintf(path, sizeof path, "%s/out%d.bin", dir, i);
        err = read_buffer(path, &a->output_lists[0][i]);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0 && !err)
        err = fail(PJRT_CODE_INTERNAL, "cannot remove the temporary folder");
    if (!err && a->device_complete_events) {
        PJRT_Event *ev = calloc(1, sizeof *ev);
        if (!ev)
            return fail(PJRT_CODE_RESOURCE_EXHAUSTED, "out of memory");
        a->device_complete_events[0] = ev;
    }
    return err;
}
#endif

static PJRT_Error *execute(PJRT_LoadedExecutable_Execute_Args *a)
{
#ifdef FAKE_NUMPY
    return execute_numpy(a);
#endif
    if (a->num_devices != 1 || a->num_args != 1)
        return fail(PJRT_CODE_UNIMPLEMENTED, "the fake PJRT plugin executes "
                    "nothing but one-argument copies");
    const PJRT_Buffer *in = a->argument_lists[0][0];
    PJRT_Buffer *out = calloc(1, sizeof *out);
    if (!out || !(out->data = malloc(in->size ? in->size : 1))) {
        free(out);
        return fail(PJRT_CODE_RESOURCE_EXHAUSTED, "out of memory");
    }
    out->size = in->size;
    memcpy(out->data, in->data, in->size);
    a->output_lists[0][0] = out;
    if (a->device_complete_events) {
        float first;
        PJRT_Event *ev = calloc(1, sizeof *ev);
        if (!ev)
            return fail(PJRT_CODE_RESOURCE_EXHAUSTED, "out of memory");
        ev->failed = in->size >= sizeof first &&
                     (memcpy(&first, in->data, sizeof first), isnan(first));
        a->device_complete_events[0] = ev;
    }
    return NULL;
}

static PJRT_Error *exe_destroy(PJRT_LoadedExecutable_Destroy_Args *a)
{
#ifdef FAKE_NUMPY
    if (a->executable)
        free(a->executable->code);
    free(a->executable);
#else
    (void)a;
#endif
    return NULL;
}

static PJRT_Error *get_desc(PJRT_Device_GetDescription_Args *a)
{
    a->desc = &the_desc;
    return NULL;
}

static PJRT_Error *desc_kind(PJRT_DeviceDescription_String_Args *a)
{
    a->str = "Fake Accelerator";
    a->str_size = strlen(a->str);
    return NULL;
}

static PJRT_Error *desc_string(PJRT_DeviceDescription_String_Args *a)
{
    a->str = "FakeDevice(id=0)";
    a->str_size = strlen(a->str);
    return NULL;
}

static PJRT_Error *desc_id(PJRT_DeviceDescription_Id_Args *a)
{
    a->id = 0;
    return NULL;
}

static PJRT_Error *memory_stats(PJRT_Device_MemoryStats_Args *a)
{
    a->bytes_in_use = 1 << 20;
    a->bytes_limit = (int64_t)1 << 30;
    a->bytes_limit_is_set = true;
    return NULL;
}

static PJRT_Api api;

__attribute__((visibility("default"))) const PJRT_Api *GetPjrtApi(void)
{
    api.struct_size = sizeof api;
    api.pjrt_api_version.struct_size = sizeof api.pjrt_api_version;
    api.pjrt_api_version.major_version = FAKE_MAJOR;
    api.pjrt_api_version.minor_version = RLXP_PJRT_MIN_MINOR;
    api.Error_Destroy = error_destroy;
    api.Error_Message = error_message;
    api.Error_GetCode = error_code;
    api.Plugin_Initialize = initialize;
    api.Event_Destroy = event_destroy;
    api.Event_Await = event_await;
    api.Client_Create = client_create;
    api.Client_Destroy = client_destroy;
    api.Client_PlatformName = platform_name;
    api.Client_PlatformVersion = platform_version;
    api.Client_AddressableDevices = addressable;
    api.Client_Compile = compile;
    api.Client_BufferFromHostBuffer = buffer_from_host;
    api.DeviceDescription_Id = desc_id;
    api.DeviceDescription_Kind = desc_kind;
    api.DeviceDescription_ToString = desc_string;
    api.Device_GetDescription = get_desc;
    api.Device_MemoryStats = memory_stats;
    api.LoadedExecutable_Destroy = exe_destroy;
    api.LoadedExecutable_Execute = execute;
    api.Buffer_Destroy = buffer_destroy;
    api.Buffer_ToHostBuffer = to_host;
    return &api;
}
