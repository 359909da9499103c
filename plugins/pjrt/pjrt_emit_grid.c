/*
 * pjrt_emit_grid.c - grid_sample as cpu-ref computes it (ONNX's
 * GridSample): per spatial axis, the grid coordinate mapped to the input
 * (align_corners or not), rounded half to even for nearest, clamped
 * (border) or mirrored (reflection) when outside, then 1, 2 or 4 taps
 * (nearest, linear, cubic with a = -0.75), each again clamped, mirrored
 * or masked (zeros). Every combination of one tap per axis is one
 * stablehlo.gather of [N, C, O..] from x at (n, i1..is), weighted and
 * summed in f64 as cpu-ref's doubles; a masked tap adds nothing, a NaN
 * coordinate gives NaN.
 */
#include <math.h>
#include <stdio.h>

#include "pjrt_emit.h"

#define GS_FAR 1e15 /* cpu-ref keeps coordinates within +-1e15 */

typedef struct gs {
    rlxp_emit *e;
    rlxp_val fv; /* [N, O..] f64 */
    rlxp_val iv; /* [N, O..] i64 */
} gs;

static uint32_t k(gs *g, double v)
{
    return rlxp_splat(g->e, &g->fv, v);
}
static uint32_t bin(gs *g, const char *op, uint32_t a, uint32_t b)
{
    return rlxp_bin(g->e, op, a, b);
}
static uint32_t add(gs *g, uint32_t a, uint32_t b)
{
    return bin(g, "stablehlo.add", a, b);
}
static uint32_t sub(gs *g, uint32_t a, uint32_t b)
{
    return bin(g, "stablehlo.subtract", a, b);
}
static uint32_t mul(gs *g, uint32_t a, uint32_t b)
{
    return bin(g, "stablehlo.multiply", a, b);
}
static uint32_t sel(gs *g, uint32_t p, uint32_t a, uint32_t b)
{
    return rlxp_select(g->e, p, a, b);
}
static uint32_t cmp(gs *g, uint32_t a, double v, const char *dir)
{
    return rlxp_compare(g->e, a, k(g, v), dir);
}
/* A OP constant V (one value emitted at a time: the text is compared) */
static uint32_t bink(gs *g, const char *op, uint32_t a, double v)
{
    return bin(g, op, a, k(g, v));
}
/* X outside [LO, HI] */
static uint32_t outside(gs *g, uint32_t x, double lo, double hi)
{
    uint32_t below = cmp(g, x, lo, "LT");
    return rlxp_bin(g->e, "stablehlo.or", below, cmp(g, x, hi, "GT"));
}

/* ONNX's reflection of X into [LO, HI] (static bounds, HI > LO). */
static uint32_t reflect(gs *g, uint32_t x, double lo, double hi)
{
    double range = hi - lo;
    if (range <= 0)
        return k(g, lo);
    /* below: dx = lo - x; above: dx = x - hi; k = floor(dx / range) */
    uint32_t below = cmp(g, x, lo, "LT"), above = cmp(g, x, hi, "GT");
    uint32_t dlo = sub(g, k(g, lo), x), dhi = sub(g, x, k(g, hi));
    uint32_t dx = sel(g, below, dlo, dhi);
    uint32_t q = rlxp_un(g->e, "stablehlo.floor",
                         bin(g, "stablehlo.divide", dx, k(g, range)));
    uint32_t r = sub(g, dx, mul(g, q, k(g, range)));
    uint32_t even = cmp(g, bin(g, "stablehlo.remainder", q, k(g, 2.0)), 0.0,
                        "EQ");
    uint32_t lo_r = add(g, k(g, lo), r), hi_r = sub(g, k(g, hi), r);
    uint32_t yb = sel(g, even, lo_r, hi_r); /* from below */
    uint32_t ya = sel(g, even, hi_r, lo_r); /* from above */
    return sel(g, below, yb, sel(g, above, ya, x));
}

/* The pixel tap I (f64, whole) of an axis of size D reads, as i64, and
 * MASK (i1, zeros padding outside) or RLXP_NONE. */
