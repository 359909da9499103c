/*
 * gpu_internal.h - types shared by the host files of the GPU backends
 * (cuda and rocm): buffers, and the executable with its memory plan and
 * its list of steps. What differs by vendor (the backend object, the
 * matmul library and its per-step plan) is in the plugin's own
 * gpu_vendor_state.h, found first on each plugin's include path.
 *
 * Life cycle: loading a plugin touches nothing of the GPU runtime. probe
 * counts devices only. The first compile or buffer_create on a device
 * creates its context; everything an execute needs (device memory,
 * pinned staging, the matmul plans) is made at compile time; execute
 * replays a CUDA or HIP graph.
 */
#ifndef RLX_GPU_INTERNAL_H
#define RLX_GPU_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <rlx/backend.h>
#include <rlx/kit_error.h>
#include <rlx/memory.h>
#include <rlx/kit_plan.h>
#include <rlx/plugin.h>

#include "gpu_kernels.h"
#include "gpu_kernels_more.h"
#include "gpu_kernels_quant.h"
#include "gpu_kernels_vision.h"
#include "gpu_vendor.h"

/* Matmul epilogues the compiler fuses (the vendor maps them). */
typedef enum rlxg_epilogue {
    RLXG_EPI_NONE = 0,
    RLXG_EPI_BIAS,
    RLXG_EPI_RELU_BIAS,
    RLXG_EPI_GELU_BIAS    /* tanh-approximated gelu */
} rlxg_epilogue;

typedef struct rlxg_backend rlxg_backend; /* gpu_vendor_state.h */
typedef struct rlxg_matmul rlxg_matmul;   /* gpu_vendor_state.h */
#include "gpu_vendor_state.h"

/* Messages go through the plugin kit (rlx_kit_fail, rlx_kit_log). Report
 * a failed runtime call: "cuda: WHAT: cudaErrorX (text). Fix: ..."
 * (vendor: the fix names the vendor's tools). */
rlx_status rlxg_gpu_fail(const rlx_host *host, gpuError_t err,
                         const char *what);

/* Make device INDEX current on this thread, creating its context the
 * first time (gpu_device.c). */
rlx_status rlxg_device_use(rlxg_backend *be, uint32_t index);

/* ---- devices: gpu_device.c, with each vendor's part -------------------- */

/* The backend's probe, device description and teardown (gpu_device.c),
 * in the vtable of both plugins. */
rlx_status rlxg_probe(void *backend, rlx_probe_result *out);
rlx_status rlxg_device_describe(void *backend, uint32_t index,
                                rlx_device_info *out);
void rlxg_backend_destroy(void *backend);
/* The vendor's part, in each plugin's entry file. Count the visible
 * devices into *N (> 0), loading the runtime when it is loaded lazily,
 * or fail saying why there are none (under be->lock; be->n_devices < 0
 * until the first count succeeds). */
rlx_status rlxg_vendor_count(rlxg_backend *be, int *n);
/* The line `rlx devices` and RLX_LOG=info show for device INDEX, after
 * its name; and the vendor's details for rlx_device_info.detail. */
void rlxg_vendor_summary(const gpuDeviceProp *p, char *out, size_t size);
void rlxg_vendor_detail(const gpuDeviceProp *p, const char *bus, char *out,
                        size_t size);
/* Free what the vendor keeps per device (math library handles). */
void rlxg_vendor_device_free(rlxg_backend *be, int index);

/* ---- buffers ------------------------------------------------------------ */

struct rlx_buffer {
    uint32_t device;
    rlx_dtype dtype;
    size_t nbytes;
    void *ptr;                /* device memory; NULL when nbytes is 0 */
    int borrowed;             /* PTR is the application's (buffer_wrap) */
    /* Changes (process-wide unique) at every write we see: creation,
     * buffer_write, a run writing it as a bound output. 0: its memory may
     * be written where we cannot see (wrapped, or its address given
     * out), so what is derived from it is derived again at every run. */
    uint64_t version;
};

/* A new buffer version, never given before in this process. */
uint64_t rlxg_version_next(void);

rlx_status rlxg_buffer_create(void *backend, uint32_t device_index,
                              const rlx_tensor_desc *desc, const void *data,
                              rlx_buffer **out);
