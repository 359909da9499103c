/*
 * pjrt_emit_pool.c - max_pool, avg_pool and lp_pool as
 * stablehlo.reduce_window over [N, C, D..] with unit windows on N and
 * C. Padding takes the reduction's identity (-inf for max, so padding
 * never wins; maximum propagates NaN). Ceil mode lengthens the end
 * padding just enough for the last window the kit's size keeps. The
 * average divides by a count that is itself a reduce_window of ones
 * over the input (or, with count_include_pad, over the padded extent
 * [-pad_begin, D + pad_end) only), which XLA folds to a constant.
 */
#include <math.h>
#include <stdio.h>

#include <rlx/kit_spatial.h>

#include "pjrt_emit.h"

uint32_t rlxp_reduce_window(rlxp_emit *e, uint32_t a, const char *body,
                            double init, const rlxp_val *res,
                            const int64_t *win, const int64_t *strides,
                            const int64_t *dil, const int64_t *lo,
                            const int64_t *hi)
{
    if (a == RLXP_NONE)
        return a;
    const rlxp_val v = *rlxp_type_of(e, a);
    rlxp_val scalar = rlxp_val_make(v.dt, 0, NULL);
    uint32_t init_id = rlxp_splat(e, &scalar, init);
    rlxp_val r = *res;
    r.dt = v.dt;
    uint32_t id = rlxp_new(e, &r);
    uint32_t p = rlxp_new(e, &scalar), q = rlxp_new(e, &scalar);
    uint32_t s = rlxp_new(e, &scalar);
    if (id == RLXP_NONE || init_id == RLXP_NONE || s == RLXP_NONE)
        return RLXP_NONE;
    rlxp_put(e, "    %%%u = \"stablehlo.reduce_window\"(%%%u, %%%u) ({\n",
             id, a, init_id);
    rlxp_put(e, "    ^bb0(%%%u: ", p);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ", %%%u: ", q);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, "):\n      %%%u = \"%s\"(%%%u, %%%u) : (", s, body, p, q);
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ", ");
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ") -> ");
    rlxp_put_type(e, &scalar);
    rlxp_put(e, "\n      \"stablehlo.return\"(%%%u) : (", s);
    rlxp_put_type(e, &scalar);
    char attrs[1024] = "";
    rlxp_cat_array(attrs, sizeof attrs, "window_dimensions", v.rank, win);
    rlxp_cat_array(attrs, sizeof attrs, "window_strides", v.rank, strides);
    rlxp_cat_array(attrs, sizeof attrs, "window_dilations", v.rank, dil);
    rlxp_cat_padding(attrs, sizeof attrs, v.rank, lo, hi);
    rlxp_put(e, ") -> ()\n    }) {%s} : (", attrs);
    rlxp_put_type(e, &v);
    rlxp_put(e, ", ");
    rlxp_put_type(e, &scalar);
    rlxp_put(e, ") -> ");
    rlxp_put_type(e, &r);
    rlxp_put(e, "\n");
    return id;
}

typedef struct window {
    uint32_t rank;
    int64_t win[RLXP_MAX_RANK], stride[RLXP_MAX_RANK], dil[RLXP_MAX_RANK];
    int64_t lo[RLXP_MAX_RANK], hi[RLXP_MAX_RANK];
} window;

/* The window of a pool node; hi includes the ceil-mode extension. */
static void pool_window(const rlx_kit_spatial *sp, const rlxp_val *x,
                        const rlx_node_view *n, window *w)
{
    w->rank = x->rank;
    for (uint32_t d = 0; d < 2; d++) {
        w->win[d] = w->stride[d] = w->dil[d] = 1;
        w->lo[d] = w->hi[d] = 0;
    }
    for (uint32_t i = 0; i < sp->s; i++) {
        uint32_t d = 2 + i;
        int64_t ext = rlx_kit_spatial_extent(sp, i);
        int64_t need = (n->shape[d] - 1) * sp->stride[i] + ext -
                       x->dims[d] - sp->pad_begin[i];
        w->win[d] = sp->kernel[i];
        w->stride[d] = sp->stride[i];
        w->dil[d] = sp->dilation[i];
        w->lo[d] = sp->pad_begin[i];
        w->hi[d] = need > sp->pad_end[i] ? need : sp->pad_end[i];
    }
}

/* reduce_window of X over W, then cut to the node's spatial sizes (a
 * padded end that fits one more window than the node keeps). */
