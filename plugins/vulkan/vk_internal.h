/*
 * vk_internal.h - types shared by the files of the Vulkan backend: the
 * backend object with its cached device list, per-device contexts
 * (logical device, queue, pipelines), buffers and executables.
 *
 * Values on the device are widened to 32-bit words: f32, f16 and bf16
 * are held as f32 (f16 and bf16 exactly, already rounded), i32, u8, i8,
 * i16, u16, u32 and bool as one 32-bit integer (the signed ones
 * sign-extended), i64, u64 and f64 as two words. Conversion happens on
 * the host at the boundaries (params once, inputs and outputs per run),
 * so every shader reads and writes 32-bit words and f16/bf16 work on any
 * device, with or without shaderFloat16.
 */
#ifndef RLXV_INTERNAL_H
#define RLXV_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <rlx/backend.h>
#include <rlx/kit.h>
#include <rlx/plugin.h>

#include "vk_fns.h"

#define RLXV_MAX_RANK 8       /* after merging contiguous dims */
#define RLXV_PUSH_WORDS 32    /* 128 bytes, the guaranteed minimum */
#define RLXV_LOCAL 256        /* threads of the elementwise shaders */

/* Pipelines, one per shader (variant); created on first use. */
typedef enum rlxv_pipe {
    RLXV_PIPE_UNARY,
    RLXV_PIPE_BINARY,
    RLXV_PIPE_COPY,
    RLXV_PIPE_GATHER,
    RLXV_PIPE_CAST,
    RLXV_PIPE_MATMUL,
    RLXV_PIPE_SGEMM0,     /* first of the sgemm variants (below) */
    RLXV_PIPE_SGEMM_LAST = RLXV_PIPE_SGEMM0 + 8,
    RLXV_PIPE_SOFTMAX,
    RLXV_PIPE_NORM,
    RLXV_PIPE_REDUCE,
    /* since ABI 1.4's ops */
    RLXV_PIPE_CONV,          /* implicit GEMM */
    RLXV_PIPE_CONVD,         /* direct: conv_transpose, depthwise */
    RLXV_PIPE_POOL,
    RLXV_PIPE_CHNORM,        /* instance, group and batch norm */
    RLXV_PIPE_RESIZE,
    RLXV_PIPE_LOGIC,         /* comparisons, logic, integer ops */
    RLXV_PIPE_WHERE,
    RLXV_PIPE_REMAP,         /* pad, expand, tile, strided_slice */
    RLXV_PIPE_ARG,           /* argmax, argmin */
    RLXV_PIPE_TRILU,
    RLXV_PIPE_GATHER_EL,     /* gather_elements */
    RLXV_PIPE_GATHER_ND,
    RLXV_PIPE_SCATTER,       /* scatter_elements, scatter_nd */
    RLXV_PIPE_SCAN,          /* cumsum, topk */
    RLXV_PIPE_ONE_HOT,
    RLXV_PIPE_LOGIC64,       /* i64 integer ops (shaderInt64) */
    RLXV_PIPE_CUMSUM64,      /* f64, i64 (shaderFloat64, shaderInt64) */
    RLXV_PIPE_NONZERO,
    RLXV_PIPE_QUANT,         /* quantize_linear, dequantize_linear */
    RLXV_PIPE_MATMUL_INT,    /* matmul.comp built INTEGER */
    RLXV_PIPE_CONVI,         /* convd.comp built INTEGER */
    RLXV_PIPE_EW64,          /* f64 elementwise (shaderFloat64) */
    RLXV_PIPE_REDUCE64,      /* f64 reductions (shaderFloat64) */
    RLXV_PIPE_GRID,          /* grid_sample (shaderFloat64) */
    RLXV_PIPE_DET,           /* det (shaderFloat64) */
    RLXV_PIPE_ROI,           /* roi_align (shaderFloat64) */
    RLXV_PIPE_ARG64,         /* arg.comp built WIDE: i64, u64, f64 */
    RLXV_PIPE_TOPK64,        /* scan.comp built WIDE: topk of those */
    RLXV_PIPE_MATMUL_DOT,    /* matmul.comp INTEGER DOT: packed dot products */
    RLXV_PIPE_CONVG_INT,     /* conv.comp built INTEGER */
    RLXV_PIPE_CONVG_DOT,     /* conv.comp INTEGER DOT: packed dot products */
    RLXV_PIPE_CONVG_INT_Q,   /* conv.comp INTEGER EPI: requantization fused */
    RLXV_PIPE_CONVG_DOT_Q,   /* conv.comp INTEGER DOT EPI */
    RLXV_PIPE_QEPI,          /* the fused requantization's operand table */
    RLXV_PIPE_CONVI_Q,       /* convd.comp INTEGER EPI */
    RLXV_PIPE_COUNT
} rlxv_pipe;

