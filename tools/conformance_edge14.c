/*
 * conformance_edge14.c - the edge cases docs/ops.md gives for the ABI 1.4
 * ops of values 100-149, with the values the doc prescribes: comparisons
 * with NaN and -0, round's ties, integer division and mod by zero and
 * their sign rules, wrap-around, clip's integer bounds, argmax ties and
 * NaN, activations at -inf, the new reductions of an empty axis, the
 * inverse functions outside their domains and shifts by the width.
 * conformance_edge.c runs them like its own.
 */
#include <math.h>
#include <stdint.h>

#include "conformance_edge.h"

#define SEC_CMP "edge-comparisons-with-nan-and-signed-zero"
#define SEC_ROUND "edge-round-half-to-even"
#define SEC_IDIV "edge-integer-division-and-mod"
#define SEC_WRAP "edge-integer-wrap-around"
#define SEC_CLIP "edge-clip-bounds"
#define SEC_ARG "edge-argmax-ties-and-nan"
#define SEC_ACT "edge-activations-at-infinity"
#define SEC_EMPTY "edge-empty-tensors"
#define SEC_DOMAIN "edge-inverse-functions-outside-their-domain"
#define SEC_SHIFT "edge-shifts-by-the-width"

int cli_conf_edge14_make(int i, edge *e)
{
    static const double nan_a[] = { NAN, NAN, 0.0, 1 };
    static const double nan_b[] = { NAN, 1, -0.0, 2 };
    static const double ties[] = { 0.5, 1.5, 2.5, -0.5, -2.5, 3.5 };
    static const double num[] = { 7, -7, 7, 5, -2147483648.0 };
    static const double den[] = { -2, 2, 0, 0, -1 };
    static const double inf4[] = { -INFINITY, INFINITY, NAN, 0 };
    int64_t d4[] = { 4 }, d6[] = { 6 }, d5[] = { 5 }, d2[] = { 2 };
    int64_t d1[] = { 1 };
    int rc = 0;

    switch (i) {
    case 0:
    case 1:
        begin(e, i == 0 ? "equal of NaN, NaN/1, 0/-0, 1/2"
                        : "less_equal of NaN, NaN/1, 0/-0, 1/2",
              SEC_CMP, i == 0 ? RLX_OP_EQUAL : RLX_OP_LESS_EQUAL);
        e->out = RLX_DTYPE_BOOL;
        rc = input(e, 1, d4, nan_a) || input(e, 1, d4, nan_b);
        result(e, 1, d4, (double[]){ 0, 0, 1, i == 1 }, 4);
        break;
    case 2:
        begin(e, "round of 0.5, 1.5, 2.5, -0.5, -2.5, 3.5", SEC_ROUND,
              RLX_OP_ROUND);
        rc = input(e, 1, d6, ties);
        result(e, 1, d6, (double[]){ 0, 2, 2, -0.0, -2, 4 }, 6);
        e->check_sign = 1;
        break;
    case 3:
        begin(e, "i32 div: 7/-2, -7/2, 7/0, 5/0, INT32_MIN/-1", SEC_IDIV,
              RLX_OP_DIV);
        e->out = RLX_DTYPE_I32;
        rc = input_of(e, RLX_DTYPE_I32, 1, d5, num) ||
             input_of(e, RLX_DTYPE_I32, 1, d5, den);
        result(e, 1, d5, (double[]){ -3, -3, 0, 0, -2147483648.0 }, 5);
        break;
    case 4:
    case 5:
        begin(e, i == 4 ? "i32 mod (fmod 0): 7%-2, -7%2, 7%0, 5%0, MIN%-1"
                        : "i32 mod (fmod 1): 7%-2, -7%2, 7%0, 5%0, MIN%-1",
              SEC_IDIV, RLX_OP_MOD);
        e->out = RLX_DTYPE_I32;
        rc = input_of(e, RLX_DTYPE_I32, 1, d5, num) ||
             input_of(e, RLX_DTYPE_I32, 1, d5, den);
        ints(e, 1, (int64_t[]){ i == 5 });
        result(e, 1, d5,
               i == 4 ? (double[]){ -1, 1, 0, 0, 0 }
                      : (double[]){ 1, -1, 0, 0, 0 }, 5);
        break;
    case 6:
        begin(e, "i8 add 100 + 100, -128 + -1 (wrapping)", SEC_WRAP,
              RLX_OP_ADD);
        e->out = RLX_DTYPE_I8;
        rc = input_of(e, RLX_DTYPE_I8, 1, d2, (double[]){ 100, -128 }) ||
             input_of(e, RLX_DTYPE_I8, 1, d2, (double[]){ 100, -1 });
        result(e, 1, d2, (double[]){ -56, 127 }, 2);
        break;
    case 7:
        begin(e, "i32 clip to [-2.5, 4.5] of -10, 10, 3, -2", SEC_CLIP,
              RLX_OP_CLIP);
        e->out = RLX_DTYPE_I32;
        rc = input_of(e, RLX_DTYPE_I32, 1, d4, (double[]){ -10, 10, 3, -2 });
        e->c.n_floats = 2;
        e->c.floats[0] = -2.5;
        e->c.floats[1] = 4.5;
        result(e, 1, d4, (double[]){ -2, 4, 3, -2 }, 4);
        break;
    case 8:
    case 9: {
        static const double v[] = { 1, 3, NAN, 3, NAN };
        static const double t[] = { 1, 3, 0, 3, -1 };
        begin(e, i == 8 ? "argmax of 1, 3, 0, 3, -1 (select_last 1)"
                        : "argmin of 1, 3, NaN, 3, NaN",
              SEC_ARG, i == 8 ? RLX_OP_ARGMAX : RLX_OP_ARGMIN);
        e->out = RLX_DTYPE_I64;
        rc = input(e, 1, d5, i == 8 ? t : v);
        ints(e, 3, (int64_t[]){ 0, 0, i == 8 });
        /* ties: the last 3 with select_last; NaN: the first NaN */
        result(e, 0, d1, (double[]){ i == 8 ? 3 : 2 }, 1);
        break;
    }
    case 10:
        begin(e, "mish of -inf, +inf, NaN, 0", SEC_ACT,
              RLX_OP_MISH);
        rc = input(e, 1, d4, inf4);
        result(e, 1, d4, (double[]){ 0, INFINITY, NAN, 0 }, 4);
        break;
    case 11:
        begin(e, "reduce_min over an empty axis", SEC_EMPTY,
              RLX_OP_REDUCE_MIN);
        rc = input(e, 2, (int64_t[]){ 2, 0 }, NULL);
        ints(e, 2, (int64_t[]){ 0, 1 });
        result(e, 1, d2, (double[]){ INFINITY, INFINITY }, 2);
        break;
    case 12:
        begin(e, "asin of 1.5, -0, 1, NaN", SEC_DOMAIN, RLX_OP_ASIN);
        rc = input(e, 1, d4, (double[]){ 1.5, -0.0, 1, NAN });
        result(e, 1, d4, (double[]){ NAN, -0.0, 1.5707963267948966, NAN }, 4);
        e->check_sign = 1;
        break;
    case 13:
        begin(e, "atanh of 1, -1, 2, -0", SEC_DOMAIN, RLX_OP_ATANH);
        rc = input(e, 1, d4, (double[]){ 1, -1, 2, -0.0 });
        result(e, 1, d4, (double[]){ INFINITY, -INFINITY, NAN, -0.0 }, 4);
        e->check_sign = 1;
        break;
    case 14:
        begin(e, "acosh of 0.5, 1, +inf, NaN",
              SEC_DOMAIN, RLX_OP_ACOSH);
        rc = input(e, 1, d4, (double[]){ 0.5, 1, INFINITY, NAN });
        result(e, 1, d4, (double[]){ NAN, 0, INFINITY, NAN }, 4);
        break;
    case 15:
    case 16:
        begin(e, i == 15 ? "u8 bit_shift left: 1<<7, 1<<8, 255<<1, 3<<0"
                         : "u8 bit_shift right: 128>>7, 255>>8, 255>>9, 3>>0",
              SEC_SHIFT, RLX_OP_BIT_SHIFT);
        e->out = RLX_DTYPE_U8;
        rc = input_of(e, RLX_DTYPE_U8, 1, d4,
                      i == 15 ? (double[]){ 1, 1, 255, 3 }
                              : (double[]){ 128, 255, 255, 3 }) ||
             input_of(e, RLX_DTYPE_U8, 1, d4,
                      i == 15 ? (double[]){ 7, 8, 1, 0 }
                              : (double[]){ 7, 8, 9, 0 });
        ints(e, 1, (int64_t[]){ i == 15 ? RLX_BIT_SHIFT_LEFT
                                        : RLX_BIT_SHIFT_RIGHT });
        result(e, 1, d4,
               i == 15 ? (double[]){ 128, 0, 254, 3 }
                       : (double[]){ 1, 0, 0, 3 }, 4);
        break;
    default:
        return 1;
    }
    if (e->out != RLX_DTYPE_F32)
        e->tol = 0; /* integer and bool results: exact */
    return rc ? -1 : 0;
}
