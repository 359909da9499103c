/*
 * pjrt_client.c - opening a PJRT plugin and talking to it: the version
 * check, PJRT_Plugin_Initialize, the client (created without
 * preallocating device memory), errors, events and host transfers.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_names.h>

#include "pjrt_internal.h"

/* The last slot we call must lie inside the plugin's table. */
#define API_NEEDS (offsetof(PJRT_Api, Buffer_ToHostBuffer) + sizeof(void *))

static void error_free(const rlxp_backend *be, PJRT_Error *err);

rlx_status rlxp_error(const rlxp_backend *be, PJRT_Error *err,
                      const char *what)
{
    const PJRT_Api *api = be->api;
    RLXP_ARGS(PJRT_Error_Message_Args, m);
    m->error = err;
    api->Error_Message(m);
    int code = 0;
    if (api->Error_GetCode) {
        RLXP_ARGS(PJRT_Error_GetCode_Args, c);
        c->error = err;
        PJRT_Error *e2 = api->Error_GetCode(c);
        if (!e2)
            code = c->code;
        else
            error_free(be, e2);
    }
    rlx_status st = RLX_ERR_BACKEND;
    const char *fix = "check the message above; run with RLX_LOG=debug and "
                      "report it with the PJRT plugin's name and version";
    switch (code) {
    case PJRT_CODE_RESOURCE_EXHAUSTED:
        st = RLX_ERR_OUT_OF_MEMORY;
        fix = "free device memory (other processes holding it: nvidia-smi "
              "or the TPU runtime's tools), or use a smaller model or batch";
        break;
    case PJRT_CODE_INVALID_ARGUMENT:
    case PJRT_CODE_UNIMPLEMENTED:
        st = RLX_ERR_UNSUPPORTED;
        fix = "this PJRT plugin cannot run this graph; run it on another "
              "backend (--device cpu), or update the PJRT plugin";
        break;
    case PJRT_CODE_UNAVAILABLE:
    case PJRT_CODE_FAILED_PRECONDITION:
    case PJRT_CODE_NOT_FOUND:
        st = RLX_ERR_UNAVAILABLE;
        fix = "check that the device is present and not in use by another "
              "process, and that the PJRT plugin matches its driver";
        break;
    default:
        break;
    }
    rlx_status r = rlxp_report(be, st, "%s: %s (PJRT plugin %s, error code "
                               "%d): %.*s. Fix: %s", be->id, what, be->path,
                               code, (int)(m->message_size > 1500
                                               ? 1500 : m->message_size),
                               m->message ? m->message : "", fix);
    RLXP_ARGS(PJRT_Error_Destroy_Args, d);
    d->error = err;
    api->Error_Destroy(d);
    return r;
}

rlx_status rlxp_await(const rlxp_backend *be, PJRT_Event *ev,
                      const char *what)
{
    if (!ev)
        return RLX_OK;
    RLXP_ARGS(PJRT_Event_Args, a);
    a->event = ev;
    PJRT_Error *err = be->api->Event_Await(a);
    RLXP_ARGS(PJRT_Event_Args, d);
    d->event = ev;
    PJRT_Error *e2 = be->api->Event_Destroy(d);
    if (e2)
        error_free(be, e2);
    return err ? rlxp_error(be, err, what) : RLX_OK;
}

PJRT_Buffer_Type rlxp_pjrt_type(rlx_dtype dt)
{
    switch (dt) {
    case RLX_DTYPE_F32: return PJRT_Buffer_Type_F32;
    case RLX_DTYPE_F16: return PJRT_Buffer_Type_F16;
    case RLX_DTYPE_BF16: return PJRT_Buffer_Type_BF16;
    case RLX_DTYPE_I32: return PJRT_Buffer_Type_S32;
    case RLX_DTYPE_I64: return PJRT_Buffer_Type_S64;
    case RLX_DTYPE_U8: return PJRT_Buffer_Type_U8;
    case RLX_DTYPE_BOOL: return PJRT_Buffer_Type_PRED;
    case RLX_DTYPE_F64: return PJRT_Buffer_Type_F64;
    case RLX_DTYPE_I8: return PJRT_Buffer_Type_S8;
    case RLX_DTYPE_I16: return PJRT_Buffer_Type_S16;
    case RLX_DTYPE_U16: return PJRT_Buffer_Type_U16;
    case RLX_DTYPE_U32: return PJRT_Buffer_Type_U32;
    case RLX_DTYPE_U64: return PJRT_Buffer_Type_U64;
    default: return PJRT_Buffer_Type_INVALID;
    }
}

