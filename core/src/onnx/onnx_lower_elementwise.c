/*
 * onnx_lower_elementwise.c - ONNX elementwise operators onto rlx's
 * binary and unary ops: arithmetic on float and integer dtypes
 * (multidirectional broadcasting is rlx's own), comparisons, logical
 * and bitwise ops, BitShift, Where, Mod, the variadic Sum/Mean/Max/Min, the
 * activation primitives (and Celu, Softsign composed), Clip, and the
 * pass-through ops (Identity, inference Dropout).
 */
#include <math.h>
#include <string.h>

#include "onnx.h"

/* The dtypes rlx's arithmetic, comparisons and selects take: the
 * floats (f64 included), the integers (i8 to i64, u8 to u64) and bool;
 * each op's own dtype rules (docs/ops.md) then refuse what it cannot
 * compute. */
static rlx_status need_numeric(rlx__onnx_ctx *c, const rlx__onnx_val *v)
{
    switch (v->dtype) {
    case RLX_DTYPE_I8: case RLX_DTYPE_U8: case RLX_DTYPE_I16:
    case RLX_DTYPE_U16: case RLX_DTYPE_I32: case RLX_DTYPE_U32:
    case RLX_DTYPE_I64: case RLX_DTYPE_U64: case RLX_DTYPE_BOOL:
        return RLX_OK;
    default:
        return rlx__onnx_need_float64(c, v);
    }
}

static rlx_status lower_binary(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = need_numeric(c, in[0])) != RLX_OK)
        return st;
    rlx_value r, b;
    if ((st = rlx__onnx_node_value(c, in[1], &b)) != RLX_OK)
        return st;
    if (in[1]->dtype != in[0]->dtype) {
        if (c->row->arg != RLX_OP_POW)
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "its inputs are %s and %s. Fix: ONNX "
                                  "requires one type; re-export the model",
                                  rlx_dtype_name(in[0]->dtype),
                                  rlx_dtype_name(in[1]->dtype));
        int64_t dt = in[0]->dtype; /* Pow's exponent may differ */
        if ((st = rlx__onnx_add(c, RLX_OP_CAST, 1, &b, &dt, 1, NULL, 0,
                                &b)) != RLX_OK)
            return st;
    }
    if (c->row->since < 7 && rlx__onnx_attr_int(c, "broadcast", 0)) {
        /* before opset 7: B's shape matches A's from AXIS on (default:
         * its trailing dims), so B gets trailing ones */
        int64_t axis = rlx__onnx_attr_int(c, "axis",
                                          (int64_t)in[0]->rank -
                                              in[1]->rank);
        if (axis < 0 || axis + in[1]->rank > in[0]->rank)
            return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                  "legacy broadcast axis %lld does not fit "
                                  "ranks %u and %u. Fix: check the model",
                                  (long long)axis, in[0]->rank,
                                  in[1]->rank);
        int64_t d[RLX_MAX_RANK];
        uint32_t r = in[0]->rank - (uint32_t)axis;
        for (uint32_t i = 0; i < r; i++)
            d[i] = i < in[1]->rank ? in[1]->dims[i] : 1;
        if (r != in[1]->rank &&
            (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &b, d, r, NULL, 0,
                                &b)) != RLX_OK)
            return st;
    } else if (c->row->since < 7 &&
               (in[0]->rank != in[1]->rank ||
                memcmp(in[0]->dims, in[1]->dims,
                       in[0]->rank * sizeof *in[0]->dims))) {
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "before opset 7 the shapes must match unless "
                              "broadcast is 1. Fix: check the model");
    }
    rlx_value a;
    if ((st = rlx__onnx_node_value(c, in[0], &a)) != RLX_OK)
        return st;
    rlx_value v[2] = { a, b };
    if ((st = rlx__onnx_add(c, (rlx_op)c->row->arg, 2, v, NULL, 0, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* Sum, Mean, Max, Min: one or more inputs, folded pairwise. */
static rlx_status lower_variadic(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                 uint32_t n_in, rlx__onnx_val *out,
                                 uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = need_numeric(c, in[0])) != RLX_OK)
        return st;
    int mean = c->row->arg == -1;
    rlx_op op = mean ? RLX_OP_ADD : (rlx_op)c->row->arg;
    rlx_value acc;
    if ((st = rlx__onnx_node_value(c, in[0], &acc)) != RLX_OK)
        return st;
    for (uint32_t i = 1; i < n_in; i++) {
        if ((st = rlx__onnx_need_inputs(c, in, i + 1, i + 1)) != RLX_OK)
            return st;
        rlx_value v[2] = { acc, 0 };
        if ((st = rlx__onnx_node_value(c, in[i], &v[1])) != RLX_OK ||
            (st = rlx__onnx_add(c, op, 2, v, NULL, 0, NULL, 0, &acc)) !=
                RLX_OK)
            return st;
    }
    if (mean && n_in > 1) {
        rlx_value v[2] = { acc, 0 };
        if ((st = rlx__onnx_scalar(c, in[0]->dtype, (double)n_in,
                                   &v[1])) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_DIV, 2, v, NULL, 0, NULL, 0,
                                &acc)) != RLX_OK)
            return st;
    }
    if (n_in == 1 && !c->lowered) {
        /* one input: the value itself */
        out[0] = *in[0];
        out[0].owned = NULL;
        out[0].name = c->node->output[0];
        return RLX_OK;
    }
    return rlx__onnx_set_out(c, acc, &out[0]);
}

