/*
 * onnx_lower_rnn.c - ONNX's recurrent operators LSTM, GRU and RNN,
 * unrolled over the sequence onto matmul, add, mul, slice, concat and
 * the activation primitives. The sequence length is known when lowering
 * (shapes are concrete), so each time step becomes its own few nodes;
 * the input's product with W is one matmul for every step at once.
 * sequence_lens fed at run time masks the steps past each batch entry's
 * length with `where` (the state holds, Y is 0); a reverse direction
 * walks the steps from the last, so the held initial state is what each
 * shorter sequence starts from. Every attribute: direction, activations
 * with alpha/beta, clip, hidden_size, input_forget, linear_before_reset,
 * layout, and every optional input and output. The step equations are
 * in onnx_rnn_cell.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_rnn.h"

/* The most steps (times directions) one node unrolls into: each is a
 * few dozen graph nodes. */
#define RLX__RNN_MAX_STEPS 65536

/* Gates per kind: RNN 1, GRU 3, LSTM 4; activations per direction. */
static const int n_gates[] = { 1, 3, 4 };
static const int n_acts[] = { 1, 2, 3 };

/* The node's activations, per direction: the attribute's names (the
 * per-direction count, or that count for each direction), alpha and
 * beta consumed in order by the functions that take them. */
static rlx_status read_acts(rlx__onnx_ctx *c, int kind, int n_dir,
                            rlx__rnn_dir *dirs)
{
    static const char *const dflt[3][3] = {
        { "Tanh" }, { "Sigmoid", "Tanh" }, { "Sigmoid", "Tanh", "Tanh" } };
    int per = n_acts[kind];
    const Onnx__AttributeProto *an = rlx__onnx_attr(c, "activations");
    const Onnx__AttributeProto *aa = rlx__onnx_attr(c, "activation_alpha");
    const Onnx__AttributeProto *ab = rlx__onnx_attr(c, "activation_beta");
    size_t given = an ? an->n_strings : 0;
    if (given && given != (size_t)per && given != (size_t)(per * n_dir))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it names %zu activations; %s takes %d per "
                              "direction (%d for its %d direction(s)). Fix: "
                              "check the model", given, c->node->op_type,
                              per, per * n_dir, n_dir);
    size_t ia = 0, ib = 0;
    for (int d = 0; d < n_dir; d++)
        for (int k = 0; k < per; k++) {
            const char *name = dflt[kind][k];
            size_t len = strlen(name);
            if (given) {
                const ProtobufCBinaryData *s =
                    &an->strings[given == (size_t)per ? k : d * per + k];
                name = (const char *)s->data;
                len = s->len;
            }
            int ua, ub;
            rlx__rnn_act *a = &dirs[d].act[k];
            if (rlx__rnn_act_find(name ? name : "", name ? len : 0, a, &ua,
                                  &ub) != 0)
                return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                      "activation '%.*s' is not one ONNX "
                                      "defines for recurrent ops. Fix: use "
                                      "Relu, Tanh, Sigmoid, Affine, "
                                      "LeakyRelu, ThresholdedRelu, "
                                      "ScaledTanh, HardSigmoid, Elu, "
                                      "Softsign or Softplus",
                                      (int)(len > 40 ? 40 : len),
                                      name ? name : "");
            if (ua && aa && ia < aa->n_floats)
                a->alpha = aa->floats[ia++];
            if (ub && ab && ib < ab->n_floats)
                a->beta = ab->floats[ib++];
        }
    return RLX_OK;
}

