/*
 * conformance_ops14.c - the cases `rlx conformance` makes for the ops of
 * values 100-149 (ABI 1.4): comparisons, logical and bitwise ops, where,
 * clip, rounding, isnan/isinf, the activations, prelu, mod, the added
 * reductions and argmax/argmin, the inverse trigonometric and hyperbolic
 * functions and bit_shift, on every dtype each takes. Values are
 * drawn so that ties (equal operands, halves for round) and the special
 * values (NaN, infinities, zero divisors) occur, since that is where
 * backends disagree.
 */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"

static int64_t rnd(uint64_t *rng, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(cli_rng_next(rng) % (uint64_t)(hi - lo + 1));
}

static int is_float(rlx_dtype d)
{
    return d == RLX_DTYPE_F32 || d == RLX_DTYPE_F16 || d == RLX_DTYPE_BF16 ||
           d == RLX_DTYPE_F64;
}

void cli_conf_range(const conf_op *o, rlx_dtype dt, double *lo, double *hi)
{
    *lo = o->lo;
    *hi = o->hi;
    if (is_float(dt) || dt == RLX_DTYPE_BOOL)
        return;
    if (o->lo == -3 && o->hi == 3)
        return; /* the comparisons and argmax: small, so ties happen */
    switch (dt) {
    case RLX_DTYPE_I8: *lo = -128; *hi = 128; break;
    case RLX_DTYPE_U8: *lo = 0; *hi = 256; break;
    case RLX_DTYPE_U16: case RLX_DTYPE_U32: case RLX_DTYPE_U64:
        *lo = 0; *hi = 1000; break;
    default: *lo = -1000; *hi = 1000; break;
    }
    if (o->op == RLX_OP_POW && dt != RLX_DTYPE_I8 && dt != RLX_DTYPE_U8) {
        *lo = -50; /* no exact power is lost: results fit in i32 */
        *hi = 50;
    }
}

/* Round every float input to a multiple of 1/2 (ties for round, equal
 * operands for comparisons). */
static void halves(conf_case *c)
{
    for (uint32_t k = 0; k < c->n_inputs; k++)
        if (is_float(c->inputs[k].dtype))
            for (size_t i = 0; i < c->inputs[k].count; i++)
                cli_tensor_set(&c->inputs[k], i,
                               round(cli_tensor_get(&c->inputs[k], i) * 2) /
                                   2);
}

/* Put NaN, +inf, -inf, -0 at the front of a float input (case 3, or
 * whichever case has room). */
static void specials(conf_case *c, uint32_t k)
{
    static const double v[4] = { NAN, INFINITY, -INFINITY, -0.0 };
    cli_tensor *t = &c->inputs[k];
    if (!is_float(t->dtype))
        return;
    for (size_t i = 0; i < t->count && i < 4; i++)
        cli_tensor_set(t, i, v[i]);
}

static int make_compare(const conf_op *o, rlx_dtype dt, int which,
                        uint64_t *rng, conf_case *c)
{
    int rc = cli_conf_make_binary(o, dt, which, rng, c);
    if (rc == 0) {
        halves(c);
        if (which == 1)
            specials(c, 0);
    }
    return rc;
}

static int make_tie_unary(const conf_op *o, rlx_dtype dt, int which,
                          uint64_t *rng, conf_case *c)
{
    int rc = cli_conf_make_unary(o, dt, which, rng, c);
    if (rc == 0) {
        if (o->op == RLX_OP_ROUND || o->op == RLX_OP_FLOOR ||
            o->op == RLX_OP_CEIL || o->op == RLX_OP_SIGN)
            halves(c);
        if (which == 1)
            specials(c, 0);
    }
    return rc;
}

/* isinf: the specials always, and each detect_* setting in turn. */
static int make_isinf(const conf_op *o, rlx_dtype dt, int which,
                      uint64_t *rng, conf_case *c)
{
    int rc = cli_conf_make_unary(o, dt, which, rng, c);
    if (rc == 0) {
        specials(c, 0);
        int64_t flags[2] = { which != 1, which != 3 };
        c->n_ints = 2;
        memcpy(c->ints, flags, sizeof flags);
    }
    return rc;
}

/* reciprocal: away from zero, except the specials of case 1. */
static int make_reciprocal(const conf_op *o, rlx_dtype dt, int which,
                           uint64_t *rng, conf_case *c)
{
    int rc = cli_conf_make_unary(o, dt, which, rng, c);
    for (size_t i = 0; rc == 0 && i < c->inputs[0].count; i++) {
        double v = cli_tensor_get(&c->inputs[0], i);
        cli_tensor_set(&c->inputs[0], i, v < 0 ? v - 0.25 : v + 0.25);
    }
    if (rc == 0 && which == 1)
        specials(c, 0);
    return rc;
}

/* The activations' float attributes: absent (the defaults) in case 0,
 * random in the others. */