static rlx_status lower_unary(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, rlx__onnx_val *out,
                              uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = need_numeric(c, in[0])) != RLX_OK)
        return st;
    rlx_value x, r;
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    int64_t approx = RLX_GELU_ERF;
    uint32_t n_ints = 0;
    if (c->row->arg == RLX_OP_GELU) {
        const char *a = rlx__onnx_attr_string(c, "approximate", "none");
        if (strcmp(a, "tanh") == 0)
            approx = RLX_GELU_TANH;
        else if (strcmp(a, "none") != 0)
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "approximate is '%s'. Fix: use 'none' or "
                                  "'tanh'", a);
        n_ints = 1;
    }
    if ((st = rlx__onnx_add(c, (rlx_op)c->row->arg, 1, &x, &approx, n_ints,
                            NULL, 0, &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* One node onto one primitive taking the inputs as they are: the
 * unary ops, Where, Mod (fmod), IsInf (detect_positive/negative). */
static rlx_status lower_prim(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    (void)n_out;
    rlx_op op = (rlx_op)c->row->arg;
    uint32_t arity = op == RLX_OP_WHERE ? 3 : op == RLX_OP_MOD ? 2 : 1;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, arity);
    if (st != RLX_OK)
        return st;
    rlx_value v[3], r;
    for (uint32_t i = 0; i < arity; i++) {
        if ((st = need_numeric(c, in[i])) != RLX_OK ||
            (st = rlx__onnx_node_value(c, in[i], &v[i])) != RLX_OK)
            return st;
    }
    int64_t ints[2];
    uint32_t n_ints = 0;
    if (op == RLX_OP_MOD) {
        ints[0] = rlx__onnx_attr_int(c, "fmod", 0), n_ints = 1;
        if (in[0]->dtype != in[1]->dtype)
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "its inputs are %s and %s. Fix: ONNX "
                                  "requires one type; re-export the model",
                                  rlx_dtype_name(in[0]->dtype),
                                  rlx_dtype_name(in[1]->dtype));
        if (!ints[0] && (rlx__onnx_is_float(in[0]->dtype) ||
                         in[0]->dtype == RLX_DTYPE_F64))
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "fmod is 0 on %s input; ONNX requires "
                                  "fmod 1 for floats. Fix: set fmod=1",
                                  rlx_dtype_name(in[0]->dtype));
    } else if (op == RLX_OP_ISINF) {
        ints[0] = rlx__onnx_attr_int(c, "detect_positive", 1);
        ints[1] = rlx__onnx_attr_int(c, "detect_negative", 1);
        n_ints = 2;
    }
    if ((st = rlx__onnx_add(c, op, arity, v, ints, n_ints, NULL, 0, &r)) !=
        RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* x * s + b as graph values (s, b scalars). */
static rlx_status affine(rlx__onnx_ctx *c, rlx_value x, rlx_dtype dt,
                         double s, double b, rlx_value *out)
{
    rlx_value k, v[2];
    rlx_status st = rlx__onnx_scalar(c, dt, s, &k);
    v[0] = x, v[1] = k;
    if (st != RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_MUL, 2, v, NULL, 0, NULL, 0, out)) !=
            RLX_OK)
        return st;
    if (b == 0)
        return RLX_OK;
    if ((st = rlx__onnx_scalar(c, dt, b, &k)) != RLX_OK)
        return st;
    v[0] = *out, v[1] = k;
    return rlx__onnx_add(c, RLX_OP_ADD, 2, v, NULL, 0, NULL, 0, out);
}

