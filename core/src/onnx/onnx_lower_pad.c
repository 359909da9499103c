/*
 * onnx_lower_pad.c - ONNX Pad, every opset: pads (and the value) as
 * attributes before opset 11, inputs after, axes from 18. Constant mode
 * stays fills and concats, which every backend runs; reflect, edge and
 * wrap go to the pad primitive.
 */
#include <string.h>

#include "onnx.h"

/* A known integer input, or a clear error. */
static rlx_status known_ints(rlx__onnx_ctx *c, rlx__onnx_val *v,
                             const char *what, int64_t *out, int max,
                             int *n)
{
    *n = v ? rlx__onnx_known_ints(v, out, max) : -1;
    if (*n >= 0)
        return RLX_OK;
    c->needs_value = 1;
    return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                          "its %s input '%s' is not known when lowering "
                          "(it depends on input data, or has more than %d "
                          "entries). Fix: make it a constant, or computed "
                          "only from input shapes", what,
                          v && v->name ? v->name : "(missing)", max);
}

/* Constant padding as fills concatenated on each side (negative pads
 * slice): ops every backend has, where pad is newer. */
static rlx_status pad_constant(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               const int64_t *pads, uint32_t n_axes,
                               const int64_t *axes, double value,
                               rlx__onnx_val *out)
{
    uint32_t rank = in[0]->rank;
    rlx_status st;
    rlx_value x;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    int64_t d[RLX_MAX_RANK];
    memcpy(d, in[0]->dims, rank * sizeof *d);
    for (uint32_t i = 0; i < n_axes; i++) {
        int64_t a = axes ? axes[i] : i;
        if ((st = rlx__onnx_axis(c, a, rank, &a)) != RLX_OK)
            return st;
        int64_t pb = pads[i], pe = pads[n_axes + i];
        if (pb < 0 || pe < 0) { /* negative: crop */
            int64_t s0 = pb < 0 ? -pb : 0, e0 = d[a] - (pe < 0 ? -pe : 0);
            if (e0 < s0)
                e0 = s0;
            int64_t t[3] = { a, s0, e0 };
            if ((st = rlx__onnx_add(c, RLX_OP_SLICE, 1, &x, t, 3, NULL, 0,
                                    &x)) != RLX_OK)
                return st;
            d[a] = e0 - s0;
            pb = pb < 0 ? 0 : pb;
            pe = pe < 0 ? 0 : pe;
        }
        if (!pb && !pe)
            continue;
        rlx_value parts[3];
        uint32_t k = 0;
        for (int side = 0; side < 2; side++) {
            int64_t width = side ? pe : pb;
            if (side)
                parts[k++] = x;
            if (!width)
                continue;
            int64_t f[1 + RLX_MAX_RANK] = { in[0]->dtype };
            memcpy(f + 1, d, rank * sizeof *d);
            f[1 + a] = width;
            if ((st = rlx__onnx_add(c, RLX_OP_FILL, 0, NULL, f, 1 + rank,
                                    &value, 1, &parts[k++])) != RLX_OK)
                return st;
        }
        if ((st = rlx__onnx_add(c, RLX_OP_CONCAT, k, parts, &a, 1, NULL, 0,
                                &x)) != RLX_OK)
            return st;
        d[a] += pb + pe;
    }
    if (!c->lowered) {
        const char *nm = out->name;
        *out = *in[0];
        out->name = nm;
        out->owned = NULL;
        return RLX_OK;
    }
    return rlx__onnx_set_out(c, x, out);
}

/* Pad: constant mode as above, the others onto the pad primitive
 * (negative pads crop). Pads and value as attributes before opset 11,
 * inputs after; axes from 18. */
static rlx_status lower_pad(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    uint32_t rank = in[0]->rank;
    const char *mode = rlx__onnx_attr_string(c, "mode", "constant");
    int64_t pm = !strcmp(mode, "constant") ? RLX_PAD_CONSTANT
                 : !strcmp(mode, "reflect") ? RLX_PAD_REFLECT
                 : !strcmp(mode, "edge")    ? RLX_PAD_EDGE
                 : !strcmp(mode, "wrap") && c->row->since >= 19
                     ? RLX_PAD_WRAP
                     : -1;
    if (pm < 0)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "mode '%s' is unknown at opset %d. Fix: use "
                              "constant, reflect, edge (or wrap from opset "
                              "19)", mode, c->row->since);
    int64_t pads[2 * RLX_MAX_RANK], axes[RLX_MAX_RANK];
    int n, na = -1;
    double value = 0;
    if (c->row->since < 11) {
        n = rlx__onnx_attr_ints(c, c->row->since < 2 ? "paddings" : "pads",
                                pads, 2 * RLX_MAX_RANK);
        value = rlx__onnx_attr_float(c, "value", 0);
    } else {
        if ((st = rlx__onnx_need_inputs(c, in, n_in, 2)) != RLX_OK ||
            (st = known_ints(c, in[1], "pads", pads, 2 * RLX_MAX_RANK,
                             &n)) != RLX_OK)
            return st;
        if (n_in > 2 && in[2]) {
            if (!in[2]->known ||
                rlx__onnx_elements(in[2]->rank, in[2]->dims) != 1) {
                c->needs_value = 1;
                return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                      "its constant_value is not a known "
                                      "scalar. Fix: make it a constant");
            }
            switch (in[2]->dtype) {
            case RLX_DTYPE_F32: value = *(const float *)in[2]->data; break;
            case RLX_DTYPE_F64: value = *(const double *)in[2]->data; break;
            case RLX_DTYPE_I64:
                value = (double)*(const int64_t *)in[2]->data;
                break;
            case RLX_DTYPE_I32: value = *(const int32_t *)in[2]->data; break;
            default:
                return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                      "a %s constant_value is not lowered "
                                      "yet. Fix: pad float or int data",
                                      rlx_dtype_name(in[2]->dtype));
            }
        }
        if (n_in > 3 && in[3] &&
            (st = known_ints(c, in[3], "axes", axes, RLX_MAX_RANK, &na)) !=
                RLX_OK)
            return st;
    }
    uint32_t n_axes = na >= 0 ? (uint32_t)na : rank;
    if (n < 0 || n != (int)(2 * n_axes))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "pads has %d entries for %u axes. Fix: give "
                              "begins then ends", n, n_axes);
    if (pm == RLX_PAD_CONSTANT)
        return pad_constant(c, in, pads, n_axes, na >= 0 ? axes : NULL,
                            value, &out[0]);
    /* one pad node: mode, then rank begins and rank ends */
    int64_t t[1 + 2 * RLX_MAX_RANK] = { pm };
    for (uint32_t i = 0; i < n_axes; i++) {
        int64_t a = na >= 0 ? axes[i] : i;
        if ((st = rlx__onnx_axis(c, a, rank, &a)) != RLX_OK)
            return st;
        t[1 + a] = pads[i];
        t[1 + rank + a] = pads[n_axes + i];
    }
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_PAD, 1, &x, t, 1 + 2 * rank, &value,
                            1, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

const rlx__onnx_op rlx__onnx_ops_pad[] = {
    { "Pad", 2, lower_pad, 0 },
    { "Pad", 11, lower_pad, 0 },
    { "Pad", 13, lower_pad, 0 },
    { "Pad", 18, lower_pad, 0 },
    { "Pad", 19, lower_pad, 0 },
    { "Pad", 21, lower_pad, 0 },
    { NULL, 0, NULL, 0 }
};
