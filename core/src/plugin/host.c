/*
 * host.c - the host table handed to plugins: registration with every
 * check a malformed or foreign backend needs, error reports and logging.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

/* Refuse one registration: keep the reason for the diagnostics and tell
 * the plugin why through the returned status. */
static rlx_status refuse(rlx_runtime *rt, rlx_status st, const char *fmt, ...)
    RLX__PRINTF(3, 4);

static rlx_status refuse(rlx_runtime *rt, rlx_status st, const char *fmt, ...)
{
    char msg[RLX_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);

    char *reason, *fix;
    rlx__split_fix(msg, &reason, &fix);
    rlx__diag_add(rt, RLX_DIAG_REJECTED,
                  rt->loading ? rt->loading->path : "(unknown)",
                  reason ? reason : msg, fix ? fix : "");
    free(reason);
    free(fix);
    if (!rt->pending_error)
        rt->pending_error = rlx__strdup(msg);
    return st;
}

static int id_valid(const char *s, const char *extra)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > RLX_MAX_ID)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              strchr(extra, c)))
            return 0;
    }
    return 1;
}

static const char *reserved_device_names[] = {
    "cpu", "cuda", "rocm", "vulkan", "tpu", "metal", "custom", "auto",
};

/* The flags of a backend built for ABI version ABI, less those that
 * meant nothing to it (bits its minor did not define, DEVICE_IO before
 * 1.2) and DEVICE_IO without EXECUTES. */
static uint32_t known_flags(uint32_t abi, uint32_t flags)
{
    uint32_t known = RLX_BACKEND_EXECUTES;
    if (RLX_ABI_VERSION_MINOR_OF(abi) >= 2)
        known |= RLX_BACKEND_DEVICE_IO;
    flags &= known;
    if (!(flags & RLX_BACKEND_EXECUTES))
        flags &= ~RLX_BACKEND_DEVICE_IO;
    return flags;
}

/* Name of the first required slot that is missing, or NULL; *FIX says
 * what else the backend may do instead of implementing it. */
static const char *missing_slot(const rlx_backend_vtable *vt, uint32_t flags,
                                const char **fix)
{
#define RLX__NEED(field)                                                   \
    if (!RLX_HAS_FIELD(vt->struct_size, rlx_backend_vtable, field) ||      \
        !vt->field)                                                        \
        return #field;
    *fix = "drop RLX_BACKEND_EXECUTES for a backend that only answers capability queries";
    RLX__NEED(supports_op)
    if (flags & RLX_BACKEND_EXECUTES) {
        RLX__NEED(compile)
        RLX__NEED(executable_destroy)
        RLX__NEED(buffer_create)
        RLX__NEED(buffer_read)
        RLX__NEED(buffer_destroy)
        RLX__NEED(execute)
    }
    *fix = "drop RLX_BACKEND_DEVICE_IO";
    if (flags & RLX_BACKEND_DEVICE_IO) {
        RLX__NEED(buffer_write)
    }
#undef RLX__NEED
    return NULL;
}

static rlx_backend *find_id(rlx_runtime *rt, const char *id)
{
    const rlx__snapshot *s = rlx__registry_snapshot(rt);
    for (uint32_t i = 0; i < s->count; i++)
        if (strcmp(s->items[i]->id, id) == 0)
            return s->items[i];
    for (uint32_t i = 0; i < rt->n_pending; i++)
        if (strcmp(rt->pending[i]->id, id) == 0)
            return rt->pending[i];
    return NULL;
}