rlx_status rlxg_buffer_read(void *backend, rlx_buffer *buffer, void *dst,
                            size_t nbytes);
rlx_status rlxg_buffer_write(void *backend, rlx_buffer *buffer,
                             const void *src, size_t nbytes);
void rlxg_buffer_destroy(void *backend, rlx_buffer *buffer);

/* ---- executables -------------------------------------------------------- */

/* Where a value's bytes live, resolved to a pointer at capture time. */
typedef enum rlxg_loc_kind {
    RLXG_LOC_NONE = 0,   /* empty tensor, or never materialized (fused) */
    RLXG_LOC_ARENA = 1,  /* intermediate: planned offset in the arena */
    RLXG_LOC_PARAM = 2,  /* a param buffer (slot) */
    RLXG_LOC_CONST = 3   /* constant data uploaded at compile time */
} rlxg_loc_kind;

typedef struct rlxg_value {
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[RLXG_MAX_RANK];
    int64_t count;
    size_t nbytes;
    rlxg_loc_kind loc;
    int storage;          /* ARENA: index into storages; else -1 */
    uint32_t slot;        /* PARAM: slot */
    size_t offset;        /* CONST: byte offset */
    int64_t uses;         /* consumers among the graph's nodes */
    int is_output;
} rlxg_value;

/* An arena block: nbytes, its live interval of steps [first, last]
 * (inclusive; -1 before the first step) and its planned offset, laid
 * out by the kit's liveness planner (rlx_kit_plan_memory). */
typedef rlx_kit_live rlxg_storage;

typedef enum rlxg_step_kind {
    RLXG_STEP_UNARY = 1,
    RLXG_STEP_BINARY,
    RLXG_STEP_MATMUL,
    RLXG_STEP_SOFTMAX,
    RLXG_STEP_NORM,
    RLXG_STEP_REDUCE,
    RLXG_STEP_COPY,
    RLXG_STEP_GATHER,
    RLXG_STEP_CAST,
    RLXG_STEP_FILL,
    RLXG_STEP_ZERO,
    RLXG_STEP_ATTENTION,  /* fused q k^T, scale, softmax, p v */
    RLXG_STEP_CONV,       /* in: x, w, bias, residual (gk_conv.cu) */
    RLXG_STEP_CONV_TRANSPOSE,
    RLXG_STEP_POOL,
    RLXG_STEP_BATCH_NORM, /* in: x, scale, bias, mean; in5: var */
    RLXG_STEP_GROUP_NORM, /* in: x, scale, bias (instance_norm too) */
    RLXG_STEP_RESIZE,
    /* gpu_execute_more.c's: the 1.4 elementwise, reduction and
     * indexing ops (gk_ew_more.cu, gk_index.cu) */
    RLXG_STEP_EW,
    RLXG_STEP_REDUCE_MORE,
    RLXG_STEP_ARG,        /* op, approx: select_last_index */
    RLXG_STEP_LAYOUT,     /* pad, tile, trilu */
    RLXG_STEP_GATHER_MORE,/* in: data (one_hot: values), indices */
    RLXG_STEP_SCATTER,    /* in: indices, updates; out holds the data */
    RLXG_STEP_CUMSUM,
    RLXG_STEP_TOPK,
    RLXG_STEP_RANGE,
    RLXG_STEP_NON_ZERO,
    RLXG_STEP_DET,        /* outer: the matrices, len: their size m */
    RLXG_STEP_POOL_INDEX, /* max_pool_index: win (gk_pool.cu) */
    RLXG_STEP_GRID_SAMPLE,/* in: x, grid (gk_sample.cu) */
    RLXG_STEP_ROI_ALIGN,  /* in: x, rois, batch indices */
    /* the quantization ops (gk_quant.cu): in x (a), scale or w (b),
     * and the zero points */
    RLXG_STEP_QUANT
} rlxg_step_kind;

