/*
 * onnx_lower_vision.c - ONNX's spatial operators onto rlx's conv, pool,
 * resize and norm primitives (ABI 1.4): Conv and ConvTranspose (explicit
 * or SAME/VALID padding, groups), MaxPool/AveragePool/LpPool (ceil mode,
 * count_include_pad, dilations), InstanceNormalization, and Resize and
 * Upsample by scales or sizes (tf_crop_and_resize's roi as attributes;
 * Resize-11's nearest tf_half_pixel_for_nn, a transform resize lacks, as
 * gathers). ONNX's per-axis attributes become rlx's per-axis blocks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

#define MAX_S (RLX_MAX_RANK - 2)

/* An ints attribute of S entries, or S copies of DFLT when absent. */
static rlx_status block(rlx__onnx_ctx *c, const char *name, uint32_t s,
                        int64_t dflt, int64_t *out)
{
    int64_t v[2 * MAX_S + 1];
    int n = rlx__onnx_attr_ints(c, name, v, 2 * MAX_S + 1);
    if (n < 0) {
        for (uint32_t i = 0; i < s; i++)
            out[i] = dflt;
        return RLX_OK;
    }
    if (n != (int)s)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "%s has %d entries for %u spatial axes. Fix: "
                              "give one per spatial axis", name, n, s);
    memcpy(out, v, s * sizeof *v);
    return RLX_OK;
}

/* Padding: explicit pads, or auto_pad SAME_UPPER/SAME_LOWER/VALID. */
static rlx_status padding(rlx__onnx_ctx *c, const rlx__onnx_val *x,
                          uint32_t s, const int64_t *kernel,
                          const int64_t *strides, const int64_t *dil,
                          int64_t *pb, int64_t *pe)
{
    const char *ap = rlx__onnx_attr_string(c, "auto_pad", "NOTSET");
    if (!strcmp(ap, "NOTSET")) {
        int64_t p[2 * MAX_S + 1];
        int n = rlx__onnx_attr_ints(c, "pads", p, 2 * MAX_S + 1);
        if (n >= 0 && n != (int)(2 * s))
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "pads has %d entries for %u spatial axes. "
                                  "Fix: give begins then ends", n, s);
        for (uint32_t i = 0; i < s; i++) {
            pb[i] = n < 0 ? 0 : p[i];
            pe[i] = n < 0 ? 0 : p[s + i];
        }
        return RLX_OK;
    }
    int upper = !strcmp(ap, "SAME_UPPER"), valid = !strcmp(ap, "VALID");
    if (!upper && !valid && strcmp(ap, "SAME_LOWER"))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "auto_pad is '%s'. Fix: use NOTSET, "
                              "SAME_UPPER, SAME_LOWER or VALID", ap);
    for (uint32_t i = 0; i < s; i++) {
        pb[i] = pe[i] = 0;
        if (valid)
            continue;
        int64_t in = x->dims[2 + i];
        int64_t o = (in + strides[i] - 1) / strides[i];
        int64_t total = (o - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 -
                        in;
        if (total < 0)
            total = 0;
        pb[i] = upper ? total / 2 : total - total / 2;
        pe[i] = total - pb[i];
    }
    return RLX_OK;
}

/* ConvTranspose's padding: explicit pads, or from output_shape or
 * auto_pad SAME (output = input * stride): total = stride * (in - 1) +
 * output_padding + (k - 1) * dil + 1 - out, split as ONNX says. */