static int make_activation(const conf_op *o, rlx_dtype dt, int which,
                           uint64_t *rng, conf_case *c)
{
    int rc = cli_conf_make_unary(o, dt, which, rng, c);
    if (rc != 0 || which == 0)
        return rc;
    c->floats[0] = (double)rnd(rng, 1, 20) / 20.0;
    c->floats[1] = (double)rnd(rng, 1, 30) / 20.0;
    switch (o->op) {
    case RLX_OP_LEAKY_RELU: case RLX_OP_ELU: c->n_floats = 1; break;
    case RLX_OP_SELU: case RLX_OP_HARD_SIGMOID: c->n_floats = 2; break;
    default: break;
    }
    if (which == 3)
        specials(c, 0);
    return rc;
}

/* clip: both bounds, only min, none, or min above max. */
static int make_clip(const conf_op *o, rlx_dtype dt, int which,
                     uint64_t *rng, conf_case *c)
{
    int rc = cli_conf_make_unary(o, dt, which, rng, c);
    if (rc != 0)
        return rc;
    double lo, hi;
    cli_conf_range(o, dt, &lo, &hi);
    double a = lo + (hi - lo) * (double)rnd(rng, 10, 45) / 100.0;
    double b = lo + (hi - lo) * (double)rnd(rng, 55, 90) / 100.0;
    if (which == 0) {
        c->n_floats = 2;
        c->floats[0] = a + 0.5; /* integers: rounded inward */
        c->floats[1] = b - 0.5;
    } else if (which == 1) {
        c->n_floats = 1;
        c->floats[0] = a;
        specials(c, 0);
    } else if (which == 3) {
        c->n_floats = 2;
        c->floats[0] = b;
        c->floats[1] = a;
    }
    return 0;
}

/* mod: fmod 1 for floats (divisors away from zero), 0 or 1 for integers
 * (zero divisors included). */
static int make_mod(const conf_op *o, rlx_dtype dt, int which,
                    uint64_t *rng, conf_case *c)
{
    int rc = cli_conf_make_binary(o, dt, which, rng, c);
    if (rc != 0)
        return rc;
    int64_t fmod_ = is_float(dt) ? 1 : which % 2;
    c->n_ints = 1;
    c->ints[0] = fmod_;
    if (is_float(dt))
        for (size_t i = 0; i < c->inputs[1].count; i++) {
            double v = cli_tensor_get(&c->inputs[1], i);
            cli_tensor_set(&c->inputs[1], i, v < 0 ? v - 0.5 : v + 0.5);
        }
    return 0;
}

/* where(cond, a, b): each input spans some dims of a [d0, d1, d2] and
 * is 1 (or absent) on the others, so all three broadcast together; a
 * scalar condition in case 3, an empty d0 in case 2. */
static int make_where(const conf_op *o, rlx_dtype dt, int which,
                      uint64_t *rng, conf_case *c)
{
    int64_t out[3], s[3];
    double lo, hi;
    cli_conf_range(o, dt, &lo, &hi);
    for (int d = 0; d < 3; d++)
        out[d] = which == 2 && d == 0 ? 0 : rnd(rng, 2, 4);
    for (int k = 0; k < 3; k++) {
        uint32_t r = which == 0 ? 3
                     : which == 3 && k == 0 ? 0
                                            : (uint32_t)rnd(rng, 1, 3);
        for (uint32_t d = 0; d < r; d++)
            s[d] = which == 0 || rnd(rng, 0, 1) ? out[3 - r + d] : 1;
        cli_tensor *t = &c->inputs[c->n_inputs];
        if (cli_tensor_alloc(t, k == 0 ? RLX_DTYPE_BOOL : dt, r, s) != 0)
            return -1;
        c->n_inputs++;
        cli_tensor_fill_uniform(t, rng, k == 0 ? 0 : lo, k == 0 ? 2 : hi);
    }
    return 0;
}

/* argmax/argmin: a random axis, keepdims and select_last_index; values
 * in halves so ties occur; NaN in case 3. The reduced axis is never
 * empty (that is an error), other dims may be. */
static int make_arg(const conf_op *o, rlx_dtype dt, int which,
                    uint64_t *rng, conf_case *c)
{
    int64_t d[3];
    for (int k = 0; k < 3; k++)
        d[k] = rnd(rng, 1, 5);
    int64_t axis = rnd(rng, -3, 2);
    if (which == 2)
        d[(axis + 4) % 3] = 0; /* an empty dim that is not the axis */
    int64_t attrs[3] = { axis, rnd(rng, 0, 1), which % 2 };
    c->n_ints = 3;
    memcpy(c->ints, attrs, sizeof attrs);
    cli_tensor *t = &c->inputs[0];
    double lo, hi;
    cli_conf_range(o, dt, &lo, &hi);
    if (cli_tensor_alloc(t, dt, 3, d) != 0)
        return -1;
    c->n_inputs = 1;
    cli_tensor_fill_uniform(t, rng, lo, hi);
    halves(c);
    if (which == 3)
        specials(c, 0);
    return 0;
}

