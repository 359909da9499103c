/*
 * rocm_hip.c - the HIP runtime, opened with dlopen at the first probe
 * rather than linked, so the plugin loads (and says what to install) on
 * machines without libamdhip64, and loading it creates no HIP state.
 *
 * The plugin's code calls HIP by its own names (hipMalloc, ...): this
 * file defines each function it uses as a forwarder to the symbol of the
 * opened library (hidden: nothing here is exported). The declarations
 * come from HIP's own header, so the compiler checks every signature.
 *
 * hipcc's objects also call the runtime: a constructor registers each
 * object's fat binary and kernels when the plugin is loaded, and each
 * <<<...>>> launch pushes its configuration and calls hipLaunchKernel.
 * Registration is recorded here at load time and handed to the runtime
 * only once a probe has found a device (rlxr_hip_register_kernels), so
 * loading never initialises HIP.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.h"

#define HIP_SONAME "libamdhip64.so.5"

static void *hip_lib;

/* ---- forwarders of the public API ---------------------------------------- */

#define RLXR_HIP_FUNCS(X)                                                    \
    X(hipGetDeviceCount, (int *count), (count))                              \
    X(hipGetDeviceProperties, (hipDeviceProp_t * prop, int device),          \
      (prop, device))                                                        \
    X(hipDeviceGetPCIBusId, (char *bus, int len, int device),                \
      (bus, len, device))                                                    \
    X(hipRuntimeGetVersion, (int *v), (v))                                   \
    X(hipGetLastError, (void), ())                                           \
    X(hipSetDevice, (int device), (device))                                  \
    X(hipMemGetInfo, (size_t * free_b, size_t *total), (free_b, total))      \
    X(hipMalloc, (void **p, size_t n), (p, n))                               \
    X(hipFree, (void *p), (p))                                               \
    X(hipMemcpy, (void *d, const void *s, size_t n, hipMemcpyKind k),        \
      (d, s, n, k))                                                          \
    X(hipMemset, (void *d, int v, size_t n), (d, v, n))                      \
    X(hipMemcpyAsync,                                                        \
      (void *d, const void *s, size_t n, hipMemcpyKind k, hipStream_t st),   \
      (d, s, n, k, st))                                                      \
    X(hipMemsetAsync, (void *d, int v, size_t n, hipStream_t st),            \
      (d, v, n, st))                                                         \
    X(hipHostMalloc, (void **p, size_t n, unsigned int f), (p, n, f))        \
    X(hipHostFree, (void *p), (p))                                           \
    X(hipHostRegister, (void *p, size_t n, unsigned int f), (p, n, f))       \
    X(hipHostUnregister, (void *p), (p))                                     \
    X(hipStreamCreateWithFlags, (hipStream_t * s, unsigned int f), (s, f))   \
    X(hipStreamSynchronize, (hipStream_t s), (s))                            \
    X(hipStreamDestroy, (hipStream_t s), (s))                                \
    X(hipStreamBeginCapture, (hipStream_t s, hipStreamCaptureMode m),        \
      (s, m))                                                                \
    X(hipStreamEndCapture, (hipStream_t s, hipGraph_t * g), (s, g))          \
    X(hipGraphInstantiate,                                                   \
      (hipGraphExec_t * e, hipGraph_t g, hipGraphNode_t * n, char *log,      \
       size_t size),                                                         \
      (e, g, n, log, size))                                                  \
    X(hipGraphLaunch, (hipGraphExec_t e, hipStream_t s), (e, s))             \
    X(hipGraphDestroy, (hipGraph_t g), (g))                                  \
    X(hipGraphExecDestroy, (hipGraphExec_t e), (e))                          \
    X(hipEventCreate, (hipEvent_t * e), (e))                                 \
    X(hipEventRecord, (hipEvent_t e, hipStream_t s), (e, s))                 \
    X(hipEventSynchronize, (hipEvent_t e), (e))                              \
    X(hipEventElapsedTime, (float *ms, hipEvent_t a, hipEvent_t b),          \
      (ms, a, b))                                                            \
    X(hipEventDestroy, (hipEvent_t e), (e))                                  \
    X(hipLaunchKernel,                                                       \
      (const void *f, dim3 grid, dim3 block, void **args, size_t shared,     \
       hipStream_t s),                                                       \
      (f, grid, block, args, shared, s))

