/*
 * cpu_ref.c - registration of the reference CPU backend: its info, its
 * vtable and the op-support table.
 *
 * The reference backend favours being obviously right over being fast:
 * other backends are checked against it, so every kernel is a plain loop
 * that accumulates in double.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <rlx/plugin.h>

#include "cpu_ref.h"
#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_fail(const rlx_host *host, rlx_status status,
                             const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rlx_host_report(host, status, msg);
}

const char *rlx__cpu_ref_op_name(rlx_op op)
{
    switch ((int)op) {
#define RLX__CPU_REF_NAME(name, value, text, arity) \
    case value: return text;
        RLX_OP_MAP(RLX__CPU_REF_NAME)
#undef RLX__CPU_REF_NAME
    default: return "unknown";
    }
}

int rlx__cpu_ref_op_arity(rlx_op op)
{
    switch ((int)op) {
#define RLX__CPU_REF_ARITY(name, value, text, arity) \
    case value: return arity;
        RLX_OP_MAP(RLX__CPU_REF_ARITY)
#undef RLX__CPU_REF_ARITY
    default: return RLX__CPU_REF_OP_UNKNOWN;
    }
}

int rlx__cpu_ref_is_float_op(rlx_op op)
{
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL:
        return 0;
    default:
        return rlx__cpu_ref_op_arity(op) != RLX__CPU_REF_OP_UNKNOWN;
    }
}

/* Float ops on f32, f16 and bf16; sources, data movement, cast and fill
 * on every dtype of types.h. Unknown ops and dtypes answer 0. */
int rlx__cpu_ref_supports(rlx_op op, rlx_dtype dtype)
{
    if (rlx__cpu_ref_op_arity(op) == RLX__CPU_REF_OP_UNKNOWN)
        return 0;
    if (rlx__cpu_ref_is_float_op(op))
        return dtype == RLX_DTYPE_F32 || dtype == RLX_DTYPE_F16 ||
               dtype == RLX_DTYPE_BF16;
    switch (dtype) {
    case RLX_DTYPE_F32: case RLX_DTYPE_F16: case RLX_DTYPE_BF16:
    case RLX_DTYPE_F64: case RLX_DTYPE_I32: case RLX_DTYPE_I64:
    case RLX_DTYPE_I8: case RLX_DTYPE_U8: case RLX_DTYPE_BOOL:
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

static void cpu_ref_backend_destroy(void *backend)
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
    .backend_destroy = cpu_ref_backend_destroy,
    .buffer_write = rlx__cpu_ref_buffer_write,
};

rlx_status rlx__cpu_ref_init(const rlx_host *host)
{
    if (!host || !host->register_backend)
        return RLX_ERR_INVALID_ARGUMENT;

    rlx__cpu_ref *self = calloc(1, sizeof *self);
    if (!self)
        return rlx_host_report(host, RLX_ERR_OUT_OF_MEMORY,
                               "cpu-ref: out of memory while registering. "
                               "Fix: free memory and retry");
    self->host = host;

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
        free(self); /* not registered: the core never calls destroy */
    return st;
}