/* Input I (optional) must have RANK and DIMS. */
static rlx_status check_shape(rlx__onnx_ctx *c, rlx__onnx_val *v,
                              const char *what, uint32_t rank,
                              const int64_t *dims)
{
    if (!v)
        return RLX_OK;
    int ok = v->rank == rank;
    for (uint32_t i = 0; ok && i < rank; i++)
        ok = v->dims[i] == dims[i];
    if (ok)
        return RLX_OK;
    char got[160], want[160];
    return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                          "%s '%s' is %s; it must be %s for these X, W and "
                          "hidden_size. Fix: check the model", what,
                          v->name ? v->name : "?",
                          rlx__shape_str(got, sizeof got, v->rank, v->dims),
                          rlx__shape_str(want, sizeof want, rank, dims));
}

/* Slice [D] of a value whose axis 0 is the direction, reshaped to
 * RANK/DIMS. */
static rlx_status per_dir(rlx__onnx_ctx *c, rlx_value v, int d,
                          uint32_t rank, const int64_t *dims, rlx_value *out)
{
    rlx_status st = rlx__rnn_slice(c, v, 0, d, d + 1, out);
    if (st != RLX_OK)
        return st;
    return rlx__rnn_reshape(c, *out, rank, dims, out);
}

static rlx_status zeros(rlx__onnx_ctx *c, rlx_dtype dt, int64_t a,
                        int64_t b, rlx_value *out)
{
    int64_t ints[3] = { dt, a, b };
    double z = 0;
    return rlx__onnx_add(c, RLX_OP_FILL, 0, NULL, ints, 3, &z, 1, out);
}

/* The masks of the steps: mask[t] bool [batch, 1], t < sequence_lens;
 * *NONE when every entry runs every step (known lengths equal to seq). */
static rlx_status step_masks(rlx__onnx_ctx *c, rlx__onnx_val *lens,
                             int64_t seq, int64_t batch, rlx_value *mask,
                             int *none)
{
    *none = 1;
    if (!lens)
        return RLX_OK;
    if (lens->dtype != RLX_DTYPE_I32 && lens->dtype != RLX_DTYPE_I64)
        return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                              "sequence_lens is %s; it must be int32. Fix: "
                              "check the model", rlx_dtype_name(lens->dtype));
    int64_t kd[2] = { batch, 1 };
    if (lens->known) {
        int64_t *l = malloc((size_t)batch * sizeof *l);
        if (!l)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        int n = rlx__onnx_known_ints(lens, l, (int)batch);
        int all = n == (int)batch;
        for (int64_t b = 0; b < batch && all; b++) {
            if (l[b] < 0 || l[b] > seq) {
                long long bad = (long long)l[b];
                free(l);
                return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                      "sequence_lens[%lld] is %lld, outside "
                                      "[0, %lld]. Fix: give each entry's "
                                      "length, at most seq_length",
                                      (long long)b, bad, (long long)seq);
            }
            all = l[b] == seq;
        }
        free(l);
        if (all && n == (int)batch)
            return RLX_OK;
    }
    *none = 0;
    rlx_value lv;
    rlx_status st = rlx__onnx_node_value(c, lens, &lv);
    if (st != RLX_OK || (st = rlx__rnn_reshape(c, lv, 2, kd, &lv)) != RLX_OK)
        return st;
    for (int64_t t = 0; t < seq; t++) {
        rlx_value tv;
        if ((st = rlx__onnx_scalar(c, lens->dtype, (double)t, &tv)) !=
                RLX_OK ||
            (st = rlx__rnn_op2(c, RLX_OP_LESS, tv, lv, &mask[t])) != RLX_OK)
            return st;
    }
    return RLX_OK;
}

static rlx_status pick(rlx__onnx_ctx *c, rlx_value m, rlx_value a,
                         rlx_value b, rlx_value *out)
{
    rlx_value v[3] = { m, a, b };
    return rlx__onnx_add(c, RLX_OP_WHERE, 3, v, NULL, 0, NULL, 0, out);
}

static int wanted(rlx__onnx_ctx *c, uint32_t n_out, uint32_t i)
{
    return i < n_out && c->node->output[i] && *c->node->output[i];
}

