/*
 * gpu_queue.c - the "rlx.queue.v1" extension (rlx/queue.h) for the GPU
 * backends. A queued run is the executable's graph (or, for a short
 * chain of batch-1 steps, its kernels: gpu_execute.c) launched on its
 * device's queue stream, one stream per device made at the first queued
 * run, so the runs of every executable of a device execute in the order
 * queued and a run may read what an earlier one wrote. queue_wait
 * synchronizes that stream; a kernel fault in any queued run surfaces
 * there (CUDA and HIP report it at the next synchronization).
 */
#include <rlx/queue.h>

#include "gpu_internal.h"

pthread_mutex_t rlxg_queue_lock = PTHREAD_MUTEX_INITIALIZER;

/* DEVICE's queue stream, made the first time. */
static rlx_status queue_stream(rlxg_backend *be, uint32_t device,
                               gpuStream_t *out)
{
    rlx_status st = rlxg_device_use(be, device); /* current, for the create */
    if (st != RLX_OK)
        return st;
    pthread_mutex_lock(&be->lock);
    rlxg_device *d = &be->devices[device];
    gpuError_t err = gpuSuccess;
    if (!d->queue)
        err = gpuStreamCreateWithFlags(&d->queue, gpuStreamNonBlocking);
    *out = d->queue;
    pthread_mutex_unlock(&be->lock);
    return err == gpuSuccess
               ? RLX_OK
               : rlxg_gpu_fail(be->host, err, "cannot create the stream "
                                              "for queued runs");
}

static rlx_status execute_queued(void *backend, rlx_executable *exe,
                                 const rlx_execute_args *args)
{
    rlxg_backend *be = backend;
    /* the stream is looked up once per executable, not per run: an
     * executable runs one execute at a time, and the device's stream
     * lives as long as the backend */
    if (exe && !exe->queue) {
        rlx_status st = queue_stream(be, exe->device, &exe->queue);
        if (st != RLX_OK)
            return st;
    }
    return rlxg_execute_on(be, exe, args, exe ? exe->queue : NULL);
}

static rlx_status queue_wait(void *backend, uint32_t device)
{
    rlxg_backend *be = backend;
    pthread_mutex_lock(&be->lock);
    gpuStream_t queue = (int)device < be->n_devices && be->devices
                            ? be->devices[device].queue
                            : NULL;
    pthread_mutex_unlock(&be->lock);
    if (!queue)
        return RLX_OK; /* nothing was ever queued there */
    gpuError_t err = gpuSetDevice((int)device);
    if (err == gpuSuccess)
        err = gpuStreamSynchronize(queue);
    return err == gpuSuccess
               ? RLX_OK
               : rlxg_gpu_fail(be->host, err, "a queued run failed on the "
                                              "GPU");
}

void rlxg_queue_destroy(rlxg_backend *be, uint32_t device)
{
    rlxg_device *d = &be->devices[device];
    if (d->queue) {
        gpuStreamDestroy(d->queue);
        d->queue = NULL;
    }
}

const rlx_ext_queue rlxg_queue_ext = {
    .struct_size = sizeof(rlx_ext_queue),
    .execute_queued = execute_queued,
    .queue_wait = queue_wait,
};