/* The register-blocked f32 matmul shader (shaders/sgemm.comp), one
 * pipeline per tile shape: variant i is pipe RLXV_PIPE_SGEMM0 + i.
 * Unchecked variants need m % bm == n % bn == k % bk == 0; checked ones
 * take any m, n, k with n and k multiples of 4. Both need row-major
 * operands and batch strides that are multiples of 4. */
#define RLXV_SGEMM_VARIANTS (RLXV_PIPE_SGEMM_LAST - RLXV_PIPE_SGEMM0 + 1)
struct rlxv_ctx;
typedef struct rlxv_sgemm_variant {
    const char *name;          /* as built in meson.build */
    uint32_t bm, bn, bk, check;
} rlxv_sgemm_variant;
extern const rlxv_sgemm_variant rlxv_sgemm_variants[];
/* Whether variant V can compute an m x n x k product (alignment only). */
int rlxv_sgemm_fits(const rlxv_sgemm_variant *v, uint64_t m,
                       uint64_t n, uint64_t k);
/* The variant the planner takes for an m x n x k product of NBATCH
 * row-major batches on CTX's device, or -1 for the general shader.
 * Setting vulkan.sgemm (OPTIONS, else the host) = <variant name> forces
 * that variant wherever it fits,
 * =general the general shader, unset or =auto the measured choice. */
int rlxv_sgemm_pick(const struct rlxv_ctx *ctx,
                       const rlx_compile_options *options, uint64_t m,
                       uint64_t n, uint64_t k, uint64_t nbatch);

/* Round modes the float shaders apply to every result. */
#define RLXV_ROUND_NONE 0u
#define RLXV_ROUND_F16 1u
#define RLXV_ROUND_BF16 2u

/* ---- devices ---------------------------------------------------------- */

typedef struct rlxv_device_info {
    VkPhysicalDevice phys;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    char driver[160];          /* "NVIDIA 580.159.04", "llvmpipe Mesa ..." */
    uint64_t local_bytes;      /* largest device-local heap */
    uint32_t queue_family;     /* first with compute */
    int has_int64, has_float64;
    int has_int_dot;           /* VK_KHR_shader_integer_dot_product */
} rlxv_device_info;

typedef struct rlx__vk rlx__vk;

/* A logical device: created on first use, lives until backend_destroy. */
typedef struct rlxv_ctx {
    rlx__vk *vk;
    const rlxv_device_info *info;
    uint32_t index;            /* vulkan:N */
    VkDevice dev;
    rlxv_device_fns fn;
    VkQueue queue;
    pthread_mutex_t lock;      /* queue, pool and pipeline creation */
    VkCommandPool pool;        /* one-shot transfers */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipelineCache cache;
    VkPipeline pipes[RLXV_PIPE_COUNT];
    uint32_t local_type, host_type; /* memory type indices */
    int int64, float64;        /* features enabled */
    int int_dot;               /* integer dot products enabled */
} rlxv_ctx;

struct rlx__vk {
    const rlx_host *host;
    pthread_mutex_t lock;      /* discovery and context creation */
    int probed;
    rlx_status probe_status;
    char probe_msg[1024];
    void *lib;
    rlxv_instance_fns fn;
    VkInstance instance;
    uint32_t n_devices;
    rlxv_device_info *devices; /* preference order, index = vulkan:N */
    rlxv_ctx **ctx;
};

/* Report a failed Vulkan call WHAT with its VkResult named; device loss
 * and out-of-memory map to RLX_ERR_DEVICE and RLX_ERR_OUT_OF_MEMORY. */
rlx_status rlxv_fail_vk(const rlxv_ctx *ctx, VkResult r,
                           const char *what);

/* Discover once (loader, instance, devices); cached. RLX_OK or a
 * reported RLX_ERR_UNAVAILABLE (the message is kept for later calls). */
rlx_status rlxv_discover(rlx__vk *vk);
/* The device_describe slot: name, type, memory, driver of vulkan:INDEX. */
/* vk_probe_key.c: the rlx.probe_key.v1 extension (probe cache). */
const void *rlxv_get_extension(void *backend, const char *name);