static uint32_t tap(gs *g, uint32_t i, int64_t d, int64_t pad, double lo,
                    double hi, uint32_t *mask)
{
    *mask = RLXP_NONE;
    uint32_t v = i;
    if (pad == RLX_GRID_SAMPLE_ZEROS) {
        uint32_t out = outside(g, i, 0.0, (double)d - 1);
        *mask = out;
        v = sel(g, out, k(g, 0.0), i);
    } else if (pad == RLX_GRID_SAMPLE_REFLECTION) {
        /* mirrored, truncated as ONNX, then kept in the axis */
        v = rlxp_convert(g->e, rlxp_convert(g->e, reflect(g, i, lo, hi),
                                            RLX_DTYPE_I64),
                         RLX_DTYPE_F64);
    }
    v = bin(g, "stablehlo.maximum", v, k(g, 0.0));
    v = bin(g, "stablehlo.minimum", v, k(g, (double)d - 1));
    return rlxp_convert(g->e, v, RLX_DTYPE_I64);
}

/* Keys' cubic weight J (0..3) at fraction T, a = -0.75. */
static uint32_t cubic_w(gs *g, uint32_t t, int j)
{
    const double a = -0.75;
    uint32_t x;
    switch (j) {
    case 0: x = add(g, t, k(g, 1.0)); break;
    case 1: x = t; break;
    case 2: x = sub(g, k(g, 1.0), t); break;
    default: x = sub(g, k(g, 2.0), t); break;
    }
    if (j == 0 || j == 3) { /* ((a x - 5a) x + 8a) x - 4a */
        uint32_t p = bink(g, "stablehlo.subtract",
                          bink(g, "stablehlo.multiply", x, a), 5 * a);
        p = bink(g, "stablehlo.add", mul(g, p, x), 8 * a);
        return bink(g, "stablehlo.subtract", mul(g, p, x), 4 * a);
    }
    /* ((a + 2) x - (a + 3)) x x + 1 */
    uint32_t p = bink(g, "stablehlo.subtract",
                      bink(g, "stablehlo.multiply", x, a + 2), a + 3);
    return bink(g, "stablehlo.add", mul(g, mul(g, p, x), x), 1.0);
}

/* One axis: its taps (i64), weights (f64; NONE for nearest) and masks. */
static int axis_taps(gs *g, uint32_t c, int64_t d, const int64_t *mpa,
                     uint32_t idx[4], uint32_t w[4], uint32_t m[4])
{
    int64_t mode = mpa[0], pad = mpa[1];
    int align = mpa[2] != 0;
    double lo = align ? 0.0 : -0.5, hi = align ? (double)d - 1 : d - 0.5;
    /* align: (c + 1) / 2 (d - 1); else ((c + 1) d - 1) / 2 */
    uint32_t v = bink(g, "stablehlo.add", c, 1.0);
    if (align) {
        v = bink(g, "stablehlo.divide", v, 2.0);
        v = bink(g, "stablehlo.multiply", v, (double)d - 1);
    } else {
        v = bink(g, "stablehlo.multiply", v, (double)d);
        v = bink(g, "stablehlo.subtract", v, 1.0);
        v = bink(g, "stablehlo.divide", v, 2.0);
    }
    if (mode == RLX_GRID_SAMPLE_NEAREST)
        v = rlxp_un(g->e, "stablehlo.round_nearest_even", v);
    if (pad == RLX_GRID_SAMPLE_BORDER) {
        /* inside [lo, hi] the clamp to [0, d - 1] changes nothing that
         * cpu-ref would keep: it clamps only outside, to the same */
        uint32_t out = outside(g, v, lo, hi);
        uint32_t cl = bin(g, "stablehlo.maximum", v, k(g, 0.0));
        cl = bin(g, "stablehlo.minimum", cl, k(g, (double)d - 1));
        v = sel(g, out, cl, v);
    } else if (pad == RLX_GRID_SAMPLE_REFLECTION) {
        v = reflect(g, v, lo, hi);
    }
    v = bin(g, "stablehlo.maximum", v, k(g, -GS_FAR));
    v = bin(g, "stablehlo.minimum", v, k(g, GS_FAR));
    if (mode == RLX_GRID_SAMPLE_NEAREST) {
        /* (int64_t)v truncates toward zero */
        uint32_t t = rlxp_convert(g->e, rlxp_convert(g->e, v, RLX_DTYPE_I64),
                                  RLX_DTYPE_F64);
        idx[0] = tap(g, t, d, pad, lo, hi, &m[0]);
        w[0] = RLXP_NONE;
        return 1;
    }
    uint32_t f = rlxp_un(g->e, "stablehlo.floor", v);
    uint32_t t = sub(g, v, f);
    if (mode == RLX_GRID_SAMPLE_LINEAR) {
        idx[0] = tap(g, f, d, pad, lo, hi, &m[0]);
        idx[1] = tap(g, add(g, f, k(g, 1.0)), d, pad, lo, hi, &m[1]);
        w[0] = sub(g, k(g, 1.0), t);
        w[1] = t;
        return 2;
    }
    for (int j = 0; j < 4; j++) {
        w[j] = cubic_w(g, t, j);
        idx[j] = tap(g, add(g, f, k(g, (double)j - 1)), d, pad, lo, hi,
                     &m[j]);
    }
    return 4;
}

