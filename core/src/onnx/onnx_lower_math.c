/*
 * onnx_lower_math.c - ONNX's structured math onto rlx: MatMul and Gemm
 * (transposes as matmul attributes, alpha and beta as multiplies),
 * Softmax and LogSoftmax (the opset < 13 coerced-2-D form by reshapes),
 * LayerNormalization, BatchNormalization (inference: folded to a
 * per-channel scale and shift; training mode: the batch's own
 * statistics), the Reduce* family onto the reduce primitives (axes as
 * an attribute or, from opset 13/18, an input), ArgMax/ArgMin and the
 * global pools.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

static rlx_status add1(rlx__onnx_ctx *c, rlx_op op, rlx_value x,
                       rlx_value *out)
{
    return rlx__onnx_add(c, op, 1, &x, NULL, 0, NULL, 0, out);
}

static rlx_status add2(rlx__onnx_ctx *c, rlx_op op, rlx_value a, rlx_value b,
                       rlx_value *out)
{
    rlx_value v[2] = { a, b };
    return rlx__onnx_add(c, op, 2, v, NULL, 0, NULL, 0, out);
}

static rlx_status reshape(rlx__onnx_ctx *c, rlx_value x, uint32_t rank,
                          const int64_t *dims, rlx_value *out)
{
    return rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &x, dims, rank, NULL, 0, out);
}

static rlx_status reduce(rlx__onnx_ctx *c, rlx_op op, rlx_value x,
                         int keep, uint32_t n_axes, const int64_t *axes,
                         rlx_value *out)
{
    int64_t ints[1 + RLX_MAX_RANK] = { keep };
    memcpy(ints + 1, axes, n_axes * sizeof *axes);
    return rlx__onnx_add(c, op, 1, &x, ints, 1 + n_axes, NULL, 0, out);
}

/* ---- MatMul, Gemm ------------------------------------------------------- */

/* Det onto det (floats and double). */
static rlx_status lower_det(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out, uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = rlx__onnx_need_float64(c, in[0])) != RLX_OK)
        return st;
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_DET, 1, &x, NULL, 0, NULL, 0, &r)) !=
            RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_matmul(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    rlx_value v[2], r;
    if ((st = rlx__onnx_node_value(c, in[0], &v[0])) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &v[1])) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_MATMUL, 2, v, NULL, 0, NULL, 0, &r)) !=
            RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_gemm(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    if (in[0]->rank != 2 || in[1]->rank != 2)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "A and B must be 2-D (they are %u-D and "
                              "%u-D). Fix: use MatMul for batched products",
                              in[0]->rank, in[1]->rank);
    double alpha = rlx__onnx_attr_float(c, "alpha", 1.0);
    double beta = rlx__onnx_attr_float(c, "beta", 1.0);
    int64_t tr[2] = { rlx__onnx_attr_int(c, "transA", 0) != 0,
                      rlx__onnx_attr_int(c, "transB", 0) != 0 };
    rlx_value v[2], r, k;
    if ((st = rlx__onnx_node_value(c, in[0], &v[0])) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &v[1])) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_MATMUL, 2, v, tr, 2, NULL, 0, &r)) !=
            RLX_OK)
        return st;
    rlx_dtype dt = in[0]->dtype;
    if (alpha != 1.0 &&
        ((st = rlx__onnx_scalar(c, dt, alpha, &k)) != RLX_OK ||
         (st = add2(c, RLX_OP_MUL, r, k, &r)) != RLX_OK))
        return st;
    if (n_in > 2 && in[2] && beta != 0.0) {
        rlx_value cv;
        if ((st = rlx__onnx_node_value(c, in[2], &cv)) != RLX_OK)
            return st;
        if (beta != 1.0 &&
            ((st = rlx__onnx_scalar(c, dt, beta, &k)) != RLX_OK ||
             (st = add2(c, RLX_OP_MUL, cv, k, &cv)) != RLX_OK))
            return st;
        if ((st = add2(c, RLX_OP_ADD, r, cv, &r)) != RLX_OK)
            return st;
    }
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- Softmax, LogSoftmax ----------------------------------------------- */