typedef struct rlxg_step {
    rlxg_step_kind kind;
    int out;              /* value written */
    int in[4];            /* values read, -1 unused; NORM: in[3] the
                             residual added to in[0] (fused add) */
    size_t dst_offset;    /* COPY: byte offset into OUT */
    size_t src_offset;    /* COPY: byte offset into IN[0] */
    int op, approx;
    float eps;
    double fill;
    int64_t outer, len, inner, causal_rows, n_idx;
    int idx_is_i64;
    rlxg_bcast bcast;
    rlxg_copy_plan copy;
    rlxg_reduce_plan reduce;
    rlxg_attn_plan attn;  /* ATTENTION: in[0..2] the q, k, v bases */
    int in5;              /* a fifth value read (batch_norm's var), or -1 */
    rlxg_win_plan win;    /* CONV, CONV_TRANSPOSE, POOL */
    rlxg_resize_plan rs;  /* RESIZE */
    void *dnn;            /* CONV, CONV_TRANSPOSE: the vendor DNN
                             library's plan (cuDNN), or NULL: our kernel */
    rlxg_ew_plan ew;      /* EW */
    rlxg_index_plan ix;   /* LAYOUT .. RANGE */
    rlxg_quant_plan q;    /* QUANT (conv_integer: win too) */
    /* QUANT, a fused requantization chain (q.chain): the values it reads
     * besides in[] (RLXG_QC_*), -1 where absent; the arena planner
     * keeps them alive up to the step */
    int extra[8];
    rlxg_matmul *mm;
} rlxg_step;

struct rlx_executable {
    rlxg_backend *be;
    uint32_t device;
    /* the compile's options (its settings), while it compiles only */
    const rlx_compile_options *options;
    gpuStream_t stream;
    gpuStream_t queue;    /* its device's queue stream, from its first
                             queued run on (gpu_queue.c) */
    uint32_t n_values;
    rlxg_value *values;
    uint32_t n_steps, cap_steps;
    rlxg_step *steps;
    uint32_t n_storages;
    rlxg_storage *storages;
    uint32_t n_inputs, n_params, n_outputs;
    uint32_t *input_values, *param_values, *output_values;
    size_t *input_stage, *output_stage; /* byte offsets in the staging */
    void *arena;          /* intermediates, inputs and outputs */
    size_t arena_bytes;
    void *consts;         /* constants, uploaded once */
    size_t const_bytes;
    unsigned char *stage; /* pinned host staging: inputs, outputs, flag */
    size_t stage_bytes;
    size_t flag_stage;    /* offset of the gather error flag in stage */
    int *dev_flag;        /* device gather error flag; NULL without gather */
    void *workspace;      /* the vendor BLAS's; NULL without one */
    size_t workspace_bytes;
    void *lt;             /* the vendor BLAS handle; NULL without one */
    void *dnn;            /* the vendor DNN library's handle (cuDNN);
                             NULL without one */
    gpuGraphExec_t graph;
    void **graph_params;  /* param pointers the graph was captured with */
    int profile;          /* RLX_CUDA_PROFILE (RLX_ROCM_PROFILE) set and not yet done */
    char *graph_dot;      /* setting cuda.graph_dot: where captured graphs
                             are written (NULL: nowhere) */
    int dep_launch;       /* GEMVs, norms and tensor-core attention
                             launched as programmatic dependents of the
                             step before (rlxg_dep_launch_ok, and the
                             setting cuda.dep_launch not 0) */
    int queue_direct;     /* queued runs launch the steps onto the queue
                             themselves, not as a graph (setting
                             cuda.queue_launch; gpu_execute.c) */
    double tuned_ms;      /* the autotuner's times of the steps it timed,
                             summed; 0 where it timed none */
    uint64_t serial;      /* this executable's number, unique in the
                             process: the queue's last run (rlxg_device) */
    /* Large inputs and outputs: the caller's host memory, page-locked
     * with gpuHostRegister so the graph copies straight from and to it
     * (no staging copy); per input slot, then per output. */
    void **io_user;       /* caller pointer last seen */
    unsigned char *io_reg;/* 1 when io_user is registered by us */
    void **io_host;       /* host side the graph copies with; NULL for
                             a slot bound to a device buffer */
    void **graph_io;      /* io_host at capture */
    /* Slots bound to device buffers (ABI 1.2 device I/O): per input slot,
     * then per output, the buffer's device pointer or NULL. A bound
     * input's storage is the buffer itself; a bound output's storage is
     * too when the output is written by a step of its own, else the run
     * ends with a device-to-device copy into it. */
    void **io_dev;
    void **graph_dev;     /* io_dev at capture */
    void **storage_bind;  /* per storage: device pointer replacing its
                             arena place, or NULL */
    unsigned char *out_direct; /* per output: written in place */
};