#define RLXR_PTR(name, params, args) static hipError_t(*p_##name) params;
RLXR_HIP_FUNCS(RLXR_PTR)

/* Before the library is open every call fails as "not initialized". */
#define RLXR_FWD(name, params, args)                                         \
    hipError_t name params                                                   \
    {                                                                        \
        return p_##name ? p_##name args : hipErrorNotInitialized;            \
    }
RLXR_HIP_FUNCS(RLXR_FWD)

static const char *(*p_hipGetErrorName)(hipError_t);
static const char *(*p_hipGetErrorString)(hipError_t);

const char *hipGetErrorName(hipError_t e)
{
    return p_hipGetErrorName ? p_hipGetErrorName(e) : "hipError";
}

const char *hipGetErrorString(hipError_t e)
{
    return p_hipGetErrorString ? p_hipGetErrorString(e)
                               : "the HIP runtime is not loaded";
}

/* ---- what hipcc's objects call ------------------------------------------ */

/* Declared here, not in HIP's C headers; kernel launch configuration is
 * passed through as the runtime's own dim3. */
void **__hipRegisterFatBinary(const void *data);
void __hipRegisterFunction(void **modules, const void *host_fn,
                           char *device_fn, const char *device_name,
                           unsigned int thread_limit, void *tid, void *bid,
                           void *block, void *grid, int *wsize);
void __hipUnregisterFatBinary(void **modules);
hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared,
                                      hipStream_t stream);
hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block,
                                     size_t *shared, hipStream_t *stream);

typedef struct fatbin {
    const void *data;
    void **modules;           /* the runtime's handle, once registered */
} fatbin;

typedef struct kernel {
    fatbin *bin;
    const void *host_fn;
    char *device_fn;
    const char *device_name;
    unsigned int thread_limit;
} kernel;

/* Filled by the constructors while the plugin loads (single-threaded). */
static fatbin *bins[64];
static int n_bins;
static kernel *kernels;
static int n_kernels, cap_kernels, record_failed;
static int registered;

static void **(*p_register_fatbin)(const void *);
static void (*p_register_function)(void **, const void *, char *,
                                   const char *, unsigned int, void *,
                                   void *, void *, void *, int *);
static hipError_t (*p_push_config)(dim3, dim3, size_t, hipStream_t);
static hipError_t (*p_pop_config)(dim3 *, dim3 *, size_t *, hipStream_t *);

void **__hipRegisterFatBinary(const void *data)
{
    fatbin *b = calloc(1, sizeof *b);
    if (!b || n_bins == (int)(sizeof bins / sizeof *bins)) {
        free(b);
        record_failed = 1;
        return NULL;
    }
    b->data = data;
    bins[n_bins++] = b;
    return (void **)b;
}

void __hipRegisterFunction(void **modules, const void *host_fn,
                           char *device_fn, const char *device_name,
                           unsigned int thread_limit, void *tid, void *bid,
                           void *block, void *grid, int *wsize)
{
    (void)tid, (void)bid, (void)block, (void)grid, (void)wsize;
    if (!modules) {
        record_failed = 1;
        return;
    }
    if (n_kernels == cap_kernels) {
        int cap = cap_kernels ? 2 * cap_kernels : 256;
        kernel *k = realloc(kernels, (size_t)cap * sizeof *k);
        if (!k) {
            record_failed = 1;
            return;
        }
        kernels = k;
        cap_kernels = cap;
    }
    kernels[n_kernels++] = (kernel){ (fatbin *)modules, host_fn, device_fn,
                                     device_name, thread_limit };
}

