/*
 * onnx_rnn_cell.c - one time step of ONNX's recurrent cells as rlx
 * nodes: the gate equations of RNN, GRU (both linear_before_reset
 * forms) and LSTM (peepholes, input_forget, clip), and the activation
 * functions their `activations` attribute may name, composed from
 * primitives where rlx has none (Affine, ThresholdedRelu, ScaledTanh,
 * Softsign). onnx_lower_rnn.c unrolls the sequence over these.
 */
#include <ctype.h>
#include <string.h>

#include "onnx_rnn.h"

enum { ACT_RELU, ACT_TANH, ACT_SIGMOID, ACT_AFFINE, ACT_LEAKY_RELU,
       ACT_THRESHOLDED_RELU, ACT_SCALED_TANH, ACT_HARD_SIGMOID, ACT_ELU,
       ACT_SOFTSIGN, ACT_SOFTPLUS };

/* ONNX's activation list with which of alpha and beta each takes and
 * their defaults (those of the same-named operators). */
static const struct {
    const char *name;
    int fn, uses_alpha, uses_beta;
    double alpha, beta;
} acts[] = {
    { "relu", ACT_RELU, 0, 0, 0, 0 },
    { "tanh", ACT_TANH, 0, 0, 0, 0 },
    { "sigmoid", ACT_SIGMOID, 0, 0, 0, 0 },
    { "affine", ACT_AFFINE, 1, 1, 1.0, 0.0 },
    { "leakyrelu", ACT_LEAKY_RELU, 1, 0, 0.01, 0 },
    { "thresholdedrelu", ACT_THRESHOLDED_RELU, 1, 0, 1.0, 0 },
    { "scaledtanh", ACT_SCALED_TANH, 1, 1, 1.0, 1.0 },
    { "hardsigmoid", ACT_HARD_SIGMOID, 1, 1, 0.2, 0.5 },
    { "elu", ACT_ELU, 1, 0, 1.0, 0 },
    { "softsign", ACT_SOFTSIGN, 0, 0, 0, 0 },
    { "softplus", ACT_SOFTPLUS, 0, 0, 0, 0 },
};

int rlx__rnn_act_find(const char *name, size_t len, rlx__rnn_act *out,
                      int *uses_alpha, int *uses_beta)
{
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++) {
        const char *a = acts[i].name;
        if (strlen(a) != len)
            continue;
        size_t k = 0;
        while (k < len && tolower((unsigned char)name[k]) == a[k])
            k++;
        if (k < len)
            continue;
        out->fn = acts[i].fn;
        out->alpha = acts[i].alpha;
        out->beta = acts[i].beta;
        *uses_alpha = acts[i].uses_alpha;
        *uses_beta = acts[i].uses_beta;
        return 0;
    }
    return -1;
}

/* ---- builders ---------------------------------------------------------- */

static rlx_status op1(rlx__onnx_ctx *c, rlx_op op, rlx_value x,
                      const double *f, uint32_t nf, rlx_value *out)
{
    return rlx__onnx_add(c, op, 1, &x, NULL, 0, f, nf, out);
}

rlx_status rlx__rnn_op2(rlx__onnx_ctx *c, rlx_op op, rlx_value a,
                        rlx_value b, rlx_value *out)
{
    rlx_value v[2] = { a, b };
    return rlx__onnx_add(c, op, 2, v, NULL, 0, NULL, 0, out);
}

rlx_status rlx__rnn_slice(rlx__onnx_ctx *c, rlx_value x, int64_t axis,
                          int64_t start, int64_t end, rlx_value *out)
{
    int64_t ints[3] = { axis, start, end };
    return rlx__onnx_add(c, RLX_OP_SLICE, 1, &x, ints, 3, NULL, 0, out);
}

rlx_status rlx__rnn_reshape(rlx__onnx_ctx *c, rlx_value x, uint32_t rank,
                            const int64_t *dims, rlx_value *out)
{
    return rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &x, dims, rank, NULL, 0,
                         out);
}

rlx_status rlx__rnn_matmul_t(rlx__onnx_ctx *c, rlx_value a, rlx_value b,
                             rlx_value *out)
{
    static const int64_t tr[2] = { 0, 1 };
    rlx_value v[2] = { a, b };
    return rlx__onnx_add(c, RLX_OP_MATMUL, 2, v, tr, 2, NULL, 0, out);
}

