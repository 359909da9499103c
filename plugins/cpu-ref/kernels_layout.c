/*
 * kernels_layout.c - the 1.4 ops that move elements without reading them:
 * pad, expand, tile, strided_slice and trilu, on any dtype, by bytes.
 * Each walks the result and works out which input element lands there,
 * which keeps every kernel a plain loop (prepare checked the shapes).
 */
#include <string.h>

#include <rlx/kit_index.h>

#include "cpu_ref_internal.h"

#define R RLX__CPU_REF_IDX_RANK

/* P mod M in [0, M), M > 0. */
static int64_t pos_mod(int64_t p, int64_t m)
{
    int64_t r = p % m;
    return r < 0 ? r + m : r;
}

/* The input coordinate pad reads for result coordinate C on an axis of
 * DIM elements with pads B (begin) and E (end); -1 for the constant. */
static int64_t pad_source(int64_t mode, int64_t c, int64_t dim, int64_t b,
                          int64_t e)
{
    /* negative pads crop first: the kept part is [lo, lo + mid) */
    int64_t lo = b < 0 ? -b : 0;
    int64_t mid = dim - lo - (e < 0 ? -e : 0);
    int64_t q = c - (b > 0 ? b : 0); /* position in the kept part */
    if (q >= 0 && q < mid)
        return lo + q;
    switch (mode) {
    case RLX_PAD_EDGE: return lo + (q < 0 ? 0 : mid - 1);
    case RLX_PAD_WRAP: return lo + pos_mod(q, mid);
    case RLX_PAD_REFLECT: {
        if (mid == 1)
            return lo;
        /* mirror without repeating the edge: period 2 * (mid - 1) */
        int64_t m = pos_mod(q, 2 * (mid - 1));
        return lo + (m < mid ? m : 2 * (mid - 1) - m);
    }
    default: return -1;
    }
}

static void pad_run(rlx__cpu_ref_node *n, const unsigned char *x)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    unsigned char value[8];
    uint32_t r = p->rank[0];
    int64_t mode = p->n_ints ? p->ints[0] : RLX_PAD_CONSTANT;
    int64_t c[R], src[R];
    /* the constant, converted as a cast from f64 would */
    rlx__cpu_ref_fill(p->f[0], n->dtype, value, 1);
    for (size_t o = 0; o < n->count; o++) {
        rlx__cpu_ref_unravel(o, r, p->out_dims, c);
        int inside = 1;
        for (uint32_t d = 0; d < r && inside; d++) {
            int64_t b = p->n_ints > 1 ? p->ints[1 + d] : 0;
            int64_t e = p->n_ints > 1 ? p->ints[1 + r + d] : 0;
            src[d] = pad_source(mode, c[d], p->dims[0][d], b, e);
            inside = src[d] >= 0;
        }
        const unsigned char *from =
            inside ? x + rlx__cpu_ref_ravel(r, p->dims[0], src) * n->elem
                   : value;
        memcpy(n->data + o * n->elem, from, n->elem);
    }
}

static void expand_tile_run(rlx__cpu_ref_node *n, const unsigned char *x)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    uint32_t r = p->rank[0], off = p->out_rank - r;
    int64_t c[R], src[R];
    for (size_t o = 0; o < n->count; o++) {
        rlx__cpu_ref_unravel(o, p->out_rank, p->out_dims, c);
        for (uint32_t d = 0; d < r; d++) {
            int64_t dim = p->dims[0][d], k = c[off + d];
            /* expand: a stretched dim reads 0; tile: wraps around */
            src[d] = n->op == RLX_OP_EXPAND ? (dim == 1 ? 0 : k) : k % dim;
        }
        memcpy(n->data + o * n->elem,
               x + rlx__cpu_ref_ravel(r, p->dims[0], src) * n->elem, n->elem);
    }
}

static void strided_slice_run(rlx__cpu_ref_node *n, const unsigned char *x)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    uint32_t r = p->rank[0];
    int64_t first[R], step[R], c[R];
    for (uint32_t d = 0; d < r; d++) {
        first[d] = 0;
        step[d] = 1;
    }
    for (uint32_t t = 0; t < p->n_ints; t += 4) {
        int64_t axis = 0, count;
        rlx_kit_index_wrap(p->ints[t], (int64_t)r, &axis);
        rlx_kit_slice_bounds(p->dims[0][axis], p->ints[t + 1],
                             p->ints[t + 2], p->ints[t + 3], &first[axis],
                             &count);
        step[axis] = p->ints[t + 3];
    }
    for (size_t o = 0; o < n->count; o++) {
        rlx__cpu_ref_unravel(o, r, p->out_dims, c);
        /* c < count, so first + c * step stays inside the axis */
        for (uint32_t d = 0; d < r; d++)
            c[d] = first[d] + c[d] * step[d];
        memcpy(n->data + o * n->elem,
               x + rlx__cpu_ref_ravel(r, p->dims[0], c) * n->elem, n->elem);
    }
}

static void trilu_run(rlx__cpu_ref_node *n, const unsigned char *x)
{
    const rlx__cpu_ref_index *p = &n->plan.index;
    uint32_t r = p->rank[0];
    int64_t upper = p->n_ints > 0 ? p->ints[0] : 1;
    int64_t k = p->n_ints > 1 ? p->ints[1] : 0;
    int64_t rows = p->dims[0][r - 2], cols = p->dims[0][r - 1];
    for (size_t o = 0; o < n->count; o++) {
        int64_t j = (int64_t)(o % (size_t)cols);
        int64_t i = (int64_t)(o / (size_t)cols % (size_t)rows);
        /* j - i cannot overflow; k may be any int64 */
        int keep = upper ? j - i >= k : j - i <= k;
        if (keep)
            memcpy(n->data + o * n->elem, x + o * n->elem, n->elem);
        else /* zero is all-zero bytes in every dtype */
            memset(n->data + o * n->elem, 0, n->elem);
    }
}

void rlx__cpu_ref_layout_run(rlx__cpu_ref_node *n, const unsigned char *x)
{
    switch (n->op) {
    case RLX_OP_PAD: pad_run(n, x); break;
    case RLX_OP_EXPAND: case RLX_OP_TILE: expand_tile_run(n, x); break;
    case RLX_OP_STRIDED_SLICE: strided_slice_run(n, x); break;
    case RLX_OP_TRILU: trilu_run(n, x); break;
    default: break;
    }
}