enum { ACT_HARD_SIGMOID, ACT_HARD_SWISH, ACT_LEAKY_RELU, ACT_SOFTPLUS,
       ACT_RECIPROCAL, ACT_ELU, ACT_SELU, ACT_CELU, ACT_MISH, ACT_SOFTSIGN,
       ACT_THRESHOLDED_RELU };

/* relu(x) + min(0, alpha * (exp(x / scale) - 1)): ELU (scale 1) and CELU
 * (scale alpha); for alpha >= 0 each term is zero on the other side. */
static rlx_status elu(rlx__onnx_ctx *c, rlx_value x, rlx_dtype dt,
                      double alpha, double scale, rlx_value *out)
{
    rlx_value r, e, k, v[2];
    rlx_status st;
    if (alpha < 0)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "alpha %g < 0 is not lowered yet. Fix: use "
                              "alpha >= 0", alpha);
    e = x;
    if (scale != 1 && (st = affine(c, x, dt, 1 / scale, 0, &e)) != RLX_OK)
        return st;
    if ((st = rlx__onnx_add(c, RLX_OP_EXP, 1, &e, NULL, 0, NULL, 0, &e)) !=
            RLX_OK ||
        (st = affine(c, e, dt, alpha, -alpha, &e)) != RLX_OK ||
        (st = rlx__onnx_scalar(c, dt, 0, &k)) != RLX_OK)
        return st;
    v[0] = e, v[1] = k;
    if ((st = rlx__onnx_add(c, RLX_OP_MIN, 2, v, NULL, 0, NULL, 0, &e)) !=
            RLX_OK ||
        (st = rlx__onnx_add(c, RLX_OP_RELU, 1, &x, NULL, 0, NULL, 0, &r)) !=
            RLX_OK)
        return st;
    v[0] = r, v[1] = e;
    return rlx__onnx_add(c, RLX_OP_ADD, 2, v, NULL, 0, NULL, 0, out);
}