static rlx_status transpose_padding(rlx__onnx_ctx *c, const rlx__onnx_val *x,
                                    uint32_t s, const int64_t *k,
                                    const int64_t *str, const int64_t *dil,
                                    int64_t *op, int64_t *pb, int64_t *pe)
{
    const char *ap = rlx__onnx_attr_string(c, "auto_pad", "NOTSET");
    int64_t os[2 * MAX_S + 2];
    int n = rlx__onnx_attr_ints(c, "output_shape", os, 2 * MAX_S + 2);
    int same = !strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER");
    if (n < 0 && !same) {
        if (!strcmp(ap, "VALID") || !strcmp(ap, "NOTSET")) {
            int64_t dummy[MAX_S];
            for (uint32_t i = 0; i < s; i++)
                dummy[i] = 1;
            return padding(c, x, s, dummy, dummy, dummy, pb, pe);
        }
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "auto_pad is '%s'. Fix: use NOTSET, "
                              "SAME_UPPER, SAME_LOWER or VALID", ap);
    }
    /* output_shape may list the spatial dims or the whole shape */
    const int64_t *want = n == (int)(s + 2) ? os + 2 : os;
    if (n >= 0 && n != (int)s && n != (int)(s + 2))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "output_shape has %d entries for %u spatial "
                              "axes. Fix: check the model", n, s);
    for (uint32_t i = 0; i < s; i++) {
        int64_t in = x->dims[2 + i];
        int64_t o = n >= 0 ? want[i] : in * str[i];
        int64_t total = str[i] * (in - 1) + op[i] + (k[i] - 1) * dil[i] + 1 -
                        o;
        if (total < 0) { /* the output grows at the end */
            op[i] -= total;
            total = 0;
        }
        int lower = !strcmp(ap, "SAME_LOWER");
        pb[i] = lower ? total - total / 2 : total / 2;
        pe[i] = total - pb[i];
    }
    return RLX_OK;
}

static rlx_status spatial_input(rlx__onnx_ctx *c, rlx__onnx_val *x,
                                uint32_t *s)
{
    rlx_status st = rlx__onnx_need_float(c, x);
    if (st != RLX_OK)
        return st;
    if (x->rank < 3)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "X has rank %u; it needs [N, C, D1, ...]. "
                              "Fix: check the model", x->rank);
    *s = x->rank - 2;
    return RLX_OK;
}

