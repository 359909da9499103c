/*
 * pjrt_emit_pool_index.c - max_pool_index: where each max_pool window's
 * maximum is, as a flat input position, walking the window as cpu-ref
 * does (kernel offsets row-major; a later element wins when greater, or
 * when NaN over a number; padding never wins; a window wholly in the
 * padding gives -1).
 *
 * The kernel is static, so the walk is unrolled: for each offset, a
 * strided slice of the padded input gives every window's element at
 * that offset at once, iotas give its coordinates (hence whether it is
 * inside and its position, row- or column-major), and selects keep the
 * winner. No variadic reduce_window: its tie and NaN rules would be
 * XLA's, not rlx's.
 */
#include <math.h>

#include <rlx/kit_spatial.h>

#include "pjrt_emit.h"

static uint32_t add(rlxp_emit *e, uint32_t a, uint32_t b)
{
    return rlxp_bin(e, "stablehlo.add", a, b);
}

static uint32_t mul(rlxp_emit *e, uint32_t a, uint32_t b)
{
    return rlxp_bin(e, "stablehlo.multiply", a, b);
}

static uint32_t and(rlxp_emit *e, uint32_t a, uint32_t b)
{
    return rlxp_bin(e, "stablehlo.and", a, b);
}

uint32_t rlxp_emit_pool_index(rlxp_emit *e, const rlx_node_view *n)
{
    rlx_kit_spatial sp;
    if (rlxp_spatial(e, n, &sp) != 0)
        return RLXP_NONE;
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val xv = *rlxp_type_of(e, x);
    uint32_t r = xv.rank, s = sp.s;
    int col_major = sp.p == 1; /* storage_order, in lp_pool's p */
    rlxp_val ov = xv; /* the windows: the node's shape, x's dtype */
    for (uint32_t d = 2; d < r; d++)
        ov.dims[d] = n->shape[d];
    rlxp_val iv = ov;
    iv.dt = RLX_DTYPE_I64;
    if (rlxp_val_count(&ov) == 0)
        return rlxp_splat(e, &iv, -1.0);
    /* pad so that every offset's slice stays inside (the padding's
     * value is never read: positions outside are masked) */
    int64_t lo[RLXP_MAX_RANK] = { 0 }, hi[RLXP_MAX_RANK] = { 0 },
            zero[RLXP_MAX_RANK] = { 0 };
    rlxp_val pv = xv;
    for (uint32_t i = 0; i < s; i++) {
        uint32_t d = 2 + i;
        int64_t last = (ov.dims[d] - 1) * sp.stride[i] +
                       (sp.kernel[i] - 1) * sp.dilation[i] - sp.pad_begin[i];
        lo[d] = sp.pad_begin[i];
        hi[d] = last + 1 > xv.dims[d] ? last + 1 - xv.dims[d] : 0;
        pv.dims[d] = xv.dims[d] + lo[d] + hi[d];
    }
    char pa[1024] = "";
    rlxp_cat_array(pa, sizeof pa, "edge_padding_low", r, lo);
    rlxp_cat_array(pa, sizeof pa, "edge_padding_high", r, hi);
    rlxp_cat_array(pa, sizeof pa, "interior_padding", r, zero);
    rlxp_val sv = rlxp_val_make(xv.dt, 0, NULL);
    uint32_t pops[2] = { x, rlxp_splat(e, &sv, 0.0) };
    uint32_t xp = rlxp_op(e, "stablehlo.pad", 2, pops, &pv, pa);
    /* per spatial axis: o * stride, the window's start before padding */
    uint32_t start[RLX_KIT_SPATIAL_MAX];
    for (uint32_t i = 0; i < s; i++) {
        uint32_t o = rlxp_iota(e, &iv, 2 + i);
        start[i] = mul(e, o, rlxp_splat(e, &iv, (double)sp.stride[i]));
    }
    /* (n * C + c) * the spatial size: where each plane starts */
    int64_t plane = 1;
    for (uint32_t d = 2; d < r; d++)
        plane *= xv.dims[d];
    uint32_t bn = rlxp_iota(e, &iv, 0);
    bn = mul(e, bn, rlxp_splat(e, &iv, (double)xv.dims[1]));
    uint32_t base = add(e, bn, rlxp_iota(e, &iv, 1));
    base = mul(e, base, rlxp_splat(e, &iv, (double)plane));
    rlxp_val bv = ov;
    bv.dt = RLX_DTYPE_BOOL;
    uint32_t has = rlxp_splat(e, &bv, 0.0);
    uint32_t best = rlxp_splat(e, &ov, 0.0);
    uint32_t at = rlxp_splat(e, &iv, -1.0);
    int64_t k[RLX_KIT_SPATIAL_MAX] = { 0 }, kn = 1;
    for (uint32_t i = 0; i < s; i++)
        kn *= sp.kernel[i];
    for (int64_t kk = 0; kk < kn && e->status == RLX_OK; kk++) {
        if (kk) /* the kernel offset, last axis fastest */
            for (uint32_t i = s; i-- > 0;) {
                if (++k[i] < sp.kernel[i])
                    break;
                k[i] = 0;
            }
        int64_t b[RLXP_MAX_RANK] = { 0 }, l[RLXP_MAX_RANK],
                st[RLXP_MAX_RANK];
        for (uint32_t d = 0; d < r; d++) {
            l[d] = ov.dims[d];
            st[d] = 1;
        }
        for (uint32_t i = 0; i < s; i++) {
            uint32_t d = 2 + i;
            b[d] = k[i] * sp.dilation[i];
            st[d] = sp.stride[i];
            l[d] = b[d] + (ov.dims[d] - 1) * st[d] + 1;
        }
        char sa[1024] = "";
        rlxp_cat_array(sa, sizeof sa, "start_indices", r, b);
        rlxp_cat_array(sa, sizeof sa, "limit_indices", r, l);
        rlxp_cat_array(sa, sizeof sa, "strides", r, st);
        uint32_t v = rlxp_op(e, "stablehlo.slice", 1, &xp, &ov, sa);
        /* inside the input, and the position there */
        uint32_t inside = RLXP_NONE, off = RLXP_NONE;
        int64_t step = 1;
        for (uint32_t i = 0; i < s; i++) {
            uint32_t d = 2 + i;
            uint32_t pos = add(e, start[i],
                               rlxp_splat(e, &iv, (double)(k[i] *
                                                           sp.dilation[i] -
                                                           sp.pad_begin[i])));
            uint32_t ge = rlxp_compare(e, pos, rlxp_splat(e, &iv, 0.0),
                                       "GE");
            uint32_t in_d = and(e, ge, rlxp_compare(
                                           e, pos,
                                           rlxp_splat(e, &iv,
                                                      (double)xv.dims[d]),
                                           "LT"));
            inside = inside == RLXP_NONE ? in_d : and(e, inside, in_d);
            if (col_major) {
                uint32_t t = mul(e, pos, rlxp_splat(e, &iv, (double)step));
                off = off == RLXP_NONE ? t : add(e, off, t);
                step *= xv.dims[d];
            } else {
                off = off == RLXP_NONE
                          ? pos
                          : add(e, mul(e, off, rlxp_splat(e, &iv,
                                                          (double)xv.dims[d])),
                                pos);
            }
        }
        if (s == 0) { /* no spatial axes: the element itself */
            inside = rlxp_splat(e, &bv, 1.0);
            off = rlxp_splat(e, &iv, 0.0);
        }
        /* take: inside and (first, greater, or NaN over a number) */
        uint32_t more = rlxp_compare(e, v, best, "GT");
        uint32_t v_nan = rlxp_compare(e, v, v, "NE");
        uint32_t b_num = rlxp_compare(e, best, best, "EQ");
        uint32_t first = rlxp_un(e, "stablehlo.not", has);
        uint32_t wins = rlxp_bin(e, "stablehlo.or", more,
                                 and(e, v_nan, b_num));
        uint32_t take = and(e, inside, rlxp_bin(e, "stablehlo.or", first,
                                                wins));
        best = rlxp_select(e, take, v, best);
        at = rlxp_select(e, take, add(e, base, off), at);
        has = rlxp_bin(e, "stablehlo.or", has, inside);
    }
    return at;
}
