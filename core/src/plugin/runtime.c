/*
 * runtime.c - the runtime handle: creation (built-in backend, then
 * discovery), explicit loads, diagnostics and teardown.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_ref.h"
#include "plugin.h"
#include "scan.h"

#ifndef RLX_PLUGINDIR
#define RLX_PLUGINDIR "/usr/local/lib/rlx/plugins"
#endif

const char *rlx_plugin_dir(void)
{
    return RLX_PLUGINDIR;
}

void rlx__diag_add(rlx_runtime *rt, rlx_diag_kind kind, const char *path,
                   const char *reason, const char *fix)
{
    rlx__diag *grown = realloc(rt->diags, (rt->n_diags + 1) * sizeof *grown);
    if (!grown)
        return; /* out of memory: the diagnostic is the only loss */
    rt->diags = grown;
    rlx__diag *d = &rt->diags[rt->n_diags];
    d->kind = kind;
    d->path = rlx__strdup(path);
    d->reason = rlx__strdup(reason);
    d->fix = rlx__strdup(fix);
    if (!d->path || !d->reason || !d->fix) {
        free(d->path);
        free(d->reason);
        free(d->fix);
        return;
    }
    rt->n_diags++;
}

rlx_status rlx_runtime_create(rlx_runtime **out, uint32_t flags)
{
    if (!out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_create: OUT is NULL");
    *out = NULL;
    const uint32_t known = RLX_RUNTIME_NO_DISCOVERY | RLX_RUNTIME_RESCAN;
    if (flags & ~known)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_create: unknown flags 0x%x. Fix: pass "
                          "0, RLX_RUNTIME_NO_DISCOVERY or RLX_RUNTIME_RESCAN",
                          (unsigned)(flags & ~known));
    rlx_runtime *rt = calloc(1, sizeof *rt);
    if (!rt)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    if (pthread_mutex_init(&rt->lock, NULL) != 0) {
        free(rt);
        return rlx__error(RLX_ERR_INTERNAL, "cannot create a mutex");
    }
    rlx__host_init(rt);
    rlx__scan_setup(rt);
    /* a scanner that would use its cache scans again instead; an
     * in-process mode asked for in RLX_PLUGIN_SCAN stays */
    if ((flags & RLX_RUNTIME_RESCAN) && rt->scan &&
        rt->scan->mode == RLX__SCAN_SUBPROCESS)
        rt->scan->mode = RLX__SCAN_RESCAN;
    rlx__config_load(rt);       /* the environment overrides the file */
    rlx__policy_from_env(rt);
    (void)rlx__log_level(); /* a bad RLX_LOG warns now, not at a log line */
    rlx_status st = rlx__registry_init(rt);
    if (st == RLX_OK) {
        pthread_mutex_lock(&rt->lock);
        /* The reference backend goes through the same host table as any
         * plugin: it is the proof that the ABI suffices. */
        st = rlx__loader_builtin(rt, "(built-in)", rlx__cpu_ref_init);
        if (st == RLX_OK && !(flags & RLX_RUNTIME_NO_DISCOVERY)) {
            rlx__loader_scan_begin(rt);
            rlx__loader_scan(rt, rlx__env("RLX_PLUGIN_PATH"),
                             RLX__SOURCE_ENV);
            rlx__loader_scan(rt, RLX_PLUGINDIR, RLX__SOURCE_SYSTEM);
            rlx__loader_scan_end(rt);
        }
        pthread_mutex_unlock(&rt->lock);
    }
    if (st != RLX_OK) {
        rlx_runtime_destroy(rt);
        return st;
    }
    rlx__error_clear();
    *out = rt;
    return RLX_OK;
}

