/*
 * conformance_index.c - random valid cases for the data movement and
 * indexing ops of ABI 1.4 (pad to non_zero), for `rlx conformance`: each
 * op on each dtype gets an ordinary case, one with size-1 dims or
 * negative indices, an empty tensor, and an op-specific edge (crops,
 * negative steps, duplicate scatter targets...). Index tensors are drawn
 * in [-dim, dim), so negative indices are exercised everywhere.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"

static int64_t rnd(uint64_t *rng, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(cli_rng_next(rng) % (uint64_t)(hi - lo + 1));
}

static int is_float(rlx_dtype d)
{
    return d == RLX_DTYPE_F32 || d == RLX_DTYPE_F16 || d == RLX_DTYPE_BF16;
}

static int add(conf_case *c, rlx_dtype dt, uint32_t rank, const int64_t *dims,
               uint64_t *rng, double lo, double hi)
{
    cli_tensor *t = &c->inputs[c->n_inputs];
    if (cli_tensor_alloc(t, dt, rank, dims) != 0)
        return -1;
    c->n_inputs++;
    cli_tensor_fill_uniform(t, rng, lo, hi);
    return 0;
}

/* Data values: small integers for integer dtypes, any for floats. */
static int add_data(conf_case *c, rlx_dtype dt, uint32_t rank,
                    const int64_t *dims, uint64_t *rng)
{
    return add(c, dt, rank, dims, rng, is_float(dt) ? -10 : -100,
               is_float(dt) ? 10 : 100);
}

static void dims_rand(uint64_t *rng, uint32_t rank, int64_t lo, int64_t hi,
                      int64_t *d)
{
    for (uint32_t i = 0; i < rank; i++)
        d[i] = rnd(rng, lo, hi);
}

static void attrs(conf_case *c, uint32_t n, const int64_t *v)
{
    c->n_ints = n;
    memcpy(c->ints, v, n * sizeof *v);
}

/* ---- layout ------------------------------------------------------------ */

int cli_conf_make_pad(const conf_op *o, rlx_dtype dt, int which,
                      uint64_t *rng, conf_case *c)
{
    int64_t d[2], a[5];
    (void)o;
    dims_rand(rng, 2, 2, 4, d);
    if (which == 2)
        d[0] = 0;
    a[0] = which == 2 ? RLX_PAD_CONSTANT : rnd(rng, 0, 3);
    for (int k = 1; k < 5; k++) /* crops on case 3, beyond the axis on 1 */
        a[k] = which == 3 ? rnd(rng, -1, 1)
               : which == 1 ? rnd(rng, 0, 6) : rnd(rng, 0, 2);
    if (which == 2)
        a[1] = a[3] = 0;
    attrs(c, 5, a);
    c->n_floats = 1;
    c->floats[0] = (double)rnd(rng, -5, 5);
    return add_data(c, dt, 2, d, rng);
}

int cli_conf_make_expand(const conf_op *o, rlx_dtype dt, int which,
                         uint64_t *rng, conf_case *c)
{
    int64_t d[3] = { 1, 1, 1 }, s[3];
    (void)o;
    if (which == 3)
        return 1;
    dims_rand(rng, 3, 2, 4, s);
    d[1] = s[1];
    if (which == 1) /* both ways: a 1 in the shape keeps the input's size */
        s[1] = 1, d[1] = rnd(rng, 2, 4);
    if (which == 2)
        s[0] = 0;
    attrs(c, 3, s);
    return add_data(c, dt, 2, d + 1, rng);
}

int cli_conf_make_tile(const conf_op *o, rlx_dtype dt, int which,
                       uint64_t *rng, conf_case *c)
{
    int64_t d[2], r[2];
    (void)o;
    if (which == 3)
        return 1;
    dims_rand(rng, 2, 1, 3, d);
    dims_rand(rng, 2, 1, 3, r);
    if (which == 2)
        r[1] = 0;
    attrs(c, 2, r);
    return add_data(c, dt, 2, d, rng);
}

int cli_conf_make_strided_slice(const conf_op *o, rlx_dtype dt, int which,
                                uint64_t *rng, conf_case *c)
{
    int64_t d[2], q[8];
    (void)o;
    dims_rand(rng, 2, 3, 7, d);
    q[0] = 0;
    q[1] = rnd(rng, -d[0], d[0] - 1);
    q[2] = rnd(rng, -d[0] - 2, d[0] + 2);
    q[3] = rnd(rng, 1, 3) * (rnd(rng, 0, 1) ? 1 : -1);
    q[4] = -1; /* the last axis reversed from its end, ONNX style */
    q[5] = -1;
    q[6] = INT64_MIN;
    q[7] = which == 3 ? INT64_MIN : -rnd(rng, 1, 2);
    if (which == 2) { /* start at end with a positive step: empty */
        q[1] = q[2] = 1;
        q[3] = 1;
    }
    attrs(c, which == 1 ? 4 : 8, which == 1 ? q + 4 : q);
    return add_data(c, dt, 2, d, rng);
}

