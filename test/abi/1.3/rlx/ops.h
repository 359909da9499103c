/*
 * rlx/ops.h - operation kinds and their attribute layouts.
 *
 * Values are explicit and only grow. A backend that meets an op value it
 * does not know answers "unsupported" from supports_op.
 *
 * Attributes travel as two arrays on each node (int_attrs, float_attrs);
 * the table below gives each op's layout. A missing trailing attribute
 * takes its default, so appending an attribute is a compatible change.
 *
 * Float ops (binary, unary, matmul, softmax, norms, reductions) take
 * f32, f16 or bf16; f16 and bf16 compute as if in f32 and round the
 * result. Data movement ops take any dtype.
 *
 * Broadcasting follows NumPy: shapes are aligned from the right, and a
 * dimension of 1 stretches to match the other.
 *
 * Since which ABI version each value exists: the list below is grouped by
 * version ("--- since 1.0 ---", "--- since 1.1 ---"); a backend built for
 * an older minor never declares the newer ops. docs/ops.md has every
 * op's attributes, shape rules and edge cases.
 */
#ifndef RLX_OPS_H
#define RLX_OPS_H

/* X(NAME, value, lower-case name, number of inputs) */
#define RLX_OP_MAP(X)                                                        \
    /* --- since 1.0: every op up to and including softmax ---          */  \
    /* sources: no inputs */                                                 \
    X(INPUT, 1, "input", 0)       /* fed at each run */                      \
    X(PARAM, 2, "param", 0)       /* named weight, set once */               \
    X(CONSTANT, 3, "constant", 0) /* data embedded in the graph */           \
    /* binary, broadcasting, same dtype on both sides */                     \
    X(ADD, 10, "add", 2)                                                     \
    X(SUB, 11, "sub", 2)                                                     \
    X(MUL, 12, "mul", 2)                                                     \
    X(DIV, 13, "div", 2)                                                     \
    X(MAX, 14, "max", 2)                                                     \
    X(MIN, 15, "min", 2)                                                     \
    X(POW, 16, "pow", 2)                                                     \
    /* unary, elementwise */                                                 \
    X(RELU, 30, "relu", 1)                                                   \
    X(GELU, 31, "gelu", 1) /* int_attrs[0]: 0 erf form (default), 1 tanh */  \
    X(SIGMOID, 32, "sigmoid", 1)                                             \
    X(TANH, 33, "tanh", 1)                                                   \
    X(EXP, 34, "exp", 1)                                                     \
    X(SIN, 35, "sin", 1)                                                     \
    X(COS, 36, "cos", 1)                                                     \
    X(NEG, 37, "neg", 1)                                                     \
    X(ABS, 38, "abs", 1)                                                     \
    X(LOG, 39, "log", 1)                                                     \
    X(SQRT, 40, "sqrt", 1)                                                   \
    X(RSQRT, 41, "rsqrt", 1)                                                 \
    X(SILU, 42, "silu", 1)                                                   \
    X(TAN, 43, "tan", 1)                                                     \
    X(ATAN, 44, "atan", 1)                                                   \
    /* structured */                                                         \
    /* matmul: a [..., m, k] x b [..., k, n] -> [..., m, n]; batch dims  */  \
    /* broadcast; a rank-1 side is a vector. int_attrs: [0] transpose a, */  \
    /* [1] transpose b (swap the last two dims), default 0.             */  \
    X(MATMUL, 60, "matmul", 2)                                               \
    /* softmax: int_attrs [0] axis, default -1 (negative counts from the */  \
    /* end); [1] causal, default 0: with rank >= 2 and axis the last,    */  \
    /* entries with column j > i + (cols - rows) of each [rows, cols]    */  \
    /* matrix are excluded (weight 0), as in masked self-attention.      */  \
    X(SOFTMAX, 61, "softmax", 1)                                             \
    /* --- since 1.1: the norms, reductions, data movement and fill,    */  \
    /* and softmax's causal attribute ---                                */  \
    /* layer_norm(x, gamma, beta) over the last axis; gamma and beta are */  \
    /* [x.shape[-1]]. float_attrs [0] epsilon, default 1e-5.             */  \
    X(LAYER_NORM, 62, "layer_norm", 3)                                       \
    /* rms_norm(x, gamma) over the last axis: x / sqrt(mean(x^2) + eps)  */  \
    /* * gamma. float_attrs [0] epsilon, default 1e-6.                   */  \
    X(RMS_NORM, 63, "rms_norm", 2)                                           \
    /* reductions: int_attrs [0] keepdims (default 0), [1..] the axes    */  \
    /* (none: every axis). Reducing an empty axis: sum 0, mean NaN, max  */  \
    /* -inf.                                                             */  \
    X(REDUCE_SUM, 64, "reduce_sum", 1)                                       \
    X(REDUCE_MEAN, 65, "reduce_mean", 1)                                     \
    X(REDUCE_MAX, 66, "reduce_max", 1)                                       \
    /* data movement; any dtype                                          */  \
    /* reshape: int_attrs = the new shape; one entry may be -1 (inferred) */ \
    X(RESHAPE, 70, "reshape", 1)                                             \
    /* transpose: int_attrs = the permutation (none: reverse the dims)   */  \
    X(TRANSPOSE, 71, "transpose", 1)                                         \
    /* concat: one or more inputs; int_attrs [0] axis, default 0         */  \
    X(CONCAT, 72, "concat", -1)                                              \
    /* slice: int_attrs = (axis, start, end) triples; negative start and */  \
    /* end count from the end, both clamp to [0, dim]; step 1; axes not  */  \
    /* named are kept whole.                                             */  \
    X(SLICE, 73, "slice", 1)                                                 \
    /* gather(data, indices): int_attrs [0] axis, default 0; indices are */  \
    /* i32 or i64; result shape data[:axis] + indices + data[axis+1:].   */  \
    /* An index outside [0, dim) fails the run (RLX_ERR_INVALID_ARGUMENT).*/ \
    X(GATHER, 74, "gather", 2)                                               \
    /* cast: int_attrs [0] the target rlx_dtype. Float to int truncates   */ \
    /* toward zero and saturates; NaN becomes 0. To f16/bf16 rounds to   */  \
    /* nearest even.                                                     */  \
    X(CAST, 75, "cast", 1)                                                   \
    /* fill: no inputs; int_attrs [0] dtype, [1..] the shape;            */  \
    /* float_attrs [0] the value (default 0).                            */  \
    X(FILL, 76, "fill", 0)