void rlx_runtime_destroy(rlx_runtime *rt)
{
    if (!rt)
        return;
    rlx__loader_unload_all(rt); /* destroys backends, then closes files */
    rlx__lazy_free(rt);
    rlx__scan_free(rt);
    rlx__registry_free(rt);
    for (uint32_t i = 0; i < rt->n_diags; i++) {
        free(rt->diags[i].path);
        free(rt->diags[i].reason);
        free(rt->diags[i].fix);
    }
    free(rt->diags);
    for (uint32_t i = 0; i < rt->n_seen; i++) {
        free(rt->seen_names[i]);
        free(rt->seen_paths[i]);
    }
    free(rt->seen_names);
    for (uint32_t i = 0; i < rt->n_search; i++)
        free(rt->search_dirs[i]);
    free(rt->search_dirs);
    free(rt->search_sources);
    free(rt->seen_paths);
    free(rt->pending_error);
    rlx__policy_free(&rt->policy);
    free(rt->config_path);
    rlx__options_free(rt);
    if (rt->custom_free) /* custom_allow.c kept something */
        rt->custom_free(rt);
    pthread_mutex_destroy(&rt->lock);
    free(rt);
}

rlx_status rlx_runtime_discover(rlx_runtime *rt, const char *dirs)
{
    if (!rt || !dirs)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_discover: NULL argument");
    pthread_mutex_lock(&rt->lock);
    rlx__loader_scan_begin(rt);
    rlx__loader_scan(rt, dirs, RLX__SOURCE_API);
    rlx__loader_scan_end(rt);
    pthread_mutex_unlock(&rt->lock);
    rlx__error_clear();
    return RLX_OK;
}

rlx_status rlx_runtime_load_plugin(rlx_runtime *rt, const char *path)
{
    if (!rt || !path || !*path)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_load_plugin: no path given");
    pthread_mutex_lock(&rt->lock);
    rlx_status st = rlx__loader_load(rt, path);
    pthread_mutex_unlock(&rt->lock);
    return st;
}

const char *rlx_runtime_search_dir(const rlx_runtime *rt, uint32_t index,
                                   const char **source)
{
    if (source)
        *source = NULL;
    if (!rt)
        return NULL;
    rlx_runtime *m = (rlx_runtime *)rt;
    pthread_mutex_lock(&m->lock);
    const char *dir = NULL;
    if (index < rt->n_search) {
        dir = rt->search_dirs[index];
        if (source)
            *source = rt->search_sources[index];
    }
    pthread_mutex_unlock(&m->lock);
    return dir;
}

const char *rlx_diag_kind_name(rlx_diag_kind kind)
{
    switch (kind) {
    case RLX_DIAG_REJECTED: return "rejected";
    case RLX_DIAG_SHADOWED: return "shadowed";
    case RLX_DIAG_VARIANT: return "variant";
    default: return "unknown";
    }
}

uint32_t rlx_runtime_diag_count(const rlx_runtime *rt)
{
    if (!rt)
        return 0;
    rlx_runtime *m = (rlx_runtime *)rt; /* the lock is not logical state */
    pthread_mutex_lock(&m->lock);
    uint32_t n = rt->n_diags;
    pthread_mutex_unlock(&m->lock);
    return n;
}

rlx_status rlx_runtime_diag(const rlx_runtime *rt, uint32_t index,
                            rlx_diag_kind *kind, const char **path,
                            const char **reason, const char **fix)
{
    if (kind)
        *kind = 0;
    if (path)
        *path = NULL;
    if (reason)
        *reason = NULL;
    if (fix)
        *fix = NULL;
    if (!rt)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_runtime_diag: NULL runtime");
    rlx_runtime *m = (rlx_runtime *)rt;
    pthread_mutex_lock(&m->lock);
    rlx_status st = RLX_OK;
    if (index >= rt->n_diags) {
        st = rlx__error(RLX_ERR_NOT_FOUND,
                        "diagnostic %u does not exist (there are %u)",
                        index, rt->n_diags);
    } else {
        const rlx__diag *d = &rt->diags[index];
        if (kind)
            *kind = d->kind;
        if (path)
            *path = d->path;
        if (reason)
            *reason = d->reason;
        if (fix)
            *fix = d->fix;
    }
    pthread_mutex_unlock(&m->lock);
    return st;
}