/* The node's shapes and attributes, checked. */
typedef struct shapes {
    int64_t seq, batch, in_size, hidden;
    int n_dir, reverse, layout;
} shapes;

static rlx_status read_shapes(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, int kind, shapes *s)
{
    rlx__onnx_val *x = in[0], *w = in[1], *r = in[2];
    s->layout = c->row->since >= 14 ? (int)rlx__onnx_attr_int(c, "layout", 0)
                                    : 0;
    if (s->layout != 0 && s->layout != 1)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "layout %d is neither 0 nor 1. Fix: check the "
                              "model", s->layout);
    const char *dir = rlx__onnx_attr_string(c, "direction", "forward");
    s->reverse = !strcmp(dir, "reverse");
    s->n_dir = !strcmp(dir, "bidirectional") ? 2 : 1;
    if (strcmp(dir, "forward") && !s->reverse && s->n_dir != 2)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "direction '%s' is not forward, reverse or "
                              "bidirectional. Fix: check the model", dir);
    if (x->rank != 3 || w->rank != 3 || r->rank != 3)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "X, W and R must be 3-D (they are %u-D, %u-D "
                              "and %u-D). Fix: check the model", x->rank,
                              w->rank, r->rank);
    s->seq = x->dims[s->layout ? 1 : 0];
    s->batch = x->dims[s->layout ? 0 : 1];
    s->in_size = x->dims[2];
    s->hidden = r->dims[2];
    int64_t hs = rlx__onnx_attr_int(c, "hidden_size", s->hidden);
    int g = n_gates[kind];
    if (hs != s->hidden || hs <= 0)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "hidden_size is %lld but R's last dim is "
                              "%lld. Fix: check the model", (long long)hs,
                              (long long)s->hidden);
    if (s->seq <= 0 || s->batch <= 0)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "an empty sequence or batch (X is [%lld, "
                              "%lld, %lld]) is not lowered. Fix: give at "
                              "least one step and one batch entry",
                              (long long)x->dims[0], (long long)x->dims[1],
                              (long long)x->dims[2]);
    if (s->seq * s->n_dir > RLX__RNN_MAX_STEPS)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "%lld steps in %d direction(s) would unroll "
                              "into more than %d step graphs. Fix: run "
                              "shorter sequences (split the sequence and "
                              "carry initial_h/initial_c across)",
                              (long long)s->seq, s->n_dir,
                              RLX__RNN_MAX_STEPS);
    int64_t wd[3] = { s->n_dir, g * hs, s->in_size };
    int64_t rd[3] = { s->n_dir, g * hs, hs };
    int64_t bd[2] = { s->n_dir, 2 * g * hs };
    int64_t hd[3] = { s->n_dir, s->batch, hs };
    int64_t pd[2] = { s->n_dir, 3 * hs };
    int64_t ld[1] = { s->batch };
    if (s->layout) {
        hd[0] = s->batch;
        hd[1] = s->n_dir;
    }
    rlx__onnx_val *opt[5] = { NULL };
    for (uint32_t i = 3; i < n_in && i < 8; i++)
        opt[i - 3] = in[i];
    rlx_status st;
    if ((st = check_shape(c, w, "W", 3, wd)) != RLX_OK ||
        (st = check_shape(c, r, "R", 3, rd)) != RLX_OK ||
        (st = check_shape(c, opt[0], "B", 2, bd)) != RLX_OK ||
        (st = check_shape(c, opt[1], "sequence_lens", 1, ld)) != RLX_OK ||
        (st = check_shape(c, opt[2], "initial_h", 3, hd)) != RLX_OK ||
        (st = check_shape(c, opt[3], "initial_c", 3, hd)) != RLX_OK ||
        (st = check_shape(c, opt[4], "P", 2, pd)) != RLX_OK)
        return st;
    for (uint32_t i = 1; i < n_in && i < 8; i++)
        if (in[i] && i != 4 && in[i]->dtype != x->dtype)
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "input %u ('%s') is %s but X is %s. Fix: "
                                  "ONNX requires one type; re-export the "
                                  "model", i, in[i]->name,
                                  rlx_dtype_name(in[i]->dtype),
                                  rlx_dtype_name(x->dtype));
    return RLX_OK;
}

