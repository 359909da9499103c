/*
 * plugin.c - the life of a loaded plugin: references, unloading, and the
 * moment its backends are destroyed and its file closed (never while a
 * session, program or call still uses it).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plugin.h"

static int plugin_acquire(rlx__plugin *p)
{
    uint32_t r = atomic_load_explicit(&p->refs, memory_order_acquire);
    /* Never revive a plugin whose count reached zero: it is being closed. */
    while (r != 0)
        if (atomic_compare_exchange_weak_explicit(&p->refs, &r, r + 1,
                                                  memory_order_acq_rel,
                                                  memory_order_acquire))
            return 1;
    return 0;
}

/* Destroy the plugin's backends and close its file. */
static void plugin_finalize(rlx__plugin *p)
{
    if (p->finalized)
        return;
    for (uint32_t i = p->n_backends; i-- > 0;) {
        rlx_backend *b = p->backends[i];
        if (b->vt.backend_destroy)
            b->vt.backend_destroy(b->backend);
    }
    if (p->handle)
        dlclose(p->handle);
    p->finalized = 1;
}

static void plugin_release(rlx__plugin *p)
{
    if (atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) == 1)
        plugin_finalize(p);
}

int rlx__backend_acquire(const rlx_backend *b)
{
    return b && plugin_acquire(b->plugin);
}

void rlx__backend_release(const rlx_backend *b)
{
    if (b)
        plugin_release(b->plugin);
}

void rlx__plugin_free(rlx__plugin *p)
{
    if (!p)
        return;
    plugin_finalize(p);
    for (uint32_t i = 0; i < p->n_backends; i++)
        rlx__backend_free(p->backends[i]);
    free(p->backends);
    free(p->family);
    free(p->path);
    free(p);
}

rlx_status rlx_runtime_unload_plugin(rlx_runtime *rt, const char *path)
{
    if (!rt || !path || !*path)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_unload_plugin: no path given");
    struct stat st;
    int have_stat = stat(path, &st) == 0;
    pthread_mutex_lock(&rt->lock);
    /* a plugin never opened (lazy.c) is only forgotten */
    if (rlx__lazy_find(rt, path, have_stat, have_stat ? st.st_dev : 0,
                       have_stat ? st.st_ino : 0, 1, NULL)) {
        pthread_mutex_unlock(&rt->lock);
        return RLX_OK;
    }
    rlx__plugin *p = NULL;
    for (uint32_t i = 0; i < rt->n_plugins && !p; i++) {
        rlx__plugin *q = rt->plugins[i];
        if (q->builtin || atomic_load(&q->retired))
            continue;
        if (strcmp(q->path, path) == 0 ||
            (have_stat && q->dev == (unsigned long long)st.st_dev &&
             q->ino == (unsigned long long)st.st_ino))
            p = q;
    }
    rlx_status s = RLX_OK;
    if (!p)
        s = rlx__error(RLX_ERR_NOT_FOUND,
                       "%s is not a loaded plugin. Fix: `rlx devices` "
                       "lists the loaded plugin files (the built-in "
                       "backend cannot be unloaded)", path);
    else
        s = rlx__registry_remove(rt, p);
    if (s == RLX_OK)
        atomic_store(&p->retired, 1);
    pthread_mutex_unlock(&rt->lock);
    if (s == RLX_OK)
        plugin_release(p); /* the registry's reference */
    return s;
}

/* ---- errors from a plugin's calls (the backend record lives here) ---- */

const char *rlx__strip_backend_prefix(const char *msg, const rlx_backend *b)
{
    size_t n = b && b->id ? strlen(b->id) : 0;
    if (msg && n && strncmp(msg, b->id, n) == 0 && msg[n] == ':' &&
        msg[n + 1] == ' ')
        return msg + n + 2;
    return msg;
}

rlx_status rlx__error_from_backend(rlx_status status, const rlx_backend *b,
                                   const char *what)
{
    const char *msg = rlx__report_get();
    if (!msg)
        msg = rlx_status_string(status);
    /* One prefix, the core's: "backend 'x': compile failed: x: ..." would
     * name the backend twice. */
    msg = rlx__strip_backend_prefix(msg, b);
    if (strstr(msg, "Fix:"))
        return rlx__error(status, "backend '%s': %s failed: %s", b->id, what,
                          msg);
    return rlx__error(status,
                      "backend '%s': %s failed: %s. Fix: the backend gave no "
                      "remedy; try another device, and report this to the "
                      "backend's authors (%s)",
                      b->id, what, msg,
                      b->plugin ? b->plugin->path : "built-in");
}