/* Open PATH and check it: 0 on success, else a reason in WHY. */
static int try_open(rlxp_backend *be, const char *path, char *why,
                    size_t why_size)
{
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *de = dlerror();
        snprintf(why, why_size, "%s cannot be loaded (%s)", path,
                 de ? de : "dlopen failed");
        return -1;
    }
    PJRT_GetApi_fn get = (PJRT_GetApi_fn)(uintptr_t)dlsym(dl,
                                                          RLXP_GET_API_SYMBOL);
    if (!get) {
        snprintf(why, why_size, "%s is not a PJRT plugin: it exports no %s",
                 path, RLXP_GET_API_SYMBOL);
        dlclose(dl);
        return -1;
    }
    const PJRT_Api *api = get();
    if (!api || api->struct_size < offsetof(PJRT_Api, Error_Destroy)) {
        snprintf(why, why_size, "%s: %s returned no API table", path,
                 RLXP_GET_API_SYMBOL);
        dlclose(dl);
        return -1;
    }
    int major = api->pjrt_api_version.major_version;
    int minor = api->pjrt_api_version.minor_version;
    if (major != RLXP_PJRT_MAJOR) {
        snprintf(why, why_size, "%s speaks PJRT C API %d.%d; this bridge "
                 "was written for major %d (minor %d or newer)", path,
                 major, minor, RLXP_PJRT_MAJOR, RLXP_PJRT_MIN_MINOR);
        dlclose(dl);
        return -1;
    }
    if (minor < RLXP_PJRT_MIN_MINOR || api->struct_size < API_NEEDS) {
        snprintf(why, why_size, "%s speaks PJRT C API %d.%d (table of %zu "
                 "bytes), older than the %d.%d this bridge needs", path,
                 major, minor, api->struct_size, RLXP_PJRT_MAJOR,
                 RLXP_PJRT_MIN_MINOR);
        dlclose(dl);
        return -1;
    }
    if (!api->Error_Destroy || !api->Error_Message ||
        !api->Plugin_Initialize || !api->Client_Create ||
        !api->Client_Compile || !api->Client_BufferFromHostBuffer ||
        !api->LoadedExecutable_Execute || !api->Buffer_ToHostBuffer ||
        !api->Event_Await || !api->Event_Destroy ||
        !api->Client_AddressableDevices || !api->Buffer_Destroy) {
        snprintf(why, why_size, "%s: its PJRT API table lacks functions "
                 "the bridge calls", path);
        dlclose(dl);
        return -1;
    }
    be->dl = dl;
    be->api = api;
    be->api_major = major;
    be->api_minor = minor;
    snprintf(be->path, sizeof be->path, "%s", path);
    RLXP_ARGS(PJRT_Plugin_Initialize_Args, init);
    PJRT_Error *err = api->Plugin_Initialize(init);
    if (err) {
        rlxp_error(be, err, "PJRT_Plugin_Initialize failed");
        snprintf(why, why_size, "%s: PJRT_Plugin_Initialize failed", path);
        /* keep it open: a plugin may not survive dlclose after init */
        be->api = NULL;
        return -1;
    }
    rlxp_log(be, RLX_LOG_INFO, "%s: opened %s (PJRT C API %d.%d)", be->id,
             path, major, minor);
    return 0;
}