/* Direction D's weights (W's product with the whole input, XW, is made
 * by the caller): R's rows, the biases that cannot go into XW, P. */
static rlx_status dir_weights(rlx__rnn *n, const shapes *s, int d,
                              rlx_value r, rlx_value *b, rlx_value *p,
                              rlx__rnn_dir *dw)
{
    rlx__onnx_ctx *c = n->c;
    int64_t hs = s->hidden, gh = n_gates[n->kind] * hs;
    int64_t rd[2] = { gh, hs }, pd[1] = { 3 * hs };
    rlx_status st = per_dir(c, r, d, 2, rd, &dw->r);
    if (st != RLX_OK)
        return st;
    if (n->kind == RLX__GRU && !n->lbr) {
        /* (rt . Ht-1) * Rh: the h rows multiply a gated state */
        rlx_value all = dw->r;
        if ((st = rlx__rnn_slice(c, all, 0, 2 * hs, 3 * hs, &dw->rh)) !=
                RLX_OK ||
            (st = rlx__rnn_slice(c, all, 0, 0, 2 * hs, &dw->r)) != RLX_OK)
            return st;
    }
    if (n->kind == RLX__GRU && n->lbr && b) {
        int64_t bd[1] = { 2 * gh };
        rlx_value bb;
        if ((st = per_dir(c, *b, d, 1, bd, &bb)) != RLX_OK ||
            (st = rlx__rnn_slice(c, bb, 0, gh + 2 * hs, 2 * gh, &dw->rbh)) !=
                RLX_OK)
            return st;
        dw->has_rbh = 1;
    }
    if (p) {
        rlx_value pp;
        if ((st = per_dir(c, *p, d, 1, pd, &pp)) != RLX_OK ||
            (st = rlx__rnn_slice(c, pp, 0, 0, hs, &dw->pi)) != RLX_OK ||
            (st = rlx__rnn_slice(c, pp, 0, hs, 2 * hs, &dw->po)) != RLX_OK ||
            (st = rlx__rnn_slice(c, pp, 0, 2 * hs, 3 * hs, &dw->pf)) !=
                RLX_OK)
            return st;
        dw->has_p = 1;
    }
    return RLX_OK;
}

/* X (as [seq*batch, I]) times W[d]^T plus the biases that need no
 * gating, as [seq, batch, G*H]. */
static rlx_status input_product(rlx__rnn *n, const shapes *s, int d,
                                rlx_value x2, rlx_value w, rlx_value *b,
                                rlx_value *out)
{
    rlx__onnx_ctx *c = n->c;
    int64_t hs = s->hidden, gh = n_gates[n->kind] * hs;
    int64_t wd[2] = { gh, s->in_size };
    rlx_value wv, xw;
    rlx_status st;
    if ((st = per_dir(c, w, d, 2, wd, &wv)) != RLX_OK ||
        (st = rlx__rnn_matmul_t(c, x2, wv, &xw)) != RLX_OK)
        return st;
    if (b) {
        int64_t bd[1] = { 2 * gh };
        rlx_value bb, wb, rb, sum;
        if ((st = per_dir(c, *b, d, 1, bd, &bb)) != RLX_OK ||
            (st = rlx__rnn_slice(c, bb, 0, 0, gh, &wb)) != RLX_OK ||
            (st = rlx__rnn_slice(c, bb, 0, gh, 2 * gh, &rb)) != RLX_OK ||
            (st = rlx__rnn_op2(c, RLX_OP_ADD, wb, rb, &sum)) != RLX_OK)
            return st;
        if (n->kind == RLX__GRU && n->lbr) {
            /* Rbh is gated by rt: only Wbh joins XW's h part */
            rlx_value zr, wh;
            if ((st = rlx__rnn_slice(c, sum, 0, 0, 2 * hs, &zr)) !=
                    RLX_OK ||
                (st = rlx__rnn_slice(c, wb, 0, 2 * hs, gh, &wh)) != RLX_OK)
                return st;
            rlx_value parts[2] = { zr, wh };
            int64_t axis = 0;
            if ((st = rlx__onnx_add(c, RLX_OP_CONCAT, 2, parts, &axis, 1,
                                    NULL, 0, &sum)) != RLX_OK)
                return st;
        }
        if ((st = rlx__rnn_op2(c, RLX_OP_ADD, xw, sum, &xw)) != RLX_OK)
            return st;
    }
    int64_t od[3] = { s->seq, s->batch, gh };
    return rlx__rnn_reshape(c, xw, 3, od, out);
}