static rlx_status log_softmax(rlx__onnx_ctx *c, rlx_value x, int64_t axis,
                              rlx_value *out)
{
    rlx_value m, y, e, s;
    rlx_status st;
    if ((st = reduce(c, RLX_OP_REDUCE_MAX, x, 1, 1, &axis, &m)) != RLX_OK ||
        (st = add2(c, RLX_OP_SUB, x, m, &y)) != RLX_OK ||
        (st = add1(c, RLX_OP_EXP, y, &e)) != RLX_OK ||
        (st = reduce(c, RLX_OP_REDUCE_SUM, e, 1, 1, &axis, &s)) != RLX_OK ||
        (st = add1(c, RLX_OP_LOG, s, &s)) != RLX_OK)
        return st;
    return add2(c, RLX_OP_SUB, y, s, out);
}

static rlx_status lower_softmax(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                uint32_t n_in, rlx__onnx_val *out,
                                uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    int is_log = c->row->arg;
    int coerce = c->row->since < 13;
    uint32_t rank = in[0]->rank;
    int64_t axis;
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis",
                                                   coerce ? 1 : -1),
                             rank ? rank : 1, &axis)) != RLX_OK)
        return st;
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    if (coerce && rank > 0 && !(axis == rank - 1)) {
        /* opset < 13: [prod(dims[:axis]), prod(dims[axis:])] */
        int64_t two[2] = { 1, 1 };
        for (uint32_t i = 0; i < rank; i++)
            two[i >= axis] *= in[0]->dims[i];
        if ((st = reshape(c, x, 2, two, &x)) != RLX_OK)
            return st;
        axis = 1;
    }
    if (is_log)
        st = log_softmax(c, x, axis, &r);
    else {
        int64_t ax = axis;
        st = rlx__onnx_add(c, RLX_OP_SOFTMAX, 1, &x, &ax, 1, NULL, 0, &r);
    }
    if (st != RLX_OK)
        return st;
    if (coerce && rank > 0 && !(axis == rank - 1) &&
        (st = reshape(c, r, rank, in[0]->dims, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- LayerNormalization --------------------------------------------------- */

static rlx_status lower_layer_norm(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                   uint32_t n_in, rlx__onnx_val *out,
                                   uint32_t n_out)
{
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    int stats = 0; /* Mean or InvStdDev wanted: composed from primitives */
    for (uint32_t i = 1; i < n_out; i++)
        stats |= c->node->output[i] && *c->node->output[i];
    uint32_t rank = in[0]->rank;
    int64_t axis;
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis", -1), rank,
                             &axis)) != RLX_OK)
        return st;
    double eps = rlx__onnx_attr_float(c, "epsilon", 1e-5);
    int64_t inner = 1;
    for (uint32_t i = (uint32_t)axis; i < rank; i++)
        inner *= in[0]->dims[i];
    rlx_value x, g, b;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &g)) != RLX_OK)
        return st;
    if (rlx__onnx_elements(in[1]->rank, in[1]->dims) != inner)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "Scale has %lld elements, not the %lld of "
                              "the normalized axes (broadcast Scale is not "
                              "lowered yet). Fix: give Scale the normalized "
                              "shape", (long long)rlx__onnx_elements(
                                  in[1]->rank, in[1]->dims),
                              (long long)inner);
    if (in[1]->rank != 1 && (st = reshape(c, g, 1, &inner, &g)) != RLX_OK)
        return st;
    if (n_in > 2 && in[2]) {
        if ((st = rlx__onnx_node_value(c, in[2], &b)) != RLX_OK)
            return st;
        if (in[2]->rank != 1 && (st = reshape(c, b, 1, &inner, &b)) != RLX_OK)
            return st;
    } else {
        int64_t ints[2] = { in[0]->dtype, inner };
        double zero = 0;
        if ((st = rlx__onnx_add(c, RLX_OP_FILL, 0, NULL, ints, 2, &zero, 1,
                                &b)) != RLX_OK)
            return st;
    }
    int flat = axis != (int64_t)rank - 1;
    if (flat) {
        int64_t d[RLX_MAX_RANK];
        memcpy(d, in[0]->dims, (size_t)axis * sizeof *d);
        d[axis] = inner;
        if ((st = reshape(c, x, (uint32_t)axis + 1, d, &x)) != RLX_OK)
            return st;
    }
    rlx_value v[3] = { x, g, b }, r;
    if (stats) {
        /* y = (x - mean) * rsqrt(var + eps) * g + b over the last axis */
        int64_t last = axis; /* the last axis, flattened or not */
        rlx_value mean, d, var, inv, k;
        if ((st = reduce(c, RLX_OP_REDUCE_MEAN, x, 1, 1, &last, &mean)) !=
                RLX_OK ||
            (st = add2(c, RLX_OP_SUB, x, mean, &d)) != RLX_OK ||
            (st = add2(c, RLX_OP_MUL, d, d, &var)) != RLX_OK ||
            (st = reduce(c, RLX_OP_REDUCE_MEAN, var, 1, 1, &last, &var)) !=
                RLX_OK ||
            (st = rlx__onnx_scalar(c, in[0]->dtype, eps, &k)) != RLX_OK ||
            (st = add2(c, RLX_OP_ADD, var, k, &var)) != RLX_OK ||
            (st = add1(c, RLX_OP_RSQRT, var, &inv)) != RLX_OK ||
            (st = add2(c, RLX_OP_MUL, d, inv, &r)) != RLX_OK ||
            (st = add2(c, RLX_OP_MUL, r, g, &r)) != RLX_OK ||
            (st = add2(c, RLX_OP_ADD, r, b, &r)) != RLX_OK)
            return st;
        int64_t sd[RLX_MAX_RANK];
        for (uint32_t i = 0; i < rank; i++)
            sd[i] = i < (uint32_t)axis ? in[0]->dims[i] : 1;
        rlx_value sv[2] = { mean, inv };
        for (uint32_t i = 1; i < n_out && i < 3; i++) {
            if (!c->node->output[i] || !*c->node->output[i])
                continue;
            rlx_value o = sv[i - 1];
            if ((st = reshape(c, o, rank, sd, &o)) != RLX_OK ||
                (st = rlx__onnx_set_out(c, o, &out[i])) != RLX_OK)
                return st;
        }
    } else if ((st = rlx__onnx_add(c, RLX_OP_LAYER_NORM, 3, v, NULL, 0,
                                   &eps, 1, &r)) != RLX_OK) {
        return st;
    }
    if (flat && (st = reshape(c, r, rank, in[0]->dims, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- BatchNormalization (inference) --------------------------------------- */

/* training_mode 1 (opset 14 on): X normalized by its own statistics per
 * channel (over N and the spatial axes; the variance divides by the
 * count), and, as outputs 1 and 2, the running statistics moved toward
 * them: input_mean * momentum + mean * (1 - momentum), likewise var. */
static rlx_status batch_norm_training(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                      rlx__onnx_val *out, uint32_t n_out,
                                      double eps)
{
    uint32_t rank = in[0]->rank;
    rlx_dtype dt = in[0]->dtype;
    int64_t ch = in[0]->dims[1];
    for (uint32_t i = 1; i < 5; i++)
        if (in[i]->dtype != dt)
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "input %u ('%s') is %s but X is %s; "
                                  "training mode is lowered for one type. "
                                  "Fix: give every input X's type", i,
                                  in[i]->name, rlx_dtype_name(in[i]->dtype),
                                  rlx_dtype_name(dt));
    double mom = rlx__onnx_attr_float(c, "momentum", 0.9);
    int64_t axes[RLX_MAX_RANK], cd[RLX_MAX_RANK];
    uint32_t n_axes = 0;
    for (uint32_t i = 0; i < rank; i++) {
        if (i != 1)
            axes[n_axes++] = i;
        cd[i] = i == 0 ? ch : 1; /* [C, 1, ...]: broadcasts from axis 1 */
    }
    rlx_value x, v[5], mean, d, var, inv, k, y;
    rlx_status st;
    for (uint32_t i = 0; i < 5; i++)
        if ((st = rlx__onnx_node_value(c, in[i], &v[i])) != RLX_OK)
            return st;
    x = v[0];
    if ((st = reduce(c, RLX_OP_REDUCE_MEAN, x, 1, n_axes, axes, &mean)) !=
            RLX_OK ||
        (st = add2(c, RLX_OP_SUB, x, mean, &d)) != RLX_OK ||
        (st = add2(c, RLX_OP_MUL, d, d, &var)) != RLX_OK ||
        (st = reduce(c, RLX_OP_REDUCE_MEAN, var, 1, n_axes, axes, &var)) !=
            RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, eps, &k)) != RLX_OK ||
        (st = add2(c, RLX_OP_ADD, var, k, &inv)) != RLX_OK ||
        (st = add1(c, RLX_OP_RSQRT, inv, &inv)) != RLX_OK ||
        (st = add2(c, RLX_OP_MUL, d, inv, &y)) != RLX_OK ||
        (st = reshape(c, v[1], rank - 1, cd, &v[1])) != RLX_OK ||
        (st = reshape(c, v[2], rank - 1, cd, &v[2])) != RLX_OK ||
        (st = add2(c, RLX_OP_MUL, y, v[1], &y)) != RLX_OK ||
        (st = add2(c, RLX_OP_ADD, y, v[2], &y)) != RLX_OK ||
        (st = rlx__onnx_set_out(c, y, &out[0])) != RLX_OK)
        return st;
    rlx_value stat[2] = { mean, var };
    for (uint32_t o = 1; o < 3 && o < n_out; o++) {
        if (!c->node->output[o] || !*c->node->output[o])
            continue;
        rlx_value s, km, kr, r;
        if ((st = reshape(c, stat[o - 1], 1, &ch, &s)) != RLX_OK ||
            (st = rlx__onnx_scalar(c, dt, mom, &km)) != RLX_OK ||
            (st = rlx__onnx_scalar(c, dt, 1.0 - mom, &kr)) != RLX_OK ||
            (st = reshape(c, v[2 + o], 1, &ch, &r)) != RLX_OK ||
            (st = add2(c, RLX_OP_MUL, r, km, &r)) != RLX_OK ||
            (st = add2(c, RLX_OP_MUL, s, kr, &s)) != RLX_OK ||
            (st = add2(c, RLX_OP_ADD, r, s, &r)) != RLX_OK ||
            (st = rlx__onnx_set_out(c, r, &out[o])) != RLX_OK)
            return st;
    }
    return RLX_OK;
}

