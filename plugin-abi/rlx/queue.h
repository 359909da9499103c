/*
 * rlx/queue.h - the "rlx.queue.v1" extension: runs queued on the device
 * instead of waited for.
 *
 * execute returns only when its work is complete, so every run of a GPU
 * backend pays a round trip to the host (launch, wait, wake up): about
 * 6 us on an H200, more than a small network's kernels take. A backend
 * that returns this table from get_extension (ABI 1.3) lets applications
 * queue runs (rlx_program_submit) and wait once for many
 * (rlx_program_wait), as CUDA streams and PJRT's asynchronous execute do.
 *
 * The core calls execute_queued only for runs whose every input and output
 * is bound to one of the backend's buffers (device I/O), so no host memory
 * is touched after it returns. ARGS and its arrays are the core's again
 * once it returns: copy what the queued run needs (a CUDA graph captured
 * over the buffers' addresses already has it). Before the core hands the
 * backend an executable or buffer that a queued run uses (execute,
 * buffer_read, buffer_write, buffer_destroy, executable_destroy), it calls
 * queue_wait for that device, so a backend needs no tracking of its own.
 * Other threads may queue runs meanwhile on other objects, as the thread
 * rules of rlx/backend.h let their execute calls run concurrently, so
 * queue_wait and execute_queued may run concurrently with each other and
 * with the slots those rules allow.
 *
 * Version 1 of the table; it may only grow at the end (struct_size).
 */
#ifndef RLX_QUEUE_H
#define RLX_QUEUE_H

#include <stdint.h>

#include "backend.h"
#include "status.h"

#define RLX_EXT_QUEUE "rlx.queue.v1"

typedef struct rlx_ext_queue {
    uint32_t struct_size;
    /* --- since 1.3 --- */
    /* Queue one run of EXE, as execute would do it, and return without
     * waiting for it. Runs queued on one device execute in the order
     * queued, across all executables of the device, so a run may read a
     * buffer that an earlier queued run writes. Errors found before
     * queuing are returned here (and nothing is queued); errors that
     * happen while the run executes are returned by queue_wait. A backend
     * may also run it to completion here (an executable it cannot queue). */
    rlx_status (*execute_queued)(void *backend, rlx_executable *exe,
                                 const rlx_execute_args *args);
    /* Block until every run queued on device DEVICE_INDEX has finished.
     * RLX_OK, or the status of the first run that failed since the last
     * queue_wait of the device, reported with a Fix; either way nothing is
     * queued on return. */
    rlx_status (*queue_wait)(void *backend, uint32_t device_index);
} rlx_ext_queue;

#endif
