/*
 * onnx_qdq_lower.c - a QDQ group (onnx_qdq.c found it) lowered fused at
 * its QuantizeLinear, once the values are known: a Conv, MatMul or Gemm
 * between dequantized operands becomes what QLinearConv or QLinearMatMul
 * lowers to (the integer op, the bias added in int32, one multiplier
 * (s_x * s_w) / s_y, quantize_linear with scale 1), a Relu or Clip after
 * it max/min on the quantized value (exact: quantization is monotonic
 * for a positive scale); MaxPool, Reshape, Flatten and Transpose with
 * the same scale and zero point on both sides run on the integers. When
 * a value check fails the caller lowers the members one by one, and the
 * reason goes into `rlx check`'s report.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_qdq.h"

#define NONE RLX__QDQ_NONE

typedef rlx__onnx_qdq_group group;

/* A DQ's or Q's operands: data, scale, zero point (may be NULL). */
typedef struct qparams {
    rlx__onnx_val *x, *scale, *zp;
    int64_t axis;
    int64_t block;
} qparams;

static int64_t numel(const rlx__onnx_val *v)
{
    return rlx__onnx_elements(v->rank, v->dims);
}

static int is_byte(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8;
}

static int64_t node_int(const Onnx__NodeProto *n, const char *name,
                        int64_t dflt)
{
    for (size_t i = 0; i < n->n_attribute; i++)
        if (n->attribute[i]->name &&
            strcmp(n->attribute[i]->name, name) == 0 &&
            n->attribute[i]->has_i)
            return n->attribute[i]->i;
    return dflt;
}

static const Onnx__AttributeProto *node_attr(const Onnx__NodeProto *n,
                                             const char *name)
{
    for (size_t i = 0; i < n->n_attribute; i++)
        if (n->attribute[i]->name &&
            strcmp(n->attribute[i]->name, name) == 0)
            return n->attribute[i];
    return NULL;
}

/* Input K of node N through GET (NULL when absent). */
static rlx_status input(rlx__onnx_ctx *c, const rlx__onnx_qdq_env *env,
                        const Onnx__NodeProto *n, size_t k,
                        rlx__onnx_val **out)
{
    *out = NULL;
    if (k >= n->n_input || !n->input[k] || !*n->input[k])
        return RLX_OK;
    rlx_status st = env->get(env->arg, n->input[k], out);
    if (st == RLX_OK && !(*out)->known && !(*out)->rt && !(*out)->has_v)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "its input '%s' is an optional output rlx "
                              "does not compute. Fix: export the model "
                              "without using it", n->input[k]);
    return st;
}

/* The Q/DQ node N's operands; a Q's data (the float intermediate the
 * group fuses away) is not read. */
static rlx_status params(rlx__onnx_ctx *c, const rlx__onnx_qdq_env *env,
                         const Onnx__NodeProto *n, qparams *p)
{
    rlx_status st = RLX_OK;
    int is_q = strcmp(n->op_type, "QuantizeLinear") == 0;
    p->x = NULL;
    if ((!is_q && (st = input(c, env, n, 0, &p->x)) != RLX_OK) ||
        (st = input(c, env, n, 1, &p->scale)) != RLX_OK ||
        (st = input(c, env, n, 2, &p->zp)) != RLX_OK)
        return st;
    p->axis = c->opset >= 13 ? node_int(n, "axis", 1) : 1;
    p->block = c->opset >= 21 ? node_int(n, "block_size", 0) : 0;
    return RLX_OK;
}

/* Why the quantization parameters P cannot be fused (NULL: they can):
 * a known f32 scale, positive and finite, of COUNT elements (0: one or
 * per axis), a known zero point of the data's type or none. */
static const char *check_params(const qparams *p, const char *what)
{
    static _Thread_local char buf[160];
    if (!p->scale)
        return "a quantization input is missing";
    if (!p->scale->known || (p->zp && !p->zp->known)) {
        snprintf(buf, sizeof buf, "the scale or zero point of %s is "
                                  "not constant", what);
        return buf;
    }
    if (p->scale->dtype != RLX_DTYPE_F32) {
        snprintf(buf, sizeof buf, "the scale of %s is %s, not float32", what,
                 rlx_dtype_name(p->scale->dtype));
        return buf;
    }
    if (p->block) {
        snprintf(buf, sizeof buf, "%s is quantized in blocks", what);
        return buf;
    }
    const float *s = p->scale->data;
    for (int64_t i = 0; i < numel(p->scale); i++)
        if (!(s[i] > 0) || isinf(s[i])) {
            snprintf(buf, sizeof buf, "the scale of %s is not positive "
                                      "and finite", what);
            return buf;
        }
    if (p->zp && numel(p->zp) != numel(p->scale)) {
        snprintf(buf, sizeof buf, "the zero point and scale of %s "
                                  "differ in shape", what);
        return buf;
    }
    return NULL;
}