static rlx_status one(rlx__rnn *n, rlx_value *out)
{
    if (!n->has_one) {
        rlx_status st = rlx__onnx_scalar(n->c, n->dt, 1.0, &n->one);
        if (st != RLX_OK)
            return st;
        n->has_one = 1;
    }
    *out = n->one;
    return RLX_OK;
}

/* X * K for a scalar K (nothing when K is 1). */
static rlx_status scale(rlx__rnn *n, rlx_value x, double k, rlx_value *out)
{
    if (k == 1.0) {
        *out = x;
        return RLX_OK;
    }
    rlx_value kv;
    rlx_status st = rlx__onnx_scalar(n->c, n->dt, k, &kv);
    if (st != RLX_OK)
        return st;
    return rlx__rnn_op2(n->c, RLX_OP_MUL, x, kv, out);
}

rlx_status rlx__rnn_act_apply(rlx__rnn *n, const rlx__rnn_act *a,
                              rlx_value x, rlx_value *out)
{
    rlx__onnx_ctx *c = n->c;
    rlx_status st;
    rlx_value t, k;
    switch (a->fn) {
    case ACT_RELU: return op1(c, RLX_OP_RELU, x, NULL, 0, out);
    case ACT_TANH: return op1(c, RLX_OP_TANH, x, NULL, 0, out);
    case ACT_SIGMOID: return op1(c, RLX_OP_SIGMOID, x, NULL, 0, out);
    case ACT_SOFTPLUS: return op1(c, RLX_OP_SOFTPLUS, x, NULL, 0, out);
    case ACT_LEAKY_RELU:
        return op1(c, RLX_OP_LEAKY_RELU, x, &a->alpha, 1, out);
    case ACT_ELU: return op1(c, RLX_OP_ELU, x, &a->alpha, 1, out);
    case ACT_HARD_SIGMOID: {
        double ab[2] = { a->alpha, a->beta };
        return op1(c, RLX_OP_HARD_SIGMOID, x, ab, 2, out);
    }
    case ACT_AFFINE: /* alpha * x + beta */
        if ((st = scale(n, x, a->alpha, &t)) != RLX_OK)
            return st;
        if (a->beta == 0.0) {
            *out = t;
            return RLX_OK;
        }
        if ((st = rlx__onnx_scalar(c, n->dt, a->beta, &k)) != RLX_OK)
            return st;
        return rlx__rnn_op2(c, RLX_OP_ADD, t, k, out);
    case ACT_SCALED_TANH: /* alpha * tanh(beta * x) */
        if ((st = scale(n, x, a->beta, &t)) != RLX_OK ||
            (st = op1(c, RLX_OP_TANH, t, NULL, 0, &t)) != RLX_OK)
            return st;
        return scale(n, t, a->alpha, out);
    case ACT_THRESHOLDED_RELU: { /* x > alpha ? x : 0 */
        rlx_value z, m;
        if ((st = rlx__onnx_scalar(c, n->dt, a->alpha, &k)) != RLX_OK ||
            (st = rlx__onnx_scalar(c, n->dt, 0.0, &z)) != RLX_OK ||
            (st = rlx__rnn_op2(c, RLX_OP_GREATER, x, k, &m)) != RLX_OK)
            return st;
        rlx_value v[3] = { m, x, z };
        return rlx__onnx_add(c, RLX_OP_WHERE, 3, v, NULL, 0, NULL, 0, out);
    }
    case ACT_SOFTSIGN: { /* x / (1 + |x|) */
        rlx_value o;
        if ((st = op1(c, RLX_OP_ABS, x, NULL, 0, &t)) != RLX_OK ||
            (st = one(n, &o)) != RLX_OK ||
            (st = rlx__rnn_op2(c, RLX_OP_ADD, t, o, &t)) != RLX_OK)
            return st;
        return rlx__rnn_op2(c, RLX_OP_DIV, x, t, out);
    }
    default:
        return rlx__onnx_fail(c, RLX_ERR_INTERNAL,
                              "unknown activation %d. Fix: report this "
                              "model to the rlx developers", a->fn);
    }
}

