/*
 * onnx_host.c - ops whose result size depends on the data: NonZero,
 * Compress, Unique and NonMaxSuppression. rlx programs have static
 * shapes, so these are computed on the host: folded at load when their
 * inputs are known, else as a host step between two stages at run time
 * (onnx_walk.c), the next stage compiled for the size they produce.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.h"

int rlx__onnx_is_host_op(const char *op)
{
    static const char *const ops[] = { "NonZero", "Compress", "Unique",
                                       "NonMaxSuppression", NULL };
    for (int i = 0; ops[i]; i++)
        if (strcmp(ops[i], op) == 0)
            return 1;
    return 0;
}

/* OUT gets OWNED (DTYPE, RANK, DIMS): known or run-time data. */
static void set_host(rlx__onnx_val *out, rlx_dtype dtype, uint32_t rank,
                     const int64_t *dims, void *owned, int known)
{
    rlx__onnx_set_known(out, dtype, rank, dims, owned);
    if (!known) {
        out->known = 0;
        out->rt = 1;
    }
}

static rlx_status oom(void)
{
    return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
}

/* Element I of V as a double (for comparisons and truth). */
static double elem(const rlx__onnx_val *v, size_t i)
{
    const void *d = v->data;
    switch (v->dtype) {
    case RLX_DTYPE_F32: return ((const float *)d)[i];
    case RLX_DTYPE_F64: return ((const double *)d)[i];
    case RLX_DTYPE_I8: return ((const int8_t *)d)[i];
    case RLX_DTYPE_I32: return ((const int32_t *)d)[i];
    case RLX_DTYPE_I64: return (double)((const int64_t *)d)[i];
    default: return ((const uint8_t *)d)[i]; /* u8, bool */
    }
}

static int plain_dtype(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F64 || t == RLX_DTYPE_I8 ||
           t == RLX_DTYPE_I32 || t == RLX_DTYPE_I64 ||
           t == RLX_DTYPE_U8 || t == RLX_DTYPE_BOOL;
}

static rlx_status need_plain(rlx__onnx_ctx *c, const rlx__onnx_val *v)
{
    if (plain_dtype(v->dtype))
        return RLX_OK;
    return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                          "input '%s' is %s; rlx computes this op on the "
                          "host for f32, f64, int8/32/64, uint8 and bool. "
                          "Fix: cast the input in the model",
                          v->name ? v->name : "?", rlx_dtype_name(v->dtype));
}

/* ---- NonZero: the indices of the non-zero elements, [rank, count] --- */

static rlx_status non_zero(rlx__onnx_ctx *c, rlx__onnx_val **in,
                           rlx__onnx_val *out, int known)
{
    const rlx__onnx_val *x = in[0];
    rlx_status st = need_plain(c, x);
    if (st != RLX_OK)
        return st;
    int64_t n = rlx__onnx_elements(x->rank, x->dims), nz = 0;
    for (int64_t i = 0; i < n; i++)
        nz += elem(x, (size_t)i) != 0;
    uint32_t rank = x->rank ? x->rank : 1;
    int64_t cells = (int64_t)rank * nz;
    int64_t *r = malloc((size_t)(cells ? cells : 1) * sizeof *r);
    if (!r)
        return oom();
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (elem(x, (size_t)i) == 0)
            continue;
        int64_t rem = i;
        for (int32_t d = (int32_t)x->rank - 1; d >= 0; d--) {
            r[d * nz + k] = rem % x->dims[d];
            rem /= x->dims[d];
        }
        if (!x->rank)
            r[k] = 0;
        k++;
    }
    int64_t dims[2] = { rank, nz };
    set_host(out, RLX_DTYPE_I64, 2, dims, r, known);
    return RLX_OK;
}

/* ---- Compress: the slices along AXIS (or elements) where cond holds -- */

