/*
 * gpu_lower_vision.c - lowering of the vision ops (ABI 1.4): conv,
 * conv_transpose and the pools become one window step each (a conv with
 * the residual add and relu after it, gpu_fuse.c), planned
 * from the kit's attribute reader (rlx/kit_spatial.h) so their sizes
 * agree with the core's shape inference; batch_norm, instance_norm and
 * group_norm one norm step each; resize one step (its per-axis scales
 * and roi from the attributes).
 */
#include <rlx/kit_names.h>
#include <rlx/kit_spatial.h>

#include "gpu_compile.h"

static rlx_status bad(ctx *c, const rlx_node_view *v, const char *what)
{
    return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                        RLXG_NAME " compile: %s '%s' has %s." FIX_BUG,
                        rlx_kit_op_name(v->op), v->name, what);
}

rlx_status rlxg_plan_window(ctx *c, uint32_t i, rlxg_win_plan *p)
{
    const rlx_node_view *v = c->g->nodes[i];
    /* conv_integer's attributes are conv's */
    rlx_op op = v->op == RLX_OP_CONV_INTEGER ? RLX_OP_CONV : v->op;
    const rlxg_value *x = &c->exe->values[v->inputs[0]];
    const rlxg_value *y = &c->exe->values[i];
    rlx_kit_spatial sp;
    char err[256];
    if (x->rank != y->rank ||
        rlx_kit_spatial_parse(op, x->rank, rlx_kit_n_int_attrs(v),
                              v->int_attrs, &sp, err, sizeof err) != 0)
        return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                            RLXG_NAME " compile: %s '%s': %s",
                            rlx_kit_op_name(v->op), v->name,
                            x->rank != y->rank ? "input and result ranks "
                            "differ. Fix: report this as a bug in the rlx "
                            "core" : err);
    memset(p, 0, sizeof *p);
    p->s = (int32_t)sp.s;
    p->op = op;
    p->count_include_pad = (int32_t)sp.count_include_pad;
    p->p = (int32_t)sp.p;
    p->act = RLXG_GEMM_NONE;
    p->n = x->dims[0];
    p->c = x->dims[1];
    p->m = y->dims[1];
    p->group = sp.group;
    p->in_sp = p->out_sp = p->k_sp = 1;
    if (rlx_kit_op_is_conv(op)) {
        const rlxg_value *w = &c->exe->values[v->inputs[1]];
        if (v->n_inputs < 2 || w->rank != x->rank)
            return bad(c, v, "weights of the wrong rank");
        for (uint32_t d = 0; d < sp.s; d++)
            sp.kernel[d] = w->dims[2 + d];
        if (p->c % p->group || p->m % p->group)
            return bad(c, v, "channels not divisible by the group");
    }
    for (uint32_t d = 0; d < sp.s; d++) {
        p->in[d] = x->dims[2 + d];
        p->out[d] = y->dims[2 + d];
        p->k[d] = sp.kernel[d];
        p->stride[d] = sp.stride[d];
        p->dil[d] = sp.dilation[d];
        p->pad[d] = sp.pad_begin[d];
        p->pad_end[d] = sp.pad_end[d];
        p->in_sp *= p->in[d];
        p->out_sp *= p->out[d];
        p->k_sp *= p->k[d];
        int64_t want = rlx_kit_spatial_out(op, &sp, d, p->in[d], err,
                                           sizeof err);
        if (want != p->out[d])
            return bad(c, v, "a result size its attributes do not give");
    }
    return RLX_OK;
}