/* ---- the cells --------------------------------------------------------- */

/* clip(X) to [-clip, clip] when the node sets clip, then A. */
static rlx_status gate(rlx__rnn *n, const rlx__rnn_act *a, rlx_value x,
                       rlx_value *out)
{
    if (n->clip > 0) {
        double b[2] = { -n->clip, n->clip };
        rlx_status st = op1(n->c, RLX_OP_CLIP, x, b, 2, &x);
        if (st != RLX_OK)
            return st;
    }
    return rlx__rnn_act_apply(n, a, x, out);
}

/* Columns [K*H, (K+1)*H) of a [batch, G*H] value. */
static rlx_status part(rlx__rnn *n, rlx_value x, int k, rlx_value *out)
{
    return rlx__rnn_slice(n->c, x, 1, k * n->hidden, (k + 1) * n->hidden,
                          out);
}

/* Ht = f(Xt*W + Ht-1*R + Wb + Rb) */
static rlx_status rnn_step(rlx__rnn *n, const rlx__rnn_dir *d, rlx_value xt,
                           rlx_value h, rlx_value *h_out)
{
    rlx_value g;
    rlx_status st = rlx__rnn_matmul_t(n->c, h, d->r, &g);
    if (st != RLX_OK ||
        (st = rlx__rnn_op2(n->c, RLX_OP_ADD, xt, g, &g)) != RLX_OK)
        return st;
    return gate(n, &d->act[0], g, h_out);
}

/* zt = f(Xt*Wz + Ht-1*Rz + Wbz + Rbz), rt likewise; then
 * ht = g(Xt*Wh + (rt . Ht-1)*Rh + Rbh + Wbh)    (linear_before_reset 0)
 * ht = g(Xt*Wh + rt . (Ht-1*Rh + Rbh) + Wbh)    (linear_before_reset 1)
 * Ht = (1 - zt) . ht + zt . Ht-1 = ht + zt . (Ht-1 - ht) */
static rlx_status gru_step(rlx__rnn *n, const rlx__rnn_dir *d, rlx_value xt,
                           rlx_value h, rlx_value *h_out)
{
    rlx__onnx_ctx *c = n->c;
    rlx_value rec, xz, xr, xh, rz, rr, z, r, hh, t;
    rlx_status st;
    if ((st = rlx__rnn_matmul_t(c, h, d->r, &rec)) != RLX_OK ||
        (st = part(n, xt, 0, &xz)) != RLX_OK ||
        (st = part(n, xt, 1, &xr)) != RLX_OK ||
        (st = part(n, xt, 2, &xh)) != RLX_OK ||
        (st = part(n, rec, 0, &rz)) != RLX_OK ||
        (st = part(n, rec, 1, &rr)) != RLX_OK ||
        (st = rlx__rnn_op2(c, RLX_OP_ADD, xz, rz, &z)) != RLX_OK ||
        (st = gate(n, &d->act[0], z, &z)) != RLX_OK ||
        (st = rlx__rnn_op2(c, RLX_OP_ADD, xr, rr, &r)) != RLX_OK ||
        (st = gate(n, &d->act[0], r, &r)) != RLX_OK)
        return st;
    if (n->lbr) {
        if ((st = part(n, rec, 2, &t)) != RLX_OK ||
            (d->has_rbh &&
             (st = rlx__rnn_op2(c, RLX_OP_ADD, t, d->rbh, &t)) != RLX_OK) ||
            (st = rlx__rnn_op2(c, RLX_OP_MUL, r, t, &t)) != RLX_OK)
            return st;
    } else if ((st = rlx__rnn_op2(c, RLX_OP_MUL, r, h, &t)) != RLX_OK ||
               (st = rlx__rnn_matmul_t(c, t, d->rh, &t)) != RLX_OK) {
        return st;
    }
    if ((st = rlx__rnn_op2(c, RLX_OP_ADD, xh, t, &hh)) != RLX_OK ||
        (st = gate(n, &d->act[1], hh, &hh)) != RLX_OK ||
        (st = rlx__rnn_op2(c, RLX_OP_SUB, h, hh, &t)) != RLX_OK ||
        (st = rlx__rnn_op2(c, RLX_OP_MUL, z, t, &t)) != RLX_OK)
        return st;
    return rlx__rnn_op2(c, RLX_OP_ADD, hh, t, h_out);
}

