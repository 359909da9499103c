/*
 * probe_batch.c - the probes of automatic device choice, ahead of it.
 *
 * Automatic choice probes every executing backend (the ones it does not
 * pick become fallback candidates), one device kind after the other. With
 * a cold probe cache on a machine with GPUs, each GPU probe can take
 * hundreds of milliseconds (a driver initialised, a Vulkan instance
 * created), so they would add up. Here the cache answers what it can, and
 * the remaining probes of backends that have a probe key (the GPU ones)
 * run each in its own thread (probes may run concurrently: backend.h);
 * the choice then reads the answers in its usual order. Backends without
 * a key (a CPU backend's probe costs nothing) are probed in place.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

static void slot_probe(rlx__probe_slot *sl)
{
    sl->status = rlx__probe_cached(sl->b, &sl->count, &sl->flags,
                                   &sl->cached);
    if (sl->status != RLX_OK)
        snprintf(sl->error, sizeof sl->error, "%s", rlx_last_error());
    sl->done = 1;
}

static void *slot_thread(void *arg)
{
    slot_probe(arg);
    return NULL;
}

static _Atomic unsigned long long next_token;

void rlx__probe_batch_run(const rlx_runtime *rt, rlx__probe_batch *pb)
{
    pb->slots = NULL;
    pb->n = 0;
    pb->token = atomic_fetch_add(&next_token, 1) + 1;
    const rlx__snapshot *snap = rlx__registry_snapshot(rt);
    if (snap->count == 0 || !(pb->slots = calloc(snap->count,
                                                 sizeof *pb->slots)))
        return;
    uint32_t slow[64], n_slow = 0;
    for (uint32_t i = 0; i < snap->count; i++) {
        const rlx_backend *b = snap->items[i];
        const char *why;
        if (!(b->flags & RLX_BACKEND_EXECUTES) ||
            !rlx__policy_allows(rt, b, &why))
            continue;
        rlx__probe_slot *sl = &pb->slots[pb->n++];
        sl->b = b;
        int cacheable = 0;
        if (rlx__probe_cache_lookup(b, &sl->status, &sl->count, &sl->flags,
                                    &cacheable)) {
            sl->done = sl->cached = 1;
            if (sl->status != RLX_OK)
                snprintf(sl->error, sizeof sl->error, "%s",
                         rlx_last_error());
        } else if (cacheable && n_slow < 64) {
            slow[n_slow++] = pb->n - 1;
        }
    }
    if (n_slow < 2)
        return; /* nothing to overlap: probed in place, in order */
    pthread_t threads[64];
    int started[64];
    for (uint32_t k = 1; k < n_slow; k++)
        started[k] = pthread_create(&threads[k], NULL, slot_thread,
                                    &pb->slots[slow[k]]) == 0;
    slot_probe(&pb->slots[slow[0]]); /* this thread takes one */
    for (uint32_t k = 1; k < n_slow; k++) {
        if (started[k])
            pthread_join(threads[k], NULL);
        else
            slot_probe(&pb->slots[slow[k]]); /* no thread: here */
    }
    rlx__error_clear();
}

const rlx__probe_slot *rlx__probe_batch_find(const rlx__probe_batch *pb,
                                             const rlx_backend *b)
{
    for (uint32_t i = 0; pb && i < pb->n; i++)
        if (pb->slots[i].b == b)
            return pb->slots[i].done ? &pb->slots[i] : NULL;
    return NULL;
}

void rlx__probe_batch_free(rlx__probe_batch *pb)
{
    free(pb->slots);
    pb->slots = NULL;
    pb->n = 0;
}
