/*
 * kernels_scan.c - the 1.4 ops that read values along an axis or make a
 * sequence: cumsum (floats summed in double, integers wrapping), topk (a
 * stable merge sort of the positions, so ties keep the lower index
 * first) and range.
 */
#include <math.h>
#include <string.h>

#include <rlx/kit_index.h>

#include "cpu_ref_internal.h"
#include "kernels_value.h"

/* The [outer, dim, inner] view of input 0 around AXIS. */
static void split_axis(const rlx__cpu_ref_index *p, uint32_t axis,
                       size_t *outer, size_t *dim, size_t *inner)
{
    *outer = *inner = 1;
    for (uint32_t d = 0; d < axis; d++)
        *outer *= (size_t)p->dims[0][d];
    *dim = (size_t)p->dims[0][axis];
    for (uint32_t d = axis + 1; d < p->rank[0]; d++)
        *inner *= (size_t)p->dims[0][d];
}

static uint32_t axis_of(const rlx__cpu_ref_index *p, uint32_t i,
                        int64_t dflt)
{
    int64_t a = i < p->n_ints ? p->ints[i] : dflt, k = 0;
    rlx_kit_index_wrap(a, (int64_t)p->rank[0], &k); /* checked at prepare */
    return (uint32_t)k;
}

static void cumsum_run(rlx__cpu_ref_node *n, const unsigned char *x)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    size_t outer, dim, inner;
    split_axis(p, axis_of(p, RLX_ATTR_CUMSUM_AXIS, 0), &outer, &dim, &inner);
    int excl = p->n_ints > 1 && p->ints[1];
    int rev = p->n_ints > 2 && p->ints[2];
    int fl = rlx__cpu_ref_is_float(n->dtype);
    for (size_t o = 0; o < outer; o++)
        for (size_t in = 0; in < inner; in++) {
            double accf = 0;
            int64_t acci = 0;
            for (size_t s = 0; s < dim; s++) {
                size_t j = rev ? dim - 1 - s : s;
                size_t at = (o * dim + j) * inner + in;
                if (excl) /* the sum of what came before */
                    fl ? rlx__cpu_ref_store_f(n->dtype, n->data, at, accf)
                       : rlx__cpu_ref_store_i(n->dtype, n->data, at, acci);
                if (fl)
                    accf += rlx__cpu_ref_load_f(n->dtype, x, at);
                else
                    acci = rlx__cpu_ref_wrap_add(
                        acci, rlx__cpu_ref_load_i(n->dtype, x, at));
                if (!excl)
                    fl ? rlx__cpu_ref_store_f(n->dtype, n->data, at, accf)
                       : rlx__cpu_ref_store_i(n->dtype, n->data, at, acci);
            }
        }
}

/* ---- topk ---------------------------------------------------------------- */

typedef struct topk_row {
    rlx_dtype t;
    const unsigned char *x;
    size_t base, inner; /* element j of the row is x[base + j * inner] */
    int largest;
} topk_row;

/* Nonzero when element A must come before element B: the larger first
 * (or the smaller, for largest 0), NaN above every number. Equal ones
 * answer 0, so the stable sort keeps the lower index first. */
static int before(const topk_row *r, size_t a, size_t b)
{
    size_t ia = r->base + a * r->inner, ib = r->base + b * r->inner;
    int gt; /* value a above value b */
    if (rlx__cpu_ref_is_float(r->t)) {
        double va = rlx__cpu_ref_load_f(r->t, r->x, ia);
        double vb = rlx__cpu_ref_load_f(r->t, r->x, ib);
        gt = r->largest ? (isnan(va) && !isnan(vb)) || va > vb
                        : (isnan(vb) && !isnan(va)) || va < vb;
    } else {
        int64_t va = rlx__cpu_ref_load_i(r->t, r->x, ia);
        int64_t vb = rlx__cpu_ref_load_i(r->t, r->x, ib);
        if (r->t == RLX_DTYPE_U64) /* its bits, unsigned */
            gt = r->largest ? (uint64_t)va > (uint64_t)vb
                            : (uint64_t)va < (uint64_t)vb;
        else
            gt = r->largest ? va > vb : va < vb;
    }
    return gt;
}

/* Stable bottom-up merge sort of ORDER[0..n) using BUF of n entries. */
static void merge_sort(const topk_row *r, size_t *order, size_t *buf,
                       size_t n)
{
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                buf[k++] = before(r, order[j], order[i]) ? order[j++]
                                                         : order[i++];
            while (i < mid)
                buf[k++] = order[i++];
            while (j < hi)
                buf[k++] = order[j++];
        }
        memcpy(order, buf, n * sizeof *order);
    }
}

static void topk_run(rlx__cpu_ref_node *n, const unsigned char *x)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    size_t outer, dim, inner;
    split_axis(p, axis_of(p, RLX_ATTR_TOPK_AXIS, -1), &outer, &dim, &inner);
    size_t k = (size_t)p->ints[RLX_ATTR_TOPK_K];
    size_t *order = n->scratch, *buf = n->scratch + dim;
    topk_row r = { p->dtype[0], x, 0, inner,
                   p->n_ints <= RLX_ATTR_TOPK_LARGEST ||
                       p->ints[RLX_ATTR_TOPK_LARGEST] != 0 };
    /* sorted 0 leaves the order free: this gives the sorted one */
    for (size_t o = 0; o < outer; o++)
        for (size_t in = 0; in < inner; in++) {
            r.base = o * dim * inner + in;
            for (size_t j = 0; j < dim; j++)
                order[j] = j;
            merge_sort(&r, order, buf, dim);
            for (size_t j = 0; j < k; j++)
                rlx__cpu_ref_store_i(RLX_DTYPE_I64, n->data,
                                     (o * k + j) * inner + in,
                                     (int64_t)order[j]);
        }
}

static void range_run(rlx__cpu_ref_node *n)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    if (rlx__cpu_ref_is_float(n->dtype)) {
        /* float_attrs absent: start 0, delta 1 */
        double start = p->n_floats > RLX_ATTR_RANGE_START ? p->f[0] : 0.0;
        double delta = p->n_floats > RLX_ATTR_RANGE_DELTA ? p->f[1] : 1.0;
        for (size_t i = 0; i < n->count; i++)
            rlx__cpu_ref_store_f(n->dtype, n->data, i,
                                 start + (double)i * delta);
        return;
    }
    int64_t start = p->n_ints > RLX_ATTR_RANGE_INT_START
                        ? p->ints[RLX_ATTR_RANGE_INT_START] : 0;
    int64_t delta = p->n_ints > RLX_ATTR_RANGE_INT_DELTA
                        ? p->ints[RLX_ATTR_RANGE_INT_DELTA] : 1;
    for (size_t i = 0; i < n->count; i++)
        rlx__cpu_ref_store_i(
            n->dtype, n->data, i,
            rlx__cpu_ref_wrap_add(start,
                                  rlx__cpu_ref_wrap_mul((int64_t)i, delta)));
}

void rlx__cpu_ref_scan_run(rlx__cpu_ref_node *n, const unsigned char *x)
{
    switch (n->op) {
    case RLX_OP_CUMSUM: cumsum_run(n, x); break;
    case RLX_OP_TOPK: topk_run(n, x); break;
    case RLX_OP_RANGE: range_run(n); break;
    default: break;
    }
}
