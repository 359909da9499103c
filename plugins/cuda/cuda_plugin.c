/*
 * cuda_plugin.c - the entry point of librlx-backend-cuda.so: registers
 * the "cuda" backend, and holds what touches the driver outside compile
 * and execute: the availability probe, lazy per-device contexts, and
 * cuBLASLt loaded with dlopen at first use (so a machine with the plugin
 * but no CUDA toolkit still loads it and lists the reason).
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

/* ---- probe and devices ------------------------------------------------- */

static void log_devices(rlxg_backend *be, int count)
{
    for (int i = 0; i < count; i++) {
        struct cudaDeviceProp p;
        char bus[32] = "?";
        if (cudaGetDeviceProperties(&p, i) != cudaSuccess)
            continue;
        cudaDeviceGetPCIBusId(bus, (int)sizeof bus, i);
        rlx_kit_log(be->host, RLX_LOG_INFO,
                    "cuda:%d: %s, compute capability %d.%d, %.1f GiB, "
                    "%d multiprocessors, PCI %s", i, p.name, p.major, p.minor,
                    (double)p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0),
                    p.multiProcessorCount, bus);
    }
}

/* Count the visible devices (under be->lock). */
static rlx_status count_devices(rlxg_backend *be, int *count)
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
    if (be->n_devices < 0) {
        be->devices = calloc((size_t)n, sizeof *be->devices);
        if (!be->devices)
            return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                                "cuda: out of memory. Fix: free memory");
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
static rlx_status rlxg_device_describe(void *backend, uint32_t index,
                                       rlx_device_info *out)
{
    rlxg_backend *be = backend;
    rlx_status st = rlxg_device_use(be, index);
    if (st != RLX_OK)
        return st;
    struct cudaDeviceProp p;
    cudaError_t err = cudaGetDeviceProperties(&p, (int)index);
    if (err != cudaSuccess)
        return rlxg_gpu_fail(be->host, err, "cannot read the device's "
                                             "properties");
    char bus[32] = "?";
    size_t free_b = 0, total_b = 0;
    int driver = 0;
    cudaDeviceGetPCIBusId(bus, (int)sizeof bus, (int)index);
    if (cudaSetDevice((int)index) == cudaSuccess)
        cudaMemGetInfo(&free_b, &total_b);
    cudaDriverGetVersion(&driver);
    snprintf(out->name, sizeof out->name, "%.127s", p.name);
    snprintf(out->type, sizeof out->type, "%s",
             p.integrated ? "integrated GPU" : "discrete GPU");
    out->memory_total = total_b ? total_b : p.totalGlobalMem;
    out->memory_free = free_b;
    snprintf(out->detail, sizeof out->detail,
             "compute capability %d.%d, %d multiprocessors, PCI %s, "
             "CUDA driver API %d.%d", p.major, p.minor,
             p.multiProcessorCount, bus, driver / 1000, (driver % 1000) / 10);
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
                          "cuda: device cuda:%u does not exist; %d visible. "
                          "Fix: use cuda:0 to cuda:%d, or check "
                          "CUDA_VISIBLE_DEVICES", (unsigned)index, n, n - 1);
        goto out;
    }
    cudaError_t err = cudaSetDevice((int)index);
    if (err == cudaSuccess && !be->devices[index].open) {
        err = cudaFree(NULL); /* creates the primary context */
        if (err == cudaSuccess) {
            size_t free_b = 0, total_b = 0;
            cudaMemGetInfo(&free_b, &total_b);
            rlx_kit_log(be->host, RLX_LOG_INFO,
                        "cuda:%u: context created; %.1f of %.1f GiB free",
                        (unsigned)index, (double)free_b / 1073741824.0,
                        (double)total_b / 1073741824.0);
            be->devices[index].open = 1;
        }
    }
    if (err != cudaSuccess)
        st = rlxg_gpu_fail(be->host, err, "cannot open the device");
out:
    pthread_mutex_unlock(&be->lock);
    return st;
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

void rlxg_backend_free(rlxg_backend *be)
{
    if (!be)
        return;
    for (int i = 0; be->devices && i < be->n_devices; i++) {
        if (be->devices[i].lt && be->blas.destroy) {
            cudaSetDevice(i);
            be->blas.destroy(be->devices[i].lt);
        }
        rlxg_queue_destroy(be, (uint32_t)i);
    }
    free(be->devices);
    /* cuBLASLt stays loaded: unloading a CUDA library while the runtime
     * may still hold its state is not safe. */
    pthread_mutex_destroy(&be->lock);
    free(be);
}

/* ---- registration -------------------------------------------------------- */

static void rlxg_backend_destroy(void *backend)
{
    rlxg_backend_free(backend);
}

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    static const rlxg_vendor_ops vendor = {
        .device_kind = RLX_DEVICE_CUDA,
        .probe = rlxg_probe,
        .backend_destroy = rlxg_backend_destroy,
        .device_describe = rlxg_device_describe,
        .get_extension = rlxg_get_extension,
    };
    char description[160];
    snprintf(description, sizeof description,
             "NVIDIA GPUs: CUDA %d.%d runtime (static), cuBLASLt %d matmul, "
             "CUDA graphs; f32/f16/bf16", CUDART_VERSION / 1000,
             CUDART_VERSION % 1000 / 10, CUBLAS_VER_MAJOR);
    return rlxg_register(host, &vendor, description);
}