static rlx_status lower_conv(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    (void)n_out;
    int transpose = c->row->arg;
    uint32_t s = 0;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = spatial_input(c, in[0], &s)) != RLX_OK)
        return st;
    if (in[1]->rank != in[0]->rank)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "W has rank %u, X rank %u. Fix: check the "
                              "model", in[1]->rank, in[0]->rank);
    int64_t k[MAX_S], str[MAX_S], dil[MAX_S], pb[MAX_S], pe[MAX_S],
            op[MAX_S];
    for (uint32_t i = 0; i < s; i++)
        k[i] = in[1]->dims[2 + i];
    if ((st = block(c, "strides", s, 1, str)) != RLX_OK ||
        (st = block(c, "dilations", s, 1, dil)) != RLX_OK ||
        (st = block(c, "output_padding", s, 0, op)) != RLX_OK)
        return st;
    if (transpose) {
        if ((st = transpose_padding(c, in[0], s, k, str, dil, op, pb, pe)) !=
            RLX_OK)
            return st;
    } else if ((st = padding(c, in[0], s, k, str, dil, pb, pe)) != RLX_OK) {
        return st;
    }
    int64_t a[1 + 5 * MAX_S];
    uint32_t na = 0;
    a[na++] = rlx__onnx_attr_int(c, "group", 1);
    const int64_t *blocks[5] = { str, dil, pb, pe, op };
    for (int b = 0; b < (transpose ? 5 : 4); b++)
        for (uint32_t i = 0; i < s; i++)
            a[na++] = blocks[b][i];
    rlx_value v[3], r;
    uint32_t n = n_in > 2 && in[2] ? 3 : 2;
    for (uint32_t i = 0; i < n; i++)
        if ((st = rlx__onnx_node_value(c, in[i], &v[i])) != RLX_OK)
            return st;
    if ((st = rlx__onnx_add(c, transpose ? RLX_OP_CONV_TRANSPOSE
                                         : RLX_OP_CONV,
                            n, v, a, na, NULL, 0, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

enum { P_MAX, P_AVG, P_LP };

static rlx_status lower_pool(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    uint32_t s = 0;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    /* max_pool only picks values, so it also takes i8 and u8 */
    int bytes = c->row->arg == P_MAX && (in[0]->dtype == RLX_DTYPE_I8 ||
                                         in[0]->dtype == RLX_DTYPE_U8);
    if (bytes && in[0]->rank >= 3)
        s = in[0]->rank - 2;
    else if ((st = spatial_input(c, in[0], &s)) != RLX_OK)
        return st;
    int indices = n_out > 1 && c->node->output[1] && *c->node->output[1];
    if (indices && bytes)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "the Indices output is computed for float "
                              "inputs only, X is %s. Fix: cast X to float "
                              "first", rlx_dtype_name(in[0]->dtype));
    int64_t k[MAX_S], str[MAX_S], dil[MAX_S], pb[MAX_S], pe[MAX_S];
    if (!rlx__onnx_attr(c, "kernel_shape"))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "kernel_shape is required. Fix: the model "
                              "is damaged; re-export it");
    if ((st = block(c, "kernel_shape", s, 1, k)) != RLX_OK ||
        (st = block(c, "strides", s, 1, str)) != RLX_OK ||
        (st = block(c, "dilations", s, 1, dil)) != RLX_OK ||
        (st = padding(c, in[0], s, k, str, dil, pb, pe)) != RLX_OK)
        return st;
    int64_t a[3 + 5 * MAX_S];
    uint32_t na = 0;
    a[na++] = rlx__onnx_attr_int(c, "ceil_mode", 0);
    a[na++] = rlx__onnx_attr_int(c, "count_include_pad", 0);
    a[na++] = rlx__onnx_attr_int(c, "p", 2);
    const int64_t *blocks[5] = { k, str, dil, pb, pe };
    for (int b = 0; b < 5; b++)
        for (uint32_t i = 0; i < s; i++)
            a[na++] = blocks[b][i];
    static const rlx_op ops[3] = { RLX_OP_MAX_POOL, RLX_OP_AVG_POOL,
                                   RLX_OP_LP_POOL };
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, ops[c->row->arg], 1, &x, a, na, NULL, 0,
                            &r)) != RLX_OK ||
        (st = rlx__onnx_set_out(c, r, &out[0])) != RLX_OK)
        return st;
    if (!indices)
        return RLX_OK;
    /* Indices: max_pool_index, storage_order in lp_pool's slot */
    a[RLX_ATTR_POOL_STORAGE_ORDER] = rlx__onnx_attr_int(c, "storage_order",
                                                        0);
    if ((st = rlx__onnx_add(c, RLX_OP_MAX_POOL_INDEX, 1, &x, a, na, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[1]);
}

static rlx_status lower_instance_norm(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                      uint32_t n_in, rlx__onnx_val *out,
                                      uint32_t n_out)
{
    (void)n_out;
    uint32_t s = 0;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 3);
    if (st != RLX_OK || (st = spatial_input(c, in[0], &s)) != RLX_OK)
        return st;
    double eps = rlx__onnx_attr_float(c, "epsilon", 1e-5);
    rlx_value v[3], r;
    for (int i = 0; i < 3; i++)
        if ((st = rlx__onnx_node_value(c, in[i], &v[i])) != RLX_OK)
            return st;
    if ((st = rlx__onnx_add(c, RLX_OP_INSTANCE_NORM, 3, v, NULL, 0, &eps, 1,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static int name_index(const char *v, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(v, names[i]))
            return i;
    return -1;
}

/* MaxUnpool, composed: zeros of the output shape (output_shape when
 * given, else (in - 1) * stride + kernel - pads per axis), flat, take X's
 * values at I's flat positions (scatter_elements; the last of duplicate
 * positions wins, and one outside the output fails the run), reshaped. */
static rlx_status lower_max_unpool(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                   uint32_t n_in, rlx__onnx_val *out,
                                   uint32_t n_out)
{
    (void)n_out;
    uint32_t s = 0;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = spatial_input(c, in[0], &s)) != RLX_OK)
        return st;
    if (in[1]->dtype != RLX_DTYPE_I64 || in[1]->rank != in[0]->rank ||
        memcmp(in[1]->dims, in[0]->dims, in[0]->rank * sizeof *in[0]->dims))
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "I must be int64 of X's shape. Fix: check "
                              "the model");
    int64_t k[MAX_S], str[MAX_S], pb[MAX_S], pe[MAX_S], p[2 * MAX_S + 1];
    if (!rlx__onnx_attr(c, "kernel_shape"))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "kernel_shape is required. Fix: the model "
                              "is damaged; re-export it");
    if ((st = block(c, "kernel_shape", s, 1, k)) != RLX_OK ||
        (st = block(c, "strides", s, 1, str)) != RLX_OK)
        return st;
    int np = rlx__onnx_attr_ints(c, "pads", p, 2 * MAX_S + 1);
    if (np >= 0 && np != (int)(2 * s))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "pads has %d entries for %u spatial axes. "
                              "Fix: give begins then ends", np, s);
    int64_t shape[RLX_MAX_RANK];
    uint32_t r = in[0]->rank;
    shape[0] = in[0]->dims[0];
    shape[1] = in[0]->dims[1];
    for (uint32_t i = 0; i < s; i++) {
        pb[i] = np < 0 ? 0 : p[i];
        pe[i] = np < 0 ? 0 : p[s + i];
        shape[2 + i] = (in[0]->dims[2 + i] - 1) * str[i] + k[i] - pb[i] -
                       pe[i];
    }
    if (n_in > 2 && in[2]) {
        int n = rlx__onnx_known_ints(in[2], shape, RLX_MAX_RANK);
        if (n != (int)r)
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "output_shape is %s. Fix: give it as a "
                                  "constant of %u entries",
                                  n < 0 ? "not known when the model is "
                                          "compiled"
                                        : "of another length",
                                  r);
    }
    int64_t total = 1, count = 1;
    for (uint32_t i = 0; i < r; i++) {
        if (shape[i] < 0 || (shape[i] && total > INT64_MAX / shape[i]))
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "the output shape has a negative or too "
                                  "large dimension. Fix: check the model's "
                                  "kernel_shape, strides, pads and "
                                  "output_shape");
        total *= shape[i];
        count *= in[0]->dims[i];
    }
    rlx_value x, idx, zeros, v[3], y, res;
    int64_t fill[2] = { in[0]->dtype, total };
    double zero = 0;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &idx)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &x, &count, 1, NULL, 0,
                            &v[2])) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &idx, &count, 1, NULL, 0,
                            &v[1])) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_FILL, 0, NULL, fill, 2, &zero, 1,
                            &zeros)) != RLX_OK)
        return st;
    v[0] = zeros;
    int64_t sa[2] = { 0, RLX_REDUCTION_NONE };
    if ((st = rlx__onnx_add(c, RLX_OP_SCATTER_ELEMENTS, 3, v, sa, 2, NULL, 0,
                            &y)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &y, shape, r, NULL, 0,
                            &res)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, res, &out[0]);
}

