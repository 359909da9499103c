/*
 * onnx_lower_einsum.c - ONNX Einsum composed from primitives. The
 * equation is parsed into one label per axis (an ellipsis becomes
 * labels of its own, aligned from the right); a label repeated within an
 * operand takes its diagonal (where with an identity mask, then
 * reduce_sum); labels no later operand or the output needs are summed
 * away; operands are then contracted pairwise, left to right, as a
 * batched matmul (transpose to [batch, free, summed], reshape to 3-D)
 * or, for dtypes matmul does not take, a broadcast mul and reduce_sum;
 * a final transpose gives the output's order.
 */
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

#define MAX_OPS 8
#define N_LABELS (52 + RLX_MAX_RANK) /* letters, then ellipsis axes */

typedef struct term {
    rlx_value v;
    uint32_t n;
    int lab[RLX_MAX_RANK];
} term;

typedef struct eq {
    uint32_t n_ops;
    int n_in[MAX_OPS];            /* labels written, -1 for "..." */
    int in[MAX_OPS][RLX_MAX_RANK + 1];
    int has_out;
    int n_out;
    int out[RLX_MAX_RANK + 1];
} eq;

static int letter(char ch)
{
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a';
    if (ch >= 'A' && ch <= 'Z')
        return 26 + ch - 'A';
    return -1;
}

/* Parse one term S[0..LEN) into LABS (-1 for the ellipsis). */
static int parse_term(const char *s, size_t len, int *labs, int *n)
{
    int ell = 0;
    *n = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == ' ')
            continue;
        if (s[i] == '.') {
            if (ell || i + 2 >= len || s[i + 1] != '.' ||
                s[i + 2] != '.')
                return -1;
            ell = 1;
            i += 2;
            if (*n > RLX_MAX_RANK)
                return -1;
            labs[(*n)++] = -1;
            continue;
        }
        int l = letter(s[i]);
        if (l < 0 || *n > RLX_MAX_RANK)
            return -1;
        labs[(*n)++] = l;
    }
    return 0;
}

static int parse(const char *s, size_t len, eq *e)
{
    memset(e, 0, sizeof *e);
    size_t arrow = len;
    for (size_t i = 0; i + 1 < len; i++)
        if (s[i] == '-' && s[i + 1] == '>') {
            arrow = i;
            break;
        }
    size_t start = 0;
    for (size_t i = 0; i <= arrow; i++)
        if (i == arrow || s[i] == ',') {
            if (e->n_ops == MAX_OPS ||
                parse_term(s + start, i - start, e->in[e->n_ops],
                           &e->n_in[e->n_ops]) != 0)
                return -1;
            e->n_ops++;
            start = i + 1;
        }
    if (arrow < len) {
        e->has_out = 1;
        if (parse_term(s + arrow + 2, len - arrow - 2, e->out, &e->n_out) !=
            0)
            return -1;
    }
    return 0;
}

static int has(const int *labs, uint32_t n, int l)
{
    for (uint32_t i = 0; i < n; i++)
        if (labs[i] == l)
            return 1;
    return 0;
}

static rlx_status reduce_sum(rlx__onnx_ctx *c, term *t, const int *drop,
                             uint32_t n_drop)
{
    if (!n_drop)
        return RLX_OK;
    int64_t ints[1 + RLX_MAX_RANK] = { 0 };
    uint32_t k = 0, keep = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (has(drop, n_drop, t->lab[i]))
            ints[1 + k++] = i;
        else
            t->lab[keep++] = t->lab[i];
    }
    t->n = keep;
    return rlx__onnx_add(c, RLX_OP_REDUCE_SUM, 1, &t->v, ints, 1 + k, NULL, 0,
                         &t->v);
}

/* Transpose T's axes to the label order ORDER (a permutation of its). */
static rlx_status order(rlx__onnx_ctx *c, term *t, const int *ord)
{
    int64_t perm[RLX_MAX_RANK];
    int moved = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        for (uint32_t j = 0; j < t->n; j++)
            if (t->lab[j] == ord[i])
                perm[i] = j;
        moved |= perm[i] != (int64_t)i;
    }
    memcpy(t->lab, ord, t->n * sizeof *ord);
    if (!moved)
        return RLX_OK;
    return rlx__onnx_add(c, RLX_OP_TRANSPOSE, 1, &t->v, perm, t->n, NULL, 0,
                         &t->v);
}

