/*
 * conformance_vision.c - random valid cases for `rlx conformance` of the
 * vision ops (ABI 1.4): conv, conv_transpose, the pools, resize and the
 * channel norms. Case 0 is an ordinary 2-d shape, 1 size-1 dims and
 * groups or odd modes, 2 an empty batch, 3 an op-specific edge (3-d,
 * ceil mode, tf_crop_and_resize).
 */
#include <math.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"

static int64_t rnd(uint64_t *rng, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(cli_rng_next(rng) % (uint64_t)(hi - lo + 1));
}

static int add(conf_case *c, rlx_dtype dt, uint32_t rank, const int64_t *d,
               uint64_t *rng, double lo, double hi)
{
    cli_tensor *t = &c->inputs[c->n_inputs];
    if (cli_tensor_alloc(t, dt, rank, d) != 0)
        return -1;
    c->n_inputs++;
    cli_tensor_fill_uniform(t, rng, lo, hi);
    return 0;
}

/* Spatial axes and sizes for case WHICH: 2-d, 1-d, 2-d empty batch, 3-d. */
static uint32_t shape_for(int which, uint64_t *rng, int64_t *x)
{
    uint32_t s = which == 1 ? 1 : which == 3 ? 3 : 2;
    x[0] = which == 2 ? 0 : rnd(rng, 1, 2);
    for (uint32_t i = 0; i < s; i++)
        x[2 + i] = rnd(rng, which == 3 ? 3 : 4, which == 3 ? 5 : 9);
    return s;
}

int cli_conf_make_conv(const conf_op *o, rlx_dtype dt, int which,
                       uint64_t *rng, conf_case *c)
{
    int64_t x[5], w[5], b, a[CONF_MAX_INTS];
    int tr = o->op == RLX_OP_CONV_TRANSPOSE;
    uint32_t s = shape_for(which, rng, x), n = 0;
    int64_t group = which == 1 ? rnd(rng, 2, 3) : 1;
    int64_t cg = rnd(rng, 1, 3), mg = which == 1 ? rnd(rng, 1, 2)
                                                 : rnd(rng, 1, 3);
    x[1] = cg * group;
    b = mg * group;
    w[0] = tr ? x[1] : b;
    w[1] = tr ? mg : cg;
    a[n++] = group;
    int64_t k[3], st[3], dil[3];
    for (uint32_t i = 0; i < s; i++) {
        k[i] = rnd(rng, 1, 3);
        st[i] = rnd(rng, 1, 2);
        dil[i] = rnd(rng, 1, 2);
        w[2 + i] = k[i];
        if (!tr && (k[i] - 1) * dil[i] + 1 > x[2 + i])
            dil[i] = 1;
    }
    for (uint32_t i = 0; i < s; i++) a[n++] = st[i];
    for (uint32_t i = 0; i < s; i++) a[n++] = dil[i];
    for (uint32_t i = 0; i < s; i++) a[n++] = rnd(rng, 0, tr ? 0 : 2);
    for (uint32_t i = 0; i < s; i++) a[n++] = rnd(rng, 0, tr ? 0 : 2);
    for (uint32_t i = 0; tr && i < s; i++)
        a[n++] = rnd(rng, 0, (st[i] > dil[i] ? st[i] : dil[i]) - 1);
    c->n_ints = n;
    memcpy(c->ints, a, n * sizeof *a);
    double len = (double)cg;
    for (uint32_t i = 0; i < s; i++)
        len *= (double)k[i];
    c->reduce_len = len;
    int bias = which != 3;
    return add(c, dt, s + 2, x, rng, o->lo, o->hi) ||
                   add(c, dt, s + 2, w, rng, -1, 1) ||
                   (bias && add(c, dt, 1, &b, rng, -1, 1))
               ? -1
               : 0;
}