static rlx_status lower_batch_norm(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                   uint32_t n_in, rlx__onnx_val *out,
                                   uint32_t n_out)
{
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 5);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    if (rlx__onnx_attr_int(c, "spatial", 1) != 1)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "spatial 0 (statistics per element) is not "
                              "lowered. Fix: export with spatial 1");
    double eps = rlx__onnx_attr_float(c, "epsilon", 1e-5);
    int training = rlx__onnx_attr_int(c, "training_mode", 0) != 0;
    if (!(training && c->row->since >= 14) &&
        (training || (n_out > 1 && c->node->output[1] &&
                      *c->node->output[1])))
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "training mode before opset 14 (saved "
                              "statistics as outputs) is not supported. "
                              "Fix: export the model in eval mode, or at "
                              "opset 14 or later");
    if (in[0]->rank < 2)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "X has rank %u; it needs [N, C, ...]. Fix: "
                              "check the model", in[0]->rank);
    int64_t ch = in[0]->dims[1];
    int stored = 1;
    for (uint32_t i = 1; i < 5; i++) {
        if (rlx__onnx_elements(in[i]->rank, in[i]->dims) != ch)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "input %u ('%s') must hold %lld elements "
                                  "(C). Fix: check the model", i,
                                  in[i]->name, (long long)ch);
        stored = stored && in[i]->known && in[i]->dtype == RLX_DTYPE_F32;
    }
    if (training)
        return batch_norm_training(c, in, out, n_out, eps);
    if (!stored) { /* statistics fed at run time: the primitive */
        rlx_value v[5], r;
        for (uint32_t i = 0; i < 5; i++)
            if ((st = rlx__onnx_node_value(c, in[i], &v[i])) != RLX_OK)
                return st;
        if ((st = rlx__onnx_add(c, RLX_OP_BATCH_NORM, 5, v, NULL, 0, &eps,
                                1, &r)) != RLX_OK)
            return st;
        return rlx__onnx_set_out(c, r, &out[0]);
    }
    /* y = x * s + t: s = scale / sqrt(var + eps), t = B - mean * s */
    float *s = malloc(2 * (size_t)(ch ? ch : 1) * sizeof *s);
    if (!s)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    float *t = s + ch;
    const float *sc = in[1]->data, *b = in[2]->data, *mu = in[3]->data,
                *var = in[4]->data;
    for (int64_t i = 0; i < ch; i++) {
        s[i] = (float)(sc[i] / sqrt((double)var[i] + eps));
        t[i] = b[i] - mu[i] * s[i];
    }
    int64_t d[RLX_MAX_RANK];
    for (uint32_t i = 0; i < in[0]->rank - 1; i++)
        d[i] = i == 0 ? ch : 1;
    rlx_value x, sv, tv, r;
    char *ns = rlx__printf_alloc("%s#scale", out[0].name);
    char *nt = rlx__printf_alloc("%s#shift", out[0].name);
    st = ns && nt ? RLX_OK : RLX_ERR_OUT_OF_MEMORY;
    if (st == RLX_OK)
        st = rlx_graph_constant(c->g, ns, RLX_DTYPE_F32, in[0]->rank - 1, d,
                                s, &sv);
    if (st == RLX_OK)
        st = rlx_graph_constant(c->g, nt, RLX_DTYPE_F32, in[0]->rank - 1, d,
                                t, &tv);
    free(ns);
    free(nt);
    free(s);
    if (st != RLX_OK)
        return st;
    if (in[0]->dtype != RLX_DTYPE_F32) {
        int64_t dt = in[0]->dtype;
        if ((st = rlx__onnx_add(c, RLX_OP_CAST, 1, &sv, &dt, 1, NULL, 0,
                                &sv)) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_CAST, 1, &tv, &dt, 1, NULL, 0,
                                &tv)) != RLX_OK)
            return st;
    }
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = add2(c, RLX_OP_MUL, x, sv, &r)) != RLX_OK ||
        (st = add2(c, RLX_OP_ADD, r, tv, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ---- Reduce*, global pools ------------------------------------------------ */

enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_L1, R_L2, R_SUMSQ, R_LOGSUMEXP,
       R_GLOBAL_AVG, R_GLOBAL_MAX, R_PROD, R_LOGSUM };

/* The axes of a reduction: from the attribute, or (AXES_INPUT) input 1. */
static rlx_status reduce_axes(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, int axes_input, int64_t *axes,
                              uint32_t *n_axes, int *noop)
{
    uint32_t rank = in[0]->rank;
    int n = -1;
    int64_t raw[RLX_MAX_RANK + 1];
    *noop = 0;
    if (axes_input) {
        if (n_in > 1 && in[1]) {
            n = rlx__onnx_known_ints(in[1], raw, RLX_MAX_RANK + 1);
            if (n < 0) {
                c->needs_value = 1;
                return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                      "its axes input '%s' is not a "
                                      "constant. Fix: make the axes an "
                                      "initializer or constant",
                                      in[1]->name);
            }
        }
        if (n <= 0 && rlx__onnx_attr_int(c, "noop_with_empty_axes", 0)) {
            *noop = 1;
            return RLX_OK;
        }
    } else {
        n = rlx__onnx_attr_ints(c, "axes", raw, RLX_MAX_RANK + 1);
    }
    if (n > (int)rank)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it names %d axes of a rank-%u input. Fix: "
                              "name each axis once", n, rank);
    if (n <= 0) { /* every axis */
        for (uint32_t i = 0; i < rank; i++)
            axes[i] = i;
        *n_axes = rank;
        return RLX_OK;
    }
    for (int i = 0; i < n; i++) {
        rlx_status st = rlx__onnx_axis(c, raw[i], rank, &axes[i]);
        if (st != RLX_OK)
            return st;
        for (int k = 0; k < i; k++)
            if (axes[k] == axes[i])
                return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                      "axis %lld is named twice. Fix: name "
                                      "each axis once", (long long)axes[i]);
    }
    *n_axes = (uint32_t)n;
    return RLX_OK;
}

