/*
 * vk_plugin.c - the plugin entry point: registers the "vulkan" backend
 * (no Vulkan call happens here; the first probe opens the loader), its
 * vtable, op support and the probe.
 */
#include <stdlib.h>

#include <rlx/plugin.h>

#include "vk_internal.h"
#include "vk_plan.h"

/* Every op of ops.h up to 1.3's: float ops on f32, f16 and bf16; data
 * movement, sources, cast and fill on every dtype of types.h. Of 1.4's,
 * each has a shader (docs/vulkan.md has the table): the spatial ops,
 * norms and activations on the float dtypes (max_pool and nearest
 * resize on i8/u8 too); comparisons and logic (bool results); integer
 * arithmetic and reductions on every integer width (the 64-bit ones
 * where the device has shaderInt64); most float ops and every reduction
 * on f64 (shaderFloat64); quantization, the vision ops and the data
 * movement and indexing ops. A case a shader cannot take (an i64 operand
 * on a device without shaderInt64, f64 without shaderFloat64, more than
 * 3 spatial axes) is declined at compile, so placement runs it on the
 * CPU. */
static int int32ish(rlx_dtype t)
{
    return t == RLX_DTYPE_I32 || t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8 ||
           t == RLX_DTYPE_I64; /* i64 on devices with shaderInt64 */
}

/* The integer dtypes of elementwise arithmetic (logic.comp, logic64.comp:
 * u64 and i64 on devices with shaderInt64). */
static int any_int(rlx_dtype t)
{
    return int32ish(t) || t == RLX_DTYPE_I16 || t == RLX_DTYPE_U16 ||
           t == RLX_DTYPE_U32 || t == RLX_DTYPE_U64;
}

static int is_unsigned(rlx_dtype t)
{
    return t == RLX_DTYPE_U8 || t == RLX_DTYPE_U16 || t == RLX_DTYPE_U32 ||
           t == RLX_DTYPE_U64;
}

/* The f64 ops of ew64.comp and reduce64.comp (shaderFloat64; declined at
 * compile on devices without it). */
static int f64_op(rlx_op op)
{
    switch (op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_PRELU: case RLX_OP_MOD:
    case RLX_OP_RELU: case RLX_OP_SIGMOID: case RLX_OP_EXP: case RLX_OP_NEG:
    case RLX_OP_ABS: case RLX_OP_LOG: case RLX_OP_SQRT: case RLX_OP_CLIP:
    case RLX_OP_FLOOR: case RLX_OP_CEIL: case RLX_OP_ROUND: case RLX_OP_SIGN:
    case RLX_OP_RECIPROCAL: case RLX_OP_LEAKY_RELU: case RLX_OP_POW:
    case RLX_OP_TANH: case RLX_OP_RSQRT: case RLX_OP_SILU: case RLX_OP_ELU:
    case RLX_OP_SELU: case RLX_OP_SOFTPLUS: case RLX_OP_HARD_SIGMOID:
    case RLX_OP_HARD_SWISH: case RLX_OP_MISH: case RLX_OP_SINH:
    case RLX_OP_COSH: case RLX_OP_ASINH: case RLX_OP_ACOSH: case RLX_OP_ATANH:
    case RLX_OP_GELU: case RLX_OP_SIN: case RLX_OP_COS: case RLX_OP_TAN:
    case RLX_OP_ATAN: case RLX_OP_ERF: case RLX_OP_ASIN: case RLX_OP_ACOS:
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
    case RLX_OP_REDUCE_MIN: case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_REDUCE_SUM_SQUARE:
        return 1;
    default:
        return 0;
    }
}