int cli_conf_make_pool(const conf_op *o, rlx_dtype dt, int which,
                       uint64_t *rng, conf_case *c)
{
    int64_t x[5], a[CONF_MAX_INTS];
    uint32_t s = shape_for(which, rng, x), n = 0;
    x[1] = rnd(rng, 1, 3);
    a[n++] = which == 1 || which == 3 ? 1 : rnd(rng, 0, 1); /* ceil */
    a[n++] = rnd(rng, 0, 1);                                /* incl. pad */
    int64_t p = rnd(rng, 1, 3);
    /* p, or max_pool_index's storage order */
    a[n++] = o->op == RLX_OP_MAX_POOL_INDEX ? p % 2 : p;
    int64_t k[3], dil[3];
    double len = 1;
    for (uint32_t i = 0; i < s; i++) {
        k[i] = rnd(rng, 1, 3);
        dil[i] = which == 3 ? rnd(rng, 1, 2) : 1;
        if ((k[i] - 1) * dil[i] + 1 > x[2 + i])
            dil[i] = 1;
        len *= (double)k[i];
    }
    for (uint32_t i = 0; i < s; i++) a[n++] = k[i];
    for (uint32_t i = 0; i < s; i++) a[n++] = rnd(rng, 1, 3);
    for (uint32_t i = 0; i < s; i++) a[n++] = dil[i];
    for (uint32_t i = 0; i < s; i++) a[n++] = rnd(rng, 0, k[i] - 1);
    for (uint32_t i = 0; i < s; i++) a[n++] = rnd(rng, 0, k[i] - 1);
    c->n_ints = n;
    memcpy(c->ints, a, n * sizeof *a);
    c->reduce_len = len;
    int bytes = dt == RLX_DTYPE_I8 || dt == RLX_DTYPE_U8;
    c->exact = bytes;
    return add(c, dt, s + 2, x, rng, dt == RLX_DTYPE_U8 ? 0 : o->lo,
               bytes ? 100 : o->hi);
}

int cli_conf_make_resize(const conf_op *o, rlx_dtype dt, int which,
                         uint64_t *rng, conf_case *c)
{
    int64_t x[4] = { 1, rnd(rng, 1, 2), rnd(rng, 1, 5), rnd(rng, 1, 5) };
    int bytes = dt == RLX_DTYPE_I8 || dt == RLX_DTYPE_U8;
    int64_t mode = bytes ? RLX_RESIZE_NEAREST : rnd(rng, 0, 2);
    int64_t coord = which == 3 ? RLX_RESIZE_TF_CROP_AND_RESIZE
                               : rnd(rng, 0, 4);
    if (which == 2)
        x[0] = 0;
    c->ints[0] = mode;
    c->ints[1] = coord;
    c->ints[2] = rnd(rng, 0, 3);
    c->ints[3] = mode == RLX_RESIZE_CUBIC ? rnd(rng, 0, 1) : 0;
    c->n_ints = 8;
    c->floats[0] = which == 1 ? -0.5 : -0.75;
    c->floats[1] = 2.5; /* extrapolation */
    c->n_floats = 6;
    for (int i = 0; i < 4; i++) {
        int64_t out = i < 2 ? x[i] : rnd(rng, 1, 9);
        c->ints[4 + i] = out;
        /* a scale that need not divide evenly (out / in by default) */
        c->floats[2 + i] = x[i] == 0 ? 1.0 /* an empty axis */
                           : i < 2 || which == 0
                               ? (double)out / (double)x[i]
                               : (double)out / (double)x[i] +
                                     (double)rnd(rng, 0, 3) / 16;
    }
    if (which == 3) { /* roi per axis: whole for N, C; a crop for H, W */
        c->n_floats = 14;
        for (int i = 0; i < 4; i++) {
            c->floats[6 + i] = i < 2 ? 0 : (double)rnd(rng, -2, 4) / 10;
            c->floats[10 + i] = i < 2 ? 1 : (double)rnd(rng, 6, 12) / 10;
        }
    }
    c->exact = bytes || mode == RLX_RESIZE_NEAREST;
    c->reduce_len = mode == RLX_RESIZE_CUBIC ? 16 : 4;
    return add(c, dt, 4, x, rng, dt == RLX_DTYPE_U8 ? 0 : o->lo,
               bytes ? 100 : o->hi);
}