static const char *need_scalar(const qparams *p, const char *what)
{
    static _Thread_local char buf[128];
    if (numel(p->scale) == 1)
        return NULL;
    snprintf(buf, sizeof buf, "%s is quantized per axis; rlx fuses it per "
                              "tensor only", what);
    return buf;
}

/* A per-axis scale must lie along axis AXIS of a rank-RANK operand. */
static const char *need_axis(const qparams *p, uint32_t rank, int64_t axis,
                             const char *what)
{
    static _Thread_local char buf[128];
    if (numel(p->scale) == 1)
        return NULL;
    int64_t a = p->axis < 0 ? p->axis + rank : p->axis;
    if (p->scale->rank == 1 && a == axis)
        return NULL;
    snprintf(buf, sizeof buf, "%s is quantized along axis %lld; the "
                              "integer kernel takes axis %lld",
             what, (long long)p->axis, (long long)axis);
    return buf;
}

static double at(const rlx__onnx_val *v, int64_t i)
{
    switch (v->dtype) {
    case RLX_DTYPE_F32: return ((const float *)v->data)[i];
    case RLX_DTYPE_U8: return ((const uint8_t *)v->data)[i];
    case RLX_DTYPE_I8: return ((const int8_t *)v->data)[i];
    case RLX_DTYPE_I32: return ((const int32_t *)v->data)[i];
    default: return NAN;
    }
}

/* Do two quantizations agree (a per-tensor scale and zero point)? */
static int same_params(const qparams *a, const qparams *b)
{
    if (numel(a->scale) != 1 || numel(b->scale) != 1 ||
        at(a->scale, 0) != at(b->scale, 0))
        return 0;
    rlx_dtype ta = a->zp ? a->zp->dtype : RLX_DTYPE_U8;
    rlx_dtype tb = b->zp ? b->zp->dtype : RLX_DTYPE_U8;
    double za = a->zp ? at(a->zp, 0) : 0, zb = b->zp ? at(b->zp, 0) : 0;
    return ta == tb && za == zb;
}

/* The quantized value of F (Q's rounding: the quotient in f32, half to
 * even, saturated), for Clip's bounds. */
static double quantized(float f, float scale, double zp, rlx_dtype t)
{
    double lo = t == RLX_DTYPE_I8 ? -128 : 0, hi = t == RLX_DTYPE_I8 ? 127
                                                                    : 255;
    float qf = f / scale;
    double r = isinf(qf) ? (qf < 0 ? lo : hi) : nearbyintf(qf) + zp;
    return r < lo ? lo : r > hi ? hi : r;
}

/* y = max(y, lo) [then min(y, hi)] on the quantized OUT. */
static rlx_status clamp(rlx__onnx_ctx *c, rlx__onnx_val *out, double lo,
                        double hi, int has_hi)
{
    double b[2] = { lo, hi };
    rlx_op ops[2] = { RLX_OP_MAX, RLX_OP_MIN };
    rlx_value y = out->v;
    for (int k = 0; k < 1 + has_hi; k++) {
        uint8_t u = (uint8_t)b[k];
        int8_t s = (int8_t)b[k];
        rlx_value bv, in[2];
        rlx_status st = rlx__onnx_constant(c, out->dtype, 0, NULL,
                                           out->dtype == RLX_DTYPE_I8
                                               ? (const void *)&s
                                               : (const void *)&u,
                                           &bv);
        in[0] = y;
        in[1] = bv;
        if (st != RLX_OK ||
            (st = rlx__onnx_add(c, ops[k], 2, in, NULL, 0, NULL, 0, &y)) !=
                RLX_OK)
            return st;
    }
    return rlx__onnx_set_out(c, y, out);
}

/* Clip's bounds (node A; Relu: 0 and +inf) into LO, HI: NULL, or why
 * they cannot be folded. Checked before anything is lowered. */
