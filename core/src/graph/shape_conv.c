/*
 * shape_conv.c - shape inference and attribute checks for the spatial
 * window ops: conv, conv_transpose, max_pool, avg_pool, lp_pool. The
 * arithmetic is the plugin kit's (rlx/kit_spatial.h), so backends
 * compute the same sizes.
 */
#include <stdint.h>
#include <string.h>

#include <rlx/kit_spatial.h>

#include "shape_internal.h"

static rlx_status parse(const rlx__shape_ctx *c, const rlx__node *x,
                        rlx_kit_spatial *sp)
{
    char err[256];
    uint32_t n = rlx__shape_n_ints(c);
    if (rlx_kit_spatial_parse(c->op, x->rank, n, n ? c->attrs->ints : NULL,
                              sp, err, sizeof err) != 0)
        return rlx__shape_error(c, x->rank < 3 || x->rank > 8
                                       ? RLX_ERR_SHAPE
                                       : RLX_ERR_INVALID_ARGUMENT,
                                "'%s': %s", x->name, err);
    return RLX_OK;
}

static rlx_status out_dims(const rlx__shape_ctx *c, const rlx__node *x,
                           const rlx_kit_spatial *sp, int64_t channels,
                           rlx__node *out)
{
    char err[256];
    out->rank = x->rank;
    out->shape[0] = x->shape[0];
    out->shape[1] = channels;
    for (uint32_t i = 0; i < sp->s; i++) {
        int64_t o = rlx_kit_spatial_out(c->op, sp, i, x->shape[2 + i], err,
                                        sizeof err);
        if (o < 0)
            return rlx__shape_error(c, RLX_ERR_SHAPE, "'%s': %s", x->name,
                                    err);
        out->shape[2 + i] = o;
    }
    return RLX_OK;
}

rlx_status rlx__shape_conv(const rlx__shape_ctx *c, rlx__node *out)
{
    char sx[RLX__SHAPE_BUF], sw[RLX__SHAPE_BUF];
    if (c->n_inputs != 2 && c->n_inputs != 3)
        return rlx__shape_error(c, RLX_ERR_INVALID_ARGUMENT,
                                "takes 2 or 3 inputs (x, w, optional "
                                "bias), got %u. Fix: pass x and w, and "
                                "the bias if there is one", c->n_inputs);
    const rlx__node *x = rlx__shape_in(c, 0), *w = rlx__shape_in(c, 1);
    rlx_kit_spatial sp;
    rlx_status st = parse(c, x, &sp);
    if (st != RLX_OK)
        return st;
    int tr = c->op == RLX_OP_CONV_TRANSPOSE;
    if (w->rank != x->rank)
        return rlx__shape_error(
            c, RLX_ERR_SHAPE,
            "weights '%s' %s have rank %u, x '%s' %s rank %u. Fix: w is "
            "%s", w->name, rlx__shape_of(sw, sizeof sw, w), w->rank,
            x->name, rlx__shape_of(sx, sizeof sx, x), x->rank,
            tr ? "[C, M/group, k1..ks]" : "[M, C/group, k1..ks]");
    int64_t g = sp.group, cin = x->shape[1];
    /* conv: w [M, C/g, k...]; conv_transpose: w [C, M/g, k...]. Sizes
     * are compared by division so nothing overflows. */
    int64_t m = tr ? (w->shape[1] <= INT64_MAX / g ? w->shape[1] * g : -1)
                   : w->shape[0];
    int ok = cin % g == 0 &&
             (tr ? w->shape[0] == cin : w->shape[1] == cin / g) &&
             m >= 0 && (tr || m % g == 0);
    if (!ok)
        return rlx__shape_error(
            c, RLX_ERR_SHAPE,
            "x '%s' %s has %lld channels, weights '%s' are %s with group "
            "%lld. Fix: %s", x->name, rlx__shape_of(sx, sizeof sx, x),
            (long long)cin, w->name, rlx__shape_of(sw, sizeof sw, w),
            (long long)g,
            tr ? "w must be [C, M/group, k...] with C divisible by group"
               : "w must be [M, C/group, k...] with C and M divisible "
                 "by group");
    for (uint32_t i = 0; i < sp.s; i++) {
        sp.kernel[i] = w->shape[2 + i];
        if (sp.kernel[i] < 1 || sp.kernel[i] > RLX_KIT_SPATIAL_LIMIT)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "weights '%s' %s have an empty "
                                    "kernel axis. Fix: every kernel size "
                                    "must be 1 or more", w->name,
                                    rlx__shape_of(sw, sizeof sw, w));
    }
    if (c->n_inputs == 3) {
        const rlx__node *b = rlx__shape_in(c, 2);
        if (b->rank != 1 || b->shape[0] != m)
            return rlx__shape_error(c, RLX_ERR_SHAPE,
                                    "bias '%s' is %s. Fix: the bias must "
                                    "be [%lld], one per output channel",
                                    b->name, rlx__shape_of(sw, sizeof sw, b),
                                    (long long)m);
    }
    return out_dims(c, x, &sp, m, out);
}

rlx_status rlx__shape_pool(const rlx__shape_ctx *c, rlx__node *out)
{
    const rlx__node *x = rlx__shape_in(c, 0);
    rlx_kit_spatial sp;
    rlx_status st = parse(c, x, &sp);
    if (st != RLX_OK)
        return st;
    return out_dims(c, x, &sp, x->shape[1], out);
}