static uint32_t pool_reduce(rlxp_emit *e, const rlx_node_view *n,
                            uint32_t x, const window *w, const char *body,
                            double init)
{
    const rlxp_val v = *rlxp_type_of(e, x);
    rlxp_val r = v;
    int cut = 0;
    for (uint32_t d = 0; d < v.rank; d++) {
        int64_t span = v.dims[d] + w->lo[d] + w->hi[d] -
                       ((w->win[d] - 1) * w->dil[d] + 1);
        r.dims[d] = span / w->stride[d] + 1;
        if (d >= 2 && r.dims[d] != n->shape[d])
            cut = 1;
    }
    uint32_t y = rlxp_reduce_window(e, x, body, init, &r, w->win, w->stride,
                                    w->dil, w->lo, w->hi);
    if (!cut)
        return y;
    char attrs[512] = "";
    int64_t start[RLXP_MAX_RANK] = { 0 }, lim[RLXP_MAX_RANK],
            step[RLXP_MAX_RANK];
    rlxp_val o = r;
    for (uint32_t d = 0; d < v.rank; d++) {
        lim[d] = d < 2 ? r.dims[d] : n->shape[d];
        o.dims[d] = lim[d];
        step[d] = 1;
    }
    rlxp_cat_array(attrs, sizeof attrs, "start_indices", v.rank, start);
    rlxp_cat_array(attrs, sizeof attrs, "limit_indices", v.rank, lim);
    rlxp_cat_array(attrs, sizeof attrs, "strides", v.rank, step);
    return rlxp_op(e, "stablehlo.slice", 1, &y, &o, attrs);
}

/* The average's divisor, [1, 1, O..] broadcast to the result. */
static uint32_t avg_count(rlxp_emit *e, const rlx_kit_spatial *sp,
                          const rlx_node_view *n, const rlxp_val *x,
                          const window *w, uint32_t like)
{
    rlxp_val ov = rlxp_val_make(RLX_DTYPE_F32, x->rank, x->dims);
    ov.dims[0] = ov.dims[1] = 1;
    window cw = *w;
    if (sp->count_include_pad)
        for (uint32_t i = 0; i < sp->s; i++) {
            uint32_t d = 2 + i;
            /* ones over [-pad_begin, D + pad_end); the ceil-mode
             * extension beyond counts nothing */
            ov.dims[d] += sp->pad_begin[i] + sp->pad_end[i];
            cw.lo[d] = 0;
            cw.hi[d] = w->hi[d] - sp->pad_end[i];
        }
    uint32_t ones = rlxp_splat(e, &ov, 1.0);
    uint32_t c = pool_reduce(e, n, ones, &cw, "stablehlo.add", 0.0);
    int64_t map[RLXP_MAX_RANK];
    for (uint32_t d = 0; d < x->rank; d++)
        map[d] = d;
    rlxp_val to = *rlxp_type_of(e, like);
    to.dt = RLX_DTYPE_F32;
    /* broadcast_in_dim stretches the size-1 N and C */
    return rlxp_broadcast(e, c, &to, map);
}

uint32_t rlxp_emit_pool(rlxp_emit *e, const rlx_node_view *n)
{
    rlx_kit_spatial sp;
    if (rlxp_spatial(e, n, &sp) != 0)
        return RLXP_NONE;
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val v = *rlxp_type_of(e, x);
    window w;
    pool_window(&sp, &v, n, &w);
    uint32_t y;
    if (n->op == RLX_OP_MAX_POOL) {
        /* -inf: the dtype's least value for i8 and u8 */
        y = pool_reduce(e, n, x, &w, "stablehlo.maximum", -INFINITY);
    } else if (n->op == RLX_OP_AVG_POOL) {
        y = pool_reduce(e, n, x, &w, "stablehlo.add", 0.0);
        y = rlxp_bin(e, "stablehlo.divide", y,
                     avg_count(e, &sp, n, &v, &w, y));
    } else { /* lp_pool: (sum |x|^p)^(1/p), padding 0 */
        int64_t p = sp.p;
        uint32_t a = rlxp_un(e, "stablehlo.abs", x);
        if (p == 2)
            a = rlxp_bin(e, "stablehlo.multiply", a, a);
        else if (p != 1)
            a = rlxp_bin(e, "stablehlo.power", a,
                         rlxp_splat_like(e, a, (double)p));
        y = pool_reduce(e, n, a, &w, "stablehlo.add", 0.0);
        if (p == 2)
            y = rlxp_un(e, "stablehlo.sqrt", y);
        else if (p != 1)
            y = rlxp_bin(e, "stablehlo.power", y,
                         rlxp_splat_like(e, y, 1.0 / (double)p));
    }
    return rlxp_out(e, n, y);
}