static const char *act_bounds(rlx__onnx_ctx *c, const Onnx__NodeProto *a,
                              const rlx__onnx_qdq_env *env, float *lo,
                              float *hi, rlx_status *st)
{
    *lo = -INFINITY;
    *hi = INFINITY;
    if (strcmp(a->op_type, "Relu") == 0) {
        *lo = 0;
        return NULL;
    }
    if (c->opset < 11) {
        const Onnx__AttributeProto *l = node_attr(a, "min"),
                                   *h = node_attr(a, "max");
        if (l && l->has_f)
            *lo = l->f;
        if (h && h->has_f)
            *hi = h->f;
    } else {
        for (size_t k = 1; k < 3; k++) {
            rlx__onnx_val *v;
            if ((*st = input(c, env, a, k, &v)) != RLX_OK)
                return NULL;
            if (!v)
                continue;
            if (!v->known || v->dtype != RLX_DTYPE_F32 || numel(v) != 1)
                return "Clip's bounds are not constant float32 scalars";
            (k == 1 ? lo : hi)[0] = (float)at(v, 0);
        }
    }
    return isnan(*lo) || isnan(*hi) ? "a Clip bound is NaN" : NULL;
}

/* Relu or Clip (node A) after the chain, as max/min on OUT: Relu is
 * max(y, y_zp), Clip the quantized bounds. */
static rlx_status activation(rlx__onnx_ctx *c, const Onnx__NodeProto *a,
                             const qparams *yq, float lo, float hi,
                             rlx__onnx_val *out)
{
    rlx_dtype t = out->dtype;
    double zp = yq->zp ? at(yq->zp, 0) : 0;
    float ys = (float)at(yq->scale, 0);
    if (strcmp(a->op_type, "Relu") == 0)
        return clamp(c, out, zp, 0, 0);
    return clamp(c, out, quantized(lo, ys, zp, t), quantized(hi, ys, zp, t),
                 1);
}

/* The bias DQ: int32, zero point 0, scale x_scale * w_scale per output
 * channel (as quantizers write it, to rounding). */
static const char *check_bias(const qparams *b, const qparams *x,
                              const qparams *w, int64_t m)
{
    const char *why = check_params(b, "the bias");
    if (why)
        return why;
    if (b->x->dtype != RLX_DTYPE_I32)
        return "the bias is not int32";
    if (numel(b->x) != m)
        return "the bias has not one value per output channel";
    if (b->zp)
        for (int64_t i = 0; i < numel(b->zp); i++)
            if (at(b->zp, i) != 0)
                return "the bias's zero point is not 0";
    int64_t nb = numel(b->scale), nw = numel(w->scale);
    for (int64_t i = 0; i < m; i++) {
        double want = (double)(float)(at(x->scale, 0) *
                                      at(w->scale, nw == 1 ? 0 : i));
        double got = at(b->scale, nb == 1 ? 0 : i);
        if (fabs(got - want) > 1e-5 * want)
            return "the bias's scale is not x_scale * w_scale";
    }
    return NULL;
}

/* Gemm's weights [N, K] (transB) as [K, N] on the host: the integer
 * matmul takes b as [K, N]. */
static rlx_status transposed(const rlx__onnx_val *w, rlx__onnx_val *t,
                             char *name, size_t name_len)
{
    memset(t, 0, sizeof *t);
    int64_t n = w->dims[0], k = w->dims[1];
    uint8_t *d = malloc(n > 0 && k > 0 ? (size_t)(n * k) : 1);
    if (!d)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    const uint8_t *s = w->data;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < k; j++)
            d[j * n + i] = s[i * k + j];
    snprintf(name, name_len, "%s#transposed", w->name ? w->name : "w");
    t->name = name; /* a constant of its own, beside W's param */
    t->known = 1;
    t->dtype = w->dtype;
    t->rank = 2;
    t->dims[0] = k;
    t->dims[1] = n;
    t->data = d;
    t->owned = d;
    return RLX_OK;
}

/* Conv, MatMul, Gemm between dequantized operands: the requantization
 * chain. NULL when lowered, else why not. */