typedef enum rlx_op {
    RLX_OP_INVALID = 0, /* since 1.0; the others: see RLX_OP_MAP */
#define RLX__OP_ENUM(name, value, text, arity) RLX_OP_##name = value,
    RLX_OP_MAP(RLX__OP_ENUM)
#undef RLX__OP_ENUM
    RLX__OP_FORCE_INT = 0x7fffffff
} rlx_op;

/* Arity -1: one or more inputs. */
#define RLX_OP_VARIADIC (-1)

/* Attribute indices, named so code does not use bare numbers. The first
 * four since 1.0, the rest since 1.1. */
enum {
    RLX_ATTR_GELU_APPROX = 0,
    RLX_ATTR_MATMUL_TRANSPOSE_A = 0,
    RLX_ATTR_MATMUL_TRANSPOSE_B = 1,
    RLX_ATTR_SOFTMAX_AXIS = 0,
    RLX_ATTR_SOFTMAX_CAUSAL = 1, /* since 1.1 */
    RLX_ATTR_NORM_EPSILON = 0,   /* float_attrs */
    RLX_ATTR_REDUCE_KEEPDIMS = 0,
    RLX_ATTR_REDUCE_AXES = 1,    /* first of the axes */
    RLX_ATTR_CONCAT_AXIS = 0,
    RLX_ATTR_GATHER_AXIS = 0,
    RLX_ATTR_CAST_DTYPE = 0,
    RLX_ATTR_FILL_DTYPE = 0,
    RLX_ATTR_FILL_SHAPE = 1,     /* first dimension */
    RLX_ATTR_FILL_VALUE = 0      /* float_attrs */
};

#define RLX_GELU_ERF 0
#define RLX_GELU_TANH 1

#endif /* RLX_OPS_H */
