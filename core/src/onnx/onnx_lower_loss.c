/*
 * onnx_lower_loss.c - ONNX's loss functions composed from primitives:
 * NegativeLogLikelihoodLoss (gather_elements picks each target's score,
 * gather its class weight, where masks the ignored targets, then the
 * reduction) and SoftmaxCrossEntropyLoss (a stable log-softmax over the
 * class axis, optionally returned as log_prob, then the same NLL).
 */
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

static rlx_status add3(rlx__onnx_ctx *c, rlx_op op, rlx_value a, rlx_value b,
                       rlx_value d, rlx_value *out)
{
    rlx_value v[3] = { a, b, d };
    return rlx__onnx_add(c, op, 3, v, NULL, 0, NULL, 0, out);
}

static rlx_status reduce(rlx__onnx_ctx *c, rlx_op op, rlx_value x, int keep,
                         int64_t axis, rlx_value *out)
{
    int64_t ints[2] = { keep, axis };
    return rlx__onnx_add(c, op, 1, &x, ints, axis < 0 ? 1 : 2, NULL, 0, out);
}

/* The reduction attribute: 0 none, 1 sum, 2 mean (the default). */
static rlx_status reduction(rlx__onnx_ctx *c, int *out)
{
    static const char *const names[] = { "none", "sum", "mean" };
    const char *r = rlx__onnx_attr_string(c, "reduction", "mean");
    for (int i = 0; i < 3; i++)
        if (!strcmp(r, names[i])) {
            *out = i;
            return RLX_OK;
        }
    return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                          "reduction '%s' is not one ONNX defines. Fix: "
                          "use none, sum or mean", r);
}

/* Check X [N, C, d1..dk], target [N, d1..dk] and weight [C]. */
static rlx_status check_shapes(rlx__onnx_ctx *c, const rlx__onnx_val *x,
                               const rlx__onnx_val *t,
                               const rlx__onnx_val *w)
{
    rlx_status st = rlx__onnx_need_float(c, x);
    if (st != RLX_OK)
        return st;
    if (t->dtype != RLX_DTYPE_I32 && t->dtype != RLX_DTYPE_I64)
        return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                              "target '%s' is %s. Fix: give int32 or int64 "
                              "class indices", t->name ? t->name : "?",
                              rlx_dtype_name(t->dtype));
    int ok = x->rank >= 2 && t->rank + 1 == x->rank &&
             t->dims[0] == x->dims[0];
    for (uint32_t i = 2; ok && i < x->rank; i++)
        ok = t->dims[i - 1] == x->dims[i];
    if (!ok)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the scores must be [N, C, d1..dk] and the "
                              "target [N, d1..dk] (the scores are %u-D, the "
                              "target %u-D). Fix: check the input shapes",
                              x->rank, t->rank);
    if (w && (w->rank != 1 || w->dims[0] != x->dims[1]))
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "the weight must be [C] with C = %lld. Fix: "
                              "give one weight per class",
                              (long long)x->dims[1]);
    if (w && w->dtype != x->dtype)
        return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                              "the weight is %s, the scores %s. Fix: give "
                              "both one type", rlx_dtype_name(w->dtype),
                              rlx_dtype_name(x->dtype));
    return RLX_OK;
}

/* loss = -x[n, t[n, d], d] * w[t[n, d]], 0 where t is the ignore_index;
 * then the node's reduction. X is the graph value of scores XV. */