static rlx_status lower_activation(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                   uint32_t n_in, rlx__onnx_val *out,
                                   uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = rlx__onnx_need_float64(c, in[0])) != RLX_OK)
        return st;
    rlx_dtype dt = in[0]->dtype;
    rlx_value x, r, k, v[2];
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK)
        return st;
    /* the primitives take their attributes as float_attrs */
    double f[2];
    uint32_t n_f = 0;
    rlx_op prim = RLX_OP_INVALID;
    switch (c->row->arg) {
    case ACT_HARD_SIGMOID:
        prim = RLX_OP_HARD_SIGMOID, n_f = 2;
        f[0] = rlx__onnx_attr_float(c, "alpha", 0.2);
        f[1] = rlx__onnx_attr_float(c, "beta", 0.5);
        break;
    case ACT_HARD_SWISH: prim = RLX_OP_HARD_SWISH; break;
    case ACT_LEAKY_RELU:
        prim = RLX_OP_LEAKY_RELU, n_f = 1;
        f[0] = rlx__onnx_attr_float(c, "alpha", 0.01);
        break;
    case ACT_SOFTPLUS: prim = RLX_OP_SOFTPLUS; break;
    case ACT_ELU:
        prim = RLX_OP_ELU, n_f = 1;
        f[0] = rlx__onnx_attr_float(c, "alpha", 1.0);
        break;
    case ACT_SELU:
        prim = RLX_OP_SELU, n_f = 2;
        f[0] = rlx__onnx_attr_float(c, "alpha", 1.67326319217681884765625);
        f[1] = rlx__onnx_attr_float(c, "gamma", 1.05070102214813232421875);
        break;
    case ACT_MISH: prim = RLX_OP_MISH; break;
    case ACT_RECIPROCAL: prim = RLX_OP_RECIPROCAL; break;
    default: break;
    }
    if (prim != RLX_OP_INVALID) {
        if ((st = rlx__onnx_add(c, prim, 1, &x, NULL, 0, f, n_f, &r)) !=
            RLX_OK)
            return st;
        return rlx__onnx_set_out(c, r, &out[0]);
    }
    switch (c->row->arg) {
    case ACT_CELU: {
        double alpha = rlx__onnx_attr_float(c, "alpha", 1.0);
        if (alpha == 0)
            return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                                  "alpha is 0. Fix: CELU needs alpha != 0");
        st = elu(c, x, dt, alpha, alpha, &r);
        break;
    }
    case ACT_THRESHOLDED_RELU: { /* x > alpha ? x : 0 */
        rlx_value w[3];
        if ((st = rlx__onnx_scalar(c, dt,
                                   rlx__onnx_attr_float(c, "alpha", 1.0),
                                   &k)) != RLX_OK)
            break;
        v[0] = x, v[1] = k;
        if ((st = rlx__onnx_add(c, RLX_OP_GREATER, 2, v, NULL, 0, NULL, 0,
                                &w[0])) != RLX_OK ||
            (st = rlx__onnx_scalar(c, dt, 0, &w[2])) != RLX_OK)
            break;
        w[1] = x;
        st = rlx__onnx_add(c, RLX_OP_WHERE, 3, w, NULL, 0, NULL, 0, &r);
        break;
    }
    default: /* softsign: x / (1 + |x|) */
        if ((st = rlx__onnx_add(c, RLX_OP_ABS, 1, &x, NULL, 0, NULL, 0,
                                &k)) != RLX_OK ||
            (st = affine(c, k, dt, 1, 1, &k)) != RLX_OK)
            break;
        v[0] = x, v[1] = k;
        st = rlx__onnx_add(c, RLX_OP_DIV, 2, v, NULL, 0, NULL, 0, &r);
        break;
    }
    if (st != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* PRelu: the prelu primitive; before opset 7 a [C] slope is per
 * channel, so it is reshaped to broadcast along axis 1. */
static rlx_status lower_prelu(rlx__onnx_ctx *c, rlx__onnx_val **in,
                              uint32_t n_in, rlx__onnx_val *out,
                              uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK || (st = rlx__onnx_need_float64(c, in[0])) != RLX_OK)
        return st;
    rlx_value x, s, r, v[2];
    if ((st = rlx__onnx_node_value(c, in[0], &x)) != RLX_OK ||
        (st = rlx__onnx_node_value(c, in[1], &s)) != RLX_OK)
        return st;
    /* before opset 7 a [C] slope is per channel (axis 1) */
    if (c->row->since < 7 && in[1]->rank == 1 && in[0]->rank > 2 &&
        in[1]->dims[0] == in[0]->dims[1] && in[1]->dims[0] != 1) {
        int64_t d[RLX_MAX_RANK];
        for (uint32_t i = 0; i + 1 < in[0]->rank; i++)
            d[i] = i == 0 ? in[1]->dims[0] : 1;
        if ((st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &s, d,
                                in[0]->rank - 1, NULL, 0, &s)) != RLX_OK)
            return st;
    }
    v[0] = x, v[1] = s;
    if ((st = rlx__onnx_add(c, RLX_OP_PRELU, 2, v, NULL, 0, NULL, 0, &r)) !=
        RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* A known scalar bound of Clip as a double: 1, or 0 when not known. */
static int known_bound(const rlx__onnx_val *v, double *out)
{
    if (!v->known || !v->data || rlx__onnx_elements(v->rank, v->dims) != 1)
        return 0;
    int64_t i;
    switch (v->dtype) {
    case RLX_DTYPE_F32: {
        float f;
        memcpy(&f, v->data, sizeof f);
        *out = f;
        return 1;
    }
    case RLX_DTYPE_I8: case RLX_DTYPE_U8: case RLX_DTYPE_I32:
    case RLX_DTYPE_I64:
        if (rlx__onnx_known_ints(v, &i, 1) != 1)
            return 0;
        *out = (double)i;
        return 1;
    default:
        return 0;
    }
}

/* Clip: bounds as attributes before opset 11, optional inputs after.
 * Known bounds become the clip primitive; bounds fed at run time a
 * max then a min. */
static rlx_status lower_clip(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK || (st = need_numeric(c, in[0])) != RLX_OK)
        return st;
    rlx_value r, b, v[2];
    if ((st = rlx__onnx_node_value(c, in[0], &r)) != RLX_OK)
        return st;
    double f[2] = { -INFINITY, INFINITY };
    int all_known = 1;
    for (int i = 0; i < 2; i++) {
        if (c->row->since < 11)
            f[i] = rlx__onnx_attr_float(c, i == 0 ? "min" : "max", f[i]);
        else if ((uint32_t)(i + 1) < n_in && in[i + 1] &&
                 !known_bound(in[i + 1], &f[i]))
            all_known = 0;
    }
    if (all_known) {
        if ((st = rlx__onnx_add(c, RLX_OP_CLIP, 1, &r, NULL, 0, f, 2, &r)) !=
            RLX_OK)
            return st;
        return rlx__onnx_set_out(c, r, &out[0]);
    }
    for (int i = 0; i < 2; i++) { /* min then max */
        rlx_op op = i == 0 ? RLX_OP_MAX : RLX_OP_MIN;
        if ((uint32_t)(i + 1) >= n_in || !in[i + 1])
            continue;
        if ((st = rlx__onnx_node_value(c, in[i + 1], &b)) != RLX_OK)
            return st;
        v[0] = r, v[1] = b;
        if ((st = rlx__onnx_add(c, op, 2, v, NULL, 0, NULL, 0, &r)) != RLX_OK)
            return st;
    }
    return rlx__onnx_set_out(c, r, &out[0]);
}

