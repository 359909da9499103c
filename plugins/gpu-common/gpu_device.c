/*
 * gpu_device.c - the devices of a GPU backend, for both GPU plugins: the
 * probe, lazy per-device contexts, what `rlx devices` shows, and the
 * backend's teardown. What differs by vendor (loading its runtime,
 * counting its devices, the words it uses for them, its math libraries'
 * handles) is each plugin's rlxg_vendor_* (gpu_internal.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "gpu_internal.h"

static void log_devices(rlxg_backend *be, int count)
{
    for (int i = 0; i < count; i++) {
        gpuDeviceProp p;
        char bus[32] = "?";
        char summary[160];
        if (gpuGetDeviceProperties(&p, i) != gpuSuccess)
            continue;
        gpuDeviceGetPCIBusId(bus, (int)sizeof bus, i);
        rlxg_vendor_summary(&p, summary, sizeof summary);
        rlx_kit_log(be->host, RLX_LOG_INFO,
                    RLXG_NAME ":%d: %s, %s, %.1f GiB, PCI %s", i, p.name,
                    summary,
                    (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0),
                    bus);
    }
}

/* Count the visible devices (under be->lock). */
static rlx_status count_devices(rlxg_backend *be, int *count)
{
    int n = 0;
    rlx_status st = rlxg_vendor_count(be, &n);
    if (st != RLX_OK)
        return st;
    if (be->n_devices < 0) {
        be->devices = calloc((size_t)n, sizeof *be->devices);
        if (!be->devices)
            return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                                RLXG_NAME ": out of memory. Fix: free "
                                "memory");
        be->n_devices = n;
    }
    if (!be->probed) {
        be->probed = 1;
        log_devices(be, n);
    }
    *count = n < be->n_devices ? n : be->n_devices;
    return RLX_OK;
}

rlx_status rlxg_probe(void *backend, rlx_probe_result *out)
{
    rlxg_backend *be = backend;
    int n = 0;
    pthread_mutex_lock(&be->lock);
    rlx_status st = count_devices(be, &n);
    pthread_mutex_unlock(&be->lock);
    if (st == RLX_OK && out &&
        RLX_HAS_FIELD(out->struct_size, rlx_probe_result, device_count))
        out->device_count = (uint32_t)n;
    return st;
}

/* What `rlx devices` shows per GPU. Free memory needs the device's
 * context, so describing a device opens it (as a first compile would). */
rlx_status rlxg_device_describe(void *backend, uint32_t index,
                                rlx_device_info *out)
{
    rlxg_backend *be = backend;
    rlx_status st = rlxg_device_use(be, index);
    if (st != RLX_OK)
        return st;
    gpuDeviceProp p;
    gpuError_t err = gpuGetDeviceProperties(&p, (int)index);
    if (err != gpuSuccess)
        return rlxg_gpu_fail(be->host, err, "cannot read the device's "
                                            "properties");
    char bus[32] = "?";
    size_t free_b = 0, total_b = 0;
    gpuDeviceGetPCIBusId(bus, (int)sizeof bus, (int)index);
    if (gpuSetDevice((int)index) == gpuSuccess)
        gpuMemGetInfo(&free_b, &total_b);
    snprintf(out->name, sizeof out->name, "%.127s", p.name);
    snprintf(out->type, sizeof out->type, "%s",
             p.integrated ? "integrated GPU" : "discrete GPU");
    out->memory_total = total_b ? total_b : p.totalGlobalMem;
    out->memory_free = free_b;
    rlxg_vendor_detail(&p, bus, out->detail, sizeof out->detail);
    return RLX_OK;
}

rlx_status rlxg_device_use(rlxg_backend *be, uint32_t index)
{
    rlx_status st = RLX_OK;
    int n = 0;
    pthread_mutex_lock(&be->lock);
    if ((st = count_devices(be, &n)) != RLX_OK)
        goto out;
    if (index >= (uint32_t)n) {
        st = rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                          RLXG_NAME ": device " RLXG_NAME ":%u does not "
                          "exist; %d visible. Fix: use " RLXG_NAME ":0 to "
                          RLXG_NAME ":%d, or check " RLXG_VISIBLE_DEVICES,
                          (unsigned)index, n, n - 1);
        goto out;
    }
    gpuError_t err = gpuSetDevice((int)index);
    if (err == gpuSuccess && !be->devices[index].open) {
        err = gpuFree(NULL); /* creates the (primary) context */
        if (err == gpuSuccess) {
            size_t free_b = 0, total_b = 0;
            gpuMemGetInfo(&free_b, &total_b);
            rlx_kit_log(be->host, RLX_LOG_INFO,
                        RLXG_NAME ":%u: context created; %.1f of %.1f GiB "
                        "free", (unsigned)index, (double)free_b / 1073741824.0,
                        (double)total_b / 1073741824.0);
            be->devices[index].open = 1;
        }
    }
    if (err != gpuSuccess)
        st = rlxg_gpu_fail(be->host, err, "cannot open the device");
out:
    pthread_mutex_unlock(&be->lock);
    return st;
}

void rlxg_backend_destroy(void *backend)
{
    rlxg_backend *be = backend;
    if (!be)
        return;
    for (int i = 0; be->devices && i < be->n_devices; i++) {
        rlxg_vendor_device_free(be, i);
        rlxg_queue_destroy(be, (uint32_t)i);
    }
    free(be->devices);
    /* the vendor's runtime and math libraries stay loaded: unloading them
     * while the runtime may still hold threads and state is not safe */
    pthread_mutex_destroy(&be->lock);
    free(be);
}