/* RoiAlign onto roi_align: opset 10 scales as output_half_pixel, 16
 * takes coordinate_transformation_mode (half_pixel by default). */
static rlx_status lower_roi_align(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                  uint32_t n_in, rlx__onnx_val *out,
                                  uint32_t n_out)
{
    (void)n_out;
    uint32_t s = 0;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 3);
    if (st != RLX_OK || (st = spatial_input(c, in[0], &s)) != RLX_OK)
        return st;
    static const char *const modes[] = { "avg", "max", NULL };
    static const char *const coords[] = { "output_half_pixel", "half_pixel",
                                          NULL };
    const char *m = rlx__onnx_attr_string(c, "mode", "avg");
    const char *ct = c->row->since >= 16
                         ? rlx__onnx_attr_string(
                               c, "coordinate_transformation_mode",
                               "half_pixel")
                         : "output_half_pixel";
    int64_t a[5] = { name_index(m, modes),
                     rlx__onnx_attr_int(c, "output_height", 1),
                     rlx__onnx_attr_int(c, "output_width", 1),
                     rlx__onnx_attr_int(c, "sampling_ratio", 0),
                     name_index(ct, coords) };
    if (a[0] < 0 || a[4] < 0)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "mode '%s', coordinate_transformation_mode "
                              "'%s'. Fix: mode avg or max; half_pixel or "
                              "output_half_pixel", m, ct);
    double scale = rlx__onnx_attr_float(c, "spatial_scale", 1.0);
    rlx_value v[3], r;
    for (int i = 0; i < 3; i++)
        if ((st = rlx__onnx_node_value(c, in[i], &v[i])) != RLX_OK)
            return st;
    if (in[1]->dtype != in[0]->dtype) {
        int64_t dt = in[0]->dtype;
        if ((st = rlx__onnx_add(c, RLX_OP_CAST, 1, &v[1], &dt, 1, NULL, 0,
                                &v[1])) != RLX_OK)
            return st;
    }
    if ((st = rlx__onnx_add(c, RLX_OP_ROI_ALIGN, 3, v, a, 5, &scale, 1,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* GridSample onto grid_sample: mode names of opset 16 (bilinear,
 * bicubic) and 20 (linear, cubic); the grid cast to X's dtype. */
static rlx_status lower_grid_sample(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                    uint32_t n_in, rlx__onnx_val *out,
                                    uint32_t n_out)
{
    (void)n_out;
    static const char *const modes16[] = { "bilinear", "nearest", "bicubic",
                                           NULL };
    static const char *const modes20[] = { "linear", "nearest", "cubic",
                                           NULL };
    static const char *const pads[] = { "zeros", "border", "reflection",
                                        NULL };
    uint32_t s = 0;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = spatial_input(c, in[0], &s)) != RLX_OK ||
        (st = rlx__onnx_need_float64(c, in[1])) != RLX_OK)
        return st;
    if (c->row->since < 20 && s != 2)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "X has rank %u; GridSample before opset 20 "
                              "takes 4-D input. Fix: check the model",
                              in[0]->rank);
    int v20 = c->row->since >= 20;
    const char *m = rlx__onnx_attr_string(c, "mode",
                                          v20 ? "linear" : "bilinear");
    const char *pm = rlx__onnx_attr_string(c, "padding_mode", "zeros");
    int64_t a[3] = { name_index(m, v20 ? modes20 : modes16),
                     name_index(pm, pads),
                     rlx__onnx_attr_int(c, "align_corners", 0) };
    if (a[0] < 0 || a[1] < 0)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "mode '%s', padding_mode '%s'. Fix: mode is "
                              "%s, nearest or %s; padding_mode zeros, "
                              "border or reflection", m, pm,
                              v20 ? "linear" : "bilinear",
                              v20 ? "cubic" : "bicubic");
    rlx_value v[2], r;
    if ((st = rlx__onnx_node_value(c, in[0], &v[0])) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &v[1])) != RLX_OK)
        return st;
    if (in[1]->dtype != in[0]->dtype) {
        int64_t dt = in[0]->dtype;
        if ((st = rlx__onnx_add(c, RLX_OP_CAST, 1, &v[1], &dt, 1, NULL, 0,
                                &v[1])) != RLX_OK)
            return st;
    }
    if ((st = rlx__onnx_add(c, RLX_OP_GRID_SAMPLE, 2, v, a, 3, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* A known float input as doubles: count, or -1. */
static int known_floats(const rlx__onnx_val *v, double *out, int max)
{
    if (!v || !v->known)
        return -1;
    int64_t n = rlx__onnx_elements(v->rank, v->dims);
    if (n > max)
        return -1;
    for (int64_t i = 0; i < n; i++) {
        if (v->dtype == RLX_DTYPE_F32)
            out[i] = ((const float *)v->data)[i];
        else if (v->dtype == RLX_DTYPE_F64)
            out[i] = ((const double *)v->data)[i];
        else
            return -1;
    }
    return (int)n;
}

/* Nearest resize of X to SIZES with source coordinate (o + 0.5) / scale
 * (tf_half_pixel_for_nn), rounded by nearest mode NM: the source indices
 * are known, so each resized axis is a gather of constant indices. */
static rlx_status nearest_by_gather(rlx__onnx_ctx *c, rlx__onnx_val *xv,
                                    int64_t nm, const int64_t *sizes,
                                    const double *scales,
                                    rlx__onnx_val *out)
{
    rlx_value x;
    rlx_status st = rlx__onnx_node_value(c, xv, &x);
    if (st != RLX_OK)
        return st;
    for (uint32_t i = 0; i < xv->rank; i++) {
        int64_t in = xv->dims[i], n = sizes[i];
        if (n == in && scales[i] == 1.0)
            continue;
        if (in <= 0 || n > RLX__ONNX_FOLD_MAX)
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "axis %u resizes %lld to %lld; "
                                  "tf_half_pixel_for_nn is lowered for a "
                                  "non-empty input and at most %d outputs "
                                  "per axis. Fix: use another "
                                  "coordinate_transformation_mode", i,
                                  (long long)in, (long long)n,
                                  RLX__ONNX_FOLD_MAX);
        int64_t *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
        if (!idx)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        for (int64_t o = 0; o < n; o++) {
            double s = (o + 0.5) / scales[i], f = floor(s);
            int64_t k = nm == RLX_RESIZE_FLOOR ? (int64_t)f
                        : nm == RLX_RESIZE_CEIL ? (int64_t)ceil(s)
                        : nm == RLX_RESIZE_ROUND_PREFER_CEIL
                            ? (int64_t)(s - f >= 0.5 ? f + 1 : f)
                            : (int64_t)(s - f > 0.5 ? f + 1 : f);
            idx[o] = k < 0 ? 0 : k > in - 1 ? in - 1 : k;
        }
        char *name = rlx__printf_alloc("%s#index%u", out->name, i);
        rlx_value iv = 0;
        st = name ? rlx_graph_constant(c->g, name, RLX_DTYPE_I64, 1, &n,
                                       idx, &iv)
                  : rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        free(name);
        free(idx);
        int64_t axis = i;
        rlx_value v[2] = { x, iv };
        if (st != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_GATHER, 2, v, &axis, 1, NULL, 0,
                                &x)) != RLX_OK)
            return st;
    }
    return rlx__onnx_set_out(c, x, out);
}