static const char *integer_group(rlx__onnx_ctx *c, const group *g,
                                 const rlx__onnx_qdq_env *env,
                                 const qparams *yq, rlx__onnx_val *out,
                                 rlx_status *st)
{
    const Onnx__NodeProto *const *nodes = c->m->nodes;
    const Onnx__NodeProto *mid = nodes[g->mid];
    qparams xq, wq, bq;
    memset(&bq, 0, sizeof bq);
    const char *why;
    if ((*st = params(c, env, nodes[g->dq[0]], &xq)) != RLX_OK ||
        (*st = params(c, env, nodes[g->dq[1]], &wq)) != RLX_OK ||
        (g->dq[2] != NONE &&
         (*st = params(c, env, nodes[g->dq[2]], &bq)) != RLX_OK))
        return NULL;
    if (!xq.x || !wq.x || (g->dq[2] != NONE && !bq.x))
        return "a DequantizeLinear has no input";
    if ((why = check_params(&xq, "the input")) != NULL ||
        (why = need_scalar(&xq, "the input")) != NULL ||
        (why = check_params(&wq, "the weights")) != NULL)
        return why;
    if (!is_byte(xq.x->dtype) || !is_byte(wq.x->dtype))
        return "an operand is not int8 or uint8";
    int conv = strcmp(mid->op_type, "Conv") == 0;
    int gemm = strcmp(mid->op_type, "Gemm") == 0;
    int trans_b = gemm && node_int(mid, "transB", 0);
    rlx__onnx_val wt, *w = wq.x, *ws = wq.scale, *wz = wq.zp;
    char wt_name[256];
    memset(&wt, 0, sizeof wt);
    int64_t m;
    if (conv) {
        if (w->rank < 3)
            return "the weights have rank below 3";
        m = w->dims[0];
        if ((why = need_axis(&wq, w->rank, 0, "the weights")) != NULL)
            return why;
    } else {
        if (gemm && (node_int(mid, "transA", 0) ||
                     (node_attr(mid, "alpha") &&
                      node_attr(mid, "alpha")->f != 1.0f) ||
                     (node_attr(mid, "beta") &&
                      node_attr(mid, "beta")->f != 1.0f)))
            return "Gemm has transA, or alpha or beta other than 1";
        if (gemm && (w->rank != 2 || xq.x->rank != 2))
            return "Gemm's operands are not matrices";
        if (w->rank < 1)
            return "the weights are a scalar";
        m = trans_b ? w->dims[0] : w->rank >= 2 ? w->dims[w->rank - 1] : 1;
        if ((why = need_axis(&wq, w->rank,
                             trans_b ? 0 : (int64_t)w->rank - 1,
                             "the weights")) != NULL)
            return why;
        if (numel(ws) != 1 && w->rank != 2)
            return "batched weights are quantized per axis";
        if (trans_b) {
            if (!w->known)
                return "Gemm's transposed weights are not constant";
            if ((*st = transposed(w, &wt, wt_name, sizeof wt_name)) !=
                RLX_OK)
                return NULL;
            w = &wt;
        }
    }
    float lo = 0, hi = 0;
    if ((g->dq[2] != NONE &&
         (why = check_bias(&bq, &xq, &wq, m)) != NULL) ||
        (g->act != NONE && ((why = act_bounds(c, nodes[g->act], env,
                                               &lo, &hi, st)) != NULL ||
                            *st != RLX_OK))) {
        free(wt.owned);
        return why;
    }
    rlx__onnx_val *in[9] = { xq.x, xq.scale, xq.zp, w, ws, wz, yq->scale,
                             yq->zp, g->dq[2] != NONE ? bq.x : NULL };
    *st = conv ? rlx__onnx_qlinear_conv(c, in, 9, out)
               : rlx__onnx_qlinear_matmul(c, in, 8, in[8], out);
    free(wt.owned);
    if (*st != RLX_OK || g->act == NONE)
        return NULL;
    *st = activation(c, nodes[g->act], yq, lo, hi, out);
    return NULL;
}

/* MaxPool, Reshape, Flatten, Transpose with the same quantization on
 * both sides: the op itself on the quantized input. */