/* Identity, Dropout (inference: the input; mask all true). */
static rlx_status lower_identity(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                 uint32_t n_in, rlx__onnx_val *out,
                                 uint32_t n_out)
{
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 1);
    if (st != RLX_OK)
        return st;
    if (c->row->arg && n_in > 2 && in[2] &&
        (!in[2]->known || *(const char *)in[2]->data))
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "training_mode is true or set at run time; "
                              "rlx runs inference only. Fix: export the "
                              "model in eval mode");
    const char *nm = out[0].name;
    out[0] = *in[0];
    out[0].name = nm;
    out[0].owned = NULL;
    if (c->row->arg && n_out > 1 && c->node->output[1] &&
        *c->node->output[1]) {
        int64_t ints[1 + RLX_MAX_RANK] = { RLX_DTYPE_BOOL };
        for (uint32_t i = 0; i < in[0]->rank; i++)
            ints[1 + i] = in[0]->dims[i];
        double one = 1;
        rlx_value m;
        if ((st = rlx__onnx_add(c, RLX_OP_FILL, 0, NULL, ints,
                                1 + in[0]->rank, &one, 1, &m)) != RLX_OK)
            return st;
        return rlx__onnx_set_out(c, m, &out[1]);
    }
    return RLX_OK;
}

/* BitShift: direction "LEFT" or "RIGHT" onto bit_shift (unsigned
 * integers; the op's dtype rule refuses the rest). */
static rlx_status lower_bit_shift(rlx__onnx_ctx *c, rlx__onnx_val **in,
                                  uint32_t n_in, rlx__onnx_val *out,
                                  uint32_t n_out)
{
    (void)n_out;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, 2);
    if (st != RLX_OK)
        return st;
    const char *d = rlx__onnx_attr_string(c, "direction", "");
    int64_t dir;
    if (strcmp(d, "LEFT") == 0)
        dir = RLX_BIT_SHIFT_LEFT;
    else if (strcmp(d, "RIGHT") == 0)
        dir = RLX_BIT_SHIFT_RIGHT;
    else
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "direction is '%s'. Fix: set it to LEFT or "
                              "RIGHT (it is required)", d);
    rlx_value v[2], r;
    for (uint32_t i = 0; i < 2; i++)
        if ((st = rlx__onnx_node_value(c, in[i], &v[i])) != RLX_OK)
            return st;
    if ((st = rlx__onnx_add(c, RLX_OP_BIT_SHIFT, 2, v, &dir, 1, NULL, 0,
                            &r)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, r, &out[0]);
}