static rlx_status lower_reduce(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    /* integer dtypes reach the reductions that take them (docs/ops.md);
     * the others refuse them when the node is added */
    rlx_dtype dt = in[0]->dtype;
    int is_int = dt == RLX_DTYPE_I8 || dt == RLX_DTYPE_U8 ||
                 dt == RLX_DTYPE_I16 || dt == RLX_DTYPE_U16 ||
                 dt == RLX_DTYPE_I32 || dt == RLX_DTYPE_U32 ||
                 dt == RLX_DTYPE_I64 || dt == RLX_DTYPE_U64;
    if (!is_int && (st = rlx__onnx_need_float64(c, in[0])) != RLX_OK)
        return st;
    int kind = c->row->arg & 0xff;
    int axes_input = c->row->arg >> 8;
    int64_t axes[RLX_MAX_RANK];
    uint32_t n_axes = 0;
    int keep = 1, noop = 0;
    if (kind == R_GLOBAL_AVG || kind == R_GLOBAL_MAX) {
        for (uint32_t i = 2; i < in[0]->rank; i++)
            axes[n_axes++] = i;
    } else {
        keep = rlx__onnx_attr_int(c, "keepdims", 1) != 0;
        if ((st = reduce_axes(c, in, n_in, axes_input, axes, &n_axes,
                              &noop)) != RLX_OK)
            return st;
    }
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    if (noop) {
        const char *nm = out[0].name;
        out[0] = *in[0];
        out[0].name = nm;
        out[0].owned = NULL;
        return RLX_OK;
    }
    switch (kind) {
    case R_SUM: st = reduce(c, RLX_OP_REDUCE_SUM, x, keep, n_axes, axes, &r);
        break;
    case R_GLOBAL_AVG:
    case R_MEAN:
        st = reduce(c, RLX_OP_REDUCE_MEAN, x, keep, n_axes, axes, &r);
        break;
    case R_GLOBAL_MAX:
    case R_MAX: st = reduce(c, RLX_OP_REDUCE_MAX, x, keep, n_axes, axes, &r);
        break;
    case R_LOGSUM: /* log of the sum */
        if ((st = reduce(c, RLX_OP_REDUCE_SUM, x, keep, n_axes, axes, &r)) ==
            RLX_OK)
            st = add1(c, RLX_OP_LOG, r, &r);
        break;
    default: {
        static const rlx_op prim[] = {
            [R_MIN] = RLX_OP_REDUCE_MIN, [R_PROD] = RLX_OP_REDUCE_PROD,
            [R_L1] = RLX_OP_REDUCE_L1, [R_L2] = RLX_OP_REDUCE_L2,
            [R_SUMSQ] = RLX_OP_REDUCE_SUM_SQUARE,
            [R_LOGSUMEXP] = RLX_OP_REDUCE_LOG_SUM_EXP };
        st = reduce(c, prim[kind], x, keep, n_axes, axes, &r);
        break;
    }
    }
    if (st != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* ArgMax, ArgMin: axis, keepdims, select_last_index (opset 12 on). */
static rlx_status lower_arg(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    int64_t ints[3];
    if ((st = rlx__onnx_axis(c, rlx__onnx_attr_int(c, "axis", 0),
                             in[0]->rank, &ints[0])) != RLX_OK)
        return st;
    ints[1] = rlx__onnx_attr_int(c, "keepdims", 1) != 0;
    ints[2] = c->row->since >= 12 &&
              rlx__onnx_attr_int(c, "select_last_index", 0) != 0;
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_add(c, (rlx_op)c->row->arg, 1, &x, ints, 3, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

#define ARG(name, op)                                                     \
    { name, 1, lower_arg, op }, { name, 11, lower_arg, op },              \
    { name, 12, lower_arg, op }, { name, 13, lower_arg, op }

#define RED(name, kind, input_since)                                      \
    { name, 1, lower_reduce, kind }, { name, 11, lower_reduce, kind },    \
    { name, 13, lower_reduce, kind | (input_since == 13 ? 256 : 0) },     \
    { name, 18, lower_reduce, kind | 256 }

const rlx__onnx_op rlx__onnx_ops_math[] = {
    { "Det", 11, lower_det, 0 },
    { "MatMul", 1, lower_matmul, 0 },
    { "MatMul", 9, lower_matmul, 0 },
    { "MatMul", 13, lower_matmul, 0 },
    { "Gemm", 6, lower_gemm, 0 }, /* broadcast: rlx's is a superset */
    { "Gemm", 7, lower_gemm, 0 },
    { "Gemm", 9, lower_gemm, 0 },
    { "Gemm", 11, lower_gemm, 0 },
    { "Gemm", 13, lower_gemm, 0 },
    { "Softmax", 1, lower_softmax, 0 },
    { "Softmax", 11, lower_softmax, 0 },
    { "Softmax", 13, lower_softmax, 0 },
    { "LogSoftmax", 1, lower_softmax, 1 },
    { "LogSoftmax", 11, lower_softmax, 1 },
    { "LogSoftmax", 13, lower_softmax, 1 },
    { "LayerNormalization", 17, lower_layer_norm, 0 },
    { "BatchNormalization", 6, lower_batch_norm, 0 },
    { "BatchNormalization", 7, lower_batch_norm, 0 },
    { "BatchNormalization", 9, lower_batch_norm, 0 },
    { "BatchNormalization", 14, lower_batch_norm, 0 },
    { "BatchNormalization", 15, lower_batch_norm, 0 },
    RED("ReduceSum", R_SUM, 13),
    RED("ReduceMean", R_MEAN, 18),
    RED("ReduceMax", R_MAX, 18),
    RED("ReduceMin", R_MIN, 18),
    RED("ReduceL1", R_L1, 18),
    RED("ReduceL2", R_L2, 18),
    RED("ReduceSumSquare", R_SUMSQ, 18),
    RED("ReduceLogSumExp", R_LOGSUMEXP, 18),
    RED("ReduceProd", R_PROD, 18),
    RED("ReduceLogSum", R_LOGSUM, 18),
    ARG("ArgMax", RLX_OP_ARGMAX),
    ARG("ArgMin", RLX_OP_ARGMIN),
    { "GlobalAveragePool", 1, lower_reduce, R_GLOBAL_AVG },
    { "GlobalMaxPool", 1, lower_reduce, R_GLOBAL_MAX },
    { NULL, 0, NULL, 0 }
};
