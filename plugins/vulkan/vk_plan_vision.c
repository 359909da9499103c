/*
 * vk_plan_vision.c - grid_sample (shaders/grid.comp) on 1 to 3 spatial
 * axes, det (shaders/det.comp) and roi_align (shaders/roi.comp): each
 * computes in double, as the
 * reference does, so they need shaderFloat64 and are declined on
 * devices without it.
 *
 * grid_sample push words: count, spatial axes, mode, padding, align_corners,
 * channels, output positions, input positions, round, input dims[3].
 */
#include <string.h>

#include "vk_plan.h"

rlx_status rlxv_plan_grid_sample(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0),
                        *g = rlxv_input(pc, 1);
    uint32_t s = x->rank >= 3 ? x->rank - 2 : 0;
    if (!rlx_kit_dtype_is_float(v->dtype) || x->dtype != v->dtype ||
        g->dtype != v->dtype)
        return rlxv_unsupported(pc, "grid_sample takes f32, f16 or bf16");
    if (s < 1 || s > 3 || g->rank != s + 2 || v->rank != x->rank ||
        g->shape[s + 1] != (int64_t)s)
        return rlxv_unsupported(pc, "x, grid and result shapes disagree");
    if (!pc->ctx->float64)
        return rlxv_unsupported(pc, "grid_sample computes positions in "
                                       "double, which needs shaderFloat64 "
                                       "(this device lacks it)");
    int64_t a[3];
    for (uint32_t i = 0; i < 3; i++) {
        a[i] = rlx_kit_int_attr(v, i, 0);
        if (a[i] < 0 || a[i] > (i == 2 ? 1 : 2))
            return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                                "vulkan compile: grid_sample '%s' has "
                                "attribute %u = %lld. Fix: give mode and "
                                "padding 0 to 2, align_corners 0 or 1",
                                pc->name, (unsigned)i, (long long)a[i]);
    }
    uint64_t in_sp = 1, out_sp = 1;
    for (uint32_t i = 0; i < s; i++) {
        in_sp *= (uint64_t)x->shape[2 + i];
        out_sp *= (uint64_t)g->shape[1 + i];
    }
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe,
                                         RLXV_PIPE_GRID);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = s;
    d->push[2] = (uint32_t)a[RLX_ATTR_GRID_SAMPLE_MODE];
    d->push[3] = (uint32_t)a[RLX_ATTR_GRID_SAMPLE_PADDING];
    d->push[4] = (uint32_t)a[RLX_ATTR_GRID_SAMPLE_ALIGN_CORNERS];
    d->push[5] = (uint32_t)x->shape[1];
    d->push[6] = (uint32_t)out_sp;
    d->push[7] = (uint32_t)in_sp;
    d->push[8] = pc->round;
    for (uint32_t i = 0; i < s; i++)
        d->push[9 + i] = (uint32_t)x->shape[2 + i];
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}

/* det (shaders/det.comp): a thread per matrix, LU in a double scratch
 * copy of x (shaderFloat64). push words: matrices, m, f64, round. */
rlx_status rlxv_plan_det(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0);
    int f64 = v->dtype == RLX_DTYPE_F64;
    if ((!rlx_kit_dtype_is_float(v->dtype) && !f64) || x->dtype != v->dtype)
        return rlxv_unsupported(pc, "det takes f32, f16, bf16 or f64");
    if (x->rank < 2 || x->shape[x->rank - 1] != x->shape[x->rank - 2] ||
        v->rank != x->rank - 2)
        return rlxv_unsupported(pc, "x is not a stack of square matrices");
    if (!pc->ctx->float64)
        return rlxv_unsupported(pc, "det computes in double, which needs "
                                       "shaderFloat64 (this device lacks "
                                       "it)");
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    uint32_t scratch;
    size_t nx = pc->exe->values[v->inputs[0]].count;
    rlx_status st = rlxv_aux_add(pc->host, pc->exe, NULL,
                                 (VkDeviceSize)(nx ? nx : 1) * 8, &scratch);
    if (st != RLX_OK)
        return st;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe, RLXV_PIPE_DET);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    d->push[1] = (uint32_t)x->shape[x->rank - 1];
    d->push[2] = (uint32_t)f64;
    d->push[3] = pc->round;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = scratch;
    rlxv_grid(d, count, 64);
    return RLX_OK;
}