int cli_conf_make_trilu(const conf_op *o, rlx_dtype dt, int which,
                        uint64_t *rng, conf_case *c)
{
    int64_t d[3], a[2];
    (void)o;
    dims_rand(rng, 3, 1, 5, d);
    if (which == 2)
        d[0] = 0;
    a[0] = rnd(rng, 0, 1);
    a[1] = which == 3 ? (rnd(rng, 0, 1) ? INT64_MAX : INT64_MIN)
                      : rnd(rng, -3, 3);
    attrs(c, 2, a);
    return add_data(c, dt, which == 1 ? 2 : 3, which == 1 ? d + 1 : d, rng);
}

/* ---- scans --------------------------------------------------------------- */

int cli_conf_make_cumsum(const conf_op *o, rlx_dtype dt, int which,
                         uint64_t *rng, conf_case *c)
{
    int64_t d[2], a[3];
    (void)o;
    dims_rand(rng, 2, 1, 6, d);
    if (which == 2)
        d[1] = 0;
    a[0] = rnd(rng, -2, 1);
    a[1] = which == 3 || rnd(rng, 0, 1);
    a[2] = which == 3 || rnd(rng, 0, 1);
    attrs(c, 3, a);
    c->exact = !is_float(dt); /* sums round: floats within tolerance */
    c->reduce_len = (double)d[a[0] < 0 ? a[0] + 2 : a[0]];
    return add_data(c, dt, 2, d, rng);
}

int cli_conf_make_topk(const conf_op *o, rlx_dtype dt, int which,
                       uint64_t *rng, conf_case *c)
{
    int64_t d[2], a[4];
    (void)o;
    dims_rand(rng, 2, 1, 6, d);
    if (which == 2)
        d[0] = 0;
    a[1] = rnd(rng, -2, 1);
    a[0] = rnd(rng, 0, d[a[1] < 0 ? a[1] + 2 : a[1]]);
    a[2] = rnd(rng, 0, 1);
    a[3] = 1;
    attrs(c, 4, a);
    if (add_data(c, dt, 2, d, rng))
        return -1;
    if (which == 3) /* ties everywhere: the lower index must come first */
        for (size_t i = 0; i < c->inputs[0].count; i++)
            cli_tensor_set(&c->inputs[0], i, (double)(i % 2));
    return 0;
}

int cli_conf_make_range(const conf_op *o, rlx_dtype dt, int which,
                        uint64_t *rng, conf_case *c)
{
    int64_t a[4] = { dt, rnd(rng, 1, 9), rnd(rng, -20, 20),
                     rnd(rng, -4, 4) };
    (void)o;
    if (which == 3)
        return 1;
    if (which == 2)
        a[1] = 0;
    if (is_float(dt)) {
        c->n_floats = 2;
        c->floats[0] = (double)a[2] / 4;
        c->floats[1] = which == 1 ? -0.5 : (double)a[3] / 8;
        attrs(c, 2, a);
    } else {
        attrs(c, 4, a);
    }
    return 0;
}

/* ---- indexing ------------------------------------------------------------ */

/* Indices of dtype i32 (even cases) or i64 in [-dim, dim). */
static int add_indices(conf_case *c, int which, uint32_t rank,
                       const int64_t *dims, uint64_t *rng, int64_t dim)
{
    rlx_dtype it = which % 2 ? RLX_DTYPE_I64 : RLX_DTYPE_I32;
    return add(c, it, rank, dims, rng, (double)-dim, (double)dim);
}

int cli_conf_make_gather_elements(const conf_op *o, rlx_dtype dt, int which,
                                  uint64_t *rng, conf_case *c)
{
    int64_t d[2], di[2];
    (void)o;
    if (which == 3)
        return 1;
    dims_rand(rng, 2, 1, 5, d);
    int64_t axis = rnd(rng, -2, 1), ax = axis < 0 ? axis + 2 : axis;
    di[ax] = rnd(rng, 1, 6);
    di[1 - ax] = rnd(rng, 1, d[1 - ax]);
    if (which == 2)
        di[1 - ax] = 0;
    attrs(c, 1, &axis);
    return add_data(c, dt, 2, d, rng) ||
           add_indices(c, which, 2, di, rng, d[ax]);
}

