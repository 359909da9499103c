/*
 * kit_names.h - plugin kit: op and dtype names for messages, op arity,
 * and the op families backends sort ops into, all from the tables in
 * ops.h and types.h so no backend keeps its own copy.
 *
 * Not ABI (see kit.h): header-only; a value from a newer core answers
 * "unknown", never undefined behaviour.
 */
#ifndef RLX_KIT_NAMES_H
#define RLX_KIT_NAMES_H

#include "ops.h"
#include "types.h"

/* rlx_kit_op_arity's answer for an op value not in ops.h. */
#define RLX_KIT_OP_UNKNOWN (-2)

/* Lower-case op name ("matmul"); "unknown" for a value not in ops.h. */
static inline const char *rlx_kit_op_name(rlx_op op)
{
    switch ((int)op) {
#define RLX_KIT__OP_NAME(name, value, text, arity) case value: return text;
        RLX_OP_MAP(RLX_KIT__OP_NAME)
#undef RLX_KIT__OP_NAME
    default: return "unknown";
    }
}

/* Inputs of OP: RLX_OP_VARIADIC (-1) for one or more, or
 * RLX_KIT_OP_UNKNOWN for a value not in ops.h. */
static inline int rlx_kit_op_arity(rlx_op op)
{
    switch ((int)op) {
#define RLX_KIT__OP_ARITY(name, value, text, arity) case value: return arity;
        RLX_OP_MAP(RLX_KIT__OP_ARITY)
#undef RLX_KIT__OP_ARITY
    default: return RLX_KIT_OP_UNKNOWN;
    }
}

/* Nonzero for an op value ops.h defines. */
static inline int rlx_kit_op_is_known(rlx_op op)
{
    return rlx_kit_op_arity(op) != RLX_KIT_OP_UNKNOWN;
}

/* Nonzero for the sources: input, param, constant. */
static inline int rlx_kit_op_is_source(rlx_op op)
{
    return op == RLX_OP_INPUT || op == RLX_OP_PARAM || op == RLX_OP_CONSTANT;
}

/* Nonzero for the ops that compute in floating point (binary, unary,
 * matmul, softmax, norms, reductions); 0 for sources, data movement,
 * cast, fill and unknown values. */
static inline int rlx_kit_op_is_float(rlx_op op)
{
    switch (op) {
    case RLX_OP_INPUT: case RLX_OP_PARAM: case RLX_OP_CONSTANT:
    case RLX_OP_RESHAPE: case RLX_OP_TRANSPOSE: case RLX_OP_CONCAT:
    case RLX_OP_SLICE: case RLX_OP_GATHER: case RLX_OP_CAST:
    case RLX_OP_FILL:
    /* since 1.4: data movement and indexing */
    case RLX_OP_PAD: case RLX_OP_EXPAND: case RLX_OP_TILE:
    case RLX_OP_STRIDED_SLICE: case RLX_OP_GATHER_ELEMENTS:
    case RLX_OP_GATHER_ND: case RLX_OP_SCATTER_ELEMENTS:
    case RLX_OP_SCATTER_ND: case RLX_OP_CUMSUM: case RLX_OP_TOPK:
    case RLX_OP_RANGE: case RLX_OP_ONE_HOT: case RLX_OP_TRILU:
    case RLX_OP_NON_ZERO:
    /* quantization: integer operands, dtypes checked per op */
    case RLX_OP_QUANTIZE_LINEAR: case RLX_OP_DEQUANTIZE_LINEAR:
    case RLX_OP_MATMUL_INTEGER: case RLX_OP_CONV_INTEGER:
        return 0;
    default:
        return rlx_kit_op_is_known(op);
    }
}

/* Lower-case dtype name ("bf16"); "unknown" for a value not in types.h. */
static inline const char *rlx_kit_dtype_name(rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_F32: return "f32";
    case RLX_DTYPE_F16: return "f16";
    case RLX_DTYPE_BF16: return "bf16";
    case RLX_DTYPE_I32: return "i32";
    case RLX_DTYPE_I64: return "i64";
    case RLX_DTYPE_U8: return "u8";
    case RLX_DTYPE_BOOL: return "bool";
    case RLX_DTYPE_F64: return "f64";
    case RLX_DTYPE_I8: return "i8";
    case RLX_DTYPE_I16: return "i16";
    case RLX_DTYPE_U16: return "u16";
    case RLX_DTYPE_U32: return "u32";
    case RLX_DTYPE_U64: return "u64";
    default: return "unknown";
    }
}

/* Nonzero for the float dtypes the float ops run on: f32, f16, bf16. */
static inline int rlx_kit_dtype_is_float(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 || t == RLX_DTYPE_BF16;
}

#endif /* RLX_KIT_NAMES_H */