#define BIN(name, op) { name, 1, lower_binary, RLX_OP_##op }, \
                      { name, 7, lower_binary, RLX_OP_##op }, \
                      { name, 13, lower_binary, RLX_OP_##op }, \
                      { name, 14, lower_binary, RLX_OP_##op }
#define UN(name, op) { name, 6, lower_unary, RLX_OP_##op }, \
                     { name, 13, lower_unary, RLX_OP_##op }

const rlx__onnx_op rlx__onnx_ops_elementwise[] = {
    BIN("Add", ADD), BIN("Sub", SUB), BIN("Mul", MUL), BIN("Div", DIV),
    { "Pow", 1, lower_binary, RLX_OP_POW },
    { "Pow", 7, lower_binary, RLX_OP_POW },
    { "Pow", 12, lower_binary, RLX_OP_POW },
    { "Pow", 13, lower_binary, RLX_OP_POW },
    { "Pow", 15, lower_binary, RLX_OP_POW },
    { "Max", 6, lower_variadic, RLX_OP_MAX }, /* same shapes */
    { "Max", 8, lower_variadic, RLX_OP_MAX },
    { "Max", 12, lower_variadic, RLX_OP_MAX },
    { "Max", 13, lower_variadic, RLX_OP_MAX },
    { "Min", 6, lower_variadic, RLX_OP_MIN }, /* same shapes */
    { "Min", 8, lower_variadic, RLX_OP_MIN },
    { "Min", 12, lower_variadic, RLX_OP_MIN },
    { "Min", 13, lower_variadic, RLX_OP_MIN },
    { "Sum", 6, lower_variadic, RLX_OP_ADD }, /* same shapes */
    { "Sum", 8, lower_variadic, RLX_OP_ADD },
    { "Sum", 13, lower_variadic, RLX_OP_ADD },
    { "Mean", 6, lower_variadic, -1 }, /* same shapes */
    { "Mean", 8, lower_variadic, -1 },
    { "Mean", 13, lower_variadic, -1 },
    UN("Relu", RELU), { "Relu", 14, lower_unary, RLX_OP_RELU },
    UN("Sigmoid", SIGMOID), UN("Tanh", TANH), UN("Exp", EXP),
    UN("Log", LOG), UN("Sqrt", SQRT), UN("Neg", NEG), UN("Abs", ABS),
    { "Sin", 7, lower_unary, RLX_OP_SIN },
    { "Cos", 7, lower_unary, RLX_OP_COS },
    { "Tan", 7, lower_unary, RLX_OP_TAN },
    { "Atan", 7, lower_unary, RLX_OP_ATAN },
    { "Asin", 7, lower_unary, RLX_OP_ASIN },
    { "Acos", 7, lower_unary, RLX_OP_ACOS },
    { "Sinh", 9, lower_unary, RLX_OP_SINH },
    { "Cosh", 9, lower_unary, RLX_OP_COSH },
    { "Asinh", 9, lower_unary, RLX_OP_ASINH },
    { "Acosh", 9, lower_unary, RLX_OP_ACOSH },
    { "Atanh", 9, lower_unary, RLX_OP_ATANH },
    { "BitShift", 11, lower_bit_shift, 0 },
    { "Gelu", 20, lower_unary, RLX_OP_GELU },
    { "Reciprocal", 6, lower_activation, ACT_RECIPROCAL },
    { "Reciprocal", 13, lower_activation, ACT_RECIPROCAL },
    { "HardSigmoid", 6, lower_activation, ACT_HARD_SIGMOID },
    { "HardSwish", 14, lower_activation, ACT_HARD_SWISH },
    { "LeakyRelu", 6, lower_activation, ACT_LEAKY_RELU },
    { "LeakyRelu", 16, lower_activation, ACT_LEAKY_RELU },
    { "Softplus", 1, lower_activation, ACT_SOFTPLUS },
    { "Elu", 6, lower_activation, ACT_ELU },
    { "Selu", 6, lower_activation, ACT_SELU },
    { "Celu", 12, lower_activation, ACT_CELU },
    { "Mish", 18, lower_activation, ACT_MISH },
    { "Softsign", 1, lower_activation, ACT_SOFTSIGN },
    { "ThresholdedRelu", 10, lower_activation, ACT_THRESHOLDED_RELU },
    { "PRelu", 6, lower_prelu, 0 },
    { "PRelu", 7, lower_prelu, 0 },
    { "PRelu", 9, lower_prelu, 0 },
    { "PRelu", 16, lower_prelu, 0 },
    { "Clip", 6, lower_clip, 0 },
    { "Clip", 11, lower_clip, 0 },
    { "Clip", 12, lower_clip, 0 },
    { "Clip", 13, lower_clip, 0 },
    /* comparisons, logical, bitwise: lower_binary for the legacy
     * broadcast of opset 1 */
    { "Equal", 1, lower_binary, RLX_OP_EQUAL },
    { "Equal", 7, lower_binary, RLX_OP_EQUAL },
    { "Equal", 11, lower_binary, RLX_OP_EQUAL },
    { "Equal", 13, lower_binary, RLX_OP_EQUAL },
    { "Equal", 19, lower_binary, RLX_OP_EQUAL },
    { "Less", 1, lower_binary, RLX_OP_LESS },
    { "Less", 7, lower_binary, RLX_OP_LESS },
    { "Less", 9, lower_binary, RLX_OP_LESS },
    { "Less", 13, lower_binary, RLX_OP_LESS },
    { "Greater", 1, lower_binary, RLX_OP_GREATER },
    { "Greater", 7, lower_binary, RLX_OP_GREATER },
    { "Greater", 9, lower_binary, RLX_OP_GREATER },
    { "Greater", 13, lower_binary, RLX_OP_GREATER },
    { "LessOrEqual", 12, lower_binary, RLX_OP_LESS_EQUAL },
    { "LessOrEqual", 16, lower_binary, RLX_OP_LESS_EQUAL },
    { "GreaterOrEqual", 12, lower_binary, RLX_OP_GREATER_EQUAL },
    { "GreaterOrEqual", 16, lower_binary, RLX_OP_GREATER_EQUAL },
    { "And", 1, lower_binary, RLX_OP_LOGICAL_AND },
    { "And", 7, lower_binary, RLX_OP_LOGICAL_AND },
    { "Or", 1, lower_binary, RLX_OP_LOGICAL_OR },
    { "Or", 7, lower_binary, RLX_OP_LOGICAL_OR },
    { "Xor", 1, lower_binary, RLX_OP_LOGICAL_XOR },
    { "Xor", 7, lower_binary, RLX_OP_LOGICAL_XOR },
    { "Not", 1, lower_prim, RLX_OP_LOGICAL_NOT },
    { "BitwiseAnd", 18, lower_binary, RLX_OP_BITWISE_AND },
    { "BitwiseOr", 18, lower_binary, RLX_OP_BITWISE_OR },
    { "BitwiseXor", 18, lower_binary, RLX_OP_BITWISE_XOR },
    { "BitwiseNot", 18, lower_prim, RLX_OP_BITWISE_NOT },
    { "Where", 9, lower_prim, RLX_OP_WHERE },
    { "Where", 16, lower_prim, RLX_OP_WHERE },
    { "Mod", 10, lower_prim, RLX_OP_MOD },
    { "Mod", 13, lower_prim, RLX_OP_MOD },
    { "Floor", 6, lower_prim, RLX_OP_FLOOR },
    { "Floor", 13, lower_prim, RLX_OP_FLOOR },
    { "Ceil", 6, lower_prim, RLX_OP_CEIL },
    { "Ceil", 13, lower_prim, RLX_OP_CEIL },
    { "Round", 11, lower_prim, RLX_OP_ROUND },
    { "Sign", 9, lower_prim, RLX_OP_SIGN },
    { "Sign", 13, lower_prim, RLX_OP_SIGN },
    { "Erf", 9, lower_prim, RLX_OP_ERF },
    { "Erf", 13, lower_prim, RLX_OP_ERF },
    { "IsNaN", 9, lower_prim, RLX_OP_ISNAN },
    { "IsNaN", 13, lower_prim, RLX_OP_ISNAN },
    { "IsNaN", 20, lower_prim, RLX_OP_ISNAN },
    { "IsInf", 10, lower_prim, RLX_OP_ISINF },
    { "IsInf", 20, lower_prim, RLX_OP_ISINF },
    { "Identity", 1, lower_identity, 0 },
    { "Identity", 13, lower_identity, 0 },
    { "Identity", 14, lower_identity, 0 },
    { "Identity", 16, lower_identity, 0 },
    { "Identity", 19, lower_identity, 0 },
    { "Identity", 21, lower_identity, 0 },
    { "Dropout", 7, lower_identity, 1 },
    { "Dropout", 10, lower_identity, 1 },
    { "Dropout", 12, lower_identity, 1 },
    { "Dropout", 13, lower_identity, 1 },
    { NULL, 0, NULL, 0 }
};
