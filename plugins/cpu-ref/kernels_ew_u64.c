/*
 * kernels_ew_u64.c - the integer ops whose result depends on reading the
 * 64 bits as unsigned: u64 is carried in the int64 of kernels_ew_int.c
 * as its bit pattern, which is right for the wrapping ops (add, sub,
 * mul, the bitwise ops, shifts) but not for those that order or divide.
 * Those come here for u64 operands. The narrower unsigned dtypes hold
 * their values exactly in an int64 and need none of this.
 */
#include <math.h>

#include "cpu_ref_internal.h"

int rlx__cpu_ref_u64_orders(rlx_op op)
{
    switch (op) {
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_DIV: case RLX_OP_MOD:
    case RLX_OP_CLIP: case RLX_OP_RELU: case RLX_OP_SIGN: case RLX_OP_ABS:
    case RLX_OP_PRELU: case RLX_OP_POW:
        return 1;
    default:
        return 0;
    }
}

/* X to the power Y by squaring, wrapping modulo 2^64. */
static uint64_t u64_pow(uint64_t x, uint64_t y)
{
    uint64_t r = 1;
    while (y) {
        if (y & 1)
            r *= x;
        x *= x;
        y >>= 1;
    }
    return r;
}

uint64_t rlx__cpu_ref_u64_op(rlx_op op, const rlx__cpu_ref_ew *p,
                             uint64_t x, uint64_t y)
{
    switch (op) {
    case RLX_OP_MAX: return x > y ? x : y;
    case RLX_OP_MIN: return x < y ? x : y;
    case RLX_OP_DIV: return y ? x / y : 0; /* by zero: 0, as for ints */
    case RLX_OP_MOD: return y ? x % y : 0; /* both signs agree: fmod too */
    case RLX_OP_CLIP: {
        /* bounds kept as bit patterns by ew_prepare (u64_bound) */
        uint64_t lo = (uint64_t)p->iattr[0], hi = (uint64_t)p->iattr[1];
        x = x < lo ? lo : x;
        return x > hi ? hi : x; /* lo > hi: hi, NumPy's rule */
    }
    case RLX_OP_RELU: case RLX_OP_ABS: case RLX_OP_PRELU:
        return x; /* never negative */
    case RLX_OP_SIGN: return x != 0;
    case RLX_OP_POW: return u64_pow(x, y);
    default: return 0; /* the caller sends only u64_orders ops */
    }
}

int64_t rlx__cpu_ref_u64_bound(double b, int up)
{
    double v = up ? ceil(b) : floor(b);
    if (isnan(v) || v <= 0)
        return isnan(v) && !up ? -1 : 0; /* -1: all ones, UINT64_MAX */
    if (v >= 18446744073709551616.0)
        return -1;
    return (int64_t)(uint64_t)v;
}
