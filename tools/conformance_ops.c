/*
 * conformance_ops.c - the op set `rlx conformance` checks, and for each op
 * how to make random valid cases: shapes (broadcasting, size-1 dims, an
 * empty tensor), values in the op's domain, and attributes. Everything is
 * drawn from the caller's seeded generator, so a report can be replayed.
 *
 * Case numbering is shared by most ops: 0 an ordinary shape, 1 size-1 dims
 * or broadcasting, 2 an empty (0-size) tensor, 3 an op-specific edge.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"

/* ---- helpers ---------------------------------------------------------- */

/* Uniform integer in [lo, hi]. */
static int64_t rnd(uint64_t *rng, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(cli_rng_next(rng) % (uint64_t)(hi - lo + 1));
}

static int is_float(rlx_dtype d)
{
    return d == RLX_DTYPE_F32 || d == RLX_DTYPE_F16 || d == RLX_DTYPE_BF16 ||
           d == RLX_DTYPE_F64;
}

/* Appends an input of DTYPE and shape, values uniform in [lo, hi). */
static int add_input(conf_case *c, rlx_dtype dtype, uint32_t rank,
                     const int64_t *dims, uint64_t *rng, double lo, double hi)
{
    cli_tensor *t = &c->inputs[c->n_inputs];
    if (cli_tensor_alloc(t, dtype, rank, dims) != 0)
        return -1;
    c->n_inputs++;
    cli_tensor_fill_uniform(t, rng, lo, hi);
    return 0;
}

/* Values for data movement: small integers survive every dtype exactly. */
static int add_movement_input(conf_case *c, rlx_dtype dtype, uint32_t rank,
                              const int64_t *dims, uint64_t *rng)
{
    return add_input(c, dtype, rank, dims, rng, is_float(dtype) ? -10 : -100,
                     is_float(dtype) ? 10 : 100);
}

static void random_dims(uint64_t *rng, uint32_t rank, int64_t lo, int64_t hi,
                        int64_t *dims)
{
    for (uint32_t i = 0; i < rank; i++)
        dims[i] = rnd(rng, lo, hi);
}

static void set_ints(conf_case *c, uint32_t n, const int64_t *v)
{
    c->n_ints = n;
    if (n)
        memcpy(c->ints, v, n * sizeof *v);
}

/* "[2, 3], [3]" plus the int attributes, for the report. */
static void describe(conf_case *c)
{
    size_t k = 0;
    c->desc[0] = '\0';
    for (uint32_t i = 0; i < c->n_inputs && k < sizeof c->desc; i++) {
        char s[96];
        cli_shape_format(s, sizeof s, c->inputs[i].rank, c->inputs[i].dims);
        k += (size_t)snprintf(c->desc + k, sizeof c->desc - k, "%s%s%s",
                              i ? ", " : "", s,
                              c->inputs[i].dtype == RLX_DTYPE_I32 ? " i32"
                              : c->inputs[i].dtype == RLX_DTYPE_I64 &&
                                      c->op == RLX_OP_GATHER ? " i64" : "");
    }
    if (c->n_ints && k < sizeof c->desc) {
        char s[160];
        cli_shape_format(s, sizeof s, c->n_ints, c->ints);
        cli_format(c->desc + k, sizeof c->desc - k, "%sattrs %s",
                 k ? ", " : "", s);
    }
}

/* ---- elementwise ------------------------------------------------------ */

int cli_conf_make_binary(const conf_op *o, rlx_dtype dt, int which,
                         uint64_t *rng, conf_case *c)
{
    int64_t out[4], a[4], b[4];
    uint32_t ra, rb;

    if (which == 0) {
        ra = rb = (uint32_t)rnd(rng, 1, 3);
        random_dims(rng, ra, 1, 5, a);
        memcpy(b, a, sizeof a);
    } else if (which == 1) { /* both sides broadcast */
        ra = (uint32_t)rnd(rng, 2, 4);
        rb = (uint32_t)rnd(rng, 1, ra);
        random_dims(rng, ra, 2, 4, out);
        for (uint32_t i = 0; i < ra; i++)
            a[i] = rnd(rng, 0, 2) ? out[i] : 1;
        for (uint32_t i = 0; i < rb; i++)
            b[i] = (a[ra - rb + i] == 1 || rnd(rng, 0, 1)) ? out[ra - rb + i]
                                                            : 1;
    } else if (which == 2) { /* empty, broadcast against a row */
        ra = 2;
        rb = 1;
        a[0] = 0;
        a[1] = b[0] = rnd(rng, 1, 5);
    } else { /* a scalar against a matrix */
        ra = 0;
        rb = 2;
        random_dims(rng, rb, 1, 4, b);
    }
    double lo, hi, blo, bhi;
    cli_conf_range(o, dt, &lo, &hi);
    blo = lo;
    bhi = hi;
    if (o->op == RLX_OP_POW) {
        blo = -2;
        bhi = 2;
    }
    if (add_input(c, dt, ra, a, rng, lo, hi) ||
        add_input(c, dt, rb, b, rng, blo, bhi))
        return -1;
    if (o->op == RLX_OP_DIV) /* keep divisors away from zero */
        for (size_t i = 0; i < c->inputs[1].count; i++) {
            double v = cli_tensor_get(&c->inputs[1], i);
            cli_tensor_set(&c->inputs[1], i, v < 0 ? v - 0.5 : v + 0.5);
        }
    return 0;
}