static const char *family_fix(rlxp_family f)
{
    switch (f) {
    case RLXP_FAMILY_TPU:
        return "on a Cloud TPU VM, pip install libtpu (or jax[tpu]), or set "
               "TPU_LIBRARY_PATH or RLX_PJRT_PLUGIN to libtpu.so";
    case RLXP_FAMILY_CUDA:
        return "pip install jax[cuda13] (or jax[cuda12]) so that "
               "jax_plugins/xla_cuda*/ exists, or set RLX_PJRT_PLUGIN to a "
               "PJRT CUDA plugin such as xla_cuda_plugin.so";
    case RLXP_FAMILY_ROCM:
        return "pip install jax[rocm] (jax_plugins/xla_rocm*), or set "
               "RLX_PJRT_PLUGIN to a PJRT ROCm plugin";
    default:
        return "set RLX_PJRT_PLUGIN (or pjrt.plugin in the config file) to "
               "the PJRT plugin .so of your device (one exporting GetPjrtApi)";
    }
}

rlx_status rlxp_open(rlxp_backend *be)
{
    if (be->api)
        return RLX_OK;
    char cands[8192], where[1024], why[1024] = "";
    int explicit_list = rlxp_find_candidates(be, cands, sizeof cands, where,
                                             sizeof where);
    int tried = 0;
    for (char *p = cands, *save = NULL, *tok;
         cands[0] && (tok = strtok_r(p, ":", &save)); p = NULL) {
        tried++;
        if (try_open(be, tok, why, sizeof why) == 0)
            return RLX_OK;
        rlxp_log(be, RLX_LOG_INFO, "%s: skipped %s", be->id, why);
    }
    if (tried)
        return rlxp_report(be, RLX_ERR_UNAVAILABLE, "%s: no usable PJRT "
                           "plugin: %s. Fix: %s", be->id, why,
                           be->family == RLXP_FAMILY_OTHER || explicit_list
                               ? "point RLX_PJRT_PLUGIN at a PJRT plugin "
                                 "built for PJRT C API 0.x (one exporting "
                                 "GetPjrtApi), e.g. libtpu.so or JAX's "
                                 "xla_cuda_plugin.so, or update it"
                               : family_fix(be->family));
    return rlxp_report(be, RLX_ERR_UNAVAILABLE, "%s: no PJRT plugin for "
                       "this backend found (%s). Fix: %s", be->id, where,
                       family_fix(be->family));
}

static PJRT_NamedValue named_bool(const char *name, bool v)
{
    PJRT_NamedValue nv;
    memset(&nv, 0, sizeof nv);
    nv.struct_size = PJRT_SIZE(PJRT_NamedValue, value_size);
    nv.name = name;
    nv.name_size = strlen(name);
    nv.type = PJRT_NamedValue_kBool;
    nv.v.bool_value = v;
    nv.value_size = 1;
    return nv;
}

static PJRT_NamedValue named_string(const char *name, const char *v)
{
    PJRT_NamedValue nv;
    memset(&nv, 0, sizeof nv);
    nv.struct_size = PJRT_SIZE(PJRT_NamedValue, value_size);
    nv.name = name;
    nv.name_size = strlen(name);
    nv.type = PJRT_NamedValue_kString;
    nv.v.string_value = v;
    nv.value_size = strlen(v);
    return nv;
}

static void error_free(const rlxp_backend *be, PJRT_Error *err)
{
    RLXP_ARGS(PJRT_Error_Destroy_Args, d);
    d->error = err;
    be->api->Error_Destroy(d);
}