static rlx_status compress_op(rlx__onnx_ctx *c, rlx__onnx_val **in,
                           rlx__onnx_val *out, int known)
{
    const rlx__onnx_val *x = in[0], *cond = in[1];
    const Onnx__AttributeProto *ax = rlx__onnx_attr(c, "axis");
    int64_t n_cond = rlx__onnx_elements(cond->rank, cond->dims);
    if (cond->rank != 1)
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "its condition has rank %u; it needs rank 1. "
                              "Fix: the model is damaged; re-export it",
                              cond->rank);
    rlx_status st = need_plain(c, cond);
    if (st != RLX_OK)
        return st;
    int64_t axis = 0;
    uint32_t rank = 1;
    int64_t dims[RLX_MAX_RANK] = { rlx__onnx_elements(x->rank, x->dims) };
    if (ax && ax->has_i) {
        if ((st = rlx__onnx_axis(c, ax->i, x->rank, &axis)) != RLX_OK)
            return st;
        rank = x->rank;
        memcpy(dims, x->dims, sizeof dims);
    }
    if (n_cond > dims[axis])
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "its condition has %lld entries for %lld "
                              "slices. Fix: the model is damaged; re-export "
                              "it", (long long)n_cond, (long long)dims[axis]);
    size_t es = rlx_dtype_size(x->dtype), outer = 1, inner = es;
    for (int64_t d = 0; d < axis; d++)
        outer *= (size_t)dims[d];
    for (uint32_t d = (uint32_t)axis + 1; d < rank; d++)
        inner *= (size_t)dims[d];
    int64_t kept = 0;
    for (int64_t i = 0; i < n_cond; i++)
        kept += elem(cond, (size_t)i) != 0;
    size_t total = outer * (size_t)kept * inner;
    void *r = malloc(total ? total : 1);
    if (!r)
        return oom();
    char *o = r;
    for (size_t a = 0; a < outer; a++)
        for (int64_t i = 0; i < n_cond; i++)
            if (elem(cond, (size_t)i) != 0) {
                memcpy(o, (const char *)x->data +
                              (a * (size_t)dims[axis] + (size_t)i) * inner,
                       inner);
                o += inner;
            }
    dims[axis] = kept;
    set_host(out, x->dtype, rank, dims, r, known);
    return RLX_OK;
}

/* ---- Unique ---------------------------------------------------------- */

typedef struct uniq {
    const rlx__onnx_val *x;
    size_t inner;               /* elements per slice */
    size_t outer, len;          /* slice i: [o][i][inner] for each o */
} uniq;

/* A total order on slices: NaN after every number and equal to NaN (so
 * NaNs collapse into one unique value, as NumPy's unique does). */
static int slice_cmp(const uniq *u, size_t a, size_t b)
{
    for (size_t o = 0; o < u->outer; o++)
        for (size_t k = 0; k < u->inner; k++) {
            double va = elem(u->x, (o * u->len + a) * u->inner + k);
            double vb = elem(u->x, (o * u->len + b) * u->inner + k);
            int na = va != va, nb = vb != vb;
            if (na || nb) {
                if (na != nb)
                    return na ? 1 : -1;
            } else if (va != vb) {
                return va < vb ? -1 : 1;
            }
        }
    return 0;
}

/* Stable bottom-up merge sort of the N indices in A (TMP as long), by
 * slice (BY_FIRST null) or by BY_FIRST[index]: n log n, where a
 * constant-folded Unique over a long Range must not take quadratic time. */
static void sort_idx(const uniq *u, const size_t *by_first, size_t *a,
                     size_t *tmp, size_t n)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n;
            size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                int le = by_first ? by_first[a[i]] <= by_first[a[j]]
                                  : slice_cmp(u, a[i], a[j]) <= 0;
                tmp[k++] = le ? a[i++] : a[j++];
            }
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

