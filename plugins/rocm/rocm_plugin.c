/*
 * rocm_plugin.c - the entry point of librlx-backend-rocm.so: registers
 * the "rocm" backend (AMD GPUs through HIP), and holds what is HIP's
 * outside compile and execute: loading the runtime, counting and
 * describing devices (the probe, contexts and teardown around them are
 * gpu-common/gpu_device.c's).
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

/* ---- devices (gpu_device.c holds the rest) ---------------------------- */

rlx_status rlxg_vendor_count(rlxg_backend *be, int *count)
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
    if (be->n_devices < 0 && !rlxr_hip_register_kernels())
        return rlx_kit_fail(be->host, RLX_ERR_UNAVAILABLE,
                            "rocm: the HIP runtime refused the plugin's "
                            "kernels. Fix: install the HIP runtime the "
                            "plugin was built with (libamdhip64-5), or "
                            "rebuild rlx against the installed one");
    *count = n;
    return RLX_OK;
}

void rlxg_vendor_summary(const gpuDeviceProp *p, char *out, size_t size)
{
    snprintf(out, size, "%s, %d compute units", p->gcnArchName,
             p->multiProcessorCount);
}

void rlxg_vendor_detail(const gpuDeviceProp *p, const char *bus, char *out,
                        size_t size)
{
    int runtime = 0;
    hipRuntimeGetVersion(&runtime);
    snprintf(out, size,
             "%.64s, %d compute units, wavefront %d, PCI %s, HIP runtime "
             "%d", p->gcnArchName, p->multiProcessorCount, p->warpSize, bus,
             runtime);
}

void rlxg_vendor_device_free(rlxg_backend *be, int index)
{
    if (be->devices[index].blas)
        be->rocblas.destroy_handle(be->devices[index].blas);
}

/* ---- registration -------------------------------------------------------- */

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    static const rlxg_vendor_ops vendor = {
        .device_kind = RLX_DEVICE_ROCM,
        .get_extension = rlxr_get_extension,
    };
    char description[160];
    snprintf(description, sizeof description,
             "AMD GPUs: HIP %d.%d (opened at probe), rocBLAS when found "
             "(opened at compile), own GEMM and GEMV kernels, HIP graphs; "
             "f32/f16/bf16", HIP_VERSION_MAJOR, HIP_VERSION_MINOR);
    return rlxg_register(host, &vendor, description);
}