/* An initial state input ([n_dir, batch, H] after the layout) for
 * direction D, or zeros. */
static rlx_status initial(rlx__onnx_ctx *c, rlx_dtype dt, const shapes *s,
                          rlx_value *v, int d, rlx_value *out)
{
    int64_t hd[2] = { s->batch, s->hidden };
    if (!v)
        return zeros(c, dt, s->batch, s->hidden, out);
    return per_dir(c, *v, d, 2, hd, out);
}

/* What `rlx check` says the node became: the unrolled node count and
 * the distinct ops, not every node of every step. */
static void summarize(rlx__onnx_ctx *c, int64_t seq, int n_dir)
{
    if (!c->lowered)
        return;
    char ops[256] = "";
    size_t used = 0, nodes = 0;
    for (const char *t = c->lowered; *t;) {
        size_t len = strcspn(t, ",");
        nodes++;
        int seen = 0;
        for (const char *u = ops; *u && !seen;) {
            size_t ul = strcspn(u, ",");
            seen = ul == len && !strncmp(u, t, len);
            u += ul + (u[ul] == ',' ? 2 : 0);
        }
        if (!seen && used + len + 3 < sizeof ops)
            used += (size_t)snprintf(ops + used, sizeof ops - used,
                                     "%s%.*s", used ? ", " : "", (int)len,
                                     t);
        t += len + (t[len] == ',' ? 2 : 0);
    }
    char *sum = rlx__printf_alloc("%zu nodes unrolled over %lld step(s) "
                                  "and %d direction(s): %s", nodes,
                                  (long long)seq, n_dir, ops);
    if (!sum)
        return; /* the report is best effort */
    free(c->lowered);
    c->lowered = sum;
    c->lowered_len = strlen(sum);
}