static rlx_status unique(rlx__onnx_ctx *c, rlx__onnx_val **in,
                         rlx__onnx_val *out, uint32_t n_out, int known)
{
    const rlx__onnx_val *x = in[0];
    rlx_status st = need_plain(c, x);
    if (st != RLX_OK)
        return st;
    int sorted = (int)rlx__onnx_attr_int(c, "sorted", 1);
    const Onnx__AttributeProto *ax = rlx__onnx_attr(c, "axis");
    uniq u = { .x = x, .outer = 1, .inner = 1 };
    int64_t axis = -1;
    if (ax && ax->has_i) {
        if ((st = rlx__onnx_axis(c, ax->i, x->rank, &axis)) != RLX_OK)
            return st;
        for (int64_t d = 0; d < axis; d++)
            u.outer *= (size_t)x->dims[d];
        for (uint32_t d = (uint32_t)axis + 1; d < x->rank; d++)
            u.inner *= (size_t)x->dims[d];
        u.len = (size_t)x->dims[axis];
    } else {
        u.len = (size_t)rlx__onnx_elements(x->rank, x->dims);
    }
    /* per unique slice: its first occurrence and count; per element:
     * its unique slice */
    size_t *first = calloc(u.len ? u.len : 1, sizeof *first);
    int64_t *inverse = malloc((u.len ? u.len : 1) * sizeof *inverse);
    int64_t *counts = calloc(u.len ? u.len : 1, sizeof *counts);
    size_t n = 0;
    if (!first || !inverse || !counts) {
        free(first);
        free(inverse);
        free(counts);
        return oom();
    }
    /* sorted slices in order of appearance within equal runs: each run
     * is one unique slice, its first element the first occurrence */
    size_t *order = malloc((u.len ? u.len : 1) * sizeof *order);
    size_t *tmp = malloc((u.len ? u.len : 1) * sizeof *tmp);
    size_t *rank_of = malloc((u.len ? u.len : 1) * sizeof *rank_of);
    if (!order || !tmp || !rank_of) {
        free(first);
        free(inverse);
        free(counts);
        free(order);
        free(tmp);
        free(rank_of);
        return oom();
    }
    for (size_t i = 0; i < u.len; i++)
        order[i] = i;
    sort_idx(&u, NULL, order, tmp, u.len);
    for (size_t i = 0; i < u.len; i++) {
        if (i == 0 || slice_cmp(&u, order[i - 1], order[i]) != 0)
            first[n++] = order[i];
        inverse[order[i]] = (int64_t)(n - 1);
        counts[n - 1]++;
    }
    /* unique slice g is OUTPUT order[g]: sorted, or by first occurrence */
    for (size_t g = 0; g < n; g++)
        order[g] = g;
    if (!sorted)
        sort_idx(&u, first, order, tmp, n);
    free(tmp);
    for (size_t i = 0; i < n; i++)
        rank_of[order[i]] = i;
    size_t es = rlx_dtype_size(x->dtype);
    size_t ybytes = u.outer * n * u.inner * es;
    void *y = malloc(ybytes ? ybytes : 1);
    int64_t *idx = malloc((n ? n : 1) * sizeof *idx);
    int64_t *inv = malloc((u.len ? u.len : 1) * sizeof *inv);
    int64_t *cnt = malloc((n ? n : 1) * sizeof *cnt);
    if (y && idx && inv && cnt) {
        for (size_t o = 0; o < u.outer; o++)
            for (size_t i = 0; i < n; i++)
                memcpy((char *)y + ((o * n + i) * u.inner) * es,
                       (const char *)x->data +
                           ((o * u.len + first[order[i]]) * u.inner) * es,
                       u.inner * es);
        for (size_t i = 0; i < n; i++) {
            idx[i] = (int64_t)first[order[i]];
            cnt[i] = counts[order[i]];
        }
        for (size_t i = 0; i < u.len; i++)
            inv[i] = (int64_t)rank_of[inverse[i]];
    }
    free(first);
    free(inverse);
    free(counts);
    free(order);
    free(rank_of);
    if (!y || !idx || !inv || !cnt) {
        free(y);
        free(idx);
        free(inv);
        free(cnt);
        return oom();
    }
    int64_t dims[RLX_MAX_RANK];
    uint32_t rank = 1;
    dims[0] = (int64_t)n;
    if (axis >= 0) {
        rank = x->rank;
        memcpy(dims, x->dims, sizeof dims);
        dims[axis] = (int64_t)n;
    }
    int64_t dn[1] = { (int64_t)n }, dl[1] = { (int64_t)u.len };
    void *bufs[4] = { y, idx, inv, cnt };
    for (uint32_t i = 0; i < 4; i++) {
        if (i >= n_out || !out[i].name || !*out[i].name) {
            free(bufs[i]);
            continue;
        }
        if (i == 0)
            set_host(&out[0], x->dtype, rank, dims, y, known);
        else
            set_host(&out[i], RLX_DTYPE_I64, 1, i == 2 ? dl : dn, bufs[i],
                     known);
    }
    return RLX_OK;
}