static const char *moving_group(rlx__onnx_ctx *c, rlx__onnx_folder *f,
                                const group *g,
                                const rlx__onnx_qdq_env *env,
                                const qparams *yq,
                                rlx__onnx_val *out, char **report,
                                rlx_status *st)
{
    const Onnx__NodeProto *mid = c->m->nodes[g->mid];
    qparams xq;
    const char *why;
    if ((*st = params(c, env, c->m->nodes[g->dq[0]], &xq)) != RLX_OK)
        return NULL;
    if (!xq.x)
        return "the DequantizeLinear has no input";
    if ((why = check_params(&xq, "the input")) != NULL)
        return why;
    if (!same_params(&xq, yq))
        return "its input and output quantizations differ";
    uint32_t n_in = (uint32_t)mid->n_input;
    rlx__onnx_val **in = calloc(n_in ? n_in : 1, sizeof *in);
    if (!in) {
        *st = rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    in[0] = xq.x;
    for (uint32_t k = 1; k < n_in && *st == RLX_OK; k++)
        *st = input(c, env, mid, k, &in[k]);
    if (*st == RLX_OK)
        *st = rlx__onnx_lower_node(c, f, in, n_in, out, 1, report);
    free(in);
    return NULL;
}

/* The group at ANCHOR fused into OUT: 1 (*REPORT set), 0 when its
 * values fail a check (*WHY says which, malloc'd), -1 an error (*ST). */
static int fuse(rlx__onnx_ctx *c, rlx__onnx_folder *f, rlx__onnx_qdq *q,
                uint32_t anchor, const rlx__onnx_qdq_env *env,
                rlx__onnx_val *out, char **report, char **why,
                rlx_status *st)
{
    const group *g = &q->groups[q->gi[anchor]];
    const Onnx__NodeProto *qn = c->m->nodes[anchor];
    const Onnx__NodeProto *mid = c->m->nodes[g->mid];
    *report = NULL;
    *why = NULL;
    *st = RLX_OK;
    qparams yq;
    const char *w;
    if ((*st = params(c, env, qn, &yq)) != RLX_OK)
        return -1;
    if ((w = check_params(&yq, "the output")) != NULL ||
        (w = need_scalar(&yq, "the output")) != NULL) {
        *why = rlx__strdup(w);
        return 0;
    }
    if (!yq.zp && c->opset >= 21 && node_int(qn, "output_dtype", 0)) {
        *why = rlx__strdup("the output's type is set by output_dtype");
        return 0;
    }
    /* the group's nodes are named after the Q's output, its attributes
     * the middle op's */
    Onnx__NodeProto fake = *mid;
    fake.output = qn->output;
    fake.n_output = qn->n_output;
    c->node = &fake;
    c->n_made = 0;
    c->lowered = NULL;
    c->lowered_len = 0;
    int integer = strcmp(mid->op_type, "Conv") == 0 ||
                  strcmp(mid->op_type, "MatMul") == 0 ||
                  strcmp(mid->op_type, "Gemm") == 0;
    w = integer ? integer_group(c, g, env, &yq, out, st)
                : moving_group(c, f, g, env, &yq, out, report, st);
    c->node = qn;
    char *made = c->lowered;
    c->lowered = NULL;
    if (*st != RLX_OK || w) {
        free(made);
        free(*report);
        *report = NULL;
        if (*st != RLX_OK)
            return -1;
        *why = rlx__strdup(w);
        return 0;
    }
    if (!*report)
        *report = made;
    else
        free(made);
    char *r = rlx__printf_alloc(
        "fused QDQ %s%s%s: %s", mid->op_type,
        g->act != NONE ? " + " : "",
        g->act != NONE ? c->m->nodes[g->act]->op_type : "",
        *report ? *report : "nothing");
    free(*report);
    *report = r;
    /* its DQs stay pending: another group may lower them */
    q->pending[g->mid] = 0;
    if (g->act != NONE)
        q->pending[g->act] = 0;
    return 1;
}

/* The pending members of the group at ANCHOR, in node order (at most
 * 5), marked lowered. */
static uint32_t take(rlx__onnx_qdq *q, uint32_t anchor, uint32_t *members)
{
    const group *g = &q->groups[q->gi[anchor]];
    uint32_t cand[5] = { g->dq[0], g->dq[1], g->dq[2], g->mid, g->act };
    uint32_t n = 0;
    for (uint32_t i = 0; i < anchor; i++)
        for (int k = 0; k < 5; k++)
            if (cand[k] == i && q->pending[i]) {
                q->pending[i] = 0;
                members[n++] = i;
                break;
            }
    return n;
}

rlx_status rlx__onnx_qdq_walk(rlx__onnx_ctx *c, rlx__onnx_folder *f,
                              rlx__onnx_qdq *q, uint32_t anchor,
                              const rlx__onnx_qdq_env *env, char **report,
                              char **rep)
{
    const Onnx__NodeProto *n = c->m->nodes[anchor];
    rlx__onnx_val out = { .name = n->output[0] }; /* a group's Q has one */
    char *why = NULL;
    rlx_status st;
    c->node = n;
    int r = fuse(c, f, q, anchor, env, &out, rep, &why, &st);
    if (r == 1) {
        rlx__onnx_val *dst = env->slot(env->arg, n->output[0]);
        if (dst) {
            free(dst->owned);
            *dst = out;
        } else {
            free(out.owned);
        }
        return RLX_OK;
    }
    free(out.owned);
    if (r < 0)
        return st;
    uint32_t members[5], k = take(q, anchor, members);
    st = RLX_OK;
    for (uint32_t i = 0; i < k && st == RLX_OK; i++) {
        char *mrep = NULL;
        st = env->node(env->arg, members[i], &mrep);
        /* the reason goes on the line of the op the group is about */
        if (st == RLX_OK && members[i] == q->groups[q->gi[anchor]].mid)
            mrep = rlx__onnx_qdq_prefix(why, mrep);
        if (st == RLX_OK && report)
            report[members[i]] = mrep;
        else
            free(mrep);
    }
    free(why);
    c->node = n;
    return st == RLX_OK ? env->node(env->arg, anchor, rep) : st;
}
