/*
 * pjrt_emit_roi.c - roi_align as cpu-ref computes it (ONNX's RoiAlign):
 * each roi scaled and (half_pixel) shifted, cut into oh x ow bins, each
 * bin sampling sh x sw points bilinearly (a point more than a pixel
 * outside reads 0) and averaging them, or keeping the largest weighted
 * corner value (max). All in f64, as cpu-ref's doubles.
 *
 * The sample count per bin is static when sampling_ratio > 0. When it
 * is 0 (adaptive: ceil(bin size)), it depends on the rois at run time,
 * but the samples are then spaced more than half a pixel apart, so at
 * most 2 H + 3 of them (2 W + 3) fall where they read anything: the
 * lowering walks a static window of 2 H + 8 samples from just before
 * the first that can, masks those past the roi's count, and counts the
 * ones outside (which add 0 to an average's sum, and a 0 to a max),
 * supports_node bounding the whole at 2^26 samples. The corners are
 * four stablehlo.gathers of [R, C, oh, ow, Ky, Kx] at (batch, y, x); a
 * batch index outside [0, N) fails the run.
 */
#include <math.h>
#include <stdio.h>

#include "pjrt_emit.h"

/* One axis's samples: [R, NB, K] positions and what the corners need. */
typedef struct axis {
    uint32_t lo, hi; /* i64 pixel indices */
    uint32_t frac;   /* f64 weight of hi */
    uint32_t in;     /* i1: a sample of the roi that reads the image */
    uint32_t n_in;   /* f64 [R, NB]: how many do */
} axis;

static uint32_t kv(rlxp_emit *e, const rlxp_val *v, double x)
{
    return rlxp_splat(e, v, x);
}

static uint32_t binop(rlxp_emit *e, const char *op, uint32_t a, uint32_t b)
{
    return rlxp_bin(e, op, a, b);
}

/* X is finite (an i1 of X's shape) */
static uint32_t is_finite_of(rlxp_emit *e, uint32_t x)
{
    rlxp_val b = *rlxp_type_of(e, x);
    b.dt = RLX_DTYPE_BOOL;
    return rlxp_op(e, "stablehlo.is_finite", 1, &x, &b, NULL);
}

/* A [R] to [R, NB, K] (map 0), or A [R, NB] likewise (map 0, 1). */
static uint32_t up(rlxp_emit *e, uint32_t a, const rlxp_val *to)
{
    int64_t map[2] = { 0, 1 };
    rlxp_val t = *to;
    t.dt = rlxp_type_of(e, a)->dt;
    return rlxp_broadcast(e, a, &t, map);
}

/* Samples along one axis of size D: START, BIN and COUNT are [R] f64
 * (the roi's start, the bin size, the samples per bin); NB bins, a
 * static window of K samples, from 0 (STATIC_COUNT) or from the first
 * sample that can read the image. */