int cli_conf_make_unary(const conf_op *o, rlx_dtype dt, int which,
                        uint64_t *rng, conf_case *c)
{
    int64_t d[3];
    uint32_t r;

    if (which == 0) {
        r = (uint32_t)rnd(rng, 1, 3);
        random_dims(rng, r, 1, 6, d);
    } else if (which == 1) {
        r = 3;
        d[0] = 1;
        d[1] = rnd(rng, 2, 9);
        d[2] = 1;
    } else if (which == 2) {
        r = 2;
        d[0] = rnd(rng, 1, 4);
        d[1] = 0;
    } else {
        r = 0; /* a scalar */
    }
    if (o->op == RLX_OP_GELU) {
        int64_t approx = which % 2 ? RLX_GELU_TANH : RLX_GELU_ERF;
        set_ints(c, 1, &approx);
    }
    double lo, hi;
    cli_conf_range(o, dt, &lo, &hi);
    return add_input(c, dt, r, d, rng, lo, hi);
}

/* ---- structured ------------------------------------------------------- */

static int make_matmul(const conf_op *o, rlx_dtype dt, int which,
                       uint64_t *rng, conf_case *c)
{
    int64_t m = rnd(rng, 1, 6), k = rnd(rng, 1, 8), n = rnd(rng, 1, 6);
    int64_t ta = 0, tb = 0, a[4], b[4];
    uint32_t ra = 2, rb = 2;

    if (which == 0) {
        ta = rnd(rng, 0, 1);
        tb = rnd(rng, 0, 1);
    } else if (which == 1) { /* batch dims broadcast: [B,1,m,k] x [H,k,n] */
        ra = 4;
        rb = 3;
        tb = rnd(rng, 0, 1);
    } else if (which == 2) { /* empty: no rows, or nothing to sum */
        if (rnd(rng, 0, 1))
            m = 0;
        else
            k = 0;
    } else { /* a vector on one side */
        if (rnd(rng, 0, 1)) {
            ra = 1;
            rb = 3;
        } else {
            rb = 1;
        }
    }
    /* Shapes as stored: the last two dims swapped where transposed. */
    if (ra == 1) {
        a[0] = k;
    } else {
        if (ra == 4) {
            a[0] = rnd(rng, 1, 3);
            a[1] = 1;
        }
        a[ra - 2] = ta ? k : m;
        a[ra - 1] = ta ? m : k;
    }
    if (rb == 1) {
        b[0] = k;
    } else {
        if (rb == 3)
            b[0] = rnd(rng, 1, 3);
        b[rb - 2] = tb ? n : k;
        b[rb - 1] = tb ? k : n;
    }
    int64_t attrs[2] = { ta, tb };
    set_ints(c, 2, attrs);
    c->reduce_len = (double)(k > 0 ? k : 1);
    return add_input(c, dt, ra, a, rng, o->lo, o->hi) ||
                   add_input(c, dt, rb, b, rng, o->lo, o->hi)
               ? -1
               : 0;
}

static int make_softmax(const conf_op *o, rlx_dtype dt, int which,
                        uint64_t *rng, conf_case *c)
{
    int64_t d[3], attrs[2] = { -1, 0 };
    uint32_t r = 2;

    random_dims(rng, 3, 1, 6, d);
    if (which == 1) { /* causal, rows and cols may differ */
        r = 3;
        attrs[1] = 1;
    } else if (which == 2) { /* an axis other than the last */
        r = 3;
        attrs[0] = rnd(rng, 0, 1);
    } else if (which == 3) {
        d[0] = 0;
        attrs[1] = rnd(rng, 0, 1);
    }
    set_ints(c, 2, attrs);
    c->reduce_len = (double)d[attrs[0] < 0 ? r - 1 : attrs[0]];
    return add_input(c, dt, r, d, rng, o->lo, o->hi);
}