int cli_conf_make_scatter_elements(const conf_op *o, rlx_dtype dt, int which,
                                   uint64_t *rng, conf_case *c)
{
    int64_t d[2], di[2], a[2];
    (void)o;
    if (which == 2)
        return 1;
    dims_rand(rng, 2, 2, 5, d);
    a[0] = rnd(rng, 0, 1);
    di[a[0]] = rnd(rng, 1, 4);
    di[1 - a[0]] = rnd(rng, 1, d[1 - a[0]]);
    /* floats: the order-free reductions (max, min) stay exact; integers
     * take add and mul as well; case 3 the last write of duplicates */
    a[1] = which == 3 ? RLX_REDUCTION_NONE
           : is_float(dt) ? rnd(rng, 3, 4) : rnd(rng, 1, 4);
    attrs(c, 2, a);
    return add_data(c, dt, 2, d, rng) ||
           add_indices(c, which, 2, di, rng, d[a[0]]) ||
           add_data(c, dt, 2, di, rng);
}

int cli_conf_make_gather_nd(const conf_op *o, rlx_dtype dt, int which,
                            uint64_t *rng, conf_case *c)
{
    int64_t d[3], di[3];
    int64_t b = which == 1 ? 1 : 0;
    (void)o;
    if (which == 3)
        return 1;
    dims_rand(rng, 3, 1, 4, d);
    di[0] = b ? d[0] : rnd(rng, which == 2 ? 0 : 1, 3);
    di[1] = rnd(rng, 1, 3);
    di[2] = rnd(rng, 1, 3 - b); /* tuple length */
    if (which == 2)
        di[0] = 0;
    attrs(c, 1, &b);
    if (add_data(c, dt, 3, d, rng) || add_indices(c, which, 3, di, rng, 1))
        return -1;
    /* each tuple entry in [-dim, dim) of the axis it indexes */
    cli_tensor *t = &c->inputs[1];
    for (size_t i = 0; i < t->count; i++) {
        int64_t dim = d[b + (int64_t)(i % (size_t)di[2])];
        cli_tensor_set(t, i, (double)rnd(rng, -dim, dim - 1));
    }
    return 0;
}

int cli_conf_make_scatter_nd(const conf_op *o, rlx_dtype dt, int which,
                             uint64_t *rng, conf_case *c)
{
    int64_t d[2], di[2], du[2];
    int64_t red = which == 3 ? RLX_REDUCTION_NONE
                  : is_float(dt) ? rnd(rng, 3, 4) : rnd(rng, 1, 4);
    (void)o;
    if (which == 2)
        return 1;
    dims_rand(rng, 2, 2, 4, d);
    di[0] = rnd(rng, 1, 4);
    di[1] = which == 1 ? 2 : 1; /* whole elements, or rows */
    du[0] = di[0];
    du[1] = d[1];
    attrs(c, 1, &red);
    if (add_data(c, dt, 2, d, rng) || add_indices(c, which, 2, di, rng, 1) ||
        add_data(c, dt, di[1] == 2 ? 1 : 2, du, rng))
        return -1;
    cli_tensor *t = &c->inputs[1];
    for (size_t i = 0; i < t->count; i++) {
        int64_t dim = d[i % (size_t)di[1]];
        cli_tensor_set(t, i, (double)rnd(rng, -dim, dim - 1));
    }
    return 0;
}

int cli_conf_make_one_hot(const conf_op *o, rlx_dtype dt, int which,
                          uint64_t *rng, conf_case *c)
{
    int64_t di[2], vd[1] = { 2 }, a[2];
    (void)o;
    if (which == 3)
        return 1;
    dims_rand(rng, 2, 1, 4, di);
    if (which == 2)
        di[1] = 0;
    a[0] = rnd(rng, 1, 5);
    a[1] = rnd(rng, -3, 2);
    attrs(c, 2, a);
    /* a few indices past the depth: all-off rows */
    return add_indices(c, which, 2, di, rng, a[0] + 1) ||
           add_data(c, dt, 1, vd, rng);
}

int cli_conf_make_non_zero(const conf_op *o, rlx_dtype dt, int which,
                           uint64_t *rng, conf_case *c)
{
    int64_t d[2], n = -1;
    (void)o;
    if (which == 3)
        return 1;
    dims_rand(rng, 2, 1, 5, d);
    if (which == 2)
        d[0] = 0;
    attrs(c, 1, &n);
    if (add_data(c, dt, 2, d, rng))
        return -1;
    for (size_t i = 0; i < c->inputs[0].count; i += 2) /* zeros too */
        cli_tensor_set(&c->inputs[0], i, which == 1 ? -0.0 : 0.0);
    return 0;
}
