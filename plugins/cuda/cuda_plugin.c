/*
 * cuda_plugin.c - the entry point of librlx-backend-cuda.so: registers
 * the "cuda" backend, and holds what is CUDA's outside compile and
 * execute: counting and describing devices (the probe, contexts and
 * teardown around them are gpu-common/gpu_device.c's), and cuBLASLt
 * loaded with dlopen at first use (so a machine with the plugin but no
 * CUDA toolkit still loads it and lists the reason).
 *
 * Loading does no CUDA call at all: cudart is linked statically and
 * initialises itself at the first call, which is the probe's
 * cudaGetDeviceCount.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"

#ifndef RLXG_CUDA_LIBDIR
#define RLXG_CUDA_LIBDIR ""
#endif

static int is_driver_error(cudaError_t err)
{
    return err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ||
           err == cudaErrorInitializationError ||
           err == cudaErrorCompatNotSupportedOnDevice ||
           err == cudaErrorSystemDriverMismatch ||
           err == cudaErrorSystemNotReady ||
           err == cudaErrorDevicesUnavailable ||
           err == cudaErrorInvalidDevice;
}

rlx_status rlxg_gpu_fail(const rlx_host *host, gpuError_t err,
                         const char *what)
{
    const char *fix;
    rlx_status st = RLX_ERR_DEVICE;
    if (err == cudaErrorMemoryAllocation) {
        st = RLX_ERR_OUT_OF_MEMORY;
        fix = "free GPU memory (other processes: nvidia-smi), or use a "
              "smaller model or batch";
    } else if (is_driver_error(err)) {
        st = RLX_ERR_UNAVAILABLE;
        fix = "install or update the NVIDIA driver and check that "
              "nvidia-smi lists the GPU; if it does, check "
              "CUDA_VISIBLE_DEVICES";
    } else if (err == cudaErrorNoKernelImageForDevice ||
               err == cudaErrorUnsupportedPtxVersion ||
               err == cudaErrorInvalidPtx) {
        fix = "this GPU or driver is older than the plugin was built for; "
              "update the NVIDIA driver or rebuild rlx for this GPU";
    } else {
        fix = "check nvidia-smi and the kernel log (dmesg) for GPU faults; "
              "if the error repeats, report it with RLX_LOG=debug output";
    }
    return rlx_kit_fail(host, st, "cuda: %s: %s (%s). Fix: %s", what,
                        cudaGetErrorName(err), cudaGetErrorString(err), fix);
}

/* ---- devices (gpu_device.c holds the rest) ---------------------------- */

rlx_status rlxg_vendor_count(rlxg_backend *be, int *count)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err == cudaSuccess && n == 0)
        err = cudaErrorNoDevice;
    if (err != cudaSuccess) {
        const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
        cudaGetLastError(); /* clear it: the next probe asks again */
        return rlx_kit_fail(be->host, RLX_ERR_UNAVAILABLE,
                            "cuda: no usable NVIDIA GPU: cudaGetDeviceCount "
                            "returned %s (%s); CUDA_VISIBLE_DEVICES is %s%s%s. "
                            "Fix: install the NVIDIA driver and check that "
                            "nvidia-smi lists the GPU; if it does, check "
                            "CUDA_VISIBLE_DEVICES (unset it, or name GPUs "
                            "that exist)",
                            cudaGetErrorName(err), cudaGetErrorString(err),
                            cvd ? "'" : "unset", cvd ? cvd : "",
                            cvd ? "'" : "");
    }
    *count = n;
    return RLX_OK;
}

void rlxg_vendor_summary(const gpuDeviceProp *p, char *out, size_t size)
{
    snprintf(out, size, "compute capability %d.%d, %d multiprocessors",
             p->major, p->minor, p->multiProcessorCount);
}

void rlxg_vendor_detail(const gpuDeviceProp *p, const char *bus, char *out,
                        size_t size)
{
    int driver = 0;
    cudaDriverGetVersion(&driver);
    snprintf(out, size,
             "compute capability %d.%d, %d multiprocessors, PCI %s, "
             "CUDA driver API %d.%d", p->major, p->minor,
             p->multiProcessorCount, bus, driver / 1000, (driver % 1000) / 10);
}

void rlxg_vendor_device_free(rlxg_backend *be, int index)
{
    if (be->devices[index].lt && be->blas.destroy) {
        cudaSetDevice(index);
        be->blas.destroy(be->devices[index].lt);
    }
}

/* ---- cuBLASLt ------------------------------------------------------------ */

static void *open_cublaslt(char *why, size_t size)
{
    char name[512];
    const char *dirs[] = { "", RLXG_CUDA_LIBDIR };
    why[0] = '\0';
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        if (d > 0 && !dirs[d][0])
            continue;
        snprintf(name, sizeof name, "%s%slibcublasLt.so.%d", dirs[d],
                 dirs[d][0] ? "/" : "", CUBLAS_VER_MAJOR);
        void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
        if (!why[0]) {
            const char *e = dlerror();
            snprintf(why, size, "%.300s", e ? e : name);
        }
    }
    return NULL;
}

