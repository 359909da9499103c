/*
 * lazy.c - plugins opened only when something needs them.
 *
 * Opening a GPU plugin costs a process milliseconds (the CUDA plugin
 * brings the CUDA runtime and libstdc++) even when its cached probe
 * already says "no device". So discovery keeps such a plugin as a
 * deferred record, built from the registry cache (what it registers) and
 * the probe cache (its answer, with a key the core can check itself:
 * probe_replay.c). Automatic device choice explains it from that record
 * and moves on; anything that must see its real backends opens it with
 * the normal loader first: the public enumeration (`rlx devices`), an
 * explicit request for its id or device, or a key that no longer holds
 * (a driver installed, a GPU plugged in, a setting changed).
 */
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "scan.h"

typedef struct rlx__deferred_backend {
    char *id;
    char *device;            /* device name */
    int custom;              /* RLX_DEVICE_CUSTOM */
    rlx__probe_answer answer;
} rlx__deferred_backend;

typedef struct rlx__deferred {
    char *path;
    unsigned long long dev, ino;
    uint32_t order;          /* the registration order it would have had */
    unsigned long long checked; /* the last choice's token that checked it */
    rlx__deferred_backend *b;
    uint32_t n;
} rlx__deferred;

static void deferred_free(rlx__deferred *d)
{
    for (uint32_t i = 0; d->b && i < d->n; i++) {
        free(d->b[i].id);
        free(d->b[i].device);
    }
    free(d->b);
    free(d->path);
}

static int registered(const rlx_runtime *rt, const char *id)
{
    const rlx__snapshot *s = rlx__registry_snapshot(rt);
    for (uint32_t i = 0; i < s->count; i++)
        if (strcmp(s->items[i]->id, id) == 0)
            return 1;
    return rlx__lazy_owner(rt, id) != NULL;
}

int rlx__lazy_defer(rlx_runtime *rt, const char *path,
                    unsigned long long dev, unsigned long long ino,
                    const rlx__scan_entry *e)
{
    if (!rt->discovering || !e || e->state != RLX__SCANNED_CLEAN ||
        e->family || e->n_backends == 0)
        return 0;
    rlx__deferred d = { .dev = dev, .ino = ino };
    d.b = calloc(e->n_backends, sizeof *d.b);
    rlx__replay_memo *memo = malloc(sizeof *memo);
    if (!d.b || !memo) {
        free(d.b);
        free(memo);
        return 0;
    }
    memo->n = 0;
    for (uint32_t i = 0; i < e->n_backends; i++) {
        const rlx__scan_backend *sb = &e->backends[i];
        rlx__deferred_backend *b = &d.b[d.n];
        /* only what automatic choice would find unavailable anyway;
         * placement looks for "cpu" backends directly */
        if (!(sb->flags & RLX_BACKEND_EXECUTES) || !sb->id ||
            !sb->device_name || strcmp(sb->device_name, "cpu") == 0 ||
            registered(rt, sb->id) ||
            !rlx__probe_cache_offline(rt, sb->id, path, &b->answer,
                                      memo) ||
            b->answer.status == RLX_OK) {
            deferred_free(&d);
            free(memo);
            return 0;
        }
        b->id = rlx__strdup(sb->id);
        b->device = rlx__strdup(sb->device_name);
        b->custom = sb->kind == RLX_DEVICE_CUSTOM;
        d.n++;
        if (!b->id || !b->device) {
            deferred_free(&d);
            free(memo);
            return 0;
        }
    }
    free(memo);
    rlx__deferred *grown = rt->deferred;
    uint32_t n = atomic_load(&rt->n_deferred);
    if (n == rt->n_deferred_alloc) {
        uint32_t cap = n ? 2 * n : 4;
        grown = realloc(rt->deferred, cap * sizeof *grown);
        if (grown) {
            rt->deferred = grown;
            rt->n_deferred_alloc = cap;
        }
    }
    if (!grown || !(d.path = rlx__strdup(path))) {
        deferred_free(&d);
        return 0;
    }
    d.order = rt->next_order;
    rt->next_order += d.n;
    rt->deferred[n] = d;
    atomic_store(&rt->n_deferred, n + 1);
    return 1;
}

/* Lock held: take deferred plugin I off the list and open it with the
 * loader, its backends in the registration order they would have had. */
static void open_at(rlx_runtime *rt, uint32_t i)
{
    uint32_t n = atomic_load(&rt->n_deferred);
    rlx__deferred d = rt->deferred[i];
    memmove(rt->deferred + i, rt->deferred + i + 1,
            (n - i - 1) * sizeof *rt->deferred);
    atomic_store(&rt->n_deferred, n - 1);
    uint32_t next = rt->next_order;
    int discovering = rt->discovering;
    rt->next_order = d.order;
    rt->discovering = 0;
    rlx__loader_load(rt, d.path); /* a refusal becomes a diagnostic */
    rt->discovering = discovering;
    if (rt->next_order < next)
        rt->next_order = next;
    deferred_free(&d);
}

