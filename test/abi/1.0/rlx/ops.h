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
 * Broadcasting follows NumPy: shapes are aligned from the right, and a
 * dimension of 1 stretches to match the other.
 */
#ifndef RLX_OPS_H
#define RLX_OPS_H

/* X(NAME, value, lower-case name, number of inputs) */
#define RLX_OP_MAP(X)                                                        \
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
    /* softmax: int_attrs[0] axis, default -1 (negative counts from end) */  \
    X(SOFTMAX, 61, "softmax", 1)

typedef enum rlx_op {
    RLX_OP_INVALID = 0,
#define RLX__OP_ENUM(name, value, text, arity) RLX_OP_##name = value,
    RLX_OP_MAP(RLX__OP_ENUM)
#undef RLX__OP_ENUM
    RLX__OP_FORCE_INT = 0x7fffffff
} rlx_op;

/* Attribute indices, named so code does not use bare numbers. */
enum {
    RLX_ATTR_GELU_APPROX = 0,
    RLX_ATTR_MATMUL_TRANSPOSE_A = 0,
    RLX_ATTR_MATMUL_TRANSPOSE_B = 1,
    RLX_ATTR_SOFTMAX_AXIS = 0
};

#define RLX_GELU_ERF 0
#define RLX_GELU_TANH 1

#endif /* RLX_OPS_H */