/* Resize (opset 10: X, scales; 11+: X, roi, scales, sizes) and Upsample
 * (7: scales attribute; 9: input). */
static rlx_status lower_resize(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    int upsample = c->row->arg, since = c->row->since;
    uint32_t r = in[0]->rank;
    double scales[RLX_MAX_RANK];
    int64_t sizes[RLX_MAX_RANK];
    int ns = -1, nz = -1;
    rlx__onnx_val *sv = NULL, *zv = NULL, *roi = NULL;
    if (upsample && since < 9) {
        const Onnx__AttributeProto *a = rlx__onnx_attr(c, "scales");
        if (a) {
            ns = (int)a->n_floats;
            for (int i = 0; i < ns && i < RLX_MAX_RANK; i++)
                scales[i] = a->floats[i];
        }
    } else if (upsample || since < 11) {
        sv = n_in > 1 ? in[1] : NULL;
    } else {
        sv = n_in > 2 ? in[2] : NULL;
        zv = n_in > 3 ? in[3] : NULL;
        if (strcmp(rlx__onnx_attr_string(c, "coordinate_transformation_mode",
                                         ""), "tf_crop_and_resize") == 0)
            roi = n_in > 1 ? in[1] : NULL; /* only this mode reads it */
    }
    /* tf_crop_and_resize: the roi (r starts, then r ends, as fractions
     * of each axis) travels as resize's float attributes */
    double roi_v[2 * RLX_MAX_RANK];
    if (roi && known_floats(roi, roi_v, 2 * RLX_MAX_RANK) != 2 * (int)r) {
        c->needs_value = roi->known ? 0 : 1;
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "tf_crop_and_resize needs its roi as %u known "
                              "floats (a start and an end per axis); '%s' "
                              "is %s. Fix: make the roi a constant of %u "
                              "floats", 2 * r, roi->name ? roi->name : "?",
                              roi->known ? "of another size or type"
                                         : "not known when lowering",
                              2 * r);
    }
    if (sv && rlx__onnx_elements(sv->rank, sv->dims) > 0 &&
        (ns = known_floats(sv, scales, RLX_MAX_RANK)) < 0) {
        c->needs_value = 1;
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "its scales are not known when lowering. "
                              "Fix: make them a constant");
    }
    if (zv && rlx__onnx_elements(zv->rank, zv->dims) > 0 &&
        (nz = rlx__onnx_known_ints(zv, sizes, RLX_MAX_RANK)) < 0) {
        c->needs_value = 1;
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "its sizes are not known when lowering. Fix: "
                              "make them a constant");
    }
    if (rlx__onnx_attr(c, "axes") ||
        rlx__onnx_attr_int(c, "antialias", 0) ||
        strcmp(rlx__onnx_attr_string(c, "keep_aspect_ratio_policy",
                                     "stretch"), "stretch"))
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "axes, antialias and keep_aspect_ratio_policy "
                              "are not lowered yet. Fix: resize every axis "
                              "by scales or sizes");
    if ((ns >= 0 && ns != (int)r) || (nz >= 0 && nz != (int)r) ||
        (ns < 0 && nz < 0))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it needs scales or sizes for each of the %u "
                              "axes. Fix: check the model", r);
    int64_t a[4 + RLX_MAX_RANK];
    double f[2 + 3 * RLX_MAX_RANK];
    static const char *const modes[] = { "nearest", "linear", "cubic",
                                         NULL };
    static const char *const coords[] = {
        "half_pixel", "half_pixel_symmetric", "pytorch_half_pixel",
        "align_corners", "asymmetric", "tf_crop_and_resize", NULL };
    static const char *const nearest[] = { "round_prefer_floor",
                                           "round_prefer_ceil", "floor",
                                           "ceil", NULL };
    const char *mode = rlx__onnx_attr_string(c, "mode", "nearest");
    if (upsample && !strcmp(mode, "bilinear"))
        mode = "linear";
    a[0] = name_index(mode, modes);
    const char *coord = rlx__onnx_attr_string(
        c, "coordinate_transformation_mode",
        upsample || since < 11 ? "asymmetric" : "half_pixel");
    a[1] = name_index(coord, coords);
    /* Resize-11's tf_half_pixel_for_nn, x = (o + 0.5) / scale, is a
     * transform rlx's resize lacks: nearest only, so a gather per axis */
    int tf_nn = since == 11 && !upsample &&
                !strcmp(coord, "tf_half_pixel_for_nn");
    if (tf_nn && strcmp(mode, "nearest"))
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "coordinate mode 'tf_half_pixel_for_nn' is "
                              "lowered with mode 'nearest' only (it is "
                              "'%s'). Fix: use another "
                              "coordinate_transformation_mode", mode);
    if (tf_nn)
        a[1] = RLX_RESIZE_HALF_PIXEL; /* checked below, then not used */
    const char *nm = rlx__onnx_attr_string(
        c, "nearest_mode",
        upsample || since < 11 ? "floor" : "round_prefer_floor");
    a[2] = name_index(nm, nearest);
    if (a[0] < 0 || a[1] < 0 || a[2] < 0)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "mode '%s', coordinate mode '%s' or nearest "
                              "mode '%s' is not one ONNX defines. Fix: "
                              "check the model", mode, coord, nm);
    if (a[1] == RLX_RESIZE_TF_CROP_AND_RESIZE && !roi)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "tf_crop_and_resize needs the roi input. Fix: "
                              "give the roi (a start and an end per axis)");
    a[3] = rlx__onnx_attr_int(c, "exclude_outside", 0);
    f[0] = rlx__onnx_attr_float(c, "cubic_coeff_a", -0.75);
    f[1] = rlx__onnx_attr_float(c, "extrapolation_value", 0);
    for (uint32_t i = 0; i < r; i++) {
        int64_t d = in[0]->dims[i];
        if (nz >= 0) {
            a[4 + i] = sizes[i];
            f[2 + i] = d ? (double)sizes[i] / (double)d : 1;
        } else {
            /* a scale that is not a positive finite number, or an output
             * past any real tensor, would overflow the conversion */
            double span = a[1] == RLX_RESIZE_TF_CROP_AND_RESIZE
                              ? roi_v[r + i] - roi_v[i] : 1;
            double o = floor((double)d * span * scales[i]);
            if (!(scales[i] > 0) || !(o >= 0) ||
                !(o <= (double)((int64_t)1 << 40)))
                return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                      "scale %g of axis %u gives no usable "
                                      "output size for input size %lld. "
                                      "Fix: check the model's scales",
                                      scales[i], i, (long long)d);
            a[4 + i] = (int64_t)o;
            /* tf_crop_and_resize maps through the output length */
            f[2 + i] = span != 1 && d ? o / (double)d : scales[i];
        }
    }
    if (tf_nn)
        return nearest_by_gather(c, in[0], a[2], a + 4, f + 2, &out[0]);
    uint32_t n_f = 2 + r;
    if (a[1] == RLX_RESIZE_TF_CROP_AND_RESIZE) {
        for (uint32_t i = 0; i < 2 * r; i++)
            f[n_f++] = roi_v[i];
    }
    rlx_value x, y;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESIZE, 1, &x, a, 4 + r, f, n_f,
                            &y)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, y, &out[0]);
}