/* ---- NonMaxSuppression -------------------------------------------------- */

/* Box I of BOXES as (y1, x1, y2, x2), corners ordered. */
static void box_at(const float *b, int center, float *o)
{
    float y1, x1, y2, x2;
    if (center) { /* [x_center, y_center, width, height] */
        x1 = b[0] - b[2] / 2;
        x2 = b[0] + b[2] / 2;
        y1 = b[1] - b[3] / 2;
        y2 = b[1] + b[3] / 2;
    } else {
        y1 = b[0];
        x1 = b[1];
        y2 = b[2];
        x2 = b[3];
    }
    o[0] = fminf(y1, y2);
    o[1] = fminf(x1, x2);
    o[2] = fmaxf(y1, y2);
    o[3] = fmaxf(x1, x2);
}

static float iou(const float *a, const float *b)
{
    float h = fminf(a[2], b[2]) - fmaxf(a[0], b[0]);
    float w = fminf(a[3], b[3]) - fmaxf(a[1], b[1]);
    if (h <= 0 || w <= 0)
        return 0;
    float inter = h * w;
    float area_a = (a[2] - a[0]) * (a[3] - a[1]);
    float area_b = (b[2] - b[0]) * (b[3] - b[1]);
    float uni = area_a + area_b - inter;
    return uni > 0 ? inter / uni : 0;
}

typedef struct cand {
    float score;
    int64_t box;
} cand;

static int cand_cmp(const void *a, const void *b)
{
    const cand *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->box < y->box ? -1 : x->box > y->box; /* stable */
}