static rlx_status host_register(const rlx_host *host, uint32_t abi,
                                const rlx_backend_info *info)
{
    rlx_runtime *rt = host ? host->host_data : NULL;
    if (!rt)
        return RLX_ERR_INVALID_ARGUMENT;
    if (!rt->loading)
        return rlx_host_report(host, RLX_ERR_STATE,
                               "rlx_register_backend called outside "
                               "rlx_plugin_init. Fix: register every "
                               "backend from rlx_plugin_init");

    /* The version settles first; nothing else of INFO is read before. */
    if (RLX_ABI_VERSION_MAJOR_OF(abi) != RLX_ABI_MAJOR)
        return refuse(rt, RLX_ERR_ABI_MISMATCH,
                      "plugin built for rlx plugin ABI %u.%u, this librlx "
                      "implements ABI %u.%u. Fix: rebuild the plugin "
                      "against rlx plugin-abi %u.x headers, or install the "
                      "plugin package that matches this librlx",
                      RLX_ABI_VERSION_MAJOR_OF(abi),
                      RLX_ABI_VERSION_MINOR_OF(abi), RLX_ABI_MAJOR,
                      RLX_ABI_MINOR, RLX_ABI_MAJOR);
    if (rt->loading->n_backends == 0 && rt->n_pending == 0)
        rt->loading->abi_version = abi;

    if (!info || info->struct_size < RLX_STRUCT_SIZE_TO(rlx_backend_info,
                                                        backend))
        return refuse(rt, RLX_ERR_INVALID_ARGUMENT,
                      "malformed backend info: %s. Fix: fill an "
                      "rlx_backend_info with .struct_size = sizeof "
                      "(rlx_backend_info)",
                      info ? "struct_size smaller than ABI 1.0's"
                           : "NULL pointer");
    if (!id_valid(info->id, "._-"))
        return refuse(rt, RLX_ERR_INVALID_ARGUMENT,
                      "malformed backend info: id '%.80s' is not 1-%d "
                      "characters of a-z, 0-9, '.', '_', '-'. Fix: give "
                      "the backend a lower-case id such as \"acme-npu\"",
                      info->id ? info->id : "(null)", RLX_MAX_ID);
    if (!rlx__device_kind_is_known(info->device_kind))
        return refuse(rt, RLX_ERR_UNSUPPORTED,
                      "backend '%s' declares device kind %d, which this "
                      "librlx does not know. Fix: upgrade librlx, or use "
                      "RLX_DEVICE_CUSTOM with a device_name",
                      info->id, (int)info->device_kind);
    const char *dev_name = rlx_device_kind_name(info->device_kind);
    if (info->device_kind == RLX_DEVICE_CUSTOM) {
        int ok = id_valid(info->device_name, "_") &&
                 strlen(info->device_name) <= 31;
        for (size_t i = 0; ok && i < sizeof reserved_device_names /
                                         sizeof *reserved_device_names; i++)
            ok = strcmp(info->device_name, reserved_device_names[i]) != 0;
        if (!ok)
            return refuse(rt, RLX_ERR_INVALID_ARGUMENT,
                          "backend '%s': custom device name '%.40s' is not "
                          "1-31 characters of a-z, 0-9, '_' or is reserved. "
                          "Fix: name the device kind, e.g. \"npu\"",
                          info->id,
                          info->device_name ? info->device_name : "(null)");
        dev_name = info->device_name;
    }
    const rlx_backend_vtable *vt = info->vtable;
    if (!vt || vt->struct_size < RLX_STRUCT_SIZE_TO(rlx_backend_vtable,
                                                    supports_op))
        return refuse(rt, RLX_ERR_INVALID_ARGUMENT,
                      "backend '%s': malformed vtable (%s). Fix: declare a "
                      "static const rlx_backend_vtable with .struct_size = "
                      "sizeof (rlx_backend_vtable)",
                      info->id, vt ? "struct_size too small" : "NULL");
    uint32_t flags = known_flags(abi, info->flags);
    const char *other_fix = NULL;
    const char *slot = missing_slot(vt, flags, &other_fix);
    if (slot)
        return refuse(rt, RLX_ERR_INVALID_ARGUMENT,
                      "backend '%s': malformed vtable: required slot '%s' "
                      "is missing. Fix: implement %s, or %s",
                      info->id, slot, slot, other_fix);
    const rlx_backend *dup = find_id(rt, info->id);
    if (dup && dup->plugin == rt->loading)
        return refuse(rt, RLX_ERR_DUPLICATE,
                      "backend id '%s' is registered twice by this plugin. "
                      "Fix: give each backend of a plugin its own id",
                      info->id);
    const char *owner = dup ? (dup->plugin ? dup->plugin->path
                                           : "(built-in)")
                            : rlx__lazy_owner(rt, info->id);
    if (owner)
        return refuse(rt, RLX_ERR_DUPLICATE,
                      "backend id '%s' is already registered by %s. Fix: "
                      "remove one of the two plugins, or give this backend "
                      "another id", info->id, owner);

    rlx_backend *b = calloc(1, sizeof *b);
    rlx_backend **grown = realloc(rt->pending,
                                  (rt->n_pending + 1) * sizeof *grown);
    if (grown)
        rt->pending = grown;
    if (b) {
        b->id = rlx__strdup(info->id);
        b->device_name = rlx__strdup(dev_name);
        b->description = rlx__strdup(info->description ? info->description
                                                       : "");
        b->queue = calloc(1, sizeof *b->queue);
    }
    if (!b || !grown || !b->id || !b->device_name || !b->description ||
        !b->queue) {
        rlx__backend_free(b);
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "out of memory. Fix: free memory");
    }
    b->kind = info->device_kind;
    b->priority = info->priority;
    b->flags = flags;
    size_t n = vt->struct_size < sizeof b->vt ? vt->struct_size : sizeof b->vt;
    memcpy(&b->vt, vt, n); /* the rest stays zero: absent slots */
    b->vt.struct_size = (uint32_t)sizeof b->vt;
    b->backend = info->backend;
    b->plugin = rt->loading;
    b->abi_version = abi;
    b->order = rt->next_order++;
    rt->pending[rt->n_pending++] = b;
    return RLX_OK;
}

static rlx_status host_report(const rlx_host *host, rlx_status status,
                              const char *message)
{
    (void)host;
    rlx__report_set(message);
    return status;
}

static const char *const log_names[] = { "error", "warn", "info", "debug" };

int rlx__log_level(void)
{
    const char *env = rlx__env("RLX_LOG");
    if (!env || !*env)
        return -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(env, log_names[i]) == 0)
            return i;
    rlx__env_warn("RLX_LOG", env, "the default (no log lines)",
                  "error, warn, info or debug");
    return -1;
}

static void host_log(const rlx_host *host, rlx_log_level level,
                     const char *message)
{
    int max = rlx__log_level();
    (void)host;
    /* Silent unless the user asked for it with RLX_LOG. */
    if ((int)level < 0 || (int)level > max || !message)
        return;
    fprintf(stderr, "rlx: %s: %s\n", log_names[level], message);
}

void rlx__host_init(rlx_runtime *rt)
{
    rt->host = (rlx_host){
        .struct_size = sizeof(rlx_host),
        .abi_version = RLX_ABI_VERSION,
        .register_backend = host_register,
        .report = host_report,
        .log = host_log,
        .host_data = rt,
        .get_option = rlx__host_get_option,
    };
    rlx__options_create(rt);
}
