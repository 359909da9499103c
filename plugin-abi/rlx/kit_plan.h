/*
 * kit_plan.h - plugin kit: the liveness memory planner. Each value a
 * compiled graph keeps (an intermediate result, a scratch block) gets an
 * offset in one arena, chosen so that values alive at the same step
 * never overlap.
 *
 * Greedy by size: largest first, each at the lowest aligned offset that
 * fits among the placed values whose lifetimes overlap its own. The
 * arena comes out at or near the largest set of values alive at once
 * (rlx_kit_plan_live_peak, the lower bound). A lifetime is [first,
 * last] inclusive in whatever step numbering the backend uses (negative
 * allowed, e.g. -1 for "before the first step"), so a step's result
 * never shares memory with the inputs it reads.
 *
 * Not ABI (see kit.h): header-only; allocates scratch with malloc.
 */
#ifndef RLX_KIT_PLAN_H
#define RLX_KIT_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct rlx_kit_live {
    size_t nbytes;         /* in: size (0 still takes one aligned slot) */
    int64_t first, last;   /* in: steps that define and last read it */
    size_t offset;         /* out: planned offset in the arena */
} rlx_kit_live;

/* X rounded up to a multiple of ALIGN (ALIGN > 0). */
static inline size_t rlx_kit_align_up(size_t x, size_t align)
{
    return (x + align - 1) / align * align;
}

/* The bytes V takes in an arena aligned to ALIGN. */
static inline size_t rlx_kit__live_size(const rlx_kit_live *v, size_t align)
{
    return rlx_kit_align_up(v->nbytes ? v->nbytes : 1, align);
}

static inline int rlx_kit_live_overlap(const rlx_kit_live *a,
                                       const rlx_kit_live *b)
{
    return a->first <= b->last && b->first <= a->last;
}

/* Assign V[i].offset for N values (ALIGN > 0, e.g. a cache line or the
 * device's alignment); returns the arena size. When the planner cannot
 * get its scratch memory it gives every value its own range (correct,
 * no reuse). */
static inline size_t rlx_kit_plan_memory(rlx_kit_live *v, uint32_t n,
                                         size_t align)
{
    uint32_t *idx = (uint32_t *)malloc((n ? n : 1) * sizeof *idx);
    uint32_t *placed = (uint32_t *)malloc((n ? n : 1) * sizeof *placed);
    size_t peak = 0;
    if (!idx || !placed) {
        for (uint32_t i = 0; i < n; i++) {
            v[i].offset = peak;
            peak += rlx_kit__live_size(&v[i], align);
        }
        free(idx);
        free(placed);
        return peak;
    }
    /* indices by size, largest first (insertion sort: stable, and graphs
     * have hundreds of values, not millions) */
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
    uint32_t n_placed = 0;
    for (uint32_t s = 0; s < n; s++) {
        rlx_kit_live *cur = &v[idx[s]];
        size_t size = rlx_kit__live_size(cur, align), off = 0;
        /* PLACED is sorted by offset: move past every conflicting range
         * until the gap before the next one fits */
        for (uint32_t k = 0; k < n_placed; k++) {
            const rlx_kit_live *o = &v[placed[k]];
            if (!rlx_kit_live_overlap(cur, o))
                continue;
            if (off + size <= o->offset)
                break;
            size_t o_end = o->offset + rlx_kit__live_size(o, align);
            if (o_end > off)
                off = o_end;
        }
        cur->offset = off;
        if (off + size > peak)
            peak = off + size;
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

/* The most bytes (aligned as the plan aligns them) alive at any one
 * step: no plan can be smaller. For tests and logs. */
static inline size_t rlx_kit_plan_live_peak(const rlx_kit_live *v,
                                            uint32_t n, size_t align)
{
    size_t best = 0;
    for (uint32_t i = 0; i < n; i++) { /* some maximum starts at a first */
        size_t live = 0;
        for (uint32_t j = 0; j < n; j++)
            if (v[j].first <= v[i].first && v[i].first <= v[j].last)
                live += rlx_kit__live_size(&v[j], align);
        if (live > best)
            best = live;
    }
    return best;
}

/* Nonzero when no two values alive at once share a byte (a check for
 * tests and debug builds). */
static inline int rlx_kit_plan_valid(const rlx_kit_live *v, uint32_t n,
                                     size_t align)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = i + 1; j < n; j++) {
            if (!rlx_kit_live_overlap(&v[i], &v[j]))
                continue;
            size_t ei = v[i].offset + rlx_kit__live_size(&v[i], align);
            size_t ej = v[j].offset + rlx_kit__live_size(&v[j], align);
            if (v[i].offset < ej && v[j].offset < ei)
                return 0;
        }
    return 1;
}

#endif /* RLX_KIT_PLAN_H */