rlx_status rlxv_device_describe(void *backend, uint32_t index,
                                   rlx_device_info *out);
void rlxv_teardown(rlx__vk *vk);
/* Context for vulkan:INDEX, created on first use. */
rlx_status rlxv_context(rlx__vk *vk, uint32_t index, rlxv_ctx **out);
void rlxv_context_destroy(rlxv_ctx *ctx);
rlx_status rlxv_pipeline(rlxv_ctx *ctx, rlxv_pipe pipe,
                            VkPipeline *out);

/* ---- memory ----------------------------------------------------------- */

typedef struct rlxv_mem {
    VkBuffer buf;
    VkDeviceMemory mem;
    VkDeviceSize size;
    void *map;                 /* host-visible allocations only */
} rlxv_mem;

/* A buffer of SIZE bytes (at least 16), device-local or host-visible. */
rlx_status rlxv_mem_create(rlxv_ctx *ctx, VkDeviceSize size,
                              int host_visible, rlxv_mem *out);
void rlxv_mem_destroy(rlxv_ctx *ctx, rlxv_mem *m);
/* Copy between host and a device buffer through a temporary staging
 * buffer; blocks until done. */
rlx_status rlxv_upload(rlxv_ctx *ctx, VkBuffer dst, VkDeviceSize off,
                          const void *src, size_t n);
rlx_status rlxv_download(rlxv_ctx *ctx, VkBuffer src,
                            VkDeviceSize off, void *dst, size_t n);
/* Submit CB and wait (under the context's queue lock for the submit). */
rlx_status rlxv_submit_wait(rlxv_ctx *ctx, VkCommandBuffer cb,
                               VkFence fence);

/* ---- dtypes ----------------------------------------------------------- */

/* 32-bit words a dtype takes on the device: 1, 2, or 0 if unknown. */
uint32_t rlxv_dtype_words(rlx_dtype t);
/* Host (rlx_dtype_size bytes each) to device words and back. */
void rlxv_widen(rlx_dtype t, const void *src, uint32_t *dst, size_t n);
void rlxv_narrow(rlx_dtype t, const uint32_t *src, void *dst, size_t n);
/* Value V converted to dtype T in device words (for fill). */
void rlxv_scalar_words(rlx_dtype t, double v, uint32_t out[2]);

/* ---- buffers (params) ------------------------------------------------- */

struct rlx_buffer {
    rlxv_ctx *ctx;
    rlx_dtype dtype;
    size_t count;              /* elements */
    rlxv_mem m;
};

/* ---- executables ------------------------------------------------------ */

/* One node's result on the device. */
typedef struct rlxv_value {
    rlx_op op;
    rlx_dtype dtype;
    uint32_t words;            /* per element */
    size_t count;
    uint32_t alias;            /* reshape: the node whose storage it is */
    int param_slot;            /* >= 0: lives in a param buffer */
    VkDeviceSize offset;       /* in the arena */
    VkDeviceSize bytes;        /* count * words * 4 */
    /* a conv_integer's requantization chain fused (vk_plan_qfuse.c):
     * the conv and the links before the last are planned at the last,
     * which names the conv (index + 1) */
    int fused;
    uint32_t qconv;
} rlxv_value;

#define RLXV_BIND_NONE UINT32_MAX
#define RLXV_BIND_ERR (UINT32_MAX - 1) /* the run's error flag */
/* Binding of the plan's auxiliary buffer K (tables, scratch). */
#define RLXV_BIND_AUX0 0x80000000u
#define RLXV_BIND_IS_AUX(b) \
    ((b) >= RLXV_BIND_AUX0 && (b) < RLXV_BIND_ERR)

/* A planner's own region of the arena: a table uploaded at compile time
 * (DATA non-NULL) or scratch written by an earlier dispatch. */
typedef struct rlxv_aux {
    VkDeviceSize offset, bytes;
    void *data;
} rlxv_aux;

typedef struct rlxv_dispatch {
    rlxv_pipe pipe;
    uint32_t groups[3];
    uint32_t push[RLXV_PUSH_WORDS];
    uint32_t bind[5];          /* node index per binding, or BIND_* */
    VkDescriptorSet set;
} rlxv_dispatch;

typedef struct rlxv_io {
    uint32_t node;
    VkDeviceSize staging;      /* offset in the staging buffer */
} rlxv_io;