uint32_t rlxp_emit_grid_sample(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_convert(e, e->node_val[n->inputs[0]], RLX_DTYPE_F64);
    uint32_t grid = rlxp_convert(e, e->node_val[n->inputs[1]],
                                 RLX_DTYPE_F64);
    if (x == RLXP_NONE || grid == RLXP_NONE)
        return RLXP_NONE;
    const rlxp_val xv = *rlxp_type_of(e, x);
    const rlxp_val gv = *rlxp_type_of(e, grid);
    uint32_t s = xv.rank - 2;
    int64_t mpa[3];
    for (uint32_t i = 0; i < 3; i++)
        mpa[i] = n->n_int_attrs > i ? n->int_attrs[i] : 0;
    gs g = { e, rlxp_val_make(RLX_DTYPE_F64, s + 1, gv.dims),
             rlxp_val_make(RLX_DTYPE_I64, s + 1, gv.dims) };
    rlxp_val out = rlxp_val_of_node(n);
    out.dt = RLX_DTYPE_F64;
    if (rlxp_val_count(&out) == 0)
        return rlxp_splat(e, &(rlxp_val){ n->dtype, n->rank, { 0 } }, 0.0);
    uint32_t idx[3][4], w[3][4], m[3][4];
    int cnt[3];
    uint32_t nan = RLXP_NONE;
    for (uint32_t i = 0; i < s && e->status == RLX_OK; i++) {
        /* axis i takes grid component s - 1 - i */
        int64_t start[RLXP_MAX_RANK] = { 0 }, lim[RLXP_MAX_RANK],
                step[RLXP_MAX_RANK];
        for (uint32_t d = 0; d < gv.rank; d++) {
            lim[d] = gv.dims[d];
            step[d] = 1;
        }
        start[s + 1] = s - 1 - i;
        lim[s + 1] = s - i;
        char sa[512] = "";
        rlxp_cat_array(sa, sizeof sa, "start_indices", gv.rank, start);
        rlxp_cat_array(sa, sizeof sa, "limit_indices", gv.rank, lim);
        rlxp_cat_array(sa, sizeof sa, "strides", gv.rank, step);
        rlxp_val one = gv;
        one.dims[s + 1] = 1;
        uint32_t c = rlxp_op(e, "stablehlo.slice", 1, &grid, &one, sa);
        c = rlxp_reshape(e, c, g.fv.rank, g.fv.dims);
        uint32_t isnan_c = rlxp_compare(e, c, c, "NE");
        nan = nan == RLXP_NONE ? isnan_c
                               : rlxp_bin(e, "stablehlo.or", nan, isnan_c);
        cnt[i] = axis_taps(&g, c, xv.dims[2 + i], mpa, idx[i], w[i], m[i]);
    }
    if (e->status != RLX_OK)
        return RLXP_NONE;
    /* the batch index of each [N, O..] position, as a gather column */
    rlxp_val col = g.iv;
    col.rank++;
    col.dims[col.rank - 1] = 1;
    uint32_t bcol = rlxp_reshape(e, rlxp_iota(e, &g.iv, 0), col.rank,
                                 col.dims);
    char ga[1024] = "dimension_numbers = #stablehlo.gather<offset_dims = [1], "
                    "collapsed_slice_dims = [0";
    for (uint32_t i = 0; i < s; i++)
        rlxp_cat(ga, sizeof ga, ", %u", 2 + i);
    rlxp_cat(ga, sizeof ga, "], start_index_map = [0");
    for (uint32_t i = 0; i < s; i++)
        rlxp_cat(ga, sizeof ga, ", %u", 2 + i);
    rlxp_cat(ga, sizeof ga, "], index_vector_dim = %u>, "
             "indices_are_sorted = false", s + 1);
    int64_t sizes[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < xv.rank; d++)
        sizes[d] = d == 1 ? xv.dims[1] : 1;
    rlxp_cat_array(ga, sizeof ga, "slice_sizes", xv.rank, sizes);
    int64_t map[RLXP_MAX_RANK];
    map[0] = 0;
    for (uint32_t i = 0; i < s; i++)
        map[1 + i] = 2 + i;
    uint32_t sum = rlxp_splat(e, &out, 0.0);
    int kk[3] = { 0, 0, 0 };
    for (;;) {
        /* one tap per axis: the indices, the weight and the mask */
        uint32_t parts[4] = { bcol };
        uint32_t wt = RLXP_NONE, mask = RLXP_NONE;
        for (uint32_t i = 0; i < s; i++) {
            parts[1 + i] = rlxp_reshape(e, idx[i][kk[i]], col.rank,
                                        col.dims);
            uint32_t wi = w[i][kk[i]], mi = m[i][kk[i]];
            if (wi != RLXP_NONE)
                wt = wt == RLXP_NONE ? mul(&g, k(&g, 1.0), wi)
                                     : mul(&g, wt, wi);
            if (mi != RLXP_NONE)
                mask = mask == RLXP_NONE
                           ? mi : rlxp_bin(e, "stablehlo.or", mask, mi);
        }
        rlxp_val iv = col;
        iv.dims[col.rank - 1] = s + 1;
        char ca[64];
        snprintf(ca, sizeof ca, "dimension = %u : i64", col.rank - 1);
        uint32_t at = rlxp_op(e, "stablehlo.concatenate", s + 1, parts, &iv,
                              ca);
        uint32_t ops[2] = { x, at };
        uint32_t v = rlxp_op(e, "stablehlo.gather", 2, ops, &out, ga);
        if (wt != RLXP_NONE)
            v = rlxp_bin(e, "stablehlo.multiply", v,
                         rlxp_broadcast(e, wt, &out, map));
        if (mask != RLXP_NONE) {
            rlxp_val mv = out;
            mv.dt = RLX_DTYPE_BOOL;
            uint32_t mb = rlxp_broadcast(e, mask, &mv, map);
            v = rlxp_select(e, mb, rlxp_splat(e, &out, 0.0), v);
        }
        sum = rlxp_bin(e, "stablehlo.add", sum, v);
        uint32_t i = s;
        while (i-- > 0 && ++kk[i] == cnt[i])
            kk[i] = 0;
        if (i == UINT32_MAX || e->status != RLX_OK)
            break;
    }
    rlxp_val mv = out;
    mv.dt = RLX_DTYPE_BOOL;
    uint32_t nb = rlxp_broadcast(e, nan, &mv, map);
    sum = rlxp_select(e, nb, rlxp_splat(e, &out, NAN), sum);
    return rlxp_convert(e, sum, n->dtype);
}