static void samples(rlxp_emit *e, uint32_t start, uint32_t bin,
                    uint32_t count, int64_t r, int64_t nb, int64_t k,
                    int64_t d, int static_count, axis *ax)
{
    int64_t dims3[3] = { r, nb, k }, dims2[2] = { r, nb };
    rlxp_val v3 = rlxp_val_make(RLX_DTYPE_F64, 3, dims3);
    rlxp_val v2 = rlxp_val_make(RLX_DTYPE_F64, 2, dims2);
    /* t2 = start + p * bin (per bin), as cpu-ref: y0 + py * bh */
    uint32_t p = rlxp_convert(e, rlxp_iota(e, &v2, 1), RLX_DTYPE_F64);
    uint32_t t2 = binop(e, "stablehlo.multiply", p, up(e, bin, &v2));
    t2 = binop(e, "stablehlo.add", up(e, start, &v2), t2);
    uint32_t j = rlxp_iota(e, &v3, 2);
    uint32_t first;
    if (static_count) {
        first = kv(e, &v3, 0.0);
    } else {
        /* the first sample at or past -1, less a margin of one:
         * (-1 - t2) * count / bin - 0.5, floored, at least 0 */
        uint32_t f = binop(e, "stablehlo.subtract", kv(e, &v2, -1.0), t2);
        f = binop(e, "stablehlo.multiply", f, up(e, count, &v2));
        f = binop(e, "stablehlo.divide", f, up(e, bin, &v2));
        f = rlxp_un(e, "stablehlo.floor", f);
        f = binop(e, "stablehlo.subtract", f, kv(e, &v2, 1.5));
        uint32_t ok = is_finite_of(e, f);
        f = rlxp_select(e, ok, f, kv(e, &v2, 0.0));
        f = binop(e, "stablehlo.maximum", f, kv(e, &v2, 0.0));
        /* within the count, so the window never starts past the end */
        f = binop(e, "stablehlo.minimum", f, up(e, count, &v2));
        first = up(e, rlxp_un(e, "stablehlo.floor", f), &v3);
    }
    uint32_t iy = binop(e, "stablehlo.add", first, j);
    /* y = t2 + (iy + 0.5) * bin / count */
    uint32_t y = binop(e, "stablehlo.add", iy, kv(e, &v3, 0.5));
    y = binop(e, "stablehlo.multiply", y, up(e, bin, &v3));
    y = binop(e, "stablehlo.divide", y, up(e, count, &v3));
    y = binop(e, "stablehlo.add", up(e, t2, &v3), y);
    /* a sample of the roi (iy < count) that reads the image */
    uint32_t mine = rlxp_compare(e, iy, up(e, count, &v3), "LT");
    uint32_t below = rlxp_compare(e, y, kv(e, &v3, -1.0), "LT");
    uint32_t above = rlxp_compare(e, y, kv(e, &v3, (double)d), "GT");
    uint32_t out = binop(e, "stablehlo.or", below, above);
    ax->in = binop(e, "stablehlo.and", mine,
                   rlxp_un(e, "stablehlo.not", out));
    /* NaN positions read nothing: compares with NaN are false */
    uint32_t nan = rlxp_compare(e, y, y, "NE");
    ax->in = binop(e, "stablehlo.and", ax->in,
                   rlxp_un(e, "stablehlo.not", nan));
    uint32_t ones = rlxp_convert(e, ax->in, RLX_DTYPE_F64);
    int64_t last = 2;
    ax->n_in = rlxp_reduce(e, ones, 1, &last, "stablehlo.add", 0.0);
    /* corners: y <= 0 reads from 0; the low pixel truncated; at the
     * last pixel both corners are it */
    uint32_t le0 = rlxp_compare(e, y, kv(e, &v3, 0.0), "LE");
    uint32_t yc = rlxp_select(e, le0, kv(e, &v3, 0.0), y);
    yc = rlxp_select(e, ax->in, yc, kv(e, &v3, 0.0));
    uint32_t yl = rlxp_convert(e, rlxp_convert(e, yc, RLX_DTYPE_I64),
                               RLX_DTYPE_F64);
    uint32_t edge = rlxp_compare(e, yl, kv(e, &v3, (double)d - 1), "GE");
    uint32_t last_px = kv(e, &v3, (double)d - 1);
    yl = rlxp_select(e, edge, last_px, yl);
    yc = rlxp_select(e, edge, yl, yc);
    uint32_t yh = binop(e, "stablehlo.add", yl, kv(e, &v3, 1.0));
    yh = rlxp_select(e, edge, yl, yh);
    ax->frac = binop(e, "stablehlo.subtract", yc, yl);
    ax->lo = rlxp_convert(e, yl, RLX_DTYPE_I64);
    ax->hi = rlxp_convert(e, yh, RLX_DTYPE_I64);
}

/* [R, NB, K] of one axis to [R, oh, ow, Ky, Kx] (Y: dims 0, 1, 3;
 * X: dims 0, 2, 4). */
