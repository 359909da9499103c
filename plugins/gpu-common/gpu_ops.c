/*
 * gpu_ops.c - the ops and dtypes the shared GPU compiler lowers (the
 * same for every vendor: the kernels are shared). supports_op is asked
 * for the result's dtype, supports_node about the inputs'.
 */
#include <stdio.h>

#include <rlx/kit_names.h>

#include "gpu_internal.h"

/* The list stays explicit (not rlx_kit_op_is_float): an op a newer
 * ops.h adds is not lowered here until a kernel exists. */

static int is_signed(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_I16 || t == RLX_DTYPE_I32 ||
           t == RLX_DTYPE_I64;
}

static int is_unsigned(rlx_dtype t)
{
    return t == RLX_DTYPE_U8 || t == RLX_DTYPE_U16 || t == RLX_DTYPE_U32 ||
           t == RLX_DTYPE_U64;
}

/* f32, f16, bf16 and f64: the dtypes the elementwise ops and reductions
 * compute on (f64 in double: gk_ew_more.cu) */
static int is_real(rlx_dtype t)
{
    return rlx_kit_dtype_is_float(t) || t == RLX_DTYPE_F64;
}

/* floats and every integer width: the dtypes arithmetic takes */
static int is_number(rlx_dtype t)
{
    return is_real(t) || is_signed(t) || is_unsigned(t);
}

int rlxg_supports_op(void *backend, rlx_op op, rlx_dtype dtype)
{
    (void)backend;
    if (rlx_dtype_size(dtype) == 0)
        return 0;
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL:
    /* since 1.4: data movement by element bytes, any dtype */
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ELEMENTS:
    case RLX_OP_SCATTER_ND: case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
    case RLX_OP_WHERE:
        return 1;
    case RLX_OP_CUMSUM: case RLX_OP_RANGE:
        return dtype != RLX_DTYPE_BOOL;
    case RLX_OP_TOPK: case RLX_OP_ARGMAX: case RLX_OP_ARGMIN:
    case RLX_OP_NON_ZERO:
        return dtype == RLX_DTYPE_I64; /* the result: indices */
    /* the 1.0 arithmetic ops and reductions, integers too since 1.4 */
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW: case RLX_OP_ABS:
    case RLX_OP_RELU: case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN:
    case RLX_OP_REDUCE_MAX: case RLX_OP_CLIP: case RLX_OP_SIGN:
    case RLX_OP_PRELU: case RLX_OP_MOD: case RLX_OP_REDUCE_MIN:
    case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1: case RLX_OP_REDUCE_L2:
    case RLX_OP_REDUCE_SUM_SQUARE:
        return is_number(dtype);
    case RLX_OP_NEG:
        return is_real(dtype) || is_signed(dtype);
    /* bool results; the inputs are checked at compile */
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: case RLX_OP_LOGICAL_AND:
    case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR: case RLX_OP_LOGICAL_NOT:
    case RLX_OP_ISNAN: case RLX_OP_ISINF:
        return dtype == RLX_DTYPE_BOOL;
    case RLX_OP_BITWISE_AND: case RLX_OP_BITWISE_OR: case RLX_OP_BITWISE_XOR:
    case RLX_OP_BITWISE_NOT:
        return is_signed(dtype) || is_unsigned(dtype);
    case RLX_OP_BIT_SHIFT:
        return is_unsigned(dtype);
    /* elementwise on floats, f64 included (in double) */
    case RLX_OP_GELU: case RLX_OP_SIGMOID:
    case RLX_OP_TANH: case RLX_OP_EXP: case RLX_OP_SIN: case RLX_OP_COS:
    case RLX_OP_LOG: case RLX_OP_SQRT:
    case RLX_OP_RSQRT: case RLX_OP_SILU: case RLX_OP_TAN: case RLX_OP_ATAN:
    case RLX_OP_FLOOR: case RLX_OP_CEIL: case RLX_OP_ROUND:
    case RLX_OP_RECIPROCAL: case RLX_OP_ERF: case RLX_OP_LEAKY_RELU:
    case RLX_OP_ELU: case RLX_OP_SELU: case RLX_OP_SOFTPLUS:
    case RLX_OP_HARD_SIGMOID: case RLX_OP_HARD_SWISH: case RLX_OP_MISH:
    case RLX_OP_REDUCE_LOG_SUM_EXP:
    case RLX_OP_ASIN: case RLX_OP_ACOS: case RLX_OP_SINH: case RLX_OP_COSH:
    case RLX_OP_ASINH: case RLX_OP_ACOSH: case RLX_OP_ATANH:
    case RLX_OP_DET: /* in double (gk_det.cu); supports_node checks m */
        return is_real(dtype);
    /* f32, f16 and bf16 only, as docs/ops.md says */
    case RLX_OP_MATMUL: case RLX_OP_SOFTMAX: case RLX_OP_LAYER_NORM:
    case RLX_OP_RMS_NORM:
    case RLX_OP_CONV: case RLX_OP_CONV_TRANSPOSE: case RLX_OP_AVG_POOL:
    case RLX_OP_LP_POOL: case RLX_OP_BATCH_NORM: case RLX_OP_INSTANCE_NORM:
    case RLX_OP_GROUP_NORM:
        return rlx_kit_dtype_is_float(dtype);
    /* quantization (gk_quant.cu): the result's dtype; the inputs'
     * are checked by supports_node */
    case RLX_OP_QUANTIZE_LINEAR:
        return dtype == RLX_DTYPE_I8 || dtype == RLX_DTYPE_U8;
    case RLX_OP_DEQUANTIZE_LINEAR:
        return dtype == RLX_DTYPE_F32 || dtype == RLX_DTYPE_F16 ||
               dtype == RLX_DTYPE_BF16;
    case RLX_OP_MATMUL_INTEGER: case RLX_OP_CONV_INTEGER:
        return dtype == RLX_DTYPE_I32;
    case RLX_OP_GRID_SAMPLE: case RLX_OP_ROI_ALIGN: /* gk_sample.cu */
        return rlx_kit_dtype_is_float(dtype);
    case RLX_OP_MAX_POOL_INDEX: /* the result; supports_node checks x */
        return dtype == RLX_DTYPE_I64;
    case RLX_OP_MAX_POOL: case RLX_OP_RESIZE: /* bytes: nearest only */
        return rlx_kit_dtype_is_float(dtype) || dtype == RLX_DTYPE_I8 ||
               dtype == RLX_DTYPE_U8;
    default:
        return 0;
    }
}