rlx_status rlxp_client(rlxp_backend *be)
{
    rlx_status st = rlxp_open(be);
    if (st != RLX_OK || be->client)
        return st;
    const PJRT_Api *api = be->api;
    /* GPU plugins grab most of device memory up front unless told not
     * to (JAX's XLA_PYTHON_CLIENT_PREALLOCATE=false): a BFC allocator
     * that grows on demand. Plugins that do not know these options
     * reject them, so the client is then created without any. */
    PJRT_NamedValue opts[2] = { named_string("allocator", "bfc"),
                                named_bool("preallocate", false) };
    PJRT_Error *err = NULL;
    for (int attempt = 0; attempt < 2; attempt++) {
        RLXP_ARGS(PJRT_Client_Create_Args, c);
        int with = attempt == 0 && be->family == RLXP_FAMILY_CUDA;
        c->create_options = with ? opts : NULL;
        c->num_options = with ? 2 : 0;
        err = api->Client_Create(c);
        if (!err) {
            be->client = c->client;
            break;
        }
        if (!with)
            break;
        error_free(be, err);
    }
    if (err)
        return rlxp_error(be, err, "creating the PJRT client failed");
    RLXP_ARGS(PJRT_Client_String_Args, pn);
    pn->client = be->client;
    err = api->Client_PlatformName(pn);
    if (err)
        error_free(be, err);
    else
        snprintf(be->platform, sizeof be->platform, "%.*s",
                 (int)pn->name_size, pn->name);
    if (api->Client_PlatformVersion) {
        RLXP_ARGS(PJRT_Client_String_Args, pv);
        pv->client = be->client;
        err = api->Client_PlatformVersion(pv);
        if (err)
            error_free(be, err);
        else
            snprintf(be->platform_version, sizeof be->platform_version,
                     "%.*s", (int)pv->name_size, pv->name);
    }
    RLXP_ARGS(PJRT_Client_AddressableDevices_Args, d);
    d->client = be->client;
    err = api->Client_AddressableDevices(d);
    if (err)
        return rlxp_error(be, err, "listing the PJRT devices failed");
    be->devices = d->devices;
    be->n_devices = d->num_devices;
    rlxp_log(be, RLX_LOG_INFO, "%s: PJRT client for platform '%s' (%s), "
             "%zu device(s)", be->id, be->platform, be->platform_version,
             be->n_devices);
    if (be->n_devices == 0)
        return rlxp_report(be, RLX_ERR_UNAVAILABLE, "%s: the PJRT plugin %s "
                           "sees no device. Fix: check that the device is "
                           "present and visible to this process", be->id,
                           be->path);
    return RLX_OK;
}

rlx_status rlxp_upload(rlxp_backend *be, PJRT_Device *device, rlx_dtype dt,
                       uint32_t rank, const int64_t *dims, const void *data,
                       PJRT_Buffer **out)
{
    static const char zero[16];
    /* a plugin aborts on a type it does not know: never pass INVALID */
    if (rlxp_pjrt_type(dt) == PJRT_Buffer_Type_INVALID)
        return rlxp_report(be, RLX_ERR_UNSUPPORTED, "%s: no PJRT buffer "
                           "type for dtype %s. Fix: cast the tensor to "
                           "another dtype", be->id, rlx_kit_dtype_name(dt));
    RLXP_ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
    a->client = be->client;
    a->data = data ? data : zero; /* empty tensors: any valid pointer */
    a->type = rlxp_pjrt_type(dt);
    a->dims = dims;
    a->num_dims = rank;
    a->host_buffer_semantics = PJRT_HOST_BUFFER_IMMUTABLE_ONLY_DURING_CALL;
    a->device = device;
    PJRT_Error *err = be->api->Client_BufferFromHostBuffer(a);
    if (err)
        return rlxp_error(be, err, "copying to the device failed");
    rlx_status st = rlxp_await(be, a->done_with_host_buffer,
                               "copying to the device failed");
    if (st != RLX_OK) {
        RLXP_ARGS(PJRT_Buffer_Destroy_Args, d);
        d->buffer = a->buffer;
        PJRT_Error *e2 = be->api->Buffer_Destroy(d);
        if (e2)
            error_free(be, e2);
        return st;
    }
    *out = a->buffer;
    return RLX_OK;
}

rlx_status rlxp_download(rlxp_backend *be, PJRT_Buffer *buf, void *dst,
                         size_t nbytes)
{
    if (nbytes == 0)
        return RLX_OK;
    RLXP_ARGS(PJRT_Buffer_ToHostBuffer_Args, a);
    a->src = buf;
    a->dst = dst;
    a->dst_size = nbytes;
    PJRT_Error *err = be->api->Buffer_ToHostBuffer(a);
    if (err)
        return rlxp_error(be, err, "copying from the device failed");
    return rlxp_await(be, a->event, "copying from the device failed");
}