/* At unload: the runtime keeps its copy (unregistering after it may have
 * shut down at exit is unsafe); our records go. */
void __hipUnregisterFatBinary(void **modules)
{
    for (int i = 0; i < n_bins; i++)
        if ((void **)bins[i] == modules) {
            free(bins[i]);
            bins[i] = bins[--n_bins];
            break;
        }
    if (n_bins == 0) {
        free(kernels);
        kernels = NULL;
        n_kernels = cap_kernels = 0;
    }
}

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared,
                                      hipStream_t stream)
{
    return p_push_config ? p_push_config(grid, block, shared, stream)
                         : hipErrorNotInitialized;
}

hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block,
                                     size_t *shared, hipStream_t *stream)
{
    return p_pop_config ? p_pop_config(grid, block, shared, stream)
                        : hipErrorNotInitialized;
}

int rlxr_hip_register_kernels(void)
{
    if (registered)
        return registered > 0;
    registered = -1;
    if (record_failed || !p_register_fatbin || !p_register_function)
        return 0;
    for (int i = 0; i < n_bins; i++) {
        bins[i]->modules = p_register_fatbin(bins[i]->data);
        if (!bins[i]->modules)
            return 0;
    }
    for (int i = 0; i < n_kernels; i++)
        p_register_function(kernels[i].bin->modules, kernels[i].host_fn,
                            kernels[i].device_fn, kernels[i].device_name,
                            kernels[i].thread_limit, NULL, NULL, NULL, NULL,
                            NULL);
    registered = 1;
    return 1;
}

/* ---- opening the library ---------------------------------------------- */

#define RLXR_SYM(name, params, args)                                         \
    *(void **)(&p_##name) = dlsym(hip_lib, #name);                           \
    if (!p_##name)                                                           \
        missing = #name;

int rlxr_hip_open(const rlx_host *host, char *why, size_t why_size)
{
    if (hip_lib)
        return 1;
    char setting[1024]; /* rocm.hip_library (RLX_ROCM_HIP_LIBRARY) */
    const char *name = HIP_SONAME;
    if (rlx_host_get_option(host, "rocm.hip_library", setting,
                            sizeof setting) == RLX_OK && setting[0])
        name = setting;
    void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, why_size, "%s", e ? e : name);
        return 0;
    }
    hip_lib = lib;
    const char *missing = NULL;
    RLXR_HIP_FUNCS(RLXR_SYM)
    *(void **)(&p_hipGetErrorName) = dlsym(lib, "hipGetErrorName");
    *(void **)(&p_hipGetErrorString) = dlsym(lib, "hipGetErrorString");
    *(void **)(&p_register_fatbin) = dlsym(lib, "__hipRegisterFatBinary");
    *(void **)(&p_register_function) = dlsym(lib, "__hipRegisterFunction");
    *(void **)(&p_push_config) = dlsym(lib, "__hipPushCallConfiguration");
    *(void **)(&p_pop_config) = dlsym(lib, "__hipPopCallConfiguration");
    if (!missing && !p_hipGetErrorName)
        missing = "hipGetErrorName";
    if (!missing && (!p_register_fatbin || !p_register_function ||
                     !p_push_config || !p_pop_config))
        missing = "__hipRegisterFatBinary and the launch configuration";
    if (missing) {
        snprintf(why, why_size, "%s has no symbol %s (HIP older than 5?)",
                 name, missing);
#define RLXR_CLEAR(n, params, args) p_##n = NULL;
        RLXR_HIP_FUNCS(RLXR_CLEAR)
        p_hipGetErrorName = NULL;
        p_hipGetErrorString = NULL;
        p_register_fatbin = NULL;
        p_register_function = NULL;
        p_push_config = NULL;
        p_pop_config = NULL;
        dlclose(lib);
        hip_lib = NULL;
        return 0;
    }
    return 1;
}