static int vk_supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    if (!rlx_kit_op_is_known(op) || !rlxv_dtype_words(dtype))
        return 0;
    if (dtype == RLX_DTYPE_F64 && (f64_op(op) || op == RLX_OP_DET))
        return 1;
    int fl = rlx_kit_dtype_is_float(dtype);
    switch (op) {
    case RLX_OP_MAX_POOL: case RLX_OP_RESIZE: /* resize: nearest only */
        return fl || dtype == RLX_DTYPE_I8 || dtype == RLX_DTYPE_U8;
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE:
    case RLX_OP_AVG_POOL: case RLX_OP_LP_POOL:
    case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM:
    case RLX_OP_GROUP_NORM: case RLX_OP_FLOOR: case RLX_OP_CEIL:
    case RLX_OP_ROUND: case RLX_OP_RECIPROCAL: case RLX_OP_ERF:
    case RLX_OP_LEAKY_RELU: case RLX_OP_ELU: case RLX_OP_SELU:
    case RLX_OP_SOFTPLUS: case RLX_OP_HARD_SIGMOID: case RLX_OP_HARD_SWISH:
    case RLX_OP_MISH: case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_GRID_SAMPLE: case RLX_OP_DET: case RLX_OP_ROI_ALIGN:
    case RLX_OP_ASIN: case RLX_OP_ACOS:
    case RLX_OP_SINH: case RLX_OP_COSH: case RLX_OP_ASINH: case RLX_OP_ACOSH:
    case RLX_OP_ATANH:
        return fl;
    case RLX_OP_BIT_SHIFT:
        return is_unsigned(dtype);
    case RLX_OP_MAX_POOL_INDEX: /* positions, asked as the result */
        return dtype == RLX_DTYPE_I64;
    case RLX_OP_QUANTIZE_LINEAR: /* the result's dtype */
        return dtype == RLX_DTYPE_I8 || dtype == RLX_DTYPE_U8;
    case RLX_OP_DEQUANTIZE_LINEAR:
        return fl;
    case RLX_OP_MATMUL_INTEGER: case RLX_OP_CONV_INTEGER:
        return dtype == RLX_DTYPE_I32;
    case RLX_OP_NEG:
        return fl || (any_int(dtype) && !is_unsigned(dtype));
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MAX: case RLX_OP_REDUCE_MIN:
    case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1:
    case RLX_OP_REDUCE_SUM_SQUARE: case RLX_OP_REDUCE_MEAN:
    case RLX_OP_REDUCE_L2:
        return fl || any_int(dtype);
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: case RLX_OP_LOGICAL_AND:
    case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR: case RLX_OP_LOGICAL_NOT:
    case RLX_OP_ISNAN: case RLX_OP_ISINF:
        return dtype == RLX_DTYPE_BOOL;
    case RLX_OP_CLIP: case RLX_OP_SIGN: case RLX_OP_PRELU: case RLX_OP_MOD:
        return fl || any_int(dtype);
    case RLX_OP_BITWISE_AND: case RLX_OP_BITWISE_OR: case RLX_OP_BITWISE_XOR:
    case RLX_OP_BITWISE_NOT:
        return any_int(dtype);
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN: case RLX_OP_TOPK:
    case RLX_OP_NON_ZERO:
        return dtype == RLX_DTYPE_I64;
    case RLX_OP_CUMSUM: /* f64 and i64 where the device has both */
        return fl || int32ish(dtype) || dtype == RLX_DTYPE_F64;
    case RLX_OP_GATHER_ELEMENTS: case RLX_OP_GATHER_ND:
    case RLX_OP_SCATTER_ELEMENTS: case RLX_OP_SCATTER_ND: case RLX_OP_ONE_HOT:
    case RLX_OP_WHERE: case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_TRILU:
        return 1;
    case RLX_OP_RANGE:
        return dtype != RLX_DTYPE_BOOL;
    default:
        break;
    }
    if (op > RLX_OP_FILL)
        return 0;
    if (rlxv_int_op(op) && any_int(dtype))
        return 1;
    return !rlx_kit_op_is_float(op) || fl;
}

static rlx_status vk_probe(void *backend, rlx_probe_result *out)
{
    rlx__vk *vk = backend;
    rlx_status st = rlxv_discover(vk);
    if (st != RLX_OK || !out)
        return st;
    if (RLX_HAS_FIELD(out->struct_size, rlx_probe_result, device_count))
        out->device_count = vk->n_devices;
    /* vulkan:0 is the preferred device; if even it is a CPU
     * implementation (lavapipe), automatic choice should prefer a native
     * CPU backend. An explicit "vulkan" still gets it. */
    if (RLX_HAS_FIELD(out->struct_size, rlx_probe_result, flags) &&
        vk->devices[0].props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
        out->flags |= RLX_PROBE_SOFTWARE;
    return st;
}

static void vk_backend_destroy(void *backend)
{
    rlx__vk *vk = backend;
    rlxv_teardown(vk);
    pthread_mutex_destroy(&vk->lock);
    free(vk);
}

static const rlx_backend_vtable vk_vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .probe = vk_probe,
    .supports_op = vk_supports_op,
    .compile = rlxv_compile,
    .executable_destroy = rlxv_executable_destroy,
    .buffer_create = rlxv_buffer_create,
    .buffer_read = rlxv_buffer_read,
    .buffer_destroy = rlxv_buffer_destroy,
    .execute = rlxv_execute,
    .backend_destroy = vk_backend_destroy,
    .device_describe = rlxv_device_describe,
    .get_extension = rlxv_get_extension,
};

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    if (!host || !host->register_backend)
        return RLX_ERR_INVALID_ARGUMENT;
    rlx__vk *vk = calloc(1, sizeof *vk);
    if (!vk)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "vulkan: out of memory while registering. "
                               "Fix: free memory and retry");
    vk->host = host;
    pthread_mutex_init(&vk->lock, NULL);
    const rlx_backend_info info = {
        .struct_size = sizeof(rlx_backend_info),
        .id = "vulkan",
        .device_kind = RLX_DEVICE_VULKAN,
        .priority = RLX_PRIORITY_DEFAULT,
        .flags = RLX_BACKEND_EXECUTES,
        .description = "Vulkan compute (SPIR-V shaders; f32, f16, bf16; "
                       "RLX_VULKAN_DEVICE picks vulkan:0; RLX_LOG=info "
                       "lists devices)",
        .vtable = &vk_vtable,
        .backend = vk,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK) {
        pthread_mutex_destroy(&vk->lock);
        free(vk);
    }
    return st;
}