struct rlx_executable {
    rlxv_ctx *ctx;
    /* the compile's options (its settings), while it compiles only */
    const rlx_compile_options *options;
    uint32_t n_nodes;
    rlxv_value *values;
    char **names;
    uint32_t n_dispatch, cap_dispatch;
    rlxv_dispatch *dispatch;
    uint32_t n_inputs, n_params, n_outputs;
    rlxv_io *inputs, *outputs;
    uint32_t *param_nodes;
    rlx_buffer **bound;        /* params the command buffer was recorded with */
    int recorded;
    int uses_err;
    VkDeviceSize arena_end;    /* bytes of the arena planned so far */
    uint32_t n_aux, cap_aux;
    rlxv_aux *aux;
    rlxv_mem arena;         /* device-local: err flag + every value */
    rlxv_mem staging;       /* host-visible: err flag + inputs + outputs */
    VkDescriptorPool dpool;
    VkCommandPool pool;
    VkCommandBuffer cb;
    VkFence fence;
};

/* Append a dispatch to EXE; NULL on out of memory (reported). */
rlxv_dispatch *rlxv_dispatch_add(const rlx_host *host,
                                       rlx_executable *exe, rlxv_pipe p);
/* Reserve BYTES of the arena for node planning (copying DATA, if not
 * NULL, to upload at compile time); *BIND gets its binding id. */
rlx_status rlxv_aux_add(const rlx_host *host, rlx_executable *exe,
                           const void *data, VkDeviceSize bytes,
                           uint32_t *bind);
/* Workgroup counts for N threads of groups of LOCAL, spread over x and y
 * so neither passes 65535. */
void rlxv_grid(rlxv_dispatch *d, uint64_t n, uint32_t local);

/* Op planners: append the dispatches that compute node I of G. */
typedef struct rlxv_plan_ctx {
    const rlx_host *host;
    rlxv_ctx *ctx;
    const rlx_graph_view *g;
    rlx_executable *exe;
    uint32_t i;
    const rlx_node_view *v;
    uint32_t round;            /* RLXV_ROUND_* from the node's dtype */
    const char *name;
    int at_chain_end;          /* conv_integer planned at its fused chain's end */
} rlxv_plan_ctx;

rlx_status rlxv_plan_elementwise(rlxv_plan_ctx *pc);
rlx_status rlxv_plan_matmul(rlxv_plan_ctx *pc);
rlx_status rlxv_plan_rows(rlxv_plan_ctx *pc);     /* softmax, norms */
rlx_status rlxv_plan_reduce(rlxv_plan_ctx *pc);
rlx_status rlxv_plan_movement(rlxv_plan_ctx *pc); /* transpose... */
rlx_status rlxv_plan_conv(rlxv_plan_ctx *pc);  /* conv, conv_t */
rlx_status rlxv_plan_pool(rlxv_plan_ctx *pc);
rlx_status rlxv_plan_chnorm(rlxv_plan_ctx *pc);
rlx_status rlxv_plan_resize(rlxv_plan_ctx *pc);
rlx_status rlxv_plan_logic(rlxv_plan_ctx *pc); /* compare, where */
rlx_status rlxv_plan_index(rlxv_plan_ctx *pc); /* pad, tile... */
rlx_status rlxv_plan_gather(rlxv_plan_ctx *pc); /* scatter, topk.. */
rlx_status rlxv_plan_quant(rlxv_plan_ctx *pc); /* (de)quantize_linear */
rlx_status rlxv_plan_grid_sample(rlxv_plan_ctx *pc);
rlx_status rlxv_plan_det(rlxv_plan_ctx *pc);
rlx_status rlxv_plan_roi_align(rlxv_plan_ctx *pc);

/* Record EXE's command buffer for the param buffers in PARAMS. */
rlx_status rlxv_record(rlx_executable *exe, rlx_buffer *const *params);

rlx_status rlxv_compile(void *backend, const rlx_graph_view *graph,
                           const rlx_compile_options *options,
                           rlx_executable **out);
void rlxv_executable_destroy(void *backend, rlx_executable *exe);
rlx_status rlxv_execute(void *backend, rlx_executable *exe,
                           const rlx_execute_args *args);
rlx_status rlxv_buffer_create(void *backend, uint32_t device_index,
                                 const rlx_tensor_desc *desc,
                                 const void *data, rlx_buffer **out);
rlx_status rlxv_buffer_read(void *backend, rlx_buffer *buffer, void *dst,
                               size_t nbytes);
void rlxv_buffer_destroy(void *backend, rlx_buffer *buffer);

/* Lower-case op name for messages. */

#endif /* RLXV_INTERNAL_H */
