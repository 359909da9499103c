/*
 * pjrt_emit_matmul.c - matmul as one stablehlo.dot_general. A weight
 * without batch dims ([k, n]) contracts directly against an activation
 * of any rank (no broadcast copy); otherwise both sides broadcast to the
 * common batch shape and those dims become batching dims. Transpose
 * flags only move the contracting dim. Strict precision asks for
 * HIGHEST (no TF32); the other levels leave the default.
 */
#include <stdio.h>
#include <string.h>

#include "pjrt_emit.h"

static void dims_list(char *s, size_t size, const char *key, uint32_t n,
                      const int64_t *v, int *first)
{
    if (n == 0)
        return;
    size_t len = strlen(s);
    snprintf(s + len, size - len, "%s%s = [", *first ? "" : ", ", key);
    for (uint32_t i = 0; i < n; i++) {
        len = strlen(s);
        snprintf(s + len, size - len, "%s%lld", i ? ", " : "",
                 (long long)v[i]);
    }
    len = strlen(s);
    snprintf(s + len, size - len, "]");
    *first = 0;
}

uint32_t rlxp_emit_matmul(rlxp_emit *e, const rlx_node_view *n)
{
    uint32_t a = rlxp_in_f32(e, n, 0), b = rlxp_in_f32(e, n, 1);
    int ta = n->n_int_attrs > RLX_ATTR_MATMUL_TRANSPOSE_A &&
             n->int_attrs[RLX_ATTR_MATMUL_TRANSPOSE_A] != 0;
    int tb = n->n_int_attrs > RLX_ATTR_MATMUL_TRANSPOSE_B &&
             n->int_attrs[RLX_ATTR_MATMUL_TRANSPOSE_B] != 0;
    return rlxp_out(e, n, rlxp_dot(e, n, a, b, ta, tb));
}

uint32_t rlxp_dot(rlxp_emit *e, const rlx_node_view *n, uint32_t a,
                  uint32_t b, int ta, int tb)
{
    if (a == RLXP_NONE || b == RLXP_NONE)
        return RLXP_NONE;
    rlxp_val av = *rlxp_type_of(e, a), bv = *rlxp_type_of(e, b);
    if (av.rank == 1) { /* a vector is one row */
        int64_t d[2] = { 1, av.dims[0] };
        a = rlxp_reshape(e, a, 2, d);
        ta = 0;
    }
    if (bv.rank == 1) { /* ... and on the right one column */
        int64_t d[2] = { bv.dims[0], 1 };
        b = rlxp_reshape(e, b, 2, d);
        tb = 0;
    }
    av = *rlxp_type_of(e, a);
    bv = *rlxp_type_of(e, b);
    uint32_t ab = av.rank - 2, bb = bv.rank - 2;
    uint32_t nb = ab > bb ? ab : bb;
    int64_t lb[RLXP_MAX_RANK], rb[RLXP_MAX_RANK];
    int64_t lc, rc;
    uint32_t nbatch = 0;
    rlxp_val res;
    int64_t m = av.dims[av.rank - (ta ? 1 : 2)];
    int64_t nn = bv.dims[bv.rank - (tb ? 2 : 1)];
    if (bb == 0) {
        lc = av.rank - (ta ? 2 : 1);
        rc = tb ? 1 : 0;
        res = av;
        res.dims[av.rank - 2] = m;
        res.dims[av.rank - 1] = nn;
    } else {
        rlxp_val batch = rlxp_val_make(RLX_DTYPE_F32, nb, NULL);
        for (uint32_t i = 0; i < nb; i++) {
            int64_t da = i + ab >= nb ? av.dims[i + ab - nb] : 1;
            int64_t db = i + bb >= nb ? bv.dims[i + bb - nb] : 1;
            batch.dims[i] = da == 1 ? db : da;
            lb[i] = rb[i] = i;
        }
        rlxp_val at = batch, bt = batch;
        at.rank = bt.rank = nb + 2;
        at.dims[nb] = av.dims[ab];
        at.dims[nb + 1] = av.dims[ab + 1];
        bt.dims[nb] = bv.dims[bb];
        bt.dims[nb + 1] = bv.dims[bb + 1];
        a = rlxp_broadcast_to(e, a, &at);
        b = rlxp_broadcast_to(e, b, &bt);
        nbatch = nb;
        lc = nb + (ta ? 0 : 1);
        rc = nb + (tb ? 1 : 0);
        res = batch;
        res.rank = nb + 2;
        res.dims[nb] = m;
        res.dims[nb + 1] = nn;
    }
    res.dt = rlxp_type_of(e, a)->dt;
    char attrs[512] = "dot_dimension_numbers = #stablehlo.dot<";
    int first = 1;
    dims_list(attrs, sizeof attrs, "lhs_batching_dimensions", nbatch, lb,
              &first);
    dims_list(attrs, sizeof attrs, "rhs_batching_dimensions", nbatch, rb,
              &first);
    dims_list(attrs, sizeof attrs, "lhs_contracting_dimensions", 1, &lc,
              &first);
    dims_list(attrs, sizeof attrs, "rhs_contracting_dimensions", 1, &rc,
              &first);
    size_t len = strlen(attrs);
    const char *p = e->precision == RLX_PRECISION_STRICT ? "HIGHEST"
                                                         : "DEFAULT";
    snprintf(attrs + len, sizeof attrs - len,
             ">, precision_config = [#stablehlo<precision %s>, "
             "#stablehlo<precision %s>]", p, p);
    uint32_t ops[2] = { a, b };
    uint32_t y = rlxp_op(e, "stablehlo.dot_general", 2, ops, &res, attrs);
    return rlxp_reshape(e, y, n->rank, n->shape);
}
