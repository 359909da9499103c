/*
 * cpu_ref.c - registration of the reference CPU backend: its info, its
 * vtable and the op-support table.
 *
 * The reference backend favours being obviously right over being fast:
 * other backends are checked against it, so every kernel is a plain loop
 * that accumulates in double.
 */
#include <stdlib.h>

#include <rlx/plugin.h>

#include "cpu_ref.h"
#include "cpu_ref_internal.h"

/* Float ops on f32, f16 and bf16; sources, data movement, cast and fill
 * on every dtype of types.h; the ABI 1.4 ops and the arithmetic ops on
 * integers as cpu_ref_dtypes.c says. Unknown ops and dtypes answer 0. */
int rlx__cpu_ref_supports(rlx_op op, rlx_dtype dtype)
{
    if (rlx_kit_op_arity(op) == RLX_KIT_OP_UNKNOWN)
        return 0;
    if ((op >= 100 && op < 150) || rlx__cpu_ref_supports_14(op, dtype))
        return rlx__cpu_ref_supports_14(op, dtype);
    /* they only pick input values, so bytes pass exactly (resize: the
     * core admits bytes for nearest only) */
    if ((op == RLX_OP_MAX_POOL || op == RLX_OP_RESIZE) &&
        (dtype == RLX_DTYPE_I8 || dtype == RLX_DTYPE_U8))
        return 1;
    if (op == RLX_OP_MAX_POOL_INDEX) /* positions, asked as the result */
        return dtype == RLX_DTYPE_I64;
    if (op == RLX_OP_DET)
        return rlx_kit_dtype_is_float(dtype) || dtype == RLX_DTYPE_F64;
    if (rlx_kit_op_is_float(op))
        return rlx_kit_dtype_is_float(dtype);
    /* quantization: the result's dtype */
    if (op == RLX_OP_QUANTIZE_LINEAR)
        return dtype == RLX_DTYPE_I8 || dtype == RLX_DTYPE_U8;
    if (op == RLX_OP_DEQUANTIZE_LINEAR)
        return rlx_kit_dtype_is_float(dtype);
    if (op == RLX_OP_MATMUL_INTEGER || op == RLX_OP_CONV_INTEGER)
        return dtype == RLX_DTYPE_I32;
    /* since 1.4: the result's dtype; topk and non_zero give indices */
    if (op == RLX_OP_TOPK || op == RLX_OP_NON_ZERO)
        return dtype == RLX_DTYPE_I64;
    if ((op == RLX_OP_CUMSUM || op == RLX_OP_RANGE) &&
        dtype == RLX_DTYPE_BOOL)
        return 0;
    switch (dtype) {
    case RLX_DTYPE_F32: case RLX_DTYPE_F16: case RLX_DTYPE_BF16:
    case RLX_DTYPE_F64: case RLX_DTYPE_I32: case RLX_DTYPE_I64:
    case RLX_DTYPE_I8: case RLX_DTYPE_U8: case RLX_DTYPE_BOOL:
    case RLX_DTYPE_I16: case RLX_DTYPE_U16: case RLX_DTYPE_U32:
    case RLX_DTYPE_U64:
        return 1;
    default:
        return 0;
    }
}

static int cpu_ref_supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    return rlx__cpu_ref_supports(op, dtype);
}

void *rlx__cpu_ref_backend_new(const rlx_host *host)
{
    rlx__cpu_ref *self = calloc(1, sizeof *self);
    if (self)
        self->host = host;
    return self;
}

void rlx__cpu_ref_backend_free(void *backend)
{
    free(backend);
}

static const rlx_backend_vtable cpu_ref_vtable = {
    .struct_size = sizeof(rlx_backend_vtable),
    .probe = NULL, /* always available */
    .supports_op = cpu_ref_supports_op,
    .compile = rlx__cpu_ref_compile,
    .executable_destroy = rlx__cpu_ref_executable_destroy,
    .buffer_create = rlx__cpu_ref_buffer_create,
    .buffer_read = rlx__cpu_ref_buffer_read,
    .buffer_destroy = rlx__cpu_ref_buffer_destroy,
    .execute = rlx__cpu_ref_execute,
    .backend_destroy = rlx__cpu_ref_backend_free,
    .buffer_write = rlx__cpu_ref_buffer_write,
    .get_extension = rlx__cpu_ref_get_extension,
};

rlx_status rlx__cpu_ref_init(const rlx_host *host)
{
    if (!host || !host->register_backend)
        return RLX_ERR_INVALID_ARGUMENT;

    void *self = rlx__cpu_ref_backend_new(host);
    if (!self)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "cpu-ref: out of memory while registering. "
                               "Fix: free memory and retry");

    const rlx_backend_info info = {
        .struct_size = sizeof(rlx_backend_info),
        .id = "cpu-ref",
        .device_kind = RLX_DEVICE_CPU,
        .device_name = NULL,
        .priority = RLX_PRIORITY_REFERENCE,
        /* buffers are host memory, so device I/O is free: execute reads
         * bound inputs from and writes bound outputs to the buffers
         * directly, with no copy through the core's slots */
        .flags = RLX_BACKEND_EXECUTES | RLX_BACKEND_DEVICE_IO,
        .description = "portable C11 reference CPU backend (all ops, "
                       "all dtypes, plain loops)",
        .vtable = &cpu_ref_vtable,
        .backend = self,
    };
    rlx_status st = rlx_register_backend(host, &info);
    if (st != RLX_OK)
        /* not registered: the core never calls destroy */
        rlx__cpu_ref_backend_free(self);
    return st;
}