/* Gates in ONNX's order i, o, f, c:
 * it = f(Xt*Wi + Ht-1*Ri + Pi . Ct-1 + Wbi + Rbi)
 * ft = f(Xt*Wf + Ht-1*Rf + Pf . Ct-1 + Wbf + Rbf)  (1 - it: input_forget)
 * ct = g(Xt*Wc + Ht-1*Rc + Wbc + Rbc)
 * Ct = ft . Ct-1 + it . ct
 * ot = f(Xt*Wo + Ht-1*Ro + Po . Ct + Wbo + Rbo)
 * Ht = ot . h(Ct) */
static rlx_status lstm_step(rlx__rnn *n, const rlx__rnn_dir *d, rlx_value xt,
                            rlx_value h, rlx_value cell, rlx_value *h_out,
                            rlx_value *c_out)
{
    rlx__onnx_ctx *c = n->c;
    rlx_value g, gi, go, gf, gc, t, ct;
    rlx_status st;
    if ((st = rlx__rnn_matmul_t(c, h, d->r, &g)) != RLX_OK ||
        (st = rlx__rnn_op2(c, RLX_OP_ADD, xt, g, &g)) != RLX_OK ||
        (st = part(n, g, 0, &gi)) != RLX_OK ||
        (st = part(n, g, 1, &go)) != RLX_OK ||
        (st = part(n, g, 2, &gf)) != RLX_OK ||
        (st = part(n, g, 3, &gc)) != RLX_OK)
        return st;
    if (d->has_p &&
        ((st = rlx__rnn_op2(c, RLX_OP_MUL, d->pi, cell, &t)) != RLX_OK ||
         (st = rlx__rnn_op2(c, RLX_OP_ADD, gi, t, &gi)) != RLX_OK))
        return st;
    if ((st = gate(n, &d->act[0], gi, &gi)) != RLX_OK)
        return st;
    if (n->input_forget) {
        if ((st = one(n, &t)) != RLX_OK ||
            (st = rlx__rnn_op2(c, RLX_OP_SUB, t, gi, &gf)) != RLX_OK)
            return st;
    } else {
        if (d->has_p &&
            ((st = rlx__rnn_op2(c, RLX_OP_MUL, d->pf, cell, &t)) !=
                 RLX_OK ||
             (st = rlx__rnn_op2(c, RLX_OP_ADD, gf, t, &gf)) != RLX_OK))
            return st;
        if ((st = gate(n, &d->act[0], gf, &gf)) != RLX_OK)
            return st;
    }
    if ((st = gate(n, &d->act[1], gc, &gc)) != RLX_OK ||
        (st = rlx__rnn_op2(c, RLX_OP_MUL, gf, cell, &ct)) != RLX_OK ||
        (st = rlx__rnn_op2(c, RLX_OP_MUL, gi, gc, &t)) != RLX_OK ||
        (st = rlx__rnn_op2(c, RLX_OP_ADD, ct, t, &ct)) != RLX_OK)
        return st;
    if (d->has_p &&
        ((st = rlx__rnn_op2(c, RLX_OP_MUL, d->po, ct, &t)) != RLX_OK ||
         (st = rlx__rnn_op2(c, RLX_OP_ADD, go, t, &go)) != RLX_OK))
        return st;
    if ((st = gate(n, &d->act[0], go, &go)) != RLX_OK ||
        (st = rlx__rnn_act_apply(n, &d->act[2], ct, &t)) != RLX_OK)
        return st;
    *c_out = ct;
    return rlx__rnn_op2(c, RLX_OP_MUL, go, t, h_out);
}

rlx_status rlx__rnn_step(rlx__rnn *n, const rlx__rnn_dir *d, rlx_value xt,
                         rlx_value h, rlx_value cell, rlx_value *h_out,
                         rlx_value *c_out)
{
    switch (n->kind) {
    case RLX__RNN: return rnn_step(n, d, xt, h, h_out);
    case RLX__GRU: return gru_step(n, d, xt, h, h_out);
    default: return lstm_step(n, d, xt, h, cell, h_out, c_out);
    }
}
