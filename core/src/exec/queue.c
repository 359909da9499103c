/*
 * queue.c - runs queued on the device: rlx_program_submit and
 * rlx_program_wait over a backend's "rlx.queue.v1" extension
 * (rlx/queue.h).
 *
 * A run that is only queued still uses its executable, params and bound
 * tensors, so the core waits for a device's queued runs (rlx__queue_drain)
 * before any call that hands the backend one of those: a synchronous run,
 * a tensor read or write, a param upload, destroying a buffer or an
 * executable. Everything else (compile, binding, submitting more) goes on
 * while runs are queued. Where a run cannot be queued (no extension, a
 * slot in host memory, a program of several pieces) submit runs
 * it to completion instead, so applications need one code path.
 */
#include <rlx/queue.h>

#include "exec.h"
#include "placement.h"
#include "program.h"

/* B's queue extension, looked up once; NULL when it has none. */
static const rlx_ext_queue *queue_ext(const rlx_backend *b)
{
    rlx__queue *q = b->queue;
    if (atomic_load_explicit(&q->looked, memory_order_acquire))
        return atomic_load_explicit(&q->ext, memory_order_relaxed);
    const rlx_ext_queue *ext = NULL;
    if (b->vt.get_extension)
        ext = b->vt.get_extension(b->backend, RLX_EXT_QUEUE);
    if (ext && (!RLX_HAS_FIELD(ext->struct_size, rlx_ext_queue, queue_wait) ||
                !ext->execute_queued || !ext->queue_wait))
        ext = NULL; /* a table too short to use: run synchronously */
    atomic_store_explicit(&q->ext, ext, memory_order_relaxed);
    atomic_store_explicit(&q->looked, 1, memory_order_release);
    return ext;
}

/* A run counts as queued once execute_queued has returned: a wait that
 * read the count before then was not asked to cover it. Every waiter
 * calls queue_wait itself, even while another thread waits, so no wait
 * returns before the runs it covers are done. */
rlx_status rlx__queue_drain(const rlx_backend *b, uint32_t device)
{
    rlx__queue *q = b->queue;
    uint32_t d = device % 64;
    uint64_t n = atomic_load_explicit(&q->queued[d], memory_order_acquire);
    uint64_t done = atomic_load_explicit(&q->waited[d], memory_order_acquire);
    if (n <= done)
        return RLX_OK; /* nothing queued since the last wait */
    const rlx_ext_queue *ext = queue_ext(b);
    rlx__report_clear();
    rlx_status st = ext->queue_wait(b->backend, device);
    /* the first N runs are done now (failed or not): raise the mark */
    while (done < n &&
           !atomic_compare_exchange_weak_explicit(&q->waited[d], &done, n,
                                                  memory_order_acq_rel,
                                                  memory_order_acquire))
        ;
    return st == RLX_OK ? RLX_OK
                        : rlx__error_from_backend(st, b, "a queued run");
}

/* The queue P's next run can go to, or NULL: only for one piece, with
 * every input and output bound to a buffer of P's own backend, nothing in
 * host memory to copy after. */
static const rlx_ext_queue *queue_for(const rlx_program *p)
{
    if (!rlx__placement_direct(p) ||
        p->n_bound[RLX_SLOT_INPUT] != p->n_slots[RLX_SLOT_INPUT] ||
        p->n_bound[RLX_SLOT_OUTPUT] != p->n_slots[RLX_SLOT_OUTPUT])
        return NULL;
    return queue_ext(p->backend);
}

rlx_status rlx_program_submit(rlx_program *p)
{
    rlx_status st;
    if (p && p->shapes && (st = p->shapes_apply(p)) != RLX_OK)
        return st;
    st = rlx__program_check_ready(p, "rlx_program_submit");
    if (st != RLX_OK)
        return st;
    const rlx_ext_queue *ext = queue_for(p);
    if (!ext)
        return rlx_program_run(p);
    const rlx_backend *b = p->backend;
    const rlx__piece *pc = &p->place->pieces[0];
    rlx_execute_args args;
    rlx__piece_exec_args(p, pc, &args);
    rlx__report_clear();
    st = ext->execute_queued(b->backend, pc->exe, &args);
    if (st != RLX_OK) /* nothing was queued */
        return rlx__error_from_backend(st, b, "queuing a run");
    atomic_fetch_add_explicit(&b->queue->queued[p->device_index % 64], 1,
                              memory_order_acq_rel);
    rlx__program_ran(p);
    return RLX_OK;
}

rlx_status rlx_program_wait(rlx_program *p)
{
    if (!p)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_program_wait: NULL program. Fix: pass the "
                          "program given to rlx_program_submit");
    /* a program's runs are queued only on its own backend and device */
    return rlx__queue_drain(p->backend, p->device_index);
}

int rlx_backend_queues(const rlx_backend *b)
{
    if (!b || !rlx__backend_device_io(b) || !rlx__backend_acquire(b))
        return 0;
    int yes = queue_ext(b) != NULL;
    rlx__backend_release(b);
    return yes;
}
