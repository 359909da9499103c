/*
 * rocm_plugin.c - the entry point of librlx-backend-rocm.so: registers
 * the "rocm" backend (AMD GPUs through HIP), and holds what touches the
 * runtime outside compile and execute: the availability probe, device
 * descriptions and lazy per-device contexts.
 *
 * Loading does no HIP call at all: libamdhip64 is opened with dlopen by
 * the first probe (rocm_hip.c), so the plugin loads, in milliseconds, on
 * machines with no HIP runtime installed and says which package to get.
 * Kernels, compiler and executor are plugins/gpu-common's, shared with
 * the cuda plugin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hip/hip_version.h>

#include "gpu_internal.h"

static int is_driver_error(hipError_t err)
{
    return err == hipErrorNoDevice || err == hipErrorInsufficientDriver ||
           err == hipErrorInitializationError ||
           err == hipErrorNotInitialized || err == hipErrorInvalidDevice;
}

rlx_status rlxg_gpu_fail(const rlx_host *host, gpuError_t err,
                         const char *what)
{
    const char *fix;
    rlx_status st = RLX_ERR_DEVICE;
    if (err == hipErrorOutOfMemory) {
        st = RLX_ERR_OUT_OF_MEMORY;
        fix = "free GPU memory (other processes: rocm-smi), or use a "
              "smaller model or batch";
    } else if (is_driver_error(err)) {
        st = RLX_ERR_UNAVAILABLE;
        fix = "check that the amdgpu kernel driver is loaded and /dev/kfd "
              "is accessible (add the user to the render and video "
              "groups); check HIP_VISIBLE_DEVICES";
    } else if (err == hipErrorNoBinaryForGpu ||
               err == hipErrorInvalidImage) {
        fix = "this GPU's architecture is not among those the plugin was "
              "built for (gfx906, gfx908, gfx90a, gfx1030); rebuild rlx "
              "with a hipcc that supports it";
    } else {
        fix = "check rocm-smi and the kernel log (dmesg) for GPU faults; "
              "if the error repeats, report it with RLX_LOG=debug output";
    }
    return rlx_kit_fail(host, st, "rocm: %s: %s (%s). Fix: %s", what,
                        hipGetErrorName(err), hipGetErrorString(err), fix);
}

/* ---- probe and devices ------------------------------------------------- */

static void log_devices(rlxg_backend *be, int count)
{
    for (int i = 0; i < count; i++) {
        hipDeviceProp_t p;
        char bus[32] = "?";
        if (hipGetDeviceProperties(&p, i) != hipSuccess)
            continue;
        hipDeviceGetPCIBusId(bus, (int)sizeof bus, i);
        rlx_kit_log(be->host, RLX_LOG_INFO,
                    "rocm:%d: %s, %s, %.1f GiB, %d compute units, PCI %s", i,
                    p.name, p.gcnArchName,
                    (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0),
                    p.multiProcessorCount, bus);
    }
}

/* Count the visible devices (under be->lock). */
static rlx_status count_devices(rlxg_backend *be, int *count)
{
    char why[512];
    if (!rlxr_hip_open(be->host, why, sizeof why))
        return rlx_kit_fail(be->host, RLX_ERR_UNAVAILABLE,
                            "rocm: the HIP runtime could not be loaded: %s. "
                            "Fix: install the HIP runtime (Debian and Ubuntu: "
                            "apt install libamdhip64-5; it provides "
                            "libamdhip64.so.5) and check that ldconfig -p "
                            "lists libamdhip64", why);
    int n = 0;
    hipError_t err = hipGetDeviceCount(&n);
    if (err == hipSuccess && n == 0)
        err = hipErrorNoDevice;
    if (err != hipSuccess) {
        const char *hvd = getenv("HIP_VISIBLE_DEVICES");
        hipGetLastError(); /* clear it: the next probe asks again */
        return rlx_kit_fail(be->host, RLX_ERR_UNAVAILABLE,
                            "rocm: no usable AMD GPU: hipGetDeviceCount "
                            "returned %s (%s); HIP_VISIBLE_DEVICES is %s%s%s. "
                            "Fix: on a machine with an AMD GPU, load the "
                            "amdgpu kernel driver, check that /dev/kfd exists "
                            "and is accessible (render and video groups) and "
                            "that rocm-smi lists the GPU; if it does, check "
                            "HIP_VISIBLE_DEVICES (unset it, or name GPUs that "
                            "exist)",
                            hipGetErrorName(err), hipGetErrorString(err),
                            hvd ? "'" : "unset", hvd ? hvd : "",
                            hvd ? "'" : "");
    }
    if (be->n_devices < 0) {
        if (!rlxr_hip_register_kernels())
            return rlx_kit_fail(be->host, RLX_ERR_UNAVAILABLE,
                                "rocm: the HIP runtime refused the plugin's "
                                "kernels. Fix: install the HIP runtime the "
                                "plugin was built with (libamdhip64-5), or "
                                "rebuild rlx against the installed one");
        be->devices = calloc((size_t)n, sizeof *be->devices);
        if (!be->devices)
            return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                                "rocm: out of memory. Fix: free memory");
        be->n_devices = n;
    }
    if (!be->probed) {
        be->probed = 1;
        log_devices(be, n);
    }
    *count = n < be->n_devices ? n : be->n_devices;
    return RLX_OK;
}