const rlx__onnx_op rlx__onnx_ops_vision[] = {
    { "Conv", 1, lower_conv, 0 },
    { "Conv", 11, lower_conv, 0 },
    { "ConvTranspose", 1, lower_conv, 1 },
    { "ConvTranspose", 11, lower_conv, 1 },
    { "GridSample", 16, lower_grid_sample, 0 },
    { "RoiAlign", 10, lower_roi_align, 0 },
    { "RoiAlign", 16, lower_roi_align, 0 },
    { "MaxUnpool", 9, lower_max_unpool, 0 },
    { "MaxUnpool", 11, lower_max_unpool, 0 },
    { "GridSample", 20, lower_grid_sample, 0 },
    { "MaxPool", 1, lower_pool, P_MAX },
    { "MaxPool", 8, lower_pool, P_MAX },
    { "MaxPool", 10, lower_pool, P_MAX },
    { "MaxPool", 11, lower_pool, P_MAX },
    { "MaxPool", 12, lower_pool, P_MAX },
    { "AveragePool", 1, lower_pool, P_AVG },
    { "AveragePool", 7, lower_pool, P_AVG },
    { "AveragePool", 10, lower_pool, P_AVG },
    { "AveragePool", 11, lower_pool, P_AVG },
    { "AveragePool", 19, lower_pool, P_AVG },
    { "LpPool", 2, lower_pool, P_LP },
    { "LpPool", 11, lower_pool, P_LP },
    { "LpPool", 18, lower_pool, P_LP },
    { "InstanceNormalization", 6, lower_instance_norm, 0 },
    { "Resize", 10, lower_resize, 0 },
    { "Resize", 11, lower_resize, 0 },
    { "Resize", 13, lower_resize, 0 },
    { "Resize", 18, lower_resize, 0 },
    { "Resize", 19, lower_resize, 0 },
    { "Upsample", 7, lower_resize, 1 },
    { "Upsample", 9, lower_resize, 1 },
    { NULL, 0, NULL, 0 }
};