int rlxg_supports_node(void *backend, const rlx_graph_view *graph,
                       uint32_t node, char *why, size_t why_size)
{
    (void)backend;
    /* supports_op sees only the result's dtype; every input dtype the
     * core admits for the other ops has a kernel, the quantization ops'
     * are narrower */
    const rlx_node_view *n = graph->nodes[node];
    if (n->op == RLX_OP_MAX_POOL_INDEX && n->n_inputs == 1 &&
        !rlx_kit_dtype_is_float(graph->nodes[n->inputs[0]]->dtype)) {
        snprintf(why, why_size, "no GPU kernel takes max_pool_index of %s "
                 "(f32, f16 or bf16 only)",
                 rlx_kit_dtype_name(graph->nodes[n->inputs[0]]->dtype));
        return 0;
    }
    if (n->op == RLX_OP_DET && n->n_inputs == 1) {
        const rlx_node_view *x = graph->nodes[n->inputs[0]];
        if (x->rank >= 2 && x->shape[x->rank - 1] > RLXG_DET_MAX_M) {
            snprintf(why, why_size, "the GPU det kernel takes matrices of "
                     "at most %d x %d (one in a block's shared memory), "
                     "not %lld x %lld", RLXG_DET_MAX_M, RLXG_DET_MAX_M,
                     (long long)x->shape[x->rank - 1],
                     (long long)x->shape[x->rank - 1]);
            return 0;
        }
    }
    if (n->op >= RLX_OP_QUANTIZE_LINEAR && n->op <= RLX_OP_CONV_INTEGER &&
        !rlxg_quant_dtypes_ok(graph, n)) {
        snprintf(why, why_size, "no GPU kernel takes %s with these input "
                 "dtypes (quantize: f32, f16 or bf16 x; dequantize: i8, u8 "
                 "or i32 x; the integer ops: i8 or u8 operands)",
                 rlx_kit_op_name(n->op));
        return 0;
    }
    return 1;
}
