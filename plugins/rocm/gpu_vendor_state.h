/*
 * gpu_vendor_state.h (rocm) - what the shared GPU host code leaves to
 * the vendor: the backend object with its per-device state, and the
 * per-step matmul plan (rocBLAS when it was found, else our own
 * kernels: rlxg_gemv for few rows, rlxg_gemm otherwise). Included by gpu_internal.h; the cuda plugin has
 * its own file of this name.
 */
#ifndef RLX_GPU_VENDOR_STATE_H
#define RLX_GPU_VENDOR_STATE_H

#include "rocm_rocblas.h"

typedef struct rlxg_device {
    int open;                 /* context created */
    rlxr_rb_handle blas;      /* rocBLAS handle; NULL until a matmul */
    gpuStream_t queue;        /* queued runs (gpu_queue.c); NULL: none */
    uint64_t queue_last;      /* serial of the executable that launched
                                 the queue's last run, 0: none or unknown
                                 (guarded by rlxg_queue_lock) */
} rlxg_device;

struct rlxg_backend {
    const rlx_host *host;
    pthread_mutex_t lock;     /* guards devices and the HIP library */
    int probed;               /* device details logged once */
    int n_devices;            /* -1: not counted yet */
    rlxg_device *devices;
    int blas_tried;           /* rocBLAS looked for (once) */
    rlxr_rocblas rocblas;     /* lib NULL: not found, own GEMM */
};

struct rlxg_matmul {
    int64_t m, n, k, batch;
    int64_t n_calls;      /* 1, or one call per batch when not strided */
    int64_t *a_off, *b_off, *y_off; /* element offsets per call */
    int64_t sa, sb;       /* strided batch: element strides */
    int ta, tb;           /* a stored [k, m]; b stored [n, k] */
    int bias_value;       /* fused bias node, or -1 */
    int epilogue;         /* rlxg_epilogue */
    int use_gemv;         /* few rows times a Linear weight: rlxg_gemv */
    int gemv_flags;       /* RLXG_GEMV_* */
    int use_blas;         /* through rocBLAS (args below) */
    rlxr_rocblas_args blas_args;
};

/* ---- the HIP runtime, opened with dlopen (rocm_hip.c) ------------------ */

/* Open libamdhip64 and resolve what the plugin calls; 1 on success, else
 * 0 with the reason in WHY. Idempotent; callers hold the backend lock. */
int rlxr_hip_open(const rlx_host *host, char *why, size_t why_size);
/* Hand the kernels recorded at load time to the HIP runtime (once, after
 * a device was found); 0 when the runtime refused them. */
int rlxr_hip_register_kernels(void);

/* get_extension (rocm_probe_key.c): rlx.probe_key.v1 (the probe cache)
 * and rlx.queue.v1 (gpu_queue.c). */
const void *rlxr_get_extension(void *backend, const char *name);

#endif /* RLX_GPU_VENDOR_STATE_H */