int cli_conf_make_chnorm(const conf_op *o, rlx_dtype dt, int which,
                         uint64_t *rng, conf_case *c)
{
    int64_t x[4] = { rnd(rng, 1, 2), 0, rnd(rng, 1, 4), rnd(rng, 1, 4) };
    uint32_t r = which == 1 ? 2 : which == 3 ? 3 : 4;
    int64_t groups = rnd(rng, 1, 3), ch;
    x[1] = groups * rnd(rng, 1, 3);
    if (which == 2)
        x[0] = 0;
    ch = x[1];
    if (o->op == RLX_OP_GROUP_NORM) {
        c->ints[0] = groups;
        c->n_ints = 1;
        if (which == 3)
            ch = groups; /* [groups] parameters */
    }
    c->floats[0] = which == 1 ? 1e-3 : 1e-5;
    c->n_floats = 1;
    double len = 1;
    for (uint32_t i = 2; i < r; i++)
        len *= (double)x[i];
    c->reduce_len = len * (double)x[1];
    if (add(c, dt, r, x, rng, o->lo, o->hi) ||
        add(c, dt, 1, &ch, rng, 0.5, 1.5) || add(c, dt, 1, &ch, rng, -1, 1))
        return -1;
    if (o->op == RLX_OP_BATCH_NORM &&
        (add(c, dt, 1, &ch, rng, -1, 1) || add(c, dt, 1, &ch, rng, 0.2, 2)))
        return -1;
    return 0;
}

int cli_conf_takes_bytes(rlx_op op)
{
    return op == RLX_OP_MAX_POOL || op == RLX_OP_RESIZE;
}

/* grid_sample: 1-d to 3-d inputs (shape_for), a grid reaching past
 * [-1, 1] so that every padding mode matters, each mode and padding in
 * turn, align_corners on odd cases. */
int cli_conf_make_grid_sample(const conf_op *o, rlx_dtype dt, int which,
                              uint64_t *rng, conf_case *c)
{
    int64_t x[5], g[5];
    uint32_t s = shape_for(which, rng, x);
    x[1] = rnd(rng, 1, 3);
    g[0] = x[0];
    for (uint32_t i = 0; i < s; i++)
        g[1 + i] = rnd(rng, 1, 4);
    g[s + 1] = s;
    c->ints[0] = (which + rnd(rng, 0, 2)) % 3; /* mode */
    c->ints[1] = rnd(rng, 0, 2);               /* padding */
    c->ints[2] = which % 2;                    /* align_corners */
    c->n_ints = 3;
    double len = 1; /* taps summed per output: up to 4 per axis */
    for (uint32_t i = 0; i < s; i++)
        len *= 4;
    c->reduce_len = len;
    return add(c, dt, s + 2, x, rng, o->lo, o->hi) ||
                   add(c, dt, s + 2, g, rng, -1.3, 1.3)
               ? -1
               : 0;
}

/* roi_align: rois inside and past the image, each mode and coordinate
 * rule in turn, sampling ratios 0 to 2; no rois in case 2. */
int cli_conf_make_roi_align(const conf_op *o, rlx_dtype dt, int which,
                            uint64_t *rng, conf_case *c)
{
    int64_t x[4] = { rnd(rng, 1, 2), rnd(rng, 1, 3), rnd(rng, 3, 6),
                     rnd(rng, 3, 6) };
    int64_t nr = which == 2 ? 0 : rnd(rng, 1, 3);
    int64_t rd[2] = { nr, 4 }, bd[1] = { nr };
    c->ints[0] = which % 2;          /* avg, max */
    c->ints[1] = rnd(rng, 1, 3);     /* oh */
    c->ints[2] = rnd(rng, 1, 3);     /* ow */
    c->ints[3] = rnd(rng, 0, 2);     /* sampling_ratio */
    c->ints[4] = which < 2;          /* half_pixel */
    c->n_ints = 5;
    c->floats[0] = which == 3 ? 0.5 : 1.0;
    c->n_floats = 1;
    c->reduce_len = 16;
    if (add(c, dt, 4, x, rng, o->lo, o->hi) ||
        add(c, dt, 2, rd, rng, -1, 7) ||
        add(c, RLX_DTYPE_I64, 1, bd, rng, 0, (double)x[0] - 0.01))
        return -1;
    /* x1 <= x2 and y1 <= y2 */
    cli_tensor *r = &c->inputs[1];
    for (int64_t i = 0; i < nr; i++)
        for (int k = 0; k < 2; k++) {
            double a = cli_tensor_get(r, (size_t)(4 * i + k));
            double b = cli_tensor_get(r, (size_t)(4 * i + k + 2));
            cli_tensor_set(r, (size_t)(4 * i + k), a < b ? a : b);
            cli_tensor_set(r, (size_t)(4 * i + k + 2), a < b ? b : a);
        }
    return 0;
}
