/*
 * vk_plan_resize.c - resize as ONNX defines it (the reference's rules,
 * plugins/cpu-ref/kernels_resize.c): every axis's output coordinates map
 * back to input coordinates and up to 4 weighted taps, worked out here
 * in double and uploaded once as a table; shaders/resize.comp sums the
 * products of one tap per axis for each output element.
 *
 * push words: count, rank, round, extrapolation value (f32 bits),
 * output dims[8], input dims[8], integer kind (nearest on i8, u8).
 * Table: 9 words per (axis, output index): tap count, 4 indices, 4
 * weights (f32 bits).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_spatial.h>

#include "vk_plan.h"

#define TAP_WORDS 9


static void cubic_coeffs(double t, double a, double *c)
{
    double s = 1 - t;
    c[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
    c[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
    c[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
    c[3] = ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a;
}

/* The taps of output index O on an axis of IN -> OUT into T. */
static void axis_taps(uint32_t *t, const int64_t *mode, double o, double in,
                      double out, double scale, double start, double end,
                      double cubic_a)
{
    double x = rlx_kit_resize_source(mode[1], o, in, out, scale, start, end);
    int64_t last = (int64_t)in - 1, idx[4];
    double c[4], sum = 0;
    int n = 0, taps;
    memset(t, 0, TAP_WORDS * 4);
    if (mode[1] == RLX_RESIZE_TF_CROP_AND_RESIZE && (x < 0 || x > in - 1))
        return; /* extrapolate */
    if (x < -4)
        x = -4;
    if (x > in + 3)
        x = in + 3;
    if (mode[0] == RLX_RESIZE_NEAREST) {
        int64_t k = rlx_kit_resize_nearest(mode[2], x);
        float one = 1;
        t[0] = 1;
        t[1] = (uint32_t)(k < 0 ? 0 : k > last ? last : k);
        memcpy(&t[5], &one, 4);
        return;
    }
    double f = floor(x), tt = x - f;
    int64_t first;
    if (mode[0] == RLX_RESIZE_LINEAR) {
        c[0] = 1 - tt;
        c[1] = tt;
        first = (int64_t)f;
        taps = 2;
    } else {
        cubic_coeffs(tt, cubic_a, c);
        first = (int64_t)f - 1;
        taps = 4;
    }
    for (int k = 0; k < taps; k++) {
        int64_t j = first + k;
        if (j < 0 || j > last) {
            if (mode[3])
                c[k] = 0;
            j = j < 0 ? 0 : last;
        }
        sum += c[k];
        idx[k] = j;
    }
    for (int k = 0; k < taps; k++) {
        double wk = mode[3] && sum != 0 ? c[k] / sum : c[k];
        if (wk != 0) {
            float wf = (float)wk;
            t[1 + n] = (uint32_t)idx[k];
            memcpy(&t[5 + n], &wf, 4);
            n++;
        }
    }
    if (n == 0) { /* every weight 0: read the nearest input, weight 0 */
        t[1] = (uint32_t)(f < 0 ? 0 : (int64_t)f > last ? last : (int64_t)f);
        n = 1;
    }
    t[0] = (uint32_t)n;
}

rlx_status rlxv_plan_resize(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0);
    uint32_t r = x->rank;
    if (r == 0 || r > 8 || v->rank != r ||
        rlx_kit_n_int_attrs(v) != RLX_ATTR_RESIZE_SHAPE + r)
        return rlxv_unsupported(pc, "rank or attributes out of range");
    int64_t mode[4];
    for (int k = 0; k < 4; k++)
        mode[k] = v->int_attrs[k];
    int small_int = v->dtype == RLX_DTYPE_I8 || v->dtype == RLX_DTYPE_U8;
    if ((!rlx_kit_dtype_is_float(v->dtype) &&
         !(small_int && mode[0] == RLX_RESIZE_NEAREST)) ||
        x->dtype != v->dtype)
        return rlxv_unsupported(pc, "resize takes f32, f16 or bf16 (and "
                                       "nearest i8, u8)");
    uint32_t nf = v->float_attrs ? v->n_float_attrs : 0;
    double cubic_a = nf > RLX_ATTR_RESIZE_CUBIC_A
                         ? v->float_attrs[RLX_ATTR_RESIZE_CUBIC_A] : -0.75;
    float extra = (float)(nf > RLX_ATTR_RESIZE_EXTRAPOLATION
                              ? v->float_attrs[RLX_ATTR_RESIZE_EXTRAPOLATION]
                              : 0);
    int has_scales = nf >= RLX_ATTR_RESIZE_SCALES + r;
    int has_roi = nf >= RLX_ATTR_RESIZE_SCALES + 3 * r;
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    size_t entries = 0;
    for (uint32_t i = 0; i < r; i++)
        entries += (size_t)v->shape[i];
    uint32_t *table = malloc(entries * TAP_WORDS * 4);
    if (!table)
        return rlx_kit_fail(pc->host, RLX_ERR_OUT_OF_MEMORY,
                            "vulkan compile: out of memory planning resize "
                            "'%s'. Fix: free memory", pc->name);
    uint32_t *t = table;
    for (uint32_t i = 0; i < r; i++) {
        double in = (double)x->shape[i], out = (double)v->shape[i];
        double scale = has_scales ? v->float_attrs[RLX_ATTR_RESIZE_SCALES + i]
                       : in > 0 ? out / in : 1;
        double start = has_roi ? v->float_attrs[RLX_ATTR_RESIZE_SCALES + r + i]
                               : 0;
        double end = has_roi
                         ? v->float_attrs[RLX_ATTR_RESIZE_SCALES + 2 * r + i]
                         : 1;
        for (int64_t o = 0; o < v->shape[i]; o++, t += TAP_WORDS)
            axis_taps(t, mode, (double)o, in, out, scale, start, end,
                      cubic_a);
    }
    uint32_t tb;
    rlx_status st = rlxv_aux_add(pc->host, pc->exe, table,
                                    entries * TAP_WORDS * 4, &tb);
    free(table);
    if (st != RLX_OK)
        return st;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                               RLXV_PIPE_RESIZE);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = r;
    d->push[2] = pc->round;
    memcpy(&d->push[3], &extra, 4);
    for (uint32_t i = 0; i < r; i++) {
        d->push[4 + i] = (uint32_t)v->shape[i];
        d->push[12 + i] = (uint32_t)x->shape[i];
    }
    d->push[20] = (uint32_t)small_int;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = tb;
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}