/* What is the vendor's in a GPU plugin's backend (gpu_register.c). */
typedef struct rlxg_vendor_ops {
    rlx_device_kind device_kind;
    const void *(*get_extension)(void *backend, const char *name);
} rlxg_vendor_ops;

/* rlx_plugin_init of both GPU plugins: a backend named RLXG_NAME with the
 * shared compiler, executor, buffers and devices and V's slots, registered with
 * HOST (DESCRIPTION is copied by the core). */
rlx_status rlxg_register(const rlx_host *host, const rlxg_vendor_ops *v,
                         const char *description);

int rlxg_supports_op(void *backend, rlx_op op, rlx_dtype dtype);
/* Declines nodes whose inputs have dtypes no kernel reads (gpu_ops.c). */
int rlxg_supports_node(void *backend, const rlx_graph_view *graph,
                       uint32_t node, char *why, size_t why_size);
rlx_status rlxg_compile(void *backend, const rlx_graph_view *graph,
                        const rlx_compile_options *options,
                        rlx_executable **out);
void rlxg_executable_destroy(void *backend, rlx_executable *exe);
rlx_status rlxg_execute(void *backend, rlx_executable *exe,
                        const rlx_execute_args *args);
/* execute, on QUEUE (a device's queue stream, gpu_queue.c) without
 * waiting for the run where nothing needs the host after it, or on the
 * executable's own stream to completion when QUEUE is NULL. */
rlx_status rlxg_execute_on(rlxg_backend *be, rlx_executable *exe,
                           const rlx_execute_args *args, gpuStream_t queue);
/* gpu_queue.c: the rlx.queue.v1 table (rlx/queue.h), for get_extension;
 * and the device's queue stream destroyed (backend destroy). */
extern const struct rlx_ext_queue rlxg_queue_ext;
/* gpu_buffer.c: the rlx.memory.v1 table (rlx/memory.h). */
extern const struct rlx_ext_memory rlxg_memory_ext;
void rlxg_queue_destroy(rlxg_backend *be, uint32_t device);
/* Held while a run is launched on a queue and its queue_last set, so
 * the run knows which executable's run precedes it there. */
extern pthread_mutex_t rlxg_queue_lock;

/* Pointer to value V's bytes with PARAMS bound (capture time). */
void *rlxg_value_ptr(const rlx_executable *exe, int v, void *const *params);
/* Enqueue step S on STREAM; DEP: its kernel (a GEMV, a norm, the
 * tensor-core attention) may be a programmatic dependent of the kernel
 * before it, where exe->dep_launch. */
rlx_status rlxg_step_enqueue(rlx_executable *exe, const rlxg_step *s,
                             void *const *params, gpuStream_t stream,
                             int dep);
/* gpu_execute_more.c: the launch of a 1.4 elementwise, reduction or
 * indexing step (the kinds rlxg_step_enqueue does not launch itself). */
gpuError_t rlxg_step_enqueue_more(rlx_executable *exe, const rlxg_step *s,
                                  void *const *params, gpuStream_t stream);
/* Enqueue every step on STREAM. CHAINED: the first step's kernel may
 * start as the programmatic dependent of the kernel before it on STREAM
 * (that kernel wrote nothing it reads before waiting); later steps
 * always may. */
rlx_status rlxg_steps_enqueue(rlx_executable *exe, void *const *params,
                              gpuStream_t stream, int chained);
/* Matmul (the vendor's cuda_matmul.c or rocm_matmul.c). prepare: before
 * the first matmul of EXE is planned (loads the vendor BLAS, sets
 * exe->lt and exe->workspace_bytes where it uses one). plan: fills
 * step->mm, allocated by the compiler with bias_value and epilogue set;
 * RLX_ERR_UNSUPPORTED with an epilogue makes the compiler unfuse it. */