static int serves(const rlx__deferred *d, const char *id, const char *device)
{
    for (uint32_t j = 0; j < d->n; j++)
        if ((!id || strcmp(d->b[j].id, id) == 0) &&
            (!device || strcmp(d->b[j].device, device) == 0))
            return 1;
    return 0;
}

void rlx__lazy_load(const rlx_runtime *crt, const char *id,
                    const char *device)
{
    rlx_runtime *rt = (rlx_runtime *)crt; /* opening is not logical state */
    if (!rt || atomic_load(&rt->n_deferred) == 0)
        return;
    pthread_mutex_lock(&rt->lock);
    for (uint32_t i = 0; i < atomic_load(&rt->n_deferred);)
        if (serves(&rt->deferred[i], id, device))
            open_at(rt, i);
        else
            i++;
    pthread_mutex_unlock(&rt->lock);
}

uint32_t rlx__lazy_settle(const rlx_runtime *crt, const char *device,
                          unsigned long long token,
                          void (*note)(void *ctx, const char *device,
                                       const char *id,
                                       const rlx__probe_answer *a,
                                       const char *policy_why),
                          void *ctx)
{
    rlx_runtime *rt = (rlx_runtime *)crt;
    if (atomic_load(&rt->n_deferred) == 0)
        return 0;
    uint32_t noted = 0;
    pthread_mutex_lock(&rt->lock);
    for (uint32_t i = 0; i < atomic_load(&rt->n_deferred);) {
        rlx__deferred *d = &rt->deferred[i];
        if (!serves(d, NULL, device)) {
            i++;
            continue;
        }
        /* the state may have changed since discovery: check again, once
         * per choice (a plugin may serve several devices) */
        int holds = 1;
        rlx__replay_memo memo = { .n = 0 };
        for (uint32_t j = 0; j < d->n && holds && (!token ||
                                                   d->checked != token); j++)
            holds = rlx__probe_cache_offline(rt, d->b[j].id, d->path,
                                             &d->b[j].answer, &memo) &&
                    d->b[j].answer.status != RLX_OK;
        if (!holds) {
            open_at(rt, i);
            continue;
        }
        d->checked = token;
        for (uint32_t j = 0; j < d->n; j++) {
            if (strcmp(d->b[j].device, device) != 0)
                continue;
            rlx_backend probe = { .id = d->b[j].id,
                                  .device_name = d->b[j].device };
            const char *why = NULL;
            int allowed = rlx__policy_allows(rt, &probe, &why);
            note(ctx, device, d->b[j].id, &d->b[j].answer,
                 allowed ? NULL : why);
            noted++;
        }
        i++;
    }
    pthread_mutex_unlock(&rt->lock);
    return noted;
}

uint32_t rlx__lazy_custom_devices(const rlx_runtime *crt, char (*names)[32],
                                  uint32_t max)
{
    rlx_runtime *rt = (rlx_runtime *)crt;
    if (atomic_load(&rt->n_deferred) == 0)
        return 0;
    uint32_t n = 0;
    pthread_mutex_lock(&rt->lock);
    for (uint32_t i = 0; i < atomic_load(&rt->n_deferred); i++) {
        const rlx__deferred *d = &rt->deferred[i];
        for (uint32_t j = 0; j < d->n; j++) {
            if (!d->b[j].custom || strlen(d->b[j].device) >= 32)
                continue;
            int seen = 0;
            for (uint32_t k = 0; k < n && !seen; k++)
                seen = strcmp(names[k], d->b[j].device) == 0;
            if (!seen && n < max)
                memcpy(names[n++], d->b[j].device,
                       strlen(d->b[j].device) + 1);
        }
    }
    pthread_mutex_unlock(&rt->lock);
    return n;
}

const char *rlx__lazy_owner(const rlx_runtime *rt, const char *id)
{
    uint32_t n = atomic_load(&((rlx_runtime *)rt)->n_deferred);
    for (uint32_t i = 0; i < n; i++)
        if (serves(&rt->deferred[i], id, NULL))
            return rt->deferred[i].path;
    return NULL;
}

int rlx__lazy_find(rlx_runtime *rt, const char *path, int have_id,
                   unsigned long long dev, unsigned long long ino,
                   int forget, const char **as)
{
    uint32_t n = atomic_load(&rt->n_deferred);
    for (uint32_t i = 0; i < n; i++) {
        rlx__deferred *d = &rt->deferred[i];
        if (!(strcmp(d->path, path) == 0 ||
              (have_id && d->dev == dev && d->ino == ino)))
            continue;
        if (as && !forget)
            *as = d->path;
        if (forget) {
            deferred_free(d);
            memmove(d, d + 1, (n - i - 1) * sizeof *d);
            atomic_store(&rt->n_deferred, n - 1);
        }
        return 1;
    }
    return 0;
}

void rlx__lazy_free(rlx_runtime *rt)
{
    uint32_t n = atomic_load(&rt->n_deferred);
    for (uint32_t i = 0; i < n; i++)
        deferred_free(&rt->deferred[i]);
    free(rt->deferred);
    rt->deferred = NULL;
    atomic_store(&rt->n_deferred, 0);
}