static int make_norm(const conf_op *o, rlx_dtype dt, int which,
                     uint64_t *rng, conf_case *c)
{
    int64_t x[3], n;
    uint32_t r = 2;

    if (which == 3)
        return 1;
    random_dims(rng, 3, 1, 5, x);
    if (which == 1) { /* size-1 dims, and a last axis that may be 1 */
        r = 3;
        x[1] = 1;
        x[2] = rnd(rng, 1, 3);
    } else if (which == 2) {
        x[0] = 0;
    } else {
        x[1] = rnd(rng, 4, 16);
    }
    n = x[r - 1];
    c->n_floats = 1;
    c->floats[0] = which == 1 ? 1e-3 : 1e-5;
    c->reduce_len = (double)n;
    if (add_input(c, dt, r, x, rng, o->lo, o->hi) ||
        add_input(c, dt, 1, &n, rng, 0.5, 1.5))
        return -1;
    if (o->op == RLX_OP_LAYER_NORM && add_input(c, dt, 1, &n, rng, -1, 1))
        return -1;
    return 0;
}

int cli_conf_make_reduce(const conf_op *o, rlx_dtype dt, int which,
                         uint64_t *rng, conf_case *c)
{
    int64_t d[3], attrs[4];
    uint32_t r = 3, n_axes = 0;
    double len = 1;

    random_dims(rng, r, 1, 5, d);
    attrs[0] = rnd(rng, 0, 1); /* keepdims */
    if (which == 0) { /* a random non-empty set of axes, some negative */
        for (uint32_t i = 0; i < r; i++)
            if (rnd(rng, 0, 1) || (i == r - 1 && n_axes == 0))
                attrs[1 + n_axes++] = rnd(rng, 0, 1) ? (int64_t)i
                                                     : (int64_t)i - (int64_t)r;
    } else if (which == 1) { /* no axes: every axis; a size-1 dim */
        d[1] = 1;
    } else if (which == 2) { /* reducing an empty axis */
        d[1] = 0;
        attrs[1 + n_axes++] = 1;
    } else { /* an empty tensor, a non-empty reduced axis */
        d[0] = 0;
        attrs[1 + n_axes++] = 2;
    }
    for (uint32_t i = 0; i < r; i++) {
        int reduced = n_axes == 0;
        for (uint32_t k = 0; k < n_axes; k++)
            reduced |= (attrs[1 + k] + (attrs[1 + k] < 0 ? r : 0)) == i;
        if (reduced && d[i] > 0)
            len *= (double)d[i];
    }
    set_ints(c, 1 + n_axes, attrs);
    c->reduce_len = len;
    double lo, hi;
    cli_conf_range(o, dt, &lo, &hi);
    return add_input(c, dt, r, d, rng, lo, hi);
}

/* ---- data movement ---------------------------------------------------- */

static int make_reshape(const conf_op *o, rlx_dtype dt, int which,
                        uint64_t *rng, conf_case *c)
{
    int64_t d[3], to[3];
    uint32_t r = 3, rt = 2;
    (void)o;

    random_dims(rng, 3, 1, 4, d);
    if (which == 0) {
        to[0] = d[0] * d[1];
        to[1] = d[2];
        if (rnd(rng, 0, 1))
            to[rnd(rng, 0, 1)] = -1;
    } else if (which == 1) { /* size-1 dims away, or a scalar */
        d[0] = d[2] = 1;
        if (d[1] == 1) {
            rt = 0;
        } else {
            rt = 1;
            to[0] = rnd(rng, 0, 1) ? d[1] : -1;
        }
    } else if (which == 2) {
        r = 2;
        d[0] = 0;
        to[0] = d[1];
        to[1] = 0;
    } else {
        return 1;
    }
    set_ints(c, rt, to);
    return add_movement_input(c, dt, r, d, rng);
}