static uint32_t spread(rlxp_emit *e, uint32_t a, const rlxp_val *five,
                       int is_x)
{
    int64_t my[3] = { 0, 1, 3 }, mx[3] = { 0, 2, 4 };
    rlxp_val t = *five;
    t.dt = rlxp_type_of(e, a)->dt;
    return rlxp_broadcast(e, a, &t, is_x ? mx : my);
}

uint32_t rlxp_emit_roi_align(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_convert(e, e->node_val[n->inputs[0]], RLX_DTYPE_F64);
    uint32_t rois = rlxp_convert(e, e->node_val[n->inputs[1]],
                                 RLX_DTYPE_F64);
    uint32_t bi = rlxp_convert(e, e->node_val[n->inputs[2]], RLX_DTYPE_I64);
    if (x == RLXP_NONE || rois == RLXP_NONE || bi == RLXP_NONE)
        return RLXP_NONE;
    const rlxp_val xv = *rlxp_type_of(e, x);
    int64_t r = n->shape[0], ch = n->shape[1], oh = n->shape[2],
            ow = n->shape[3], h = xv.dims[2], w = xv.dims[3];
    int64_t a[5] = { 0, 1, 1, 0, 1 };
    for (uint32_t i = 0; i < 5; i++)
        if (n->n_int_attrs > i)
            a[i] = n->int_attrs[i];
    int is_max = a[0] == 1, half = a[4] == 1;
    int64_t sr = a[3];
    double scale = n->n_float_attrs ? n->float_attrs[0] : 1.0;
    rlxp_val out = rlxp_val_of_node(n);
    if (rlxp_val_count(&out) == 0)
        return rlxp_splat(e, &out, 0.0);
    int64_t ky = sr > 0 ? sr : 2 * h + 8, kx = sr > 0 ? sr : 2 * w + 8;
    /* the batch index: a run-time check, as cpu-ref fails the run */
    rlxp_val r1 = rlxp_val_make(RLX_DTYPE_F64, 1, &r);
    rlxp_val ri = r1;
    ri.dt = RLX_DTYPE_I64;
    uint32_t neg = rlxp_compare(e, bi, kv(e, &ri, 0.0), "LT");
    uint32_t big = rlxp_compare(e, bi, kv(e, &ri, (double)xv.dims[0]), "GE");
    int64_t d0 = 0;
    uint32_t flag = rlxp_reduce(e, binop(e, "stablehlo.or", neg, big), 1,
                                &d0, "stablehlo.or", 0.0);
    if (flag != RLXP_NONE) {
        e->check_what[e->n_checks] = n->name;
        e->checks[e->n_checks++] = flag;
    }
    /* the roi's corners: column K of [R, 4], scaled and shifted */
    uint32_t col[4];
    for (int64_t c = 0; c < 4; c++) {
        char sa[256] = "";
        int64_t s0[2] = { 0, c }, l0[2] = { r, c + 1 }, st[2] = { 1, 1 };
        rlxp_cat_array(sa, sizeof sa, "start_indices", 2, s0);
        rlxp_cat_array(sa, sizeof sa, "limit_indices", 2, l0);
        rlxp_cat_array(sa, sizeof sa, "strides", 2, st);
        int64_t d2[2] = { r, 1 };
        rlxp_val cv = rlxp_val_make(RLX_DTYPE_F64, 2, d2);
        uint32_t v = rlxp_op(e, "stablehlo.slice", 1, &rois, &cv, sa);
        v = rlxp_reshape(e, v, 1, &r);
        v = binop(e, "stablehlo.multiply", v, kv(e, &r1, scale));
        col[c] = binop(e, "stablehlo.subtract", v,
                       kv(e, &r1, half ? 0.5 : 0.0));
    }
    uint32_t bin[2], cnt[2];
    for (int i = 0; i < 2; i++) {
        /* i 0: x (width), 1: y (height) */
        uint32_t s = binop(e, "stablehlo.subtract", col[2 + i], col[i]);
        if (!half) { /* at least one pixel (NaN becomes 1, as cpu-ref) */
            uint32_t gt = rlxp_compare(e, s, kv(e, &r1, 1.0), "GT");
            s = rlxp_select(e, gt, s, kv(e, &r1, 1.0));
        }
        bin[i] = binop(e, "stablehlo.divide", s,
                       kv(e, &r1, (double)(i ? oh : ow)));
        uint32_t g;
        if (sr > 0) {
            g = kv(e, &r1, (double)sr);
        } else {
            g = rlxp_un(e, "stablehlo.ceil", bin[i]);
            uint32_t ok = is_finite_of(e, g);
            ok = binop(e, "stablehlo.and", ok,
                       rlxp_compare(e, g, kv(e, &r1, 0.0), "GT"));
            g = binop(e, "stablehlo.minimum", g, kv(e, &r1, 65536.0));
            g = rlxp_select(e, ok, g, kv(e, &r1, 0.0));
        }
        cnt[i] = g;
    }
    axis ay, ax;
    samples(e, col[1], bin[1], cnt[1], r, oh, ky, h, sr > 0, &ay);
    samples(e, col[0], bin[0], cnt[0], r, ow, kx, w, sr > 0, &ax);
    /* [R, oh, ow, Ky, Kx]: weights, masks, the gather indices */
    int64_t d5[5] = { r, oh, ow, ky, kx };
    rlxp_val f5 = rlxp_val_make(RLX_DTYPE_F64, 5, d5);
    uint32_t in = spread(e, ay.in, &f5, 0);
    in = binop(e, "stablehlo.and", in, spread(e, ax.in, &f5, 1));
    uint32_t ly = spread(e, ay.frac, &f5, 0);
    uint32_t lx = spread(e, ax.frac, &f5, 1);
    uint32_t hy = binop(e, "stablehlo.subtract", kv(e, &f5, 1.0), ly);
    uint32_t hx = binop(e, "stablehlo.subtract", kv(e, &f5, 1.0), lx);
    uint32_t wt[4];
    wt[0] = binop(e, "stablehlo.multiply", hy, hx);
    wt[1] = binop(e, "stablehlo.multiply", hy, lx);
    wt[2] = binop(e, "stablehlo.multiply", ly, hx);
    wt[3] = binop(e, "stablehlo.multiply", ly, lx);
    int64_t d6[6] = { r, oh, ow, ky, kx, 1 };
    uint32_t bcol;
    {
        int64_t m0[1] = { 0 };
        rlxp_val t = rlxp_val_make(RLX_DTYPE_I64, 5, d5);
        bcol = rlxp_reshape(e, rlxp_broadcast(e, bi, &t, m0), 6, d6);
    }
    uint32_t ys[2], xs[2];
    ys[0] = spread(e, ay.lo, &f5, 0);
    ys[1] = spread(e, ay.hi, &f5, 0);
    xs[0] = spread(e, ax.lo, &f5, 1);
    xs[1] = spread(e, ax.hi, &f5, 1);
    int64_t d7[6] = { r, ch, oh, ow, ky, kx };
    rlxp_val g6 = rlxp_val_make(RLX_DTYPE_F64, 6, d7);
    char ga[512] = "dimension_numbers = #stablehlo.gather<offset_dims = [1], "
                   "collapsed_slice_dims = [0, 2, 3], start_index_map = "
                   "[0, 2, 3], index_vector_dim = 5>, indices_are_sorted = "
                   "false";
    int64_t sizes[4] = { 1, ch, 1, 1 };
    rlxp_cat_array(ga, sizeof ga, "slice_sizes", 4, sizes);
    int64_t wmap[5] = { 0, 2, 3, 4, 5 };
    uint32_t val[4];
    for (int c = 0; c < 4; c++) {
        uint32_t parts[3] = { bcol, rlxp_reshape(e, ys[c / 2], 6, d6),
                              RLXP_NONE };
        parts[2] = rlxp_reshape(e, xs[c % 2], 6, d6);
        int64_t di[6] = { r, oh, ow, ky, kx, 3 };
        rlxp_val iv = rlxp_val_make(RLX_DTYPE_I64, 6, di);
        uint32_t at = rlxp_op(e, "stablehlo.concatenate", 3, parts, &iv,
                              "dimension = 5 : i64");
        uint32_t ops[2] = { x, at };
        uint32_t g = rlxp_op(e, "stablehlo.gather", 2, ops, &g6, ga);
        val[c] = binop(e, "stablehlo.multiply",
                       rlxp_broadcast(e, wt[c], &g6, wmap), g);
    }
    rlxp_val b6 = g6;
    b6.dt = RLX_DTYPE_BOOL;
    uint32_t in6 = rlxp_broadcast(e, in, &b6, wmap);
    int64_t kk[2] = { 4, 5 };
    uint32_t y;
    if (!is_max) {
        uint32_t s = binop(e, "stablehlo.add", val[0], val[1]);
        s = binop(e, "stablehlo.add", s, val[2]);
        s = binop(e, "stablehlo.add", s, val[3]);
        s = rlxp_select(e, in6, s, kv(e, &g6, 0.0));
        y = rlxp_reduce(e, s, 2, kk, "stablehlo.add", 0.0);
        uint32_t c = binop(e, "stablehlo.multiply", cnt[0], cnt[1]);
        uint32_t pos = rlxp_compare(e, c, kv(e, &r1, 0.0), "GT");
        c = rlxp_select(e, pos, c, kv(e, &r1, 1.0));
        int64_t m0[1] = { 0 };
        y = binop(e, "stablehlo.divide", y, rlxp_broadcast(e, c, &out, m0));
        out.dt = RLX_DTYPE_F64;
    } else {
        uint32_t m = binop(e, "stablehlo.maximum", val[0], val[1]);
        m = binop(e, "stablehlo.maximum", m, val[2]);
        m = binop(e, "stablehlo.maximum", m, val[3]);
        m = rlxp_select(e, in6, m, kv(e, &g6, -INFINITY));
        y = rlxp_reduce(e, m, 2, kk, "stablehlo.maximum", -INFINITY);
        /* samples of the bin that read nothing count as 0: some exist
         * when fewer than sh (sw) read the image along an axis */
        int64_t d4[4] = { r, ch, oh, ow };
        rlxp_val f4 = rlxp_val_make(RLX_DTYPE_F64, 4, d4);
        int64_t my[2] = { 0, 2 }, mx[2] = { 0, 3 }, m0[1] = { 0 };
        uint32_t fy = rlxp_compare(e, ay.n_in, up(e, cnt[1], &(rlxp_val){
                                       RLX_DTYPE_F64, 2, { r, oh } }),
                                   "LT");
        uint32_t fx = rlxp_compare(e, ax.n_in, up(e, cnt[0], &(rlxp_val){
                                       RLX_DTYPE_F64, 2, { r, ow } }),
                                   "LT");
        rlxp_val b4 = f4;
        b4.dt = RLX_DTYPE_BOOL;
        uint32_t zero_in = rlxp_broadcast(e, fy, &b4, my);
        zero_in = binop(e, "stablehlo.or", zero_in,
                        rlxp_broadcast(e, fx, &b4, mx));
        /* no samples at all (sh * sw == 0): 0 */
        uint32_t none = binop(e, "stablehlo.multiply", cnt[0], cnt[1]);
        none = rlxp_compare(e, none, kv(e, &r1, 0.0), "EQ");
        zero_in = binop(e, "stablehlo.or", zero_in,
                        rlxp_broadcast(e, none, &b4, m0));
        uint32_t with0 = binop(e, "stablehlo.maximum", y, kv(e, &f4, 0.0));
        y = rlxp_select(e, zero_in, with0, y);
        out.dt = RLX_DTYPE_F64;
    }
    return rlxp_convert(e, y, n->dtype);
}
