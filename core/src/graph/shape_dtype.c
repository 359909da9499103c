/*
 * shape_dtype.c - dtype rules of the ops that take more than the float
 * dtypes (ABI 1.4): the arithmetic ops on integers, comparisons, logical
 * ops, where, bitwise ops, mod and argmax/argmin. One table row per op
 * gives the dtypes its inputs may have and the dtype of its result; the
 * float-only ops keep the rule in shape.c.
 */
#include <stdio.h>

#include "shape_internal.h"

enum {
    F = 1 << 0,  /* f32, f16, bf16, f64 */
    I = 1 << 1,  /* every integer dtype: i8 to i64, u8 to u64 */
    B = 1 << 2,  /* bool */
    S = 1 << 3,  /* signed integers only (i8 to i64): with I unset */
    A = 1 << 4,  /* any dtype of types.h */
    U = 1 << 5,  /* unsigned integers only (u8 to u64) */
    TO_BOOL = 1, /* result bool */
    TO_I64 = 2   /* result i64 */
};

typedef struct dtype_row {
    rlx_op op;
    unsigned allowed; /* of every input but where's condition */
    int result;       /* 0: the (data) input's dtype, else TO_* */
} dtype_row;

static const dtype_row rows[] = {
    { RLX_OP_ADD, F | I, 0 }, { RLX_OP_SUB, F | I, 0 },
    { RLX_OP_MUL, F | I, 0 }, { RLX_OP_DIV, F | I, 0 },
    { RLX_OP_MAX, F | I, 0 }, { RLX_OP_MIN, F | I, 0 },
    { RLX_OP_POW, F | I, 0 }, { RLX_OP_NEG, F | S, 0 },
    { RLX_OP_ABS, F | I, 0 }, { RLX_OP_RELU, F | I, 0 },
    { RLX_OP_REDUCE_SUM, F | I, 0 }, { RLX_OP_REDUCE_MEAN, F | I, 0 },
    { RLX_OP_REDUCE_MAX, F | I, 0 },
    { RLX_OP_EQUAL, F | I | B, TO_BOOL }, { RLX_OP_LESS, F | I, TO_BOOL },
    { RLX_OP_LESS_EQUAL, F | I, TO_BOOL },
    { RLX_OP_GREATER, F | I, TO_BOOL },
    { RLX_OP_GREATER_EQUAL, F | I, TO_BOOL },
    { RLX_OP_LOGICAL_AND, B, 0 }, { RLX_OP_LOGICAL_OR, B, 0 },
    { RLX_OP_LOGICAL_XOR, B, 0 }, { RLX_OP_LOGICAL_NOT, B, 0 },
    { RLX_OP_WHERE, A, 0 }, { RLX_OP_CLIP, F | I, 0 },
    { RLX_OP_SIGN, F | I, 0 }, { RLX_OP_ISNAN, F, TO_BOOL },
    { RLX_OP_ISINF, F, TO_BOOL },
    { RLX_OP_BITWISE_AND, I, 0 }, { RLX_OP_BITWISE_OR, I, 0 },
    { RLX_OP_BITWISE_XOR, I, 0 }, { RLX_OP_BITWISE_NOT, I, 0 },
    { RLX_OP_PRELU, F | I, 0 }, { RLX_OP_MOD, F | I, 0 },
    { RLX_OP_REDUCE_MIN, F | I, 0 }, { RLX_OP_REDUCE_PROD, F | I, 0 },
    { RLX_OP_REDUCE_L1, F | I, 0 }, { RLX_OP_REDUCE_L2, F | I, 0 },
    { RLX_OP_REDUCE_SUM_SQUARE, F | I, 0 },
    { RLX_OP_BIT_SHIFT, U, 0 },
    { RLX_OP_ARGMAX, F | I, TO_I64 }, { RLX_OP_ARGMIN, F | I, TO_I64 },
};

static const dtype_row *find(rlx_op op)
{
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        if (rows[i].op == op)
            return &rows[i];
    return NULL;
}

int rlx__shape_has_dtype_row(rlx_op op)
{
    return find(op) != NULL;
}

static int allows(unsigned set, rlx_dtype t)
{
    switch (t) {
    case RLX_DTYPE_F32: case RLX_DTYPE_F16: case RLX_DTYPE_BF16:
    case RLX_DTYPE_F64:
        return (set & (F | A)) != 0;
    case RLX_DTYPE_I8: case RLX_DTYPE_I16: case RLX_DTYPE_I32:
    case RLX_DTYPE_I64:
        return (set & (I | S | A)) != 0;
    case RLX_DTYPE_U8: case RLX_DTYPE_U16: case RLX_DTYPE_U32:
    case RLX_DTYPE_U64:
        return (set & (I | U | A)) != 0;
    case RLX_DTYPE_BOOL: return (set & (B | A)) != 0;
    default: return 0;
    }
}

/* "a float or integer dtype" for SET, for messages. */
static const char *set_names(unsigned set)
{
    if (set & A)
        return "any dtype";
    switch (set) {
    case F | I | B: return "a float or integer dtype, or bool";
    case F | I: return "a float or integer dtype";
    case F | S: return "a float or signed integer dtype";
    case F: return "f32, f16, bf16 or f64";
    case I: return "an integer dtype";
    case B: return "bool";
    case U: return "an unsigned integer dtype (u8, u16, u32, u64)";
    default: return "another dtype";
    }
}

rlx_status rlx__shape_dtypes(const rlx__shape_ctx *c, rlx_dtype *result)
{
    const dtype_row *row = find(c->op);
    uint32_t first = c->op == RLX_OP_WHERE ? 1 : 0; /* where: a, b */
    if (c->op == RLX_OP_WHERE) {
        const rlx__node *cond = rlx__shape_in(c, 0);
        if (cond->dtype != RLX_DTYPE_BOOL)
            return rlx__shape_error(c, RLX_ERR_DTYPE,
                                    "the condition '%s' is %s. Fix: make "
                                    "it bool (compare, or cast it to bool)",
                                    cond->name, rlx_dtype_name(cond->dtype));
    }
    const rlx__node *a = rlx__shape_in(c, first);
    if (!allows(row->allowed, a->dtype))
        return rlx__shape_error(c, RLX_ERR_DTYPE,
                                "'%s' is %s, but %s takes %s. Fix: cast it "
                                "to one of those first", a->name,
                                rlx_dtype_name(a->dtype), rlx_op_name(c->op),
                                set_names(row->allowed));
    for (uint32_t i = first + 1; i < c->n_inputs; i++) {
        const rlx__node *b = rlx__shape_in(c, i);
        if (b->dtype != a->dtype)
            return rlx__shape_error(c, RLX_ERR_DTYPE,
                                    "dtypes differ: '%s' is %s, '%s' is %s. "
                                    "Fix: make both sides the same dtype "
                                    "(cast one)", a->name,
                                    rlx_dtype_name(a->dtype), b->name,
                                    rlx_dtype_name(b->dtype));
    }
    *result = row->result == TO_BOOL  ? RLX_DTYPE_BOOL
              : row->result == TO_I64 ? RLX_DTYPE_I64
                                      : a->dtype;
    return RLX_OK;
}
