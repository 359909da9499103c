/*
 * registry.c - the list of registered backends and device ranking.
 *
 * Writers (plugin loads) build a new immutable snapshot under the runtime
 * lock and publish it with one atomic store; readers load the pointer and
 * walk it with no lock and no allocation. Retired snapshots are kept until
 * the runtime is destroyed, so a reader never sees freed memory.
 */
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

rlx_status rlx__registry_init(rlx_runtime *rt)
{
    rlx__snapshot *s = calloc(1, sizeof *s);
    if (!s)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    atomic_store_explicit(&rt->snap, s, memory_order_release);
    return RLX_OK;
}

const rlx__snapshot *rlx__registry_snapshot(const rlx_runtime *rt)
{
    /* The cast drops const only to satisfy atomic_load's signature. */
    return atomic_load_explicit(&((rlx_runtime *)rt)->snap,
                                memory_order_acquire);
}

void rlx__backend_free(rlx_backend *b)
{
    if (!b)
        return;
    free(b->id);
    free(b->device_name);
    free(b->description);
    free(b->queue);
    free(b);
}

/* Call the backend's destructor, then free our record of it. */
static void backend_release(rlx_backend *b)
{
    if (b->vt.backend_destroy)
        b->vt.backend_destroy(b->backend);
    rlx__backend_free(b);
}

/* Replace the snapshot with OLD's items that KEEP accepts plus ADD. */
static rlx_status publish(rlx_runtime *rt, const rlx__plugin *drop,
                          rlx_backend *const *add, uint32_t n_add)
{
    rlx__snapshot *old = atomic_load_explicit(&rt->snap, memory_order_relaxed);
    rlx__snapshot *s = calloc(1, sizeof *s);
    rlx_backend **items = calloc(old->count + n_add + 1, sizeof *items);
    if (!s || !items) {
        free(s);
        free(items);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < old->count; i++)
        if (old->items[i]->plugin != drop)
            items[n++] = old->items[i];
    for (uint32_t i = 0; i < n_add; i++)
        items[n++] = add[i];
    s->count = n;
    s->items = items;
    s->older = old;
    atomic_store_explicit(&rt->snap, s, memory_order_release);
    return RLX_OK;
}

rlx_status rlx__registry_commit(rlx_runtime *rt, rlx__plugin *p)
{
    rlx_backend **owned = malloc(rt->n_pending * sizeof *owned);
    if (!owned)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    memcpy(owned, rt->pending, rt->n_pending * sizeof *owned);
    rlx_status st = publish(rt, NULL, rt->pending, rt->n_pending);
    if (st != RLX_OK) {
        free(owned);
        return st;
    }
    p->backends = owned;
    p->n_backends = rt->n_pending;
    atomic_store(&p->refs, 1);
    rt->n_pending = 0;
    return RLX_OK;
}

rlx_status rlx__registry_remove(rlx_runtime *rt, rlx__plugin *p)
{
    return publish(rt, p, NULL, 0);
}

void rlx__registry_discard(rlx_runtime *rt)
{
    for (uint32_t i = 0; i < rt->n_pending; i++)
        backend_release(rt->pending[i]);
    rt->n_pending = 0;
}

/* Backends belong to their plugins (freed with them); this frees the
 * snapshots only. */
void rlx__registry_free(rlx_runtime *rt)
{
    rlx__snapshot *s = atomic_load_explicit(&rt->snap, memory_order_acquire);
    while (s) {
        rlx__snapshot *older = s->older;
        free(s->items);
        free(s);
        s = older;
    }
    atomic_store(&rt->snap, NULL);
    rlx__registry_discard(rt);
    free(rt->pending);
    rt->pending = NULL;
}

/* The public enumeration shows every backend: plugins not opened yet
 * (lazy.c) are opened first. */
uint32_t rlx_runtime_backend_count(const rlx_runtime *rt)
{
    if (!rt)
        return 0;
    rlx__lazy_load(rt, NULL, NULL);
    return rlx__registry_snapshot(rt)->count;
}

const rlx_backend *rlx_runtime_backend(const rlx_runtime *rt, uint32_t index)
{
    if (!rt)
        return NULL;
    rlx__lazy_load(rt, NULL, NULL);
    const rlx__snapshot *s = rlx__registry_snapshot(rt);
    return index < s->count ? s->items[index] : NULL;
}

const rlx_backend *rlx_runtime_find_backend(const rlx_runtime *rt,
                                            const char *id)
{
    if (!rt || !id)
        return NULL;
    rlx__lazy_load(rt, id, NULL);
    const rlx__snapshot *s = rlx__registry_snapshot(rt);
    for (uint32_t i = 0; i < s->count; i++)
        if (strcmp(s->items[i]->id, id) == 0)
            return s->items[i];
    return NULL;
}

/* Better first: higher priority, then earlier registration. */
static int backend_better(const rlx_backend *a, const rlx_backend *b)
{
    if (a->priority != b->priority)
        return a->priority > b->priority;
    return a->order < b->order;
}

uint32_t rlx__registry_rank(const rlx_runtime *rt, const char *device,
                            const rlx_backend **out, uint32_t max)
{
    const rlx__snapshot *s = rlx__registry_snapshot(rt);
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->count && n < max; i++) {
        const rlx_backend *b = s->items[i];
        if (!(b->flags & RLX_BACKEND_EXECUTES) ||
            strcmp(b->device_name, device) != 0)
            continue;
        /* insertion sort: lists are a handful long */
        uint32_t j = n++;
        while (j > 0 && backend_better(b, out[j - 1])) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = b;
    }
    return n;
}