#define RLXG_SYM(field, sym)                                               \
    do {                                                                     \
        *(void **)(&b->field) = dlsym(b->lib, sym);                          \
        if (!b->field) {                                                     \
            snprintf(be->blas_error, sizeof be->blas_error,                  \
                     "%s has no symbol %s", "libcublasLt", sym);             \
            return 0;                                                        \
        }                                                                    \
    } while (0)

static int load_blas(rlxg_backend *be)
{
    rlxg_blas *b = &be->blas;
    char why[320];
    b->lib = open_cublaslt(why, sizeof why);
    if (!b->lib) {
        snprintf(be->blas_error, sizeof be->blas_error, "%s", why);
        return 0;
    }
    RLXG_SYM(create, "cublasLtCreate");
    RLXG_SYM(destroy, "cublasLtDestroy");
    RLXG_SYM(desc_create, "cublasLtMatmulDescCreate");
    RLXG_SYM(desc_set, "cublasLtMatmulDescSetAttribute");
    RLXG_SYM(desc_destroy, "cublasLtMatmulDescDestroy");
    RLXG_SYM(layout_create, "cublasLtMatrixLayoutCreate");
    RLXG_SYM(layout_set, "cublasLtMatrixLayoutSetAttribute");
    RLXG_SYM(layout_destroy, "cublasLtMatrixLayoutDestroy");
    RLXG_SYM(pref_create, "cublasLtMatmulPreferenceCreate");
    RLXG_SYM(pref_set, "cublasLtMatmulPreferenceSetAttribute");
    RLXG_SYM(pref_destroy, "cublasLtMatmulPreferenceDestroy");
    RLXG_SYM(heuristic, "cublasLtMatmulAlgoGetHeuristic");
    RLXG_SYM(matmul, "cublasLtMatmul");
    RLXG_SYM(algo_check, "cublasLtMatmulAlgoCheck");
    RLXG_SYM(algo_cap_get, "cublasLtMatmulAlgoCapGetAttribute");
    RLXG_SYM(algo_config_set, "cublasLtMatmulAlgoConfigSetAttribute");
    RLXG_SYM(algo_config_get, "cublasLtMatmulAlgoConfigGetAttribute");
    *(void **)(&b->status_name) = dlsym(b->lib, "cublasLtGetStatusName");
    return 1;
}

rlx_status rlxg_device_blas(rlxg_backend *be, uint32_t index,
                            cublasLtHandle_t *out)
{
    rlx_status st = RLX_OK;
    pthread_mutex_lock(&be->lock);
    if (!be->blas_tried) {
        be->blas_tried = 1;
        be->blas_ok = load_blas(be);
        if (!be->blas_ok && be->blas.lib) {
            dlclose(be->blas.lib);
            be->blas.lib = NULL;
        }
    }
    if (!be->blas_ok) {
        st = rlx_kit_fail(be->host, RLX_ERR_UNAVAILABLE,
                          "cuda: matmul needs cuBLASLt %d, which could not be "
                          "loaded: %s. Fix: install the CUDA %d runtime "
                          "libraries (libcublasLt.so.%d, e.g. the "
                          "libcublaslt%d package or the CUDA toolkit) and make "
                          "them findable (ldconfig or LD_LIBRARY_PATH)",
                          CUBLAS_VER_MAJOR, be->blas_error, CUBLAS_VER_MAJOR,
                          CUBLAS_VER_MAJOR, CUBLAS_VER_MAJOR);
        goto out;
    }
    if (index >= (uint32_t)be->n_devices) {
        st = rlx_kit_fail(be->host, RLX_ERR_INTERNAL,
                          "cuda: cuBLASLt asked for device %u before it was "
                          "opened. Fix: report this as a bug", (unsigned)index);
        goto out;
    }
    if (!be->devices[index].lt) {
        cublasStatus_t cs = be->blas.create(&be->devices[index].lt);
        if (cs != CUBLAS_STATUS_SUCCESS) {
            be->devices[index].lt = NULL;
            st = rlx_kit_fail(be->host, cs == CUBLAS_STATUS_ALLOC_FAILED
                                         ? RLX_ERR_OUT_OF_MEMORY
                                         : RLX_ERR_DEVICE,
                              "cuda: cublasLtCreate failed: %s. Fix: check "
                              "that the cuBLAS library matches the CUDA "
                              "driver (nvidia-smi)",
                              be->blas.status_name ? be->blas.status_name(cs)
                                                   : "error");
            goto out;
        }
    }
    *out = be->devices[index].lt;
out:
    pthread_mutex_unlock(&be->lock);
    return st;
}

/* ---- registration -------------------------------------------------------- */

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    static const rlxg_vendor_ops vendor = {
        .device_kind = RLX_DEVICE_CUDA,
        .get_extension = rlxg_get_extension,
    };
    char description[160];
    snprintf(description, sizeof description,
             "NVIDIA GPUs: CUDA %d.%d runtime (static), cuBLASLt %d matmul, "
             "CUDA graphs; f32/f16/bf16", CUDART_VERSION / 1000,
             CUDART_VERSION % 1000 / 10, CUBLAS_VER_MAJOR);
    return rlxg_register(host, &vendor, description);
}
