/*
 * pjrt_queue.c - the "rlx.queue.v1" extension (rlx/queue.h) for the PJRT
 * bridge. PJRT's execute is asynchronous already: it returns once the
 * run is enqueued and hands back an event for its completion, and a
 * later run that reads a result waits for it on the device. A queued run
 * (rlxp_execute_on with QUEUE) keeps that event here instead of awaiting
 * it; queue_wait awaits every kept event, in order. Events are kept per
 * backend, not per device, so a wait on one device may also wait for
 * another's runs: more than the contract asks, never less.
 */
#include <stdlib.h>

#include <rlx/queue.h>

#include "pjrt_internal.h"

int rlxp_queue_add(rlxp_backend *be, PJRT_Event *ev)
{
    if (!ev)
        return 1; /* nothing to wait for: the run is done */
    pthread_mutex_lock(&be->queue_lock);
    if (be->n_queued == be->cap_queued) {
        size_t cap = be->cap_queued ? 2 * be->cap_queued : 16;
        PJRT_Event **grown = realloc(be->queued, cap * sizeof *grown);
        if (!grown) {
            pthread_mutex_unlock(&be->queue_lock);
            return 0;
        }
        be->queued = grown;
        be->cap_queued = cap;
    }
    be->queued[be->n_queued++] = ev;
    pthread_mutex_unlock(&be->queue_lock);
    return 1;
}

rlx_status rlxp_queue_drain(rlxp_backend *be)
{
    pthread_mutex_lock(&be->queue_lock);
    PJRT_Event **evs = be->queued;
    size_t n = be->n_queued;
    be->queued = NULL;
    be->n_queued = be->cap_queued = 0;
    pthread_mutex_unlock(&be->queue_lock);
    /* Newest first: once it is done the older ones are too. Every event
     * is awaited and destroyed; the oldest failure is reported last, so
     * its status and its message are what the caller gets. */
    rlx_status first = RLX_OK;
    for (size_t i = n; i-- > 0;) {
        rlx_status st = rlxp_await(be, evs[i], "a queued run failed");
        if (st != RLX_OK)
            first = st;
    }
    free(evs);
    return first;
}

static rlx_status execute_queued(void *backend, rlx_executable *exe,
                                 const rlx_execute_args *args)
{
    return rlxp_execute_on(backend, exe, args, 1);
}

static rlx_status queue_wait(void *backend, uint32_t device_index)
{
    (void)device_index;
    return rlxp_queue_drain(backend);
}

const rlx_ext_queue rlxp_queue_ext = {
    .struct_size = sizeof(rlx_ext_queue),
    .execute_queued = execute_queued,
    .queue_wait = queue_wait,
};