static rlx_status plan_resize(ctx *c, uint32_t i, rlxg_resize_plan *p)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *x = &c->exe->values[v->inputs[0]];
    const rlxg_value *y = &c->exe->values[i];
    uint32_t r = x->rank, ni = rlx_kit_n_int_attrs(v);
    uint32_t nf = rlx_kit_n_float_attrs(v);
    if (r == 0 || r > 8 || y->rank != r || ni != RLX_ATTR_RESIZE_SHAPE + r)
        return bad(c, v, "a rank or integer attributes resize never has");
    memset(p, 0, sizeof *p);
    p->rank = r;
    p->count = y->count;
    for (int k = 0; k < 4; k++)
        p->mode[k] = (int32_t)v->int_attrs[k];
    if (p->mode[0] < RLX_RESIZE_NEAREST || p->mode[0] > RLX_RESIZE_CUBIC ||
        p->mode[1] < RLX_RESIZE_HALF_PIXEL ||
        p->mode[1] > RLX_RESIZE_TF_CROP_AND_RESIZE)
        return bad(c, v, "an unknown mode");
    if (!rlx_kit_dtype_is_float(y->dtype) &&
        p->mode[0] != RLX_RESIZE_NEAREST)
        return bad(c, v, "integers with a mode other than nearest");
    p->cubic_a = rlx_kit_float_attr(v, RLX_ATTR_RESIZE_CUBIC_A, -0.75);
    p->extrapolation = rlx_kit_float_attr(v, RLX_ATTR_RESIZE_EXTRAPOLATION,
                                          0.0);
    int has_scales = nf >= RLX_ATTR_RESIZE_SCALES + r;
    int has_roi = nf >= RLX_ATTR_RESIZE_SCALES + 3 * r;
    for (uint32_t d = 0; d < r; d++) {
        p->in[d] = x->dims[d];
        p->out[d] = y->dims[d];
        if (y->dims[d] != v->int_attrs[RLX_ATTR_RESIZE_SHAPE + d])
            return bad(c, v, "a result size unlike its attribute");
        p->scale[d] = has_scales ? v->float_attrs[RLX_ATTR_RESIZE_SCALES + d]
                      : x->dims[d] ? (double)y->dims[d] / (double)x->dims[d]
                                   : 1;
        p->start[d] = has_roi ? v->float_attrs[RLX_ATTR_RESIZE_SCALES + r + d]
                              : 0;
        p->end[d] = has_roi ? v->float_attrs[RLX_ATTR_RESIZE_SCALES + 2 * r + d]
                            : 1;
    }
    return RLX_OK;
}

rlx_status rlxg_node_vision(ctx *c, uint32_t i)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *y = &c->exe->values[i];
    rlxg_step *s;
    rlxg_step_kind kind;
    switch (v->op) {
    case RLX_OP_CONV: kind = RLXG_STEP_CONV; break;
    case RLX_OP_CONV_TRANSPOSE: kind = RLXG_STEP_CONV_TRANSPOSE; break;
    case RLX_OP_BATCH_NORM: kind = RLXG_STEP_BATCH_NORM; break;
    case RLX_OP_RESIZE: kind = RLXG_STEP_RESIZE; break;
    case RLX_OP_INSTANCE_NORM: case RLX_OP_GROUP_NORM:
        kind = RLXG_STEP_GROUP_NORM;
        break;
    default: kind = RLXG_STEP_POOL; break;
    }
    if (!(s = rlxg_step_push(c, kind, (int)i)))
        return RLX_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < v->n_inputs && j < 4; j++)
        s->in[j] = (int)v->inputs[j];
    if (kind == RLXG_STEP_POOL)
        return rlxg_plan_window(c, i, &s->win);
    if (kind == RLXG_STEP_RESIZE) {
        s->in[1] = s->in[2] = s->in[3] = -1; /* scales/sizes: attributes */
        return plan_resize(c, i, &s->rs);
    }
    if (kind == RLXG_STEP_CONV || kind == RLXG_STEP_CONV_TRANSPOSE) {
        rlx_status st = rlxg_plan_window(c, i, &s->win);
        if (st != RLX_OK)
            return st;
        s->in[3] = -1;
        int add, res, act;
        rlxg_fuse_conv(c, i, &add, &res, &act);
        if (add >= 0) { /* the residual add: its step is this one */
            s->in[3] = res;
            s->out = add;
            c->exe->values[add].storage = -2;
        }
        if (act >= 0) {
            s->win.act = RLXG_GEMM_RELU;
            s->out = act;
            c->exe->values[act].storage = -2;
        }
        /* the vendor's DNN library where it takes the step (cuDNN) */
        return rlxg_dnn_conv_plan(c->exe, s, c->precision);
    }

    /* the per-channel norms: x [n, c, inner] */
    if (y->rank < 2)
        return bad(c, v, "rank below 2");
    s->outer = y->dims[0];
    s->len = y->dims[1];
    s->inner = 1;
    for (uint32_t d = 2; d < y->rank; d++)
        s->inner *= y->dims[d];
    s->eps = (float)rlx_kit_float_attr(v, RLX_ATTR_NORM_EPSILON, 1e-5);
    if (kind == RLXG_STEP_BATCH_NORM) {
        if (v->n_inputs != 5)
            return bad(c, v, "other than 5 inputs");
        s->in5 = (int)v->inputs[4];
        return RLX_OK;
    }
    s->n_idx = s->len; /* groups: one channel each for instance_norm */
    s->idx_is_i64 = 0; /* per-channel scale and bias */
    if (v->op == RLX_OP_GROUP_NORM) {
        int64_t groups = rlx_kit_int_attr(v, RLX_ATTR_GROUP_NORM_GROUPS, 0);
        if (groups < 1 || s->len % groups)
            return bad(c, v, "a group count that does not divide the "
                             "channels");
        s->n_idx = groups;
        s->idx_is_i64 = c->exe->values[v->inputs[1]].count != s->len;
    }
    return RLX_OK;
}
