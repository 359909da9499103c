/*
 * gpu_ops.c - the ops and dtypes the shared GPU compiler lowers (the
 * same for every vendor: the kernels are shared).
 */
#include <rlx/kit_names.h>

#include "gpu_internal.h"

/* The list stays explicit (not rlx_kit_op_is_float): an op a newer
 * ops.h adds is not lowered here until a kernel exists. */

int rlxg_supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    /* the integer widths of 1.4 (i16, u16, u32, u64) have no kernels
     * here yet: declined, so placement runs them on the CPU */
    if (rlx_dtype_size(dtype) == 0 || dtype > RLX_DTYPE_I8)
        return 0;
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL:
        return 1;
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
    case RLX_OP_RELU: case RLX_OP_GELU: case RLX_OP_SIGMOID:
    case RLX_OP_TANH: case RLX_OP_EXP: case RLX_OP_SIN: case RLX_OP_COS:
    case RLX_OP_NEG: case RLX_OP_ABS: case RLX_OP_LOG: case RLX_OP_SQRT:
    case RLX_OP_RSQRT: case RLX_OP_SILU: case RLX_OP_TAN: case RLX_OP_ATAN:
    case RLX_OP_MATMUL: case RLX_OP_SOFTMAX: case RLX_OP_LAYER_NORM:
    case RLX_OP_RMS_NORM: case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN:
    case RLX_OP_REDUCE_MAX:
        return rlx_kit_dtype_is_float(dtype);
    default:
        return 0;
    }
}