/* bit_shift: shift counts 0 to 9, past the width of u8 included, left
 * in even cases and right in odd ones. */
static int make_bit_shift(const conf_op *o, rlx_dtype dt, int which,
                          uint64_t *rng, conf_case *c)
{
    int rc = cli_conf_make_binary(o, dt, which, rng, c);
    if (rc != 0)
        return rc;
    for (size_t i = 0; i < c->inputs[1].count; i++)
        cli_tensor_set(&c->inputs[1], i, (double)rnd(rng, 0, 9));
    c->n_ints = 1;
    c->ints[0] = which % 2 ? RLX_BIT_SHIFT_RIGHT : RLX_BIT_SHIFT_LEFT;
    return 0;
}

#define F (CONF_DT_FLOAT | CONF_DT_F64)
#define I CONF_DT_INT
#define U CONF_DT_UNSIGNED
#define B CONF_DT_BOOL
#define CMP(op, set) \
    { RLX_OP_##op, 0, make_compare, -3, 3, RLX_DTYPE_BOOL, set }
#define LOG2(op) { RLX_OP_##op, 0, cli_conf_make_binary, 0, 2, 0, B }
#define BIT2(op) { RLX_OP_##op, 0, cli_conf_make_binary, -2, 2, 0, I }
#define UN(op, fn, lo, hi, set) { RLX_OP_##op, 0, fn, lo, hi, 0, set }
#define ACT(op, lo, hi) UN(op, make_activation, lo, hi, F)
#define RED(op, set) { RLX_OP_##op, 0, cli_conf_make_reduce, -2, 2, 0, set }

static const conf_op ops14[] = {
    CMP(EQUAL, F | I | B), CMP(LESS, F | I), CMP(LESS_EQUAL, F | I),
    CMP(GREATER, F | I), CMP(GREATER_EQUAL, F | I),
    LOG2(LOGICAL_AND), LOG2(LOGICAL_OR), LOG2(LOGICAL_XOR),
    UN(LOGICAL_NOT, cli_conf_make_unary, 0, 2, B),
    { RLX_OP_WHERE, 0, make_where, -2, 2, 0, F | I | B },
    UN(CLIP, make_clip, -2, 2, F | I),
    UN(FLOOR, make_tie_unary, -3, 3, F), UN(CEIL, make_tie_unary, -3, 3, F),
    UN(ROUND, make_tie_unary, -3, 3, F),
    UN(SIGN, make_tie_unary, -2, 2, F | I),
    UN(RECIPROCAL, make_reciprocal, -3, 3, F),
    UN(ERF, make_tie_unary, -3, 3, F),
    { RLX_OP_ISNAN, 0, make_tie_unary, -2, 2, RLX_DTYPE_BOOL, F },
    { RLX_OP_ISINF, 0, make_isinf, -2, 2, RLX_DTYPE_BOOL, F },
    BIT2(BITWISE_AND), BIT2(BITWISE_OR), BIT2(BITWISE_XOR),
    UN(BITWISE_NOT, cli_conf_make_unary, -2, 2, I),
    ACT(LEAKY_RELU, -3, 3), ACT(ELU, -3, 3), ACT(SELU, -3, 3),
    ACT(SOFTPLUS, -6, 6), ACT(HARD_SIGMOID, -5, 5), ACT(HARD_SWISH, -5, 5),
    ACT(MISH, -5, 5),
    { RLX_OP_PRELU, 0, cli_conf_make_binary, -2, 2, 0, F | I },
    { RLX_OP_MOD, 0, make_mod, -5, 5, 0, F | I },
    RED(REDUCE_MIN, F | I), RED(REDUCE_PROD, F | I), RED(REDUCE_L1, F | I),
    RED(REDUCE_L2, F | I), RED(REDUCE_LOG_SUM_EXP, F),
    RED(REDUCE_SUM_SQUARE, F | I),
    { RLX_OP_ARGMAX, 0, make_arg, -3, 3, RLX_DTYPE_I64, F | I },
    { RLX_OP_ARGMIN, 0, make_arg, -3, 3, RLX_DTYPE_I64, F | I },
    /* values 140-149; their domains, with case 1's specials outside */
    UN(ASIN, make_tie_unary, -1, 1, F), UN(ACOS, make_tie_unary, -1, 1, F),
    UN(SINH, make_tie_unary, -5, 5, F), UN(COSH, make_tie_unary, -5, 5, F),
    UN(ASINH, make_tie_unary, -5, 5, F), UN(ACOSH, make_tie_unary, 1, 6, F),
    UN(ATANH, make_tie_unary, -0.99, 0.99, F),
    { RLX_OP_BIT_SHIFT, 0, make_bit_shift, 0, 256, 0, U },
};

const conf_op *cli_conf_ops14(size_t *count)
{
    *count = sizeof ops14 / sizeof *ops14;
    return ops14;
}