rlx_status rlxg_matmul_prepare(rlx_executable *exe);
rlx_status rlxg_matmul_plan(rlx_executable *exe, rlxg_step *step,
                            const rlx_node_view *v, const rlx_node_view *a,
                            const rlx_node_view *b, int64_t transpose_a,
                            int64_t transpose_b, int precision);
/* enqueue: on STREAM; DEP: a GEMV may be a programmatic dependent */
rlx_status rlxg_matmul_enqueue(rlx_executable *exe, const rlxg_step *step,
                               void *const *params, gpuStream_t stream,
                               int dep);
void rlxg_matmul_free(rlxg_backend *be, rlxg_matmul *mm);
/* Conv through the vendor's DNN library (cuda_cudnn.c; rocm has none
 * yet: rocm_dnn.c declines). plan: at compile, sets step->dnn where the
 * library takes the step (else our kernel runs it); enqueue: runs it on
 * STREAM (bias and res, the fused residual, may be NULL; the step's
 * win.act applies last); release: every plan of EXE and its handle. */
rlx_status rlxg_dnn_conv_plan(rlx_executable *exe, rlxg_step *step,
                              int precision);
gpuError_t rlxg_dnn_conv_enqueue(rlx_executable *exe, const rlxg_step *step,
                                 const void *x, const void *w,
                                 const void *bias, const void *res, void *y,
                                 gpuStream_t stream);
void rlxg_dnn_release(rlx_executable *exe);
/* Before a run is launched on STREAM: bring what the DNN plans derive
 * from params and constants (reordered filters) up to date, where the
 * param's buffer or version (VERSIONS, per param slot; 0: always)
 * differs from what it was derived from. A filter computed by the
 * graph is derived inside the run instead. */
gpuError_t rlxg_dnn_refresh(rlx_executable *exe, void *const *params,
                            const uint64_t *versions, gpuStream_t stream);
/* A fused quantized conv (a QUANT step with q.chain): plan (compile
 * time; leaves step->dnn NULL where the library cannot take it) and
 * enqueue its conv through the library, writing the f32 accumulators
 * the chain's epilogue reads (step->extra holds RLXG_QC_* values). */
rlx_status rlxg_dnn_qconv_plan(rlx_executable *exe, rlxg_step *step);
gpuError_t rlxg_dnn_qconv_enqueue(rlx_executable *exe, const rlxg_step *step,
                                  void *const *params, gpuStream_t stream);
/* After every step is emitted: which values the DNN library's convs
 * keep in their own layout (cuDNN: channels last) and the buffers for
 * the others. */
rlx_status rlxg_dnn_layout(rlx_executable *exe, const rlx_graph_view *g);
/* After allocation: time the candidates of every large matmul on
 * scratch data and keep the fastest (compile time, once; cuBLASLt). */
rlx_status rlxg_matmul_autotune(rlx_executable *exe);
/* A matmul node's GEMM problem (gpu_matmul_shape.c): y [m, n] =
 * op(a) [m, k] op(b) [k, n] per batch t at element offsets a_off[t],
 * b_off[t] (arrays of n_batch the caller frees); ta: a is stored
 * [k, m], tb: b is stored [n, k]; regular: the offsets are t * a_off[1]
 * and t * b_off[1] (a strided batch). */
typedef struct rlxg_mm_shape {
    int ta, tb, regular;
    int64_t m, n, k, n_batch;
    int64_t *a_off, *b_off;
} rlxg_mm_shape;
rlx_status rlxg_matmul_shape(const rlx_host *host, const rlx_node_view *v,
                             const rlx_node_view *a, const rlx_node_view *b,
                             int64_t transpose_a, int64_t transpose_b,
                             rlxg_mm_shape *out);
/* gpu_lower_quant.c: whether quantization node V's inputs and result
 * have the count and dtypes its kernels take. */
int rlxg_quant_dtypes_ok(const rlx_graph_view *g, const rlx_node_view *v);
/* RLX_CUDA_PROFILE=1: run the steps once, eagerly, timing each, and log
 * the times at info level. */
void rlxg_profile(rlx_executable *exe, void *const *params);

#endif /* RLX_GPU_INTERNAL_H */