/* roi_align (shaders/roi.comp): a thread per output, in double
 * (shaderFloat64). push words: count, N, C, H, W, oh, ow, max, half
 * pixel, sampling ratio, i64 batch indices, round, spatial scale (a
 * double in two words). */
rlx_status rlxv_plan_roi_align(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *x = rlxv_input(pc, 0),
                        *r = rlxv_input(pc, 1), *b = rlxv_input(pc, 2);
    if (!rlx_kit_dtype_is_float(v->dtype) || x->dtype != v->dtype ||
        r->dtype != v->dtype ||
        (b->dtype != RLX_DTYPE_I32 && b->dtype != RLX_DTYPE_I64))
        return rlxv_unsupported(pc, "roi_align takes f32, f16 or bf16 and "
                                       "i32 or i64 batch indices");
    if (x->rank != 4 || r->rank != 2 || r->shape[1] != 4 || b->rank != 1 ||
        v->rank != 4 || b->shape[0] != r->shape[0] ||
        v->shape[0] != r->shape[0] || v->shape[1] != x->shape[1])
        return rlxv_unsupported(pc, "x, rois, batch indices and result "
                                       "shapes disagree");
    if (!pc->ctx->float64)
        return rlxv_unsupported(pc, "roi_align computes in double, which "
                                       "needs shaderFloat64 (this device "
                                       "lacks it)");
    static const int64_t dflt[5] = { 0, 1, 1, 0, 1 };
    int64_t a[5];
    for (uint32_t i = 0; i < 5; i++)
        a[i] = rlx_kit_int_attr(v, i, dflt[i]);
    if (a[RLX_ATTR_ROI_ALIGN_SAMPLING_RATIO] < 0 ||
        a[RLX_ATTR_ROI_ALIGN_SAMPLING_RATIO] > 65536)
        return rlxv_unsupported(pc, "a sampling ratio outside [0, 65536]");
    double scale = v->float_attrs && v->n_float_attrs
                       ? v->float_attrs[RLX_ATTR_ROI_ALIGN_SPATIAL_SCALE]
                       : 1.0;
    size_t count = pc->exe->values[pc->i].count;
    if (!count)
        return RLX_OK;
    rlxv_dispatch *d = rlxv_dispatch_add(pc->host, pc->exe, RLXV_PIPE_ROI);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->push[0] = (uint32_t)count;
    for (uint32_t i = 0; i < 4; i++)
        d->push[1 + i] = (uint32_t)x->shape[i];
    d->push[5] = (uint32_t)v->shape[2];
    d->push[6] = (uint32_t)v->shape[3];
    d->push[7] = a[RLX_ATTR_ROI_ALIGN_MODE] == 1;
    d->push[8] = a[RLX_ATTR_ROI_ALIGN_HALF_PIXEL] == 1;
    d->push[9] = (uint32_t)a[RLX_ATTR_ROI_ALIGN_SAMPLING_RATIO];
    d->push[10] = b->dtype == RLX_DTYPE_I64;
    d->push[11] = pc->round;
    memcpy(&d->push[12], &scale, 8);
    d->bind[0] = pc->i;
    for (int j = 0; j < 3; j++)
        d->bind[1 + j] = v->inputs[j];
    d->bind[4] = RLXV_BIND_ERR;
    pc->exe->uses_err = 1;
    rlxv_grid(d, count, RLXV_LOCAL);
    return RLX_OK;
}
