/*
 * rlx/kit_spatial.h - the attributes of the spatial ops (conv,
 * conv_transpose, max_pool, avg_pool, lp_pool) read into one struct, and
 * their output sizes, so the core's shape inference and every backend
 * agree on the arithmetic. Part of the plugin kit (see rlx/kit.h):
 * static inline, no symbols.
 */
#ifndef RLX_KIT_SPATIAL_H
#define RLX_KIT_SPATIAL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "ops.h"

/* Spatial axes a node may have: rank 3 (1-d) up to rank 8. */
#define RLX_KIT_SPATIAL_MAX 6
/* Bound on every attribute and spatial size, so that every product and
 * sum below stays far inside int64. */
#define RLX_KIT_SPATIAL_LIMIT ((int64_t)1 << 30)

typedef struct rlx_kit_spatial {
    uint32_t s;                /* spatial axes: rank - 2 */
    int64_t group;             /* conv, conv_transpose */
    int64_t ceil_mode, count_include_pad, p; /* pools */
    int64_t kernel[RLX_KIT_SPATIAL_MAX]; /* pools: attribute; conv: w */
    int64_t stride[RLX_KIT_SPATIAL_MAX];
    int64_t dilation[RLX_KIT_SPATIAL_MAX];
    int64_t pad_begin[RLX_KIT_SPATIAL_MAX];
    int64_t pad_end[RLX_KIT_SPATIAL_MAX];
    int64_t out_pad[RLX_KIT_SPATIAL_MAX]; /* conv_transpose */
} rlx_kit_spatial;

static inline int rlx_kit_op_is_conv(rlx_op op)
{
    return op == RLX_OP_CONV || op == RLX_OP_CONV_TRANSPOSE;
}

static inline int rlx_kit_op_is_pool(rlx_op op)
{
    return op == RLX_OP_MAX_POOL || op == RLX_OP_AVG_POOL ||
           op == RLX_OP_LP_POOL || op == RLX_OP_MAX_POOL_INDEX;
}

/* Read the int attributes (N_INTS at INTS) of a conv or pool node whose
 * input has RANK into *SP. Returns 0, or -1 with "what is wrong. Fix:
 * how" in ERR. Conv kernel sizes come from the weights, not from here. */