/* ---- accessors -------------------------------------------------------- */

const char *rlx_backend_id(const rlx_backend *b)
{
    return b ? b->id : NULL;
}

rlx_device_kind rlx_backend_device_kind(const rlx_backend *b)
{
    return b ? b->kind : RLX_DEVICE_INVALID;
}

const char *rlx_backend_device_name(const rlx_backend *b)
{
    return b ? b->device_name : NULL;
}

int32_t rlx_backend_priority(const rlx_backend *b)
{
    return b ? b->priority : 0;
}

int rlx_backend_executes(const rlx_backend *b)
{
    return b && (b->flags & RLX_BACKEND_EXECUTES);
}

int rlx__backend_device_io(const rlx_backend *b)
{
    return (b->flags & RLX_BACKEND_DEVICE_IO) != 0;
}

int rlx_backend_device_io(const rlx_backend *b)
{
    return b && rlx__backend_device_io(b);
}

const char *rlx_backend_description(const rlx_backend *b)
{
    return b && b->description ? b->description : "";
}

const char *rlx_backend_plugin_path(const rlx_backend *b)
{
    if (!b)
        return NULL;
    return b->plugin->builtin ? "(built-in)" : b->plugin->path;
}

uint32_t rlx_backend_abi_version(const rlx_backend *b)
{
    return b ? b->abi_version : 0;
}

int rlx_backend_supports_op(const rlx_backend *b, rlx_op op, rlx_dtype dtype)
{
    if (!b || !rlx__op_is_known(op) || !rlx__dtype_is_known(dtype) ||
        !rlx__backend_acquire(b))
        return 0;
    int yes = b->vt.supports_op(b->backend, op, dtype) != 0;
    rlx__backend_release(b);
    return yes;
}

const void *rlx_backend_get_extension(const rlx_backend *b, const char *name)
{
    if (!b || !name || !*name || !b->vt.get_extension ||
        !rlx__backend_acquire(b))
        return NULL;
    const void *ext = b->vt.get_extension(b->backend, name);
    rlx__backend_release(b);
    return ext;
}

rlx_status rlx_backend_device(const rlx_backend *b, uint32_t index,
                              rlx_device_info *out)
{
    if (!b || !out || out->struct_size < RLX_STRUCT_SIZE_TO(rlx_device_info,
                                                            struct_size))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_backend_device: NULL argument or struct_size "
                          "unset. Fix: set out->struct_size = sizeof "
                          "(rlx_device_info)");
    uint32_t size = out->struct_size < sizeof *out ? out->struct_size
                                                    : (uint32_t)sizeof *out;
    /* the backend sees our full-size struct; the caller gets its part */
    rlx_device_info info;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    if (!b->vt.device_describe)
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "backend '%s' does not describe its devices. Fix: "
                          "nothing to do; `rlx devices` shows its device "
                          "count", b->id);
    if (!rlx__backend_acquire(b))
        return rlx__error(RLX_ERR_UNAVAILABLE,
                          "backend '%s' was unloaded. Fix: load its plugin "
                          "again", b->id);
    rlx__report_clear();
    rlx_status st = b->vt.device_describe(b->backend, index, &info);
    rlx__backend_release(b);
    if (st != RLX_OK)
        return rlx__error_from_backend(st, b, "describing a device");
    /* strings may come back unterminated from a careless backend */
    info.name[sizeof info.name - 1] = '\0';
    info.type[sizeof info.type - 1] = '\0';
    info.detail[sizeof info.detail - 1] = '\0';
    memcpy((char *)out + sizeof out->struct_size,
           (char *)&info + sizeof info.struct_size,
           size - sizeof out->struct_size);
    out->struct_size = size;
    return RLX_OK;
}

int32_t rlx_backend_host_fit(const rlx_backend *b)
{
    return b ? b->plugin->host_fit : -1;
}

int rlx_backend_is_loaded(const rlx_backend *b)
{
    return b && !atomic_load(&b->plugin->retired);
}

rlx_status rlx_backend_probe(const rlx_backend *b, uint32_t *device_count)
{
    return rlx_backend_probe_ex(b, device_count, NULL);
}

rlx_status rlx_backend_probe_ex(const rlx_backend *b, uint32_t *device_count,
                                uint32_t *flags)
{
    if (device_count)
        *device_count = 0;
    if (flags)
        *flags = 0;
    if (!b)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_backend_probe: NULL backend");
    rlx_probe_result r = { .struct_size = sizeof r, .device_count = 1 };
    if (!rlx__backend_acquire(b))
        return rlx__error(RLX_ERR_UNAVAILABLE,
                          "backend '%s' was unloaded. Fix: load its plugin "
                          "again", b->id);
    rlx_status st = RLX_OK;
    if (b->vt.probe) {
        rlx__report_clear();
        st = b->vt.probe(b->backend, &r);
    }
    rlx__backend_release(b);
    if (st != RLX_OK) {
        const char *msg = rlx__strip_backend_prefix(rlx__report_get(), b);
        if (msg && strstr(msg, "Fix:"))
            return rlx__error(st, "%s", msg);
        return rlx__error(st,
                          "%s. Fix: the backend gave no remedy; see its "
                          "documentation",
                          msg ? msg : rlx_status_string(st));
    }
    if (r.device_count == 0)
        return rlx__error(RLX_ERR_UNAVAILABLE,
                          "backend '%s' found no device. Fix: check that "
                          "the device is present and its driver loaded",
                          b->id);
    if (device_count)
        *device_count = r.device_count;
    if (flags)
        *flags = r.flags;
    return RLX_OK;
}
