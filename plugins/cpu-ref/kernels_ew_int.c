/*
 * kernels_ew_int.c - one element of an elementwise op on integers (and
 * bool), in int64. Arithmetic wraps as two's complement (done in uint64,
 * so C's signed overflow never happens); the store truncates to the
 * result's width. Division truncates toward zero; dividing by zero, or
 * taking a remainder by zero, gives 0 (docs/ops.md#integer-arithmetic).
 */
#include "cpu_ref_internal.h"

static int64_t wrap_add(int64_t x, int64_t y)
{
    return (int64_t)((uint64_t)x + (uint64_t)y);
}

static int64_t wrap_mul(int64_t x, int64_t y)
{
    return (int64_t)((uint64_t)x * (uint64_t)y);
}

static int64_t wrap_neg(int64_t x)
{
    return (int64_t)(0 - (uint64_t)x);
}

static int64_t int_div(int64_t x, int64_t y)
{
    if (y == 0)
        return 0;
    if (y == -1)
        return wrap_neg(x); /* INT64_MIN / -1 overflows in C */
    return x / y;
}

/* Remainder: with FLOOR, the sign of the divisor (Python's %); else the
 * sign of the dividend (C's %). */
static int64_t int_mod(int64_t x, int64_t y, int floor)
{
    if (y == 0 || y == -1)
        return 0; /* by zero: defined as 0; by -1: always 0 */
    int64_t r = x % y;
    if (floor && r != 0 && ((r < 0) != (y < 0)))
        r += y;
    return r;
}

/* X to the power Y by squaring, wrapping. A negative power is 1 / x^-y
 * truncated: 1 for x = 1, +-1 for x = -1, else 0. */
static int64_t int_pow(int64_t x, int64_t y)
{
    if (y < 0)
        return x == 1 ? 1 : x == -1 ? ((y & 1) ? -1 : 1) : 0;
    int64_t r = 1;
    while (y) {
        if (y & 1)
            r = wrap_mul(r, x);
        x = wrap_mul(x, x);
        y >>= 1;
    }
    return r;
}

/* bit_shift on an unsigned dtype: X holds the value zero-extended (u64:
 * its bits), so shifting the 64-bit pattern and storing at the result's
 * width drops the bits shifted out; a shift by 64 or more (or one whose
 * bits read as negative) leaves nothing. */
static int64_t bit_shift(int64_t x, int64_t y, int64_t right)
{
    uint64_t n = (uint64_t)y;
    if (n >= 64)
        return 0;
    return (int64_t)(right ? (uint64_t)x >> n : (uint64_t)x << n);
}

/* clip's bounds were rounded and saturated at compile (kernels_ew.c). */
static int64_t int_clip(const rlx__cpu_ref_ew *p, int64_t x)
{
    if (x < p->iattr[0])
        x = p->iattr[0];
    if (x > p->iattr[1])
        x = p->iattr[1];
    return x;
}

int64_t rlx__cpu_ref_int_op(rlx_op op, const rlx__cpu_ref_ew *p, int64_t x,
                            int64_t y)
{
    switch (op) {
    case RLX_OP_ADD: return wrap_add(x, y);
    case RLX_OP_SUB: return wrap_add(x, wrap_neg(y));
    case RLX_OP_MUL: return wrap_mul(x, y);
    case RLX_OP_DIV: return int_div(x, y);
    case RLX_OP_MAX: return x > y ? x : y;
    case RLX_OP_MIN: return x < y ? x : y;
    case RLX_OP_POW: return int_pow(x, y);
    case RLX_OP_NEG: return wrap_neg(x);
    case RLX_OP_ABS: return x < 0 ? wrap_neg(x) : x;
    case RLX_OP_RELU: return x > 0 ? x : 0;
    case RLX_OP_SIGN: return (x > 0) - (x < 0);
    case RLX_OP_CLIP: return int_clip(p, x);
    case RLX_OP_PRELU: return x < 0 ? wrap_mul(x, y) : x;
    case RLX_OP_MOD: return int_mod(x, y, p->iattr[0] == 0);
    case RLX_OP_LOGICAL_AND: return x && y;
    case RLX_OP_LOGICAL_OR: return x || y;
    case RLX_OP_LOGICAL_XOR: return !x != !y;
    case RLX_OP_LOGICAL_NOT: return !x;
    case RLX_OP_BITWISE_AND: return (int64_t)((uint64_t)x & (uint64_t)y);
    case RLX_OP_BITWISE_OR: return (int64_t)((uint64_t)x | (uint64_t)y);
    case RLX_OP_BITWISE_XOR: return (int64_t)((uint64_t)x ^ (uint64_t)y);
    case RLX_OP_BITWISE_NOT: return (int64_t)~(uint64_t)x;
    case RLX_OP_BIT_SHIFT: return bit_shift(x, y, p->iattr[0]);
    default: return 0; /* compile admits no other op here */
    }
}