static inline int rlx_kit_spatial_parse(rlx_op op, uint32_t rank,
                                        uint32_t n_ints, const int64_t *ints,
                                        rlx_kit_spatial *sp, char *err,
                                        size_t size)
{
    static const char *const conv_blocks[] = {
        "strides", "dilations", "pads_begin", "pads_end", "output_padding"
    };
    static const char *const pool_blocks[] = {
        "kernel", "strides", "dilations", "pads_begin", "pads_end"
    };
    int conv = rlx_kit_op_is_conv(op);
    uint32_t base = conv ? RLX_ATTR_CONV_BLOCKS : RLX_ATTR_POOL_BLOCKS;
    uint32_t blocks = op == RLX_OP_CONV ? 4 : 5;
    const char *const *names = conv ? conv_blocks : pool_blocks;

    if (rank < 3 || rank - 2 > RLX_KIT_SPATIAL_MAX) {
        snprintf(err, size, "the input has rank %u. Fix: give [N, C, "
                 "D1..Ds] with 1 to %d spatial axes (rank 3 to %d)",
                 (unsigned)rank, RLX_KIT_SPATIAL_MAX,
                 RLX_KIT_SPATIAL_MAX + 2);
        return -1;
    }
    uint32_t s = rank - 2;
    sp->s = s;
    sp->group = conv && n_ints > RLX_ATTR_CONV_GROUP
                    ? ints[RLX_ATTR_CONV_GROUP] : 1;
    sp->ceil_mode = !conv && n_ints > RLX_ATTR_POOL_CEIL_MODE
                        ? ints[RLX_ATTR_POOL_CEIL_MODE] : 0;
    sp->count_include_pad =
        !conv && n_ints > RLX_ATTR_POOL_COUNT_INCLUDE_PAD
            ? ints[RLX_ATTR_POOL_COUNT_INCLUDE_PAD] : 0;
    sp->p = !conv && n_ints > RLX_ATTR_POOL_P ? ints[RLX_ATTR_POOL_P] : 2;
    if (n_ints > base && (n_ints - base) % s != 0) {
        snprintf(err, size, "%u integer attributes: after the first %u "
                 "they must come in blocks of %u (one per spatial axis). "
                 "Fix: give whole blocks (%s, ...)", (unsigned)n_ints,
                 (unsigned)base, (unsigned)s, names[0]);
        return -1;
    }
    if (n_ints > base + blocks * s) {
        snprintf(err, size, "%u integer attributes, at most %u for %u "
                 "spatial axes. Fix: see rlx/ops.h", (unsigned)n_ints,
                 (unsigned)(base + blocks * s), (unsigned)s);
        return -1;
    }
    if (!conv && n_ints < base + s) {
        snprintf(err, size, "no kernel size. Fix: give ceil_mode, "
                 "count_include_pad, p, then the kernel's %u sizes",
                 (unsigned)s);
        return -1;
    }
    for (uint32_t b = 0; b < blocks; b++) {
        const char *what = names[b];
        int is_pad = conv ? b >= 2 : b >= 3; /* pads may be 0 */
        int64_t dflt = is_pad ? 0 : 1;
        for (uint32_t i = 0; i < s; i++) {
            uint32_t at = base + b * s + i;
            int64_t v = at < n_ints ? ints[at] : dflt;
            if (v < (is_pad ? 0 : 1) || v > RLX_KIT_SPATIAL_LIMIT) {
                snprintf(err, size, "%s[%u] is %lld. Fix: use %s up to "
                         "2^30", what, (unsigned)i, (long long)v,
                         is_pad ? "0" : "1");
                return -1;
            }
            int64_t *dst = conv ? (b == 0 ? sp->stride : b == 1 ? sp->dilation
                                   : b == 2 ? sp->pad_begin
                                   : b == 3 ? sp->pad_end : sp->out_pad)
                                : (b == 0 ? sp->kernel : b == 1 ? sp->stride
                                   : b == 2 ? sp->dilation
                                   : b == 3 ? sp->pad_begin : sp->pad_end);
            dst[i] = v;
        }
    }
    if (op != RLX_OP_CONV_TRANSPOSE)
        for (uint32_t i = 0; i < s; i++)
            sp->out_pad[i] = 0;
    if (conv && (sp->group < 1 || sp->group > RLX_KIT_SPATIAL_LIMIT)) {
        snprintf(err, size, "group is %lld. Fix: use 1 or more",
                 (long long)sp->group);
        return -1;
    }
    if (!conv && ((sp->ceil_mode != 0 && sp->ceil_mode != 1) ||
                  (sp->count_include_pad != 0 &&
                   sp->count_include_pad != 1))) {
        snprintf(err, size, "ceil_mode %lld, count_include_pad %lld. "
                 "Fix: use 0 or 1 for each", (long long)sp->ceil_mode,
                 (long long)sp->count_include_pad);
        return -1;
    }
    if (op == RLX_OP_LP_POOL && (sp->p < 1 || sp->p > 64)) {
        snprintf(err, size, "p is %lld. Fix: use an integer from 1 to 64",
                 (long long)sp->p);
        return -1;
    }
    for (uint32_t i = 0; op == RLX_OP_CONV_TRANSPOSE && i < s; i++)
        if (sp->out_pad[i] >= sp->stride[i] &&
            sp->out_pad[i] >= sp->dilation[i]) {
            snprintf(err, size, "output_padding[%u] is %lld with stride "
                     "%lld and dilation %lld. Fix: keep it below the "
                     "stride or the dilation", (unsigned)i,
                     (long long)sp->out_pad[i], (long long)sp->stride[i],
                     (long long)sp->dilation[i]);
            return -1;
        }
    return 0;
}

/* Extent of the window on axis I: (kernel - 1) * dilation + 1. */
static inline int64_t rlx_kit_spatial_extent(const rlx_kit_spatial *sp,
                                             uint32_t i)
{
    return (sp->kernel[i] - 1) * sp->dilation[i] + 1;
}

/* Output size on spatial axis I for input size IN, or -1 with ERR set.
 * sp->kernel must be filled (from w for conv). */
