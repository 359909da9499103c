/*
 * pjrt_emit_resize.c - resize (nearest, linear, cubic; every coordinate
 * transform) as cpu-ref does it: axes are separable, so compile works
 * out each axis's taps with the plugin kit's coordinate rules
 * (rlx/kit_spatial.h) and the text reads them as gathers of constant
 * index tables weighted by constant weight tables. Taps of weight 0 are
 * skipped by a select rather than added (NaN and -0 survive an
 * identity resize), and positions tf_crop_and_resize extrapolates take
 * the extrapolation value at the end, whichever axis put them outside.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <rlx/kit_spatial.h>

#include "pjrt_emit.h"

#define TAPS 4

typedef struct taps {
    int64_t *idx;   /* [TAPS][out] */
    double *w;      /* [TAPS][out] */
    unsigned char *n; /* taps used per output; 0: extrapolated */
} taps;

static void cubic_coeffs(double t, double a, double *c)
{
    double s = 1 - t;
    c[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
    c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
    c[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
    c[3] = ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a;
}

/* The taps of output O (of OUT) on an axis of IN, as cpu-ref's. */
static void axis_taps(const int64_t *mode, int64_t in, int64_t out,
                      int64_t o, double scale, double start, double end,
                      double cubic_a, taps *t)
{
    double x = rlx_kit_resize_source(mode[1], (double)o, (double)in,
                                     (double)out, scale, start, end);
    int64_t last = in - 1, idx[TAPS];
    double w[TAPS], c[TAPS], sum = 0;
    int n = 0;
    for (int k = 0; k < TAPS; k++) {
        t->idx[k * out + o] = 0;
        t->w[k * out + o] = 0;
    }
    if (mode[1] == RLX_RESIZE_TF_CROP_AND_RESIZE &&
        (x < 0 || x > (double)in - 1)) {
        t->n[o] = 0;
        t->w[o] = 1;
        return;
    }
    if (x < -4)
        x = -4;
    if (x > (double)in + 3)
        x = (double)in + 3;
    if (mode[0] == RLX_RESIZE_NEAREST) {
        int64_t k = rlx_kit_resize_nearest(mode[2], x);
        t->idx[o] = k < 0 ? 0 : k > last ? last : k;
        t->w[o] = 1;
        t->n[o] = 1;
        return;
    }
    double f = floor(x), frac = x - f;
    int64_t first;
    int nt;
    if (mode[0] == RLX_RESIZE_LINEAR) {
        c[0] = 1 - frac;
        c[1] = frac;
        first = (int64_t)f;
        nt = 2;
    } else {
        cubic_coeffs(frac, cubic_a, c);
        first = (int64_t)f - 1;
        nt = 4;
    }
    for (int k = 0; k < nt; k++) {
        int64_t j = first + k;
        if (j < 0 || j > last) {
            if (mode[3])
                c[k] = 0;
            j = j < 0 ? 0 : last;
        }
        sum += c[k];
        idx[k] = j;
    }
    for (int k = 0; k < nt; k++) {
        double wk = mode[3] && sum != 0 ? c[k] / sum : c[k];
        if (wk != 0) {
            idx[n] = idx[k];
            w[n++] = wk;
        }
    }
    if (n == 0) {
        idx[0] = f < 0 ? 0 : (int64_t)f > last ? last : (int64_t)f;
        w[0] = 0;
        n = 1;
    }
    for (int k = 0; k < n; k++) {
        t->idx[k * out + o] = idx[k];
        t->w[k * out + o] = w[k];
    }
    t->n[o] = (unsigned char)n;
}

/* A constant [COUNT] of dtype DT: weights (f32) or flags (i1). */
static uint32_t table(rlxp_emit *e, rlx_dtype dt, const double *w,
                      const unsigned char *flag, int64_t count)
{
    rlxp_val t = rlxp_val_make(dt, 1, &count);
    uint32_t id = rlxp_new(e, &t);
    if (id == RLXP_NONE)
        return id;
    rlxp_put(e, "    %%%u = \"stablehlo.constant\"() {value = dense<[", id);
    for (int64_t i = 0; i < count; i++) {
        if (w)
            rlxp_put(e, "%s%.9e", i ? ", " : "", (double)(float)w[i]);
        else
            rlxp_put(e, "%s%s", i ? ", " : "", flag[i] ? "true" : "false");
    }
    rlxp_put(e, "]> : ");
    rlxp_put_type(e, &t);
    rlxp_put(e, "} : () -> ");
    rlxp_put_type(e, &t);
    rlxp_put(e, "\n");
    return id;
}

static uint32_t along(rlxp_emit *e, uint32_t t, uint32_t like, uint32_t axis)
{
    int64_t map[1] = { axis };
    rlxp_val to = *rlxp_type_of(e, like);
    to.dt = rlxp_type_of(e, t)->dt;
    return rlxp_broadcast(e, t, &to, map);
}

/* Resample X along AXIS by T (integers: nearest, one tap). */
static uint32_t resample(rlxp_emit *e, uint32_t x, uint32_t axis,
                         const taps *t, int64_t out, int is_float)
{
    int used[TAPS] = { 0 };
    for (int64_t o = 0; o < out; o++)
        for (int k = 0; k < t->n[o]; k++)
            used[k] = 1;
    used[0] = 1;
    uint32_t acc = rlxp_take(e, x, axis, t->idx, out);
    if (is_float) {
        int ones = 1;
        for (int64_t o = 0; o < out; o++)
            ones &= t->w[o] == 1.0;
        if (!ones)
            acc = rlxp_bin(e, "stablehlo.multiply", acc,
                           along(e, table(e, RLX_DTYPE_F32, t->w, NULL, out),
                                 acc, axis));
        unsigned char *flag = malloc((size_t)(out ? out : 1));
        if (!flag) {
            rlxp_fail(e, RLX_ERR_OUT_OF_MEMORY, "pjrt: out of memory. "
                      "Fix: free memory");
            return RLXP_NONE;
        }
        for (int k = 1; k < TAPS; k++) {
            if (!used[k])
                continue;
            for (int64_t o = 0; o < out; o++)
                flag[o] = t->n[o] > k;
            uint32_t v = rlxp_take(e, x, axis, t->idx + k * out, out);
            v = rlxp_bin(e, "stablehlo.multiply", v,
                         along(e, table(e, RLX_DTYPE_F32, t->w + k * out,
                                        NULL, out),
                               v, axis));
            uint32_t m = along(e, table(e, RLX_DTYPE_BOOL, NULL, flag, out),
                               acc, axis);
            acc = rlxp_select(e, m, rlxp_bin(e, "stablehlo.add", acc, v),
                              acc);
        }
        free(flag);
    }
    return acc;
}

uint32_t rlxp_emit_resize(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t x = rlxp_in_f32(e, n, 0);
    if (x == RLXP_NONE)
        return x;
    const rlxp_val v = *rlxp_type_of(e, x);
    uint32_t r = v.rank;
    int64_t mode[4];
    for (int k = 0; k < 4; k++)
        mode[k] = n->n_int_attrs > (uint32_t)k ? n->int_attrs[k] : 0;
    double cubic_a = n->n_float_attrs > RLX_ATTR_RESIZE_CUBIC_A
                         ? n->float_attrs[RLX_ATTR_RESIZE_CUBIC_A] : -0.75;
    double extrap = n->n_float_attrs > RLX_ATTR_RESIZE_EXTRAPOLATION
                        ? n->float_attrs[RLX_ATTR_RESIZE_EXTRAPOLATION] : 0;
    int has_scales = n->n_float_attrs >= RLX_ATTR_RESIZE_SCALES + r;
    int has_roi = n->n_float_attrs >= RLX_ATTR_RESIZE_SCALES + 3 * r;
    int is_float = v.dt == RLX_DTYPE_F32 || v.dt == RLX_DTYPE_F64;
    /* positions any axis extrapolates, as [out] flags per axis */
    unsigned char *outside[RLXP_MAX_RANK] = { 0 };
    for (uint32_t i = 0; i < r && x != RLXP_NONE; i++) {
        int64_t in = v.dims[i], out = n->shape[i];
        double scale = has_scales ? n->float_attrs[RLX_ATTR_RESIZE_SCALES + i]
                       : in ? (double)out / (double)in : 1;
        double start = has_roi ? n->float_attrs[RLX_ATTR_RESIZE_SCALES + r + i]
                               : 0;
        double end = has_roi
                         ? n->float_attrs[RLX_ATTR_RESIZE_SCALES + 2 * r + i]
                         : 1;
        if (out == 0 || in == 0) {
            rlxp_val z = *rlxp_type_of(e, x);
            z.dims[i] = out;
            x = rlxp_splat(e, &z, 0.0);
            continue;
        }
        size_t cells = (size_t)out * TAPS;
        taps t = { malloc(cells * sizeof(int64_t)),
                   malloc(cells * sizeof(double)), malloc((size_t)out) };
        if (!t.idx || !t.w || !t.n) {
            free(t.idx);
            free(t.w);
            free(t.n);
            rlxp_fail(e, RLX_ERR_OUT_OF_MEMORY, "pjrt: out of memory. "
                      "Fix: free memory");
            break;
        }
        int identity = in == out;
        for (int64_t o = 0; o < out; o++) {
            axis_taps(mode, in, out, o, scale, start, end, cubic_a, &t);
            identity &= t.n[o] == 1 && t.idx[o] == o && t.w[o] == 1.0;
        }
        int any = 0;
        for (int64_t o = 0; o < out; o++)
            any |= t.n[o] == 0;
        if (any) {
            outside[i] = malloc((size_t)out);
            if (outside[i])
                for (int64_t o = 0; o < out; o++)
                    outside[i][o] = t.n[o] == 0;
            else
                rlxp_fail(e, RLX_ERR_OUT_OF_MEMORY, "pjrt: out of memory. "
                          "Fix: free memory");
        }
        if (!identity)
            x = resample(e, x, i, &t, out, is_float);
        free(t.idx);
        free(t.w);
        free(t.n);
    }
    for (uint32_t i = 0; i < r; i++) {
        if (!outside[i])
            continue;
        if (x != RLXP_NONE) {
            uint32_t m = along(e, table(e, RLX_DTYPE_BOOL, NULL, outside[i],
                                        n->shape[i]),
                               x, i);
            x = rlxp_select(e, m, rlxp_splat_like(e, x, extrap), x);
        }
        free(outside[i]);
    }
    return rlxp_out(e, n, x);
}