static rlx_status nms(rlx__onnx_ctx *c, rlx__onnx_val **in, uint32_t n_in,
                      rlx__onnx_val *out, int known)
{
    const rlx__onnx_val *boxes = in[0], *scores = in[1];
    if (boxes->dtype != RLX_DTYPE_F32 || scores->dtype != RLX_DTYPE_F32 ||
        boxes->rank != 3 || scores->rank != 3 || boxes->dims[2] != 4 ||
        boxes->dims[0] != scores->dims[0] ||
        boxes->dims[1] != scores->dims[2])
        return rlx__onnx_fail(c, RLX_ERR_SHAPE,
                              "it needs f32 boxes [batch, boxes, 4] and f32 "
                              "scores [batch, classes, boxes]. Fix: check "
                              "the model's inputs");
    int64_t max_out = 0;
    double iou_th = 0, score_th = -INFINITY;
    if (n_in > 2 && in[2]) {
        int64_t v[1];
        rlx__onnx_val k = *in[2];
        k.known = 1;
        if (rlx__onnx_known_ints(&k, v, 1) != 1)
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "max_output_boxes_per_class is not one "
                                  "integer. Fix: the model is damaged");
        max_out = v[0];
    }
    if (n_in > 3 && in[3]) {
        if (in[3]->dtype != RLX_DTYPE_F32 ||
            rlx__onnx_elements(in[3]->rank, in[3]->dims) != 1)
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "iou_threshold is not one f32. Fix: the "
                                  "model is damaged");
        iou_th = *(const float *)in[3]->data;
    }
    if (n_in > 4 && in[4]) {
        if (in[4]->dtype != RLX_DTYPE_F32 ||
            rlx__onnx_elements(in[4]->rank, in[4]->dims) != 1)
            return rlx__onnx_fail(c, RLX_ERR_DTYPE,
                                  "score_threshold is not one f32. Fix: the "
                                  "model is damaged");
        score_th = *(const float *)in[4]->data;
    }
    int center = (int)rlx__onnx_attr_int(c, "center_point_box", 0);
    int64_t nb = boxes->dims[0], nbox = boxes->dims[1];
    int64_t ncls = scores->dims[1];
    const float *bx = boxes->data, *sc = scores->data;
    cand *cs = malloc((size_t)(nbox ? nbox : 1) * sizeof *cs);
    int64_t *keep = malloc((size_t)(nbox ? nbox : 1) * sizeof *keep);
    int64_t *sel = NULL, n_sel = 0, cap = 0;
    if (!cs || !keep)
        goto fail;
    for (int64_t b = 0; b < nb; b++)
        for (int64_t k = 0; k < ncls; k++) {
            int64_t n = 0, nk = 0;
            for (int64_t i = 0; i < nbox; i++) {
                float s = sc[(b * ncls + k) * nbox + i];
                if (s > score_th)
                    cs[n++] = (cand){ s, i };
            }
            qsort(cs, (size_t)n, sizeof *cs, cand_cmp);
            for (int64_t i = 0; i < n && nk < max_out; i++) {
                float bi[4], bj[4];
                box_at(bx + (b * nbox + cs[i].box) * 4, center, bi);
                int ok = 1;
                for (int64_t j = 0; j < nk && ok; j++) {
                    box_at(bx + (b * nbox + keep[j]) * 4, center, bj);
                    ok = iou(bi, bj) <= iou_th;
                }
                if (!ok)
                    continue;
                keep[nk++] = cs[i].box;
                if (n_sel == cap) {
                    cap = cap ? 2 * cap : 16;
                    int64_t *g = realloc(sel, (size_t)cap * 3 * sizeof *g);
                    if (!g)
                        goto fail;
                    sel = g;
                }
                sel[n_sel * 3] = b;
                sel[n_sel * 3 + 1] = k;
                sel[n_sel * 3 + 2] = cs[i].box;
                n_sel++;
            }
        }
    free(cs);
    free(keep);
    if (!sel && !(sel = malloc(1)))
        return oom();
    int64_t dims[2] = { n_sel, 3 };
    set_host(out, RLX_DTYPE_I64, 2, dims, sel, known);
    return RLX_OK;
fail:
    free(cs);
    free(keep);
    free(sel);
    return oom();
}

rlx_status rlx__onnx_host_op(rlx__onnx_ctx *c, rlx__onnx_val **in,
                             uint32_t n_in, rlx__onnx_val *out,
                             uint32_t n_out, int known)
{
    const char *op = c->node->op_type;
    int compress = strcmp(op, "Compress") == 0;
    int is_nms = strcmp(op, "NonMaxSuppression") == 0;
    rlx_status st = rlx__onnx_need_inputs(c, in, n_in,
                                          compress || is_nms ? 2 : 1);
    if (st != RLX_OK)
        return st;
    if (n_out < 1)
        return rlx__onnx_fail(c, RLX_ERR_INVALID_ARGUMENT,
                              "it has no output. Fix: the model is "
                              "damaged; re-export it");
    if (strcmp(op, "NonZero") == 0)
        return non_zero(c, in, out, known);
    if (compress)
        return compress_op(c, in, out, known);
    if (is_nms)
        return nms(c, in, n_in, out, known);
    return unique(c, in, out, n_out, known);
}