static rlx_status lower_rnn(rlx__onnx_ctx *c, rlx__onnx_val **in,
                            uint32_t n_in, rlx__onnx_val *out,
                            uint32_t n_out)
{
    int kind = c->row->arg;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 3);
    if (st != RLX_OK || (st = rlx__onnx_need_float(c, in[0])) != RLX_OK)
        return st;
    shapes s = { 0 };
    if ((st = read_shapes(c, in, n_in, kind, &s)) != RLX_OK)
        return st;
    rlx__rnn n = { .c = c, .kind = kind, .dt = in[0]->dtype,
                   .hidden = s.hidden, .batch = s.batch };
    n.clip = rlx__onnx_attr_float(c, "clip", 0.0);
    if (rlx__onnx_attr(c, "clip") && !(n.clip > 0))
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "clip is %g; it must be positive. Fix: check "
                              "the model", n.clip);
    n.input_forget = kind == RLX__LSTM &&
                     rlx__onnx_attr_int(c, "input_forget", 0) != 0;
    n.lbr = kind == RLX__GRU && c->row->since >= 3 &&
            rlx__onnx_attr_int(c, "linear_before_reset", 0) != 0;
    rlx__rnn_dir dirs[2];
    memset(dirs, 0, sizeof dirs);
    if ((st = read_acts(c, kind, s.n_dir, dirs)) != RLX_OK)
        return st;

    rlx__onnx_val *opt[5] = { NULL };
    for (uint32_t i = 3; i < n_in && i < 8; i++)
        opt[i - 3] = in[i];
    if (kind != RLX__LSTM)
        opt[3] = opt[4] = NULL; /* initial_c and P are LSTM's only */
    rlx_value x, w, r, b, h0, c0, p;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &w)) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[2], &r)) != RLX_OK ||
        (opt[0] && (st = rlx__onnx_node_value(c, opt[0], &b)) != RLX_OK) ||
        (opt[2] && (st = rlx__onnx_node_value(c, opt[2], &h0)) != RLX_OK) ||
        (opt[3] && (st = rlx__onnx_node_value(c, opt[3], &c0)) != RLX_OK) ||
        (opt[4] && (st = rlx__onnx_node_value(c, opt[4], &p)) != RLX_OK))
        return st;
    static const int64_t swap01[3] = { 1, 0, 2 };
    if (s.layout) { /* batch-major: to [seq, batch, ...] and back */
        if ((st = rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &x, swap01, 3, NULL,
                                0, &x)) != RLX_OK ||
            (opt[2] && (st = rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &h0,
                                           swap01, 3, NULL, 0, &h0)) !=
                           RLX_OK) ||
            (opt[3] && (st = rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &c0,
                                           swap01, 3, NULL, 0, &c0)) !=
                           RLX_OK))
            return st;
    }
    int64_t seq = s.seq, hs = s.hidden;
    rlx_value *mask = calloc((size_t)seq * 2 + 1, sizeof *mask);
    rlx_value *ys = mask ? mask + seq : NULL;
    if (!mask)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    int no_mask;
    int want_y = wanted(c, n_out, 0);
    int64_t x2d[2] = { seq * s.batch, s.in_size };
    rlx_value x2, zero_y, yd[2], hn[2], cn[2];
    if ((st = step_masks(c, opt[1], seq, s.batch, mask, &no_mask)) !=
            RLX_OK ||
        (st = rlx__rnn_reshape(c, x, 2, x2d, &x2)) != RLX_OK ||
        (!no_mask && want_y &&
         (st = zeros(c, n.dt, s.batch, hs, &zero_y)) != RLX_OK))
        goto done;
    for (int d = 0; d < s.n_dir; d++) {
        int rev = s.reverse || d == 1;
        rlx__rnn_dir *dw = &dirs[d];
        rlx_value xw, h, cell = 0;
        if ((st = dir_weights(&n, &s, d, r, opt[0] ? &b : NULL,
                              opt[4] ? &p : NULL, dw)) != RLX_OK ||
            (st = input_product(&n, &s, d, x2, w, opt[0] ? &b : NULL,
                                &xw)) != RLX_OK ||
            (st = initial(c, n.dt, &s, opt[2] ? &h0 : NULL, d, &h)) !=
                RLX_OK ||
            (kind == RLX__LSTM &&
             (st = initial(c, n.dt, &s, opt[3] ? &c0 : NULL, d, &cell)) !=
                 RLX_OK))
            goto done;
        int64_t gd[2] = { s.batch, n_gates[kind] * hs };
        for (int64_t k = 0; k < seq; k++) {
            int64_t t = rev ? seq - 1 - k : k;
            rlx_value xt, hnew, cnew = cell;
            if ((st = rlx__rnn_slice(c, xw, 0, t, t + 1, &xt)) != RLX_OK ||
                (st = rlx__rnn_reshape(c, xt, 2, gd, &xt)) != RLX_OK ||
                (st = rlx__rnn_step(&n, dw, xt, h, cell, &hnew, &cnew)) !=
                    RLX_OK)
                goto done;
            if (no_mask) {
                ys[t] = hnew;
            } else if ((want_y && (st = pick(c, mask[t], hnew, zero_y,
                                             &ys[t])) != RLX_OK) ||
                       (st = pick(c, mask[t], hnew, h, &hnew)) != RLX_OK ||
                       (kind == RLX__LSTM &&
                        (st = pick(c, mask[t], cnew, cell, &cnew)) !=
                            RLX_OK)) {
                goto done;
            }
            h = hnew;
            cell = cnew;
        }
        hn[d] = h;
        cn[d] = cell;
        if (want_y) { /* [seq, 1, batch, H] */
            int64_t sd[4] = { 1, 1, s.batch, hs }, axis = 0;
            for (int64_t t = 0; t < seq; t++)
                if ((st = rlx__rnn_reshape(c, ys[t], 4, sd, &ys[t])) !=
                    RLX_OK)
                    goto done;
            if ((st = rlx__onnx_add(c, RLX_OP_CONCAT, (uint32_t)seq, ys,
                                    &axis, 1, NULL, 0, &yd[d])) != RLX_OK)
                goto done;
        }
    }
    /* Y [seq, n_dir, batch, H]; Y_h and Y_c [n_dir, batch, H]; layout 1
     * puts batch first */
    if (want_y) {
        rlx_value y = yd[0];
        int64_t axis = 1;
        static const int64_t perm[4] = { 2, 0, 1, 3 };
        if ((s.n_dir == 2 &&
             (st = rlx__onnx_add(c, RLX_OP_CONCAT, 2, yd, &axis, 1, NULL, 0,
                                 &y)) != RLX_OK) ||
            (s.layout && (st = rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &y,
                                             perm, 4, NULL, 0, &y)) !=
                             RLX_OK) ||
            (st = rlx__onnx_set_out(c, y, &out[0])) != RLX_OK)
            goto done;
    }
    for (uint32_t o = 1; o < 3; o++) {
        if (!wanted(c, n_out, o) || (o == 2 && kind != RLX__LSTM))
            continue;
        rlx_value *src = o == 1 ? hn : cn, v[2], y;
        int64_t sd[3] = { 1, s.batch, hs }, axis = 0;
        for (int d = 0; d < s.n_dir; d++)
            if ((st = rlx__rnn_reshape(c, src[d], 3, sd, &v[d])) != RLX_OK)
                goto done;
        y = v[0];
        if ((s.n_dir == 2 &&
             (st = rlx__onnx_add(c, RLX_OP_CONCAT, 2, v, &axis, 1, NULL, 0,
                                 &y)) != RLX_OK) ||
            (s.layout && (st = rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &y,
                                             swap01, 3, NULL, 0, &y)) !=
                             RLX_OK) ||
            (st = rlx__onnx_set_out(c, y, &out[o])) != RLX_OK)
            goto done;
    }
done:
    free(mask);
    if (st == RLX_OK)
        summarize(c, seq, s.n_dir);
    return st;
}

/* Opset 1 had output_sequence (Y optional either way: rlx computes it
 * when the node names it); GRU's linear_before_reset came at 3; layout
 * at 14. */
const rlx__onnx_op rlx__onnx_ops_rnn[] = {
    { "RNN", 1, lower_rnn, RLX__RNN },
    { "RNN", 7, lower_rnn, RLX__RNN },
    { "RNN", 14, lower_rnn, RLX__RNN },
    { "GRU", 1, lower_rnn, RLX__GRU },
    { "GRU", 3, lower_rnn, RLX__GRU },
    { "GRU", 7, lower_rnn, RLX__GRU },
    { "GRU", 14, lower_rnn, RLX__GRU },
    { "LSTM", 1, lower_rnn, RLX__LSTM },
    { "LSTM", 7, lower_rnn, RLX__LSTM },
    { "LSTM", 14, lower_rnn, RLX__LSTM },
    { NULL, 0, NULL, 0 }
};