/* Take the diagonal of each label T has twice. */
static rlx_status diagonals(rlx__onnx_ctx *c, term *t, const int64_t *size,
                            rlx_dtype dt)
{
    rlx_status st;
    for (uint32_t p = 0; p < t->n; p++)
        for (uint32_t q = p + 1; q < t->n; q++) {
            if (t->lab[p] != t->lab[q])
                continue;
            int64_t d = size[t->lab[p]], md[RLX_MAX_RANK];
            for (uint32_t i = 0; i < t->n; i++)
                md[i] = i == p || i == q ? d : 1;
            uint8_t *eye = calloc((size_t)(d > 0 ? d * d : 1), 1);
            if (!eye)
                return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            for (int64_t i = 0; i < d; i++)
                eye[i * d + i] = 1;
            rlx_value m, z, w[3];
            st = rlx__onnx_constant(c, RLX_DTYPE_BOOL, t->n, md, eye, &m);
            free(eye);
            if (st != RLX_OK ||
                (st = rlx__onnx_scalar(c, dt, 0, &z)) != RLX_OK)
                return st;
            w[0] = m;
            w[1] = t->v;
            w[2] = z;
            if ((st = rlx__onnx_add(c, RLX_OP_WHERE, 3, w, NULL, 0, NULL, 0,
                                    &t->v)) != RLX_OK)
                return st;
            int64_t ints[2] = { 0, q };
            if ((st = rlx__onnx_add(c, RLX_OP_REDUCE_SUM, 1, &t->v, ints, 2,
                                    NULL, 0, &t->v)) != RLX_OK)
                return st;
            for (uint32_t i = q; i + 1 < t->n; i++)
                t->lab[i] = t->lab[i + 1];
            t->n--;
            q = p; /* look again from the next axis */
        }
    return RLX_OK;
}

/* A (labels) x B (labels) -> labels batch + left + right, contracting
 * the shared labels KEEP does not hold. */
static rlx_status contract(rlx__onnx_ctx *c, term *a, term *b,
                           const int *keep, uint32_t n_keep,
                           const int64_t *size, rlx_dtype dt)
{
    int bat[RLX_MAX_RANK], lft[RLX_MAX_RANK], rgt[RLX_MAX_RANK],
        sum[RLX_MAX_RANK];
    uint32_t nb = 0, nl = 0, nr = 0, ns = 0;
    int64_t bs = 1, ls = 1, rs = 1, ks = 1;
    for (uint32_t i = 0; i < a->n; i++) {
        int l = a->lab[i];
        if (!has(b->lab, b->n, l)) {
            lft[nl++] = l;
            ls *= size[l];
        } else if (has(keep, n_keep, l)) {
            bat[nb++] = l;
            bs *= size[l];
        } else {
            sum[ns++] = l;
            ks *= size[l];
        }
    }
    for (uint32_t i = 0; i < b->n; i++)
        if (!has(a->lab, a->n, b->lab[i])) {
            rgt[nr++] = b->lab[i];
            rs *= size[b->lab[i]];
        }
    if (nb + nl + nr > RLX_MAX_RANK)
        return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                              "an intermediate product has rank %u, past "
                              "rlx's %d. Fix: split the Einsum",
                              nb + nl + nr, RLX_MAX_RANK);
    int oa[RLX_MAX_RANK], ob[RLX_MAX_RANK];
    uint32_t k = 0;
    memcpy(oa, bat, nb * sizeof *oa);
    memcpy(oa + nb, lft, nl * sizeof *oa);
    memcpy(oa + nb + nl, sum, ns * sizeof *oa);
    memcpy(ob, bat, nb * sizeof *ob);
    k = nb;
    int use_matmul = rlx__onnx_is_float(dt);
    if (use_matmul) {
        memcpy(ob + k, sum, ns * sizeof *ob);
        memcpy(ob + k + ns, rgt, nr * sizeof *ob);
    } else {
        memcpy(ob + k, rgt, nr * sizeof *ob);
        memcpy(ob + k + nr, sum, ns * sizeof *ob);
    }
    rlx_status st;
    if ((st = order(c, a, oa)) != RLX_OK || (st = order(c, b, ob)) != RLX_OK)
        return st;
    rlx_value r;
    if (use_matmul) {
        int64_t da[3] = { bs, ls, ks }, db[3] = { bs, ks, rs };
        rlx_value v[2];
        if ((st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &a->v, da, 3, NULL, 0,
                                &v[0])) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &b->v, db, 3, NULL, 0,
                                &v[1])) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_MATMUL, 2, v, NULL, 0, NULL, 0,
                                &r)) != RLX_OK)
            return st;
    } else {
        /* [B, L, 1, K] * [B, 1, R, K], summed over K */
        if (bs * ls * rs * ks > RLX__ONNX_MAX_ELEMENTS)
            return rlx__onnx_fail(c, RLX_ERR_UNSUPPORTED,
                                  "the %s product is too large to form "
                                  "without matmul. Fix: cast the inputs "
                                  "to float", rlx_dtype_name(dt));
        int64_t da[4] = { bs, ls, 1, ks }, db[4] = { bs, 1, rs, ks };
        int64_t red[2] = { 0, 3 };
        rlx_value v[2];
        if ((st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &a->v, da, 4, NULL, 0,
                                &v[0])) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &b->v, db, 4, NULL, 0,
                                &v[1])) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_MUL, 2, v, NULL, 0, NULL, 0,
                                &r)) != RLX_OK ||
            (st = rlx__onnx_add(c, RLX_OP_REDUCE_SUM, 1, &r, red, 2, NULL, 0,
                                &r)) != RLX_OK)
            return st;
    }
    int64_t d[RLX_MAX_RANK];
    a->n = 0;
    for (uint32_t i = 0; i < nb; i++)
        a->lab[a->n++] = bat[i];
    for (uint32_t i = 0; i < nl; i++)
        a->lab[a->n++] = lft[i];
    for (uint32_t i = 0; i < nr; i++)
        a->lab[a->n++] = rgt[i];
    for (uint32_t i = 0; i < a->n; i++)
        d[i] = size[a->lab[i]];
    return rlx__onnx_add(c, RLX_OP_RESHAPE, 1, &r, d, a->n, NULL, 0, &a->v);
}