rlx_status rlx__onnx_conv_attrs(rlx__onnx_ctx *c, const rlx__onnx_val *x,
                                const rlx__onnx_val *w, int64_t *a,
                                uint32_t *na)
{
    if (x->rank < 3 || x->rank > RLX_MAX_RANK || w->rank != x->rank)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "X has rank %u and W rank %u. Fix: both are "
                              "[N or M, C, D1, ...] of one rank, 3 or more",
                              x->rank, w->rank);
    uint32_t s = x->rank - 2;
    int64_t k[MAX_S], str[MAX_S], dil[MAX_S], pb[MAX_S], pe[MAX_S];
    for (uint32_t i = 0; i < s; i++)
        k[i] = w->dims[2 + i];
    rlx_status st;
    if ((st = block(c, "strides", s, 1, str)) != RLX_OK ||
        (st = block(c, "dilations", s, 1, dil)) != RLX_OK ||
        (st = padding(c, x, s, k, str, dil, pb, pe)) != RLX_OK)
        return st;
    uint32_t n = 0;
    a[n++] = rlx__onnx_attr_int(c, "group", 1);
    const int64_t *blocks[4] = { str, dil, pb, pe };
    for (int b = 0; b < 4; b++)
        for (uint32_t i = 0; i < s; i++)
            a[n++] = blocks[b][i];
    *na = n;
    return RLX_OK;
}