static rlx_status rocm_probe(void *backend, rlx_probe_result *out)
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

/* What `rlx devices` shows per GPU: name, memory, gfx arch, PCI bus. */
static rlx_status rocm_device_describe(void *backend, uint32_t index,
                                       rlx_device_info *out)
{
    rlxg_backend *be = backend;
    rlx_status st = rlxg_device_use(be, index);
    if (st != RLX_OK)
        return st;
    hipDeviceProp_t p;
    hipError_t err = hipGetDeviceProperties(&p, (int)index);
    if (err != hipSuccess)
        return rlxg_gpu_fail(be->host, err, "cannot read the device's "
                                            "properties");
    char bus[32] = "?";
    size_t free_b = 0, total_b = 0;
    int runtime = 0;
    hipDeviceGetPCIBusId(bus, (int)sizeof bus, (int)index);
    if (hipSetDevice((int)index) == hipSuccess)
        hipMemGetInfo(&free_b, &total_b);
    hipRuntimeGetVersion(&runtime);
    snprintf(out->name, sizeof out->name, "%.127s", p.name);
    snprintf(out->type, sizeof out->type, "%s",
             p.integrated ? "integrated GPU" : "discrete GPU");
    out->memory_total = total_b ? total_b : p.totalGlobalMem;
    out->memory_free = free_b;
    snprintf(out->detail, sizeof out->detail,
             "%.64s, %d compute units, wavefront %d, PCI %s, HIP runtime "
             "%d", p.gcnArchName, p.multiProcessorCount, p.warpSize, bus,
             runtime);
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
                          "rocm: device rocm:%u does not exist; %d visible. "
                          "Fix: use rocm:0 to rocm:%d, or check "
                          "HIP_VISIBLE_DEVICES", (unsigned)index, n, n - 1);
        goto out;
    }
    hipError_t err = hipSetDevice((int)index);
    if (err == hipSuccess && !be->devices[index].open) {
        err = hipFree(NULL); /* creates the context */
        if (err == hipSuccess) {
            size_t free_b = 0, total_b = 0;
            hipMemGetInfo(&free_b, &total_b);
            rlx_kit_log(be->host, RLX_LOG_INFO,
                        "rocm:%u: context created; %.1f of %.1f GiB free",
                        (unsigned)index, (double)free_b / 1073741824.0,
                        (double)total_b / 1073741824.0);
            be->devices[index].open = 1;
        }
    }
    if (err != hipSuccess)
        st = rlxg_gpu_fail(be->host, err, "cannot open the device");
out:
    pthread_mutex_unlock(&be->lock);
    return st;
}

/* ---- registration -------------------------------------------------------- */

static void rocm_backend_destroy(void *backend)
{
    rlxg_backend *be = backend;
    if (!be)
        return;
    for (int i = 0; be->devices && i < be->n_devices; i++) {
        if (be->devices[i].blas)
            be->rocblas.destroy_handle(be->devices[i].blas);
        rlxg_queue_destroy(be, (uint32_t)i);
    }
    free(be->devices);
    /* libamdhip64 (and rocBLAS, whose kernels it holds) stay loaded:
     * unloading the runtime while it may still hold threads and state is
     * not safe. */
    pthread_mutex_destroy(&be->lock);
    free(be);
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    static const rlxg_vendor_ops vendor = {
        .device_kind = RLX_DEVICE_ROCM,
        .probe = rocm_probe,
        .backend_destroy = rocm_backend_destroy,
        .device_describe = rocm_device_describe,
        .get_extension = rlxr_get_extension,
    };
    char description[160];
    snprintf(description, sizeof description,
             "AMD GPUs: HIP %d.%d (opened at probe), rocBLAS when found "
             "(opened at compile), own GEMM and GEMV kernels, HIP graphs; "
             "f32/f16/bf16", HIP_VERSION_MAJOR, HIP_VERSION_MINOR);
    return rlxg_register(host, &vendor, description);
}
