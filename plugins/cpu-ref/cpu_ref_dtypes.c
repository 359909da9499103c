/*
 * cpu_ref_dtypes.c - which result dtypes cpu-ref runs the ops on that
 * take more than the float dtypes: the ops of values 100-149 (ABI 1.4)
 * and the older arithmetic ops, which also run on integers since 1.4,
 * and the elementwise ops and reductions on f64.
 * The float/data-movement split of cpu_ref.c does not describe them.
 */
#include "cpu_ref_internal.h"

int rlx__cpu_ref_is_int(rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_I8: case RLX_DTYPE_U8: case RLX_DTYPE_I16:
    case RLX_DTYPE_U16: case RLX_DTYPE_I32: case RLX_DTYPE_U32:
    case RLX_DTYPE_I64: case RLX_DTYPE_U64: case RLX_DTYPE_BOOL:
        return 1;
    default:
        return 0;
    }
}

void rlx__cpu_ref_int_range(rlx_dtype t, int64_t *lo, int64_t *hi)
{
    switch (t) {
    case RLX_DTYPE_I8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case RLX_DTYPE_U8: *lo = 0; *hi = UINT8_MAX; break;
    case RLX_DTYPE_BOOL: *lo = 0; *hi = 1; break;
    case RLX_DTYPE_I16: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case RLX_DTYPE_U16: *lo = 0; *hi = UINT16_MAX; break;
    case RLX_DTYPE_I32: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case RLX_DTYPE_U32: *lo = 0; *hi = UINT32_MAX; break;
    /* u64: its int64 bit pattern runs over the whole range; the kernels
     * that order values compare it unsigned (kernels_ew_u64.c) */
    case RLX_DTYPE_U64: *lo = 0; *hi = -1; break;
    default: *lo = INT64_MIN; *hi = INT64_MAX; break;
    }
}

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

static int is_number(rlx_dtype t)
{
    return rlx_kit_dtype_is_float(t) || is_signed(t) || is_unsigned(t);
}

int rlx__cpu_ref_takes_f64(rlx_op op)
{
    switch (op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW:
    case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN: case RLX_OP_REDUCE_MAX:
        return 1;
    default:
        /* the unary ops of 1.0 and the 1.4 ops of values 100-149 that
         * compute on floats */
        return (op >= RLX_OP_RELU && op <= RLX_OP_ATAN) ||
               (op >= 100 && op < 150 && rlx__cpu_ref_supports_14(
                                             op, RLX_DTYPE_F32));
    }
}

int rlx__cpu_ref_supports_14(rlx_op op, rlx_dtype t)
{
    if (t == RLX_DTYPE_F64 && op != RLX_OP_WHERE)
        return rlx__cpu_ref_takes_f64(op);
    switch (op) {
    case RLX_OP_ADD: case RLX_OP_SUB: case RLX_OP_MUL: case RLX_OP_DIV:
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_POW: case RLX_OP_ABS:
    case RLX_OP_RELU: case RLX_OP_REDUCE_SUM: case RLX_OP_REDUCE_MEAN:
    case RLX_OP_REDUCE_MAX: case RLX_OP_CLIP: case RLX_OP_SIGN:
    case RLX_OP_PRELU: case RLX_OP_MOD: case RLX_OP_REDUCE_MIN:
    case RLX_OP_REDUCE_PROD: case RLX_OP_REDUCE_L1: case RLX_OP_REDUCE_L2:
    case RLX_OP_REDUCE_SUM_SQUARE:
        return is_number(t);
    case RLX_OP_NEG: return rlx_kit_dtype_is_float(t) || is_signed(t);
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: case RLX_OP_LOGICAL_AND:
    case RLX_OP_LOGICAL_OR: case RLX_OP_LOGICAL_XOR: case RLX_OP_LOGICAL_NOT:
    case RLX_OP_ISNAN: case RLX_OP_ISINF:
        return t == RLX_DTYPE_BOOL; /* the result; inputs checked at compile */
    case RLX_OP_WHERE: return rlx_dtype_size(t) != 0;
    case RLX_OP_BITWISE_AND: case RLX_OP_BITWISE_OR: case RLX_OP_BITWISE_XOR:
    case RLX_OP_BITWISE_NOT:
        return is_number(t) && !rlx_kit_dtype_is_float(t);
    case RLX_OP_ARGMAX: case RLX_OP_ARGMIN: return t == RLX_DTYPE_I64;
    case RLX_OP_FLOOR: case RLX_OP_CEIL: case RLX_OP_ROUND:
    case RLX_OP_RECIPROCAL: case RLX_OP_ERF: case RLX_OP_LEAKY_RELU:
    case RLX_OP_ELU: case RLX_OP_SELU: case RLX_OP_SOFTPLUS:
    case RLX_OP_HARD_SIGMOID: case RLX_OP_HARD_SWISH: case RLX_OP_MISH:
    case RLX_OP_REDUCE_LOG_SUM_EXP: case RLX_OP_ASIN: case RLX_OP_ACOS:
    case RLX_OP_SINH: case RLX_OP_COSH: case RLX_OP_ASINH: case RLX_OP_ACOSH:
    case RLX_OP_ATANH:
        return rlx_kit_dtype_is_float(t);
    case RLX_OP_BIT_SHIFT: return is_unsigned(t);
    default:
        return 0;
    }
}

/* The ops whose integer or mixed-dtype forms run on kernels_ew.c,
 * kernels_reduce_ext.c or kernels_arg.c. */
int rlx__cpu_ref_is_ew(const rlx_graph_view *g, const rlx_node_view *v)
{
    if (v->op >= 100 && v->op < 150)
        return 1;
    if (!rlx__cpu_ref_supports_14(v->op, v->dtype) || v->n_inputs == 0)
        return 0;
    const rlx_node_view *in = g->nodes[v->inputs[0]];
    return in && (rlx__cpu_ref_is_int(in->dtype) ||
                  in->dtype == RLX_DTYPE_F64);
}