static rlx_status nll(rlx__onnx_ctx *c, rlx_value x,
                      const rlx__onnx_val *xv, rlx__onnx_val *tv,
                      rlx__onnx_val *wv, rlx_value *out)
{
    int red = 2;
    rlx_status st = reduction(c, &red);
    if (st != RLX_OK)
        return st;
    const Onnx__AttributeProto *ia = rlx__onnx_attr(c, "ignore_index");
    int has_ii = ia && ia->has_i;
    rlx_dtype dt = xv->dtype;
    rlx_value t, mask = { 0 }, g, w = { 0 }, k0, k1, loss;
    if ((st = rlx__onnx_node_value(c, tv, &t)) != RLX_OK)
        return st;
    if (has_ii) {
        /* ignored targets may be any value: read class 0 there instead;
         * compared in i64, where every ignore_index is exact */
        rlx_value ii, z;
        int64_t to = RLX_DTYPE_I64, zero64 = 0;
        if (tv->dtype != RLX_DTYPE_I64 &&
            (st = rlx__onnx_add(c, RLX_OP_CAST, 1, &t, &to, 1, NULL, 0,
                                &t)) != RLX_OK)
            return st;
        if ((st = rlx__onnx_constant(c, RLX_DTYPE_I64, 0, NULL, &ia->i,
                                     &ii)) != RLX_OK ||
            (st = rlx__onnx_constant(c, RLX_DTYPE_I64, 0, NULL, &zero64,
                                     &z)) != RLX_OK ||
            (st = add2(c, RLX_OP_EQUAL, t, ii, &mask)) != RLX_OK ||
            (st = add3(c, RLX_OP_WHERE, mask, z, t, &t)) != RLX_OK)
            return st;
    }
    int64_t d[RLX_MAX_RANK];
    d[0] = xv->dims[0];
    d[1] = 1;
    for (uint32_t i = 2; i < xv->rank; i++)
        d[i] = xv->dims[i];
    int64_t axis = 1, zero = 0;
    rlx_value tu, gin[2];
    if ((st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &t, d, xv->rank, NULL, 0,
                            &tu)) != RLX_OK)
        return st;
    gin[0] = x;
    gin[1] = tu;
    if ((st = rlx__onnx_add(c, RLX_OP_GATHER_ELEMENTS, 2, gin, &axis, 1,
                            NULL, 0, &g)) != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &g, tv->dims, tv->rank,
                            NULL, 0, &g)) != RLX_OK ||
        (st = add1(c, RLX_OP_NEG, g, &loss)) != RLX_OK)
        return st;
    int weighted = wv != NULL || has_ii;
    if (wv) {
        if ((st = rlx__onnx_node_value(c, wv, &gin[0])) != RLX_OK)
            return st;
        gin[1] = t;
        if ((st = rlx__onnx_add(c, RLX_OP_GATHER, 2, gin, &zero, 1, NULL, 0,
                                &w)) != RLX_OK)
            return st;
    }
    if (has_ii) {
        if ((st = rlx__onnx_scalar(c, dt, 0, &k0)) != RLX_OK)
            return st;
        if (!wv && (st = rlx__onnx_scalar(c, dt, 1, &k1)) != RLX_OK)
            return st;
        if ((st = add3(c, RLX_OP_WHERE, mask, k0, wv ? w : k1, &w)) !=
            RLX_OK)
            return st;
    }
    if (weighted && (st = add2(c, RLX_OP_MUL, loss, w, &loss)) != RLX_OK)
        return st;
    switch (red) {
    case 0: *out = loss; return RLX_OK;
    case 1: return reduce(c, RLX_OP_REDUCE_SUM, loss, 0, -1, out);
    default:
        if (!weighted)
            return reduce(c, RLX_OP_REDUCE_MEAN, loss, 0, -1, out);
        /* the weighted mean: divided by the weights of the kept targets */
        if ((st = reduce(c, RLX_OP_REDUCE_SUM, loss, 0, -1, &loss)) !=
                RLX_OK ||
            (st = reduce(c, RLX_OP_REDUCE_SUM, w, 0, -1, &w)) != RLX_OK)
            return st;
        return add2(c, RLX_OP_DIV, loss, w, out);
    }
}

static rlx_status lower_nll(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    (void)n_out;
    rlx__onnx_val *w = n_in > 2 ? in[2] : NULL;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = check_shapes(c, in[0], in[1], w)) != RLX_OK)
        return st;
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = nll(c, x, in[0], in[1], w, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

static rlx_status lower_sce(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    rlx__onnx_val *w = n_in > 2 ? in[2] : NULL;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = check_shapes(c, in[0], in[1], w)) != RLX_OK)
        return st;
    /* log_softmax over the class axis: x - max - log(sum(exp(x - max))) */
    rlx_value x, m, y, e, s, lp, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = reduce(c, RLX_OP_REDUCE_MAX, x, 1, 1, &m)) != RLX_OK ||
        (st = add2(c, RLX_OP_SUB, x, m, &y)) != RLX_OK ||
        (st = add1(c, RLX_OP_EXP, y, &e)) != RLX_OK ||
        (st = reduce(c, RLX_OP_REDUCE_SUM, e, 1, 1, &s)) != RLX_OK ||
        (st = add1(c, RLX_OP_LOG, s, &s)) != RLX_OK ||
        (st = add2(c, RLX_OP_SUB, y, s, &lp)) != RLX_OK ||
        (st = nll(c, lp, in[0], in[1], w, &r)) != RLX_OK ||
        (st = rlx__onnx_set_out(c, r, &out[0])) != RLX_OK)
        return st;
    if (n_out > 1 && c->node->output[1] && *c->node->output[1])
        return rlx__onnx_set_out(c, lp, &out[1]);
    return RLX_OK;
}

const rlx__onnx_op rlx__onnx_ops_loss[] = {
    { "NegativeLogLikelihoodLoss", 12, lower_nll, 0 },
    { "NegativeLogLikelihoodLoss", 13, lower_nll, 0 },
    { "SoftmaxCrossEntropyLoss", 12, lower_sce, 0 },
    { "SoftmaxCrossEntropyLoss", 13, lower_sce, 0 },
    { NULL, 0, NULL, 0 }
};