static inline int64_t rlx_kit_spatial_out(rlx_op op,
                                          const rlx_kit_spatial *sp,
                                          uint32_t i, int64_t in, char *err,
                                          size_t size)
{
    int64_t ext = rlx_kit_spatial_extent(sp, i);
    int64_t st = sp->stride[i];
    if (in > RLX_KIT_SPATIAL_LIMIT) {
        snprintf(err, size, "spatial axis %u has %lld elements. Fix: keep "
                 "spatial sizes up to 2^30", (unsigned)i, (long long)in);
        return -1;
    }
    if (op == RLX_OP_CONV_TRANSPOSE) {
        int64_t out = st * (in - 1) + sp->out_pad[i] + ext -
                      sp->pad_begin[i] - sp->pad_end[i];
        if (in < 1 || out < 1) {
            snprintf(err, size, "spatial axis %u: input %lld gives output "
                     "%lld. Fix: use a nonempty input and pads smaller "
                     "than the output", (unsigned)i, (long long)in,
                     (long long)out);
            return -1;
        }
        return out;
    }
    if (rlx_kit_op_is_pool(op) &&
        (sp->pad_begin[i] >= ext || sp->pad_end[i] >= ext)) {
        snprintf(err, size, "spatial axis %u: pads %lld, %lld reach a "
                 "whole window (%lld). Fix: keep each pad below the "
                 "window's extent", (unsigned)i,
                 (long long)sp->pad_begin[i], (long long)sp->pad_end[i],
                 (long long)ext);
        return -1;
    }
    int64_t span = in + sp->pad_begin[i] + sp->pad_end[i] - ext;
    if (span < 0) {
        snprintf(err, size, "spatial axis %u: the window (extent %lld) is "
                 "larger than the padded input (%lld). Fix: use a smaller "
                 "kernel or dilation, or more padding", (unsigned)i,
                 (long long)ext,
                 (long long)(in + sp->pad_begin[i] + sp->pad_end[i]));
        return -1;
    }
    int64_t out = span / st + 1;
    if (rlx_kit_op_is_pool(op) && sp->ceil_mode && span % st != 0) {
        out++;
        /* the last window must start inside the input or the begin
         * padding, as ONNX and PyTorch have it */
        if ((out - 1) * st >= in + sp->pad_begin[i])
            out--;
    }
    return out;
}

/* ---- resize: the rules every backend shares ---------------------------- */

/* Input coordinate of output index O on an axis of IN -> OUT elements.
 * As in ONNX, the transforms take the output length as IN * SCALE (not
 * rounded), so a scale that does not divide evenly shifts the samples;
 * half_pixel_symmetric re-centres by the rounding (OUT over IN*SCALE). */
static inline double rlx_kit_resize_source(int64_t coord, double o,
                                           double in, double out,
                                           double scale, double start,
                                           double end)
{
    double len = in * scale;
    switch (coord) {
    case RLX_RESIZE_HALF_PIXEL_SYMMETRIC: {
        double offset = in / 2 * (1 - out / len);
        return offset + (o + 0.5) / scale - 0.5;
    }
    case RLX_RESIZE_PYTORCH_HALF_PIXEL:
        return len > 1 ? (o + 0.5) / scale - 0.5 : 0;
    case RLX_RESIZE_ALIGN_CORNERS:
        return len > 1 ? o * (in - 1) / (len - 1) : 0;
    case RLX_RESIZE_ASYMMETRIC:
        return o / scale;
    case RLX_RESIZE_TF_CROP_AND_RESIZE:
        return len > 1 ? start * (in - 1) + o * (end - start) * (in - 1) /
                                                (len - 1)
                       : 0.5 * (start + end) * (in - 1);
    default: /* half_pixel */
        return (o + 0.5) / scale - 0.5;
    }
}

/* Nearest input index to coordinate X under nearest_mode MODE. */
static inline int64_t rlx_kit_resize_nearest(int64_t mode, double x)
{
    double f = floor(x);
    switch (mode) {
    case RLX_RESIZE_FLOOR: return (int64_t)f;
    case RLX_RESIZE_CEIL: return (int64_t)ceil(x);
    case RLX_RESIZE_ROUND_PREFER_CEIL:
        return (int64_t)(x - f >= 0.5 ? f + 1 : f);
    default: /* round_prefer_floor */
        return (int64_t)(x - f > 0.5 ? f + 1 : f);
    }
}

#endif /* RLX_KIT_SPATIAL_H */