static int make_transpose(const conf_op *o, rlx_dtype dt, int which,
                          uint64_t *rng, conf_case *c)
{
    int64_t d[4], perm[4];
    uint32_t r = 3;
    (void)o;

    if (which == 3)
        return 1;
    random_dims(rng, 4, 1, 5, d);
    if (which == 1) { /* no permutation: reverse; size-1 dims */
        r = (uint32_t)rnd(rng, 2, 4);
        d[0] = 1;
    } else if (which == 2) {
        d[1] = 0;
    }
    for (uint32_t i = 0; i < r; i++)
        perm[i] = i;
    for (uint32_t i = r - 1; i > 0; i--) { /* Fisher-Yates */
        uint32_t j = (uint32_t)rnd(rng, 0, i);
        int64_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    set_ints(c, which == 1 ? 0 : r, perm);
    return add_movement_input(c, dt, r, d, rng);
}

static int make_concat(const conf_op *o, rlx_dtype dt, int which,
                       uint64_t *rng, conf_case *c)
{
    int64_t d[3];
    uint32_t r = which == 1 ? 3 : 2, n = which == 1 ? 3 : which == 3 ? 1 : 2;
    int64_t axis = rnd(rng, 0, (int64_t)r - 1);
    (void)o;

    random_dims(rng, 3, 1, 4, d);
    for (uint32_t i = 0; i < n; i++) {
        d[axis] = which == 2 && i == 0 ? 0 : rnd(rng, 1, 4);
        if (add_movement_input(c, dt, r, d, rng))
            return -1;
    }
    set_ints(c, 1, &axis);
    return 0;
}

static int make_slice(const conf_op *o, rlx_dtype dt, int which,
                      uint64_t *rng, conf_case *c)
{
    int64_t d[3], t[6];
    uint32_t r = 3;
    (void)o;

    if (which == 3)
        return 1;
    random_dims(rng, r, 2, 6, d);
    int64_t axis = rnd(rng, 0, 2);
    if (which == 0) { /* one axis, in range */
        t[0] = axis;
        t[1] = rnd(rng, 0, d[axis] - 1);
        t[2] = rnd(rng, t[1] + 1, d[axis]);
        set_ints(c, 3, t);
    } else if (which == 1) { /* two axes, negative and clamped bounds */
        int64_t other = (axis + 1) % 3;
        t[0] = axis;
        t[1] = -rnd(rng, 1, d[axis]);
        t[2] = d[axis] + 3;
        t[3] = other;
        t[4] = -100;
        t[5] = -rnd(rng, 0, d[other] - 1);
        if (t[5] == 0)
            t[5] = d[other];
        set_ints(c, 6, t);
    } else { /* start at or past end: empty */
        t[0] = axis;
        t[1] = d[axis] - 1;
        t[2] = rnd(rng, 0, d[axis] - 1);
        set_ints(c, 3, t);
    }
    return add_movement_input(c, dt, r, d, rng);
}

static int make_gather(const conf_op *o, rlx_dtype dt, int which,
                       uint64_t *rng, conf_case *c)
{
    int64_t d[3], idx[2];
    uint32_t r = which == 1 ? 3 : 2, ri = 1;
    rlx_dtype it = which == 1 ? RLX_DTYPE_I64 : RLX_DTYPE_I32;
    (void)o;

    if (which == 3)
        return 1;
    random_dims(rng, 3, 1, 5, d);
    int64_t axis = rnd(rng, 0, (int64_t)r - 1);
    idx[0] = which == 2 ? 0 : rnd(rng, 1, 6);
    if (which == 1 && rnd(rng, 0, 1)) {
        ri = 2;
        idx[1] = rnd(rng, 1, 3);
    }
    set_ints(c, 1, &axis);
    if (add_movement_input(c, dt, r, d, rng) ||
        add_input(c, it, ri, idx, rng, 0, (double)d[axis]))
        return -1;
    return 0;
}

static int make_cast(const conf_op *o, rlx_dtype dt, int which,
                     uint64_t *rng, conf_case *c)
{
    static const rlx_dtype all[] = { RLX_DTYPE_F32, RLX_DTYPE_F16,
                                     RLX_DTYPE_BF16, RLX_DTYPE_I32,
                                     RLX_DTYPE_I64 };
    rlx_dtype targets[5];
    int n = 0;
    int64_t d[2], to;
    uint32_t r = which == 3 ? 0 : which == 1 ? 1 : 2;
    (void)o;

    for (int i = 0; i < 5; i++)
        if (all[i] != dt)
            targets[n++] = all[i];
    to = targets[which % n];
    random_dims(rng, 2, 1, 5, d);
    if (which == 1)
        d[0] = rnd(rng, 3, 8);
    if (which == 2)
        d[1] = 0;
    set_ints(c, 1, &to);
    if (add_input(c, dt, r, d, rng, is_float(dt) ? -300 : -1000,
                  is_float(dt) ? 300 : 1000))
        return -1;
    if (which == 1 && is_float(dt)) { /* NaN, saturation, truncation */
        cli_tensor_set(&c->inputs[0], 0, NAN);
        cli_tensor_set(&c->inputs[0], 1, 1e10);
        cli_tensor_set(&c->inputs[0], 2, -2.5);
    }
    return 0;
}

static int make_fill(const conf_op *o, rlx_dtype dt, int which,
                     uint64_t *rng, conf_case *c)
{
    int64_t a[3] = { dt, 0, 0 };
    uint32_t r = which == 1 ? 0 : 2;
    (void)o;

    if (which == 3)
        return 1;
    a[1] = rnd(rng, 1, 5);
    a[2] = which == 2 ? 0 : rnd(rng, 1, 5);
    set_ints(c, 1 + r, a);
    c->n_floats = 1;
    c->floats[0] = is_float(dt) ? (double)rnd(rng, -400, 400) / 100.0
                                : (double)rnd(rng, -50, 50);
    return 0;
}

/* det: stacks of 0x0 to 4x4 matrices (an empty batch in case 2). */
static int make_det(const conf_op *o, rlx_dtype dt, int which,
                    uint64_t *rng, conf_case *c)
{
    int64_t m = which == 3 ? 0 : rnd(rng, 1, 4);
    int64_t d[3] = { which == 2 ? 0 : rnd(rng, 1, 3), m, m };
    c->reduce_len = (double)(m * m + 1);
    return add_input(c, dt, 3, d, rng, o->lo, o->hi);
}

/* ---- the table -------------------------------------------------------- */

#define BIN(op, lo, hi) { RLX_OP_##op, 0, cli_conf_make_binary, lo, hi, 0, 0 }
/* the unary ops: the float dtypes and f64 */
#define UN(op, lo, hi) \
    { RLX_OP_##op, 0, cli_conf_make_unary, lo, hi, 0, \
      CONF_DT_FLOAT | CONF_DT_F64 }
#define MOVE(op, fn) { RLX_OP_##op, 1, fn, 0, 0, 0, 0 }
/* since 1.4 also on integers */
#define INTS (CONF_DT_FLOAT | CONF_DT_F64 | CONF_DT_INT)
#define BINI(op, lo, hi) \
    { RLX_OP_##op, 0, cli_conf_make_binary, lo, hi, 0, INTS }
#define UNI(op, lo, hi, set) \
    { RLX_OP_##op, 0, cli_conf_make_unary, lo, hi, 0, set }
#define REDI(op) { RLX_OP_##op, 0, cli_conf_make_reduce, -2, 2, 0, INTS }

static const conf_op conf_ops[] = {
    BINI(ADD, -2, 2), BINI(SUB, -2, 2), BINI(MUL, -2, 2), BINI(DIV, -2, 2),
    BINI(MAX, -2, 2), BINI(MIN, -2, 2), BINI(POW, 0.1, 2),
    UNI(RELU, -2, 2, INTS), UN(GELU, -4, 4), UN(SIGMOID, -6, 6),
    UN(TANH, -3, 3), UN(EXP, -3, 3), UN(SIN, -4, 4), UN(COS, -4, 4),
    UNI(NEG, -2, 2, CONF_DT_FLOAT | CONF_DT_F64 | CONF_DT_SIGNED), UNI(ABS, -2, 2, INTS),
    UN(LOG, 0.05, 4), UN(SQRT, 0, 4), UN(RSQRT, 0.05, 4),
    UN(SILU, -6, 6), UN(TAN, -1.3, 1.3), UN(ATAN, -4, 4),
    { RLX_OP_MATMUL, 0, make_matmul, -1, 1, 0, 0 },
    { RLX_OP_SOFTMAX, 0, make_softmax, -4, 4, 0, 0 },
    { RLX_OP_LAYER_NORM, 0, make_norm, -3, 3, 0, 0 },
    { RLX_OP_RMS_NORM, 0, make_norm, -3, 3, 0, 0 },
    REDI(REDUCE_SUM), REDI(REDUCE_MEAN), REDI(REDUCE_MAX),
    MOVE(RESHAPE, make_reshape), MOVE(TRANSPOSE, make_transpose),
    MOVE(CONCAT, make_concat), MOVE(SLICE, make_slice),
    MOVE(GATHER, make_gather), MOVE(CAST, make_cast), MOVE(FILL, make_fill),
    /* since 1.4 */
    { RLX_OP_CONV, 0, cli_conf_make_conv, -2, 2, 0, 0 },
    { RLX_OP_CONV_TRANSPOSE, 0, cli_conf_make_conv, -2, 2, 0, 0 },
    { RLX_OP_MAX_POOL, 0, cli_conf_make_pool, -4, 4, 0, 0 },
    { RLX_OP_AVG_POOL, 0, cli_conf_make_pool, -4, 4, 0, 0 },
    { RLX_OP_LP_POOL, 0, cli_conf_make_pool, -2, 2, 0, 0 },
    { RLX_OP_MAX_POOL_INDEX, 0, cli_conf_make_pool, -4, 4, RLX_DTYPE_I64,
      0 },
    { RLX_OP_GRID_SAMPLE, 0, cli_conf_make_grid_sample, -4, 4, 0, 0 },
    { RLX_OP_DET, 0, make_det, -2, 2, 0, CONF_DT_FLOAT | CONF_DT_F64 },
    { RLX_OP_ROI_ALIGN, 0, cli_conf_make_roi_align, -4, 4, 0, 0 },
    { RLX_OP_RESIZE, 0, cli_conf_make_resize, -4, 4, 0, 0 },
    { RLX_OP_BATCH_NORM, 0, cli_conf_make_chnorm, -3, 3, 0, 0 },
    { RLX_OP_INSTANCE_NORM, 0, cli_conf_make_chnorm, -3, 3, 0, 0 },
    { RLX_OP_GROUP_NORM, 0, cli_conf_make_chnorm, -3, 3, 0, 0 },
    /* since 1.4: data movement and indexing (conformance_index.c) */
    MOVE(PAD, cli_conf_make_pad), MOVE(EXPAND, cli_conf_make_expand),
    MOVE(TILE, cli_conf_make_tile),
    MOVE(STRIDED_SLICE, cli_conf_make_strided_slice),
    MOVE(TRILU, cli_conf_make_trilu), MOVE(CUMSUM, cli_conf_make_cumsum),
    { RLX_OP_TOPK, 1, cli_conf_make_topk, 0, 0, RLX_DTYPE_I64, 0 },
    MOVE(RANGE, cli_conf_make_range),
    MOVE(GATHER_ELEMENTS, cli_conf_make_gather_elements),
    MOVE(SCATTER_ELEMENTS, cli_conf_make_scatter_elements),
    MOVE(GATHER_ND, cli_conf_make_gather_nd),
    MOVE(SCATTER_ND, cli_conf_make_scatter_nd),
    MOVE(ONE_HOT, cli_conf_make_one_hot),
    { RLX_OP_NON_ZERO, 1, cli_conf_make_non_zero, 0, 0, RLX_DTYPE_I64, 0 },
    /* quantization: integer results, compared exactly */
    { RLX_OP_QUANTIZE_LINEAR, 0, cli_conf_make_quantize, 0, 0, RLX_DTYPE_U8,
      CONF_DT_FLOAT },
    { RLX_OP_DEQUANTIZE_LINEAR, 0, cli_conf_make_dequantize, 0, 0,
      RLX_DTYPE_F32, CONF_DT_BYTE | CONF_DT_I32 },
    { RLX_OP_MATMUL_INTEGER, 0, cli_conf_make_matmul_integer, 0, 0,
      RLX_DTYPE_I32, CONF_DT_BYTE },
    { RLX_OP_CONV_INTEGER, 0, cli_conf_make_conv_integer, 0, 0, RLX_DTYPE_I32,
      CONF_DT_BYTE },
};

const conf_op *cli_conf_ops(size_t *count)
{
    *count = sizeof conf_ops / sizeof *conf_ops;
    return conf_ops;
}

void cli_conf_case_free(conf_case *c)
{
    for (uint32_t i = 0; i < c->n_inputs; i++)
        cli_tensor_free(&c->inputs[i]);
    memset(c, 0, sizeof *c);
}

int cli_conf_case_make(const conf_op *o, rlx_dtype dtype, int which,
                       uint64_t *rng, conf_case *c)
{
    memset(c, 0, sizeof *c);
    c->op = o->op;
    c->exact = o->movement;
    c->reduce_len = 1;
    int rc = o->make(o, dtype, which, rng, c);
    if (rc != 0) {
        cli_conf_case_free(c);
        return rc;
    }
    describe(c);
    return 0;
}
