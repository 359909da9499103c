/*
 * plan.c - the arena plan: every intermediate result gets an offset in
 * one block, chosen at compile time so that results alive at the same
 * step never overlap. Greedy by size (largest first, lowest offset that
 * fits among the already placed values whose lifetimes overlap): the
 * arena comes out at or near the largest set of values alive at once.
 * A value's lifetime is [first, last] inclusive, so a step's result
 * never shares memory with the inputs it reads.
 */
#include <stdlib.h>

#include "blas_internal.h"

static size_t align_up(size_t n)
{
    return (n + RLX__BLAS_ALIGN - 1) / RLX__BLAS_ALIGN * RLX__BLAS_ALIGN;
}

static int overlap(const rlx__blas_value *a, const rlx__blas_value *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* Indices sorted by size, largest first (insertion sort keeps it simple
 * and stable; graphs have hundreds of nodes, not millions). */
static void sort_by_size(const rlx__blas_value *v, uint32_t *idx, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        idx[i] = i;
    for (uint32_t i = 1; i < n; i++) {
        uint32_t t = idx[i], j = i;
        while (j > 0 && v[idx[j - 1]].nbytes < v[t].nbytes) {
            idx[j] = idx[j - 1];
            j--;
        }
        idx[j] = t;
    }
}

size_t rlx__blas_plan(rlx__blas_value *v, uint32_t n)
{
    uint32_t *idx = malloc((n ? n : 1) * sizeof *idx);
    uint32_t *placed = malloc((n ? n : 1) * sizeof *placed);
    size_t peak = 0;
    if (!idx || !placed) {
        /* no memory for the plan: give every value its own range */
        for (uint32_t i = 0; i < n; i++) {
            v[i].offset = peak;
            peak += align_up(v[i].nbytes);
        }
        free(idx);
        free(placed);
        return peak;
    }
    sort_by_size(v, idx, n);
    uint32_t n_placed = 0;
    for (uint32_t s = 0; s < n; s++) {
        rlx__blas_value *cur = &v[idx[s]];
        size_t size = align_up(cur->nbytes ? cur->nbytes : 1);
        size_t off = 0;
        /* Move past every conflicting placed range until one fits; the
         * placed list is kept sorted by offset. */
        for (uint32_t k = 0; k < n_placed; k++) {
            const rlx__blas_value *o = &v[placed[k]];
            if (!overlap(cur, o))
                continue;
            size_t o_end = o->offset + align_up(o->nbytes ? o->nbytes : 1);
            if (off + size <= o->offset)
                break; /* fits in the gap before O */
            if (o_end > off)
                off = o_end;
        }
        cur->offset = off;
        if (off + size > peak)
            peak = off + size;
        /* insert into PLACED by offset */
        uint32_t k = n_placed++;
        while (k > 0 && v[placed[k - 1]].offset > off) {
            placed[k] = placed[k - 1];
            k--;
        }
        placed[k] = idx[s];
    }
    free(idx);
    free(placed);
    return peak;
}