static rlx_status bad_equation(rlx__onnx_ctx *c, const char *why)
{
    return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                          "its equation %s. Fix: write the equation as "
                          "'ab,bc->ac' with letters, one '...' per term "
                          "at most and one term per input", why);
}

static rlx_status lower_einsum(rlx__onnx_ctx *c, rlx__onnx_val **in,
                               uint32_t n_in, rlx__onnx_val *out,
                               uint32_t n_out)
{
    (void)n_out;
    const Onnx__AttributeProto *a = rlx__onnx_attr(c, "equation");
    eq e;
    if (!a || !a->has_s)
        return bad_equation(c, "is missing");
    if (parse((const char *)a->s.data, a->s.len, &e) != 0)
        return bad_equation(c, "cannot be parsed");
    if (e.n_ops != n_in || n_in == 0)
        return bad_equation(c, "has a different number of terms than the "
                               "node has inputs");
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in, n_in);
    if (st != RLX_OK)
        return st;
    rlx_dtype dt = in[0]->dtype;
    /* the ellipsis: as many axes as the widest one, aligned right */
    uint32_t ell = 0;
    for (uint32_t i = 0; i < n_in; i++) {
        int named = 0, dots = 0;
        for (int j = 0; j < e.n_in[i]; j++)
            dots |= e.in[i][j] < 0, named += e.in[i][j] >= 0;
        if (in[i]->dtype != dt)
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "input %u is %s, input 0 %s. Fix: give "
                                  "every input one type", i,
                                  rlx_dtype_name(in[i]->dtype),
                                  rlx_dtype_name(dt));
        if ((uint32_t)named > in[i]->rank ||
            (!dots && (uint32_t)named != in[i]->rank))
            return bad_equation(c, "names more or fewer axes than an input "
                                   "has");
        if (dots && in[i]->rank - (uint32_t)named > ell)
            ell = in[i]->rank - (uint32_t)named;
    }
    term t[MAX_OPS];
    int64_t size[N_LABELS];
    int count[N_LABELS] = { 0 };
    for (int l = 0; l < N_LABELS; l++)
        size[l] = -1;
    for (uint32_t i = 0; i < n_in; i++) {
        uint32_t named = 0, k = 0;
        for (int j = 0; j < e.n_in[i]; j++)
            named += e.in[i][j] >= 0;
        uint32_t mine = in[i]->rank - named;
        for (int j = 0; j < e.n_in[i]; j++) {
            if (e.in[i][j] >= 0) {
                t[i].lab[k++] = e.in[i][j];
                continue;
            }
            for (uint32_t m = 0; m < mine; m++)
                t[i].lab[k++] = 52 + (int)(ell - mine + m);
        }
        t[i].n = k;
        for (uint32_t j = 0; j < k; j++) {
            int l = t[i].lab[j];
            int64_t d = in[i]->dims[j];
            count[l]++;
            for (uint32_t p = 0; p < j; p++) /* a diagonal is square */
                if (t[i].lab[p] == l && in[i]->dims[p] != d)
                    return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                          "input %u repeats a label over "
                                          "axes of sizes %lld and %lld. "
                                          "Fix: check the equation", i,
                                          (long long)in[i]->dims[p],
                                          (long long)d);
            if (size[l] < 0 || size[l] == 1)
                size[l] = d;
            else if (d != size[l] && d != 1)
                return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                                      "label axes of sizes %lld and %lld "
                                      "do not match. Fix: check the input "
                                      "shapes", (long long)size[l],
                                      (long long)d);
        }
        if ((st = rlx__onnx_node_value(c, in[i], &t[i].v)) != RLX_OK)
            return st;
    }
    /* a size-1 axis against a longer one broadcasts */
    for (uint32_t i = 0; i < n_in; i++) {
        int64_t want[RLX_MAX_RANK];
        int grow = 0;
        for (uint32_t j = 0; j < t[i].n; j++) {
            want[j] = size[t[i].lab[j]];
            grow |= want[j] != in[i]->dims[j];
        }
        if (grow && (st = rlx__onnx_add(c, RLX_OP_EXPAND, 1, &t[i].v, want,
                                        t[i].n, NULL, 0, &t[i].v)) != RLX_OK)
            return st;
    }
    /* the output's labels */
    int ol[RLX_MAX_RANK + 1];
    uint32_t no = 0;
    if (e.has_out) {
        for (int j = 0; j < e.n_out; j++) {
            if (e.out[j] < 0) {
                for (uint32_t m = 0; m < ell && no < RLX_MAX_RANK; m++)
                    ol[no++] = 52 + (int)m;
                continue;
            }
            if (size[e.out[j]] < 0 || has(ol, no, e.out[j]) ||
                no == RLX_MAX_RANK)
                return bad_equation(c, "names an output label twice or one "
                                       "no input has");
            ol[no++] = e.out[j];
        }
    } else { /* implicit: the ellipsis, then labels seen once, sorted */
        for (uint32_t m = 0; m < ell; m++)
            ol[no++] = 52 + (int)m;
        for (int i = 0; i < 52 && no < RLX_MAX_RANK; i++) {
            int l = i < 26 ? 26 + i : i - 26; /* ASCII: upper case first */
            if (count[l] == 1)
                ol[no++] = l;
        }
    }
    for (uint32_t i = 0; i < n_in; i++)
        if ((st = diagonals(c, &t[i], size, dt)) != RLX_OK)
            return st;
    /* sum away labels no later term and not the output hold, then
     * contract left to right */
    for (uint32_t i = 0; i < n_in; i++) {
        int keep[N_LABELS];
        uint32_t nk = 0;
        for (uint32_t j = 0; j < no; j++)
            keep[nk++] = ol[j];
        for (uint32_t o = i + 1; o < n_in; o++)
            for (uint32_t j = 0; j < t[o].n; j++)
                if (!has(keep, nk, t[o].lab[j]))
                    keep[nk++] = t[o].lab[j];
        term *cur = &t[0];
        int drop[RLX_MAX_RANK];
        uint32_t nd = 0;
        if (i > 0) {
            /* the running product's labels the new term does not share */
            for (uint32_t j = 0; j < t[0].n; j++)
                if (!has(keep, nk, t[0].lab[j]) &&
                    !has(t[i].lab, t[i].n, t[0].lab[j]))
                    drop[nd++] = t[0].lab[j];
            if ((st = reduce_sum(c, &t[0], drop, nd)) != RLX_OK)
                return st;
            nd = 0;
            for (uint32_t j = 0; j < t[i].n; j++)
                if (!has(keep, nk, t[i].lab[j]) &&
                    !has(t[0].lab, t[0].n, t[i].lab[j]))
                    drop[nd++] = t[i].lab[j];
            if ((st = reduce_sum(c, &t[i], drop, nd)) != RLX_OK ||
                (st = contract(c, &t[0], &t[i], keep, nk, size, dt)) !=
                    RLX_OK)
                return st;
        } else if (n_in == 1) {
            for (uint32_t j = 0; j < cur->n; j++)
                if (!has(ol, no, cur->lab[j]))
                    drop[nd++] = cur->lab[j];
            if ((st = reduce_sum(c, cur, drop, nd)) != RLX_OK)
                return st;
        }
    }
    if (t[0].n != no)
        return bad_equation(c, "leaves axes the output does not name");
    if ((st = order(c, &t[0], ol)) != RLX_OK)
        return st;
    return rlx__onnx_set_out(c, t[0].v, &out[0]);
}

const rlx__onnx_op rlx__onnx_ops_einsum[] = {
    { "Einsum", 12, lower_einsum, 0 },
    { NULL, 0, NULL, 0 }
};
