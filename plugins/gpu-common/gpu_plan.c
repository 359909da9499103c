/*
 * gpu_plan.c - the compile-time memory plan: each storage's live interval
 * of steps, then arena offsets by liveness, so a run allocates nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_compile.h"

static void touch(rlx_executable *exe, int v, int step)
{
    if (v < 0)
        return;
    int s = exe->values[v].storage;
    if (s < 0)
        return;
    if (step < exe->storages[s].first)
        exe->storages[s].first = step;
    if (step > exe->storages[s].last)
        exe->storages[s].last = step;
}

void rlxg_liveness(ctx *c)
{
    rlx_executable *exe = c->exe;
    const rlx_graph_view *g = c->g;
    for (uint32_t i = 0; i < g->n_inputs; i++)
        touch(exe, (int)g->inputs[i], -1);
    for (uint32_t s = 0; s < exe->n_steps; s++) {
        const rlxg_step *st = &exe->steps[s];
        touch(exe, st->out, (int)s);
        for (int j = 0; j < 4; j++)
            touch(exe, st->in[j], (int)s);
    }
    for (uint32_t o = 0; o < g->n_outputs; o++)
        touch(exe, (int)g->outputs[o], (int)exe->n_steps);
}

size_t rlxg_plan_memory(rlxg_storage *s, uint32_t n, size_t align)
{
    /* Greedy: largest first, each at the lowest offset that does not
     * overlap a placed storage whose live interval overlaps its own. */
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    unsigned char *placed = calloc(n ? n : 1, 1);
    size_t total = 0;
    if (!order || !placed) { /* fall back: no reuse */
        for (uint32_t i = 0; i < n; i++) {
            s[i].offset = total;
            total = align_up(total + s[i].nbytes, align);
        }
        free(order);
        free(placed);
        return total;
    }
    for (uint32_t i = 0; i < n; i++)
        order[i] = i;
    for (uint32_t i = 1; i < n; i++) { /* insertion sort, size desc */
        uint32_t k = order[i], j = i;
        while (j > 0 && s[order[j - 1]].nbytes < s[k].nbytes) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (uint32_t oi = 0; oi < n; oi++) {
        rlxg_storage *x = &s[order[oi]];
        size_t size = align_up(x->nbytes ? x->nbytes : 1, align);
        size_t at = 0;
        for (int moved = 1; moved;) {
            moved = 0;
            for (uint32_t j = 0; j < n; j++) {
                const rlxg_storage *y = &s[j];
                if (!placed[j] || y->last < x->first || x->last < y->first)
                    continue;
                size_t ysize = align_up(y->nbytes ? y->nbytes : 1, align);
                if (at < y->offset + ysize && y->offset < at + size) {
                    at = y->offset + ysize;
                    moved = 1;
                }
            }
        }
        x->offset = at;
        placed[order[oi]] = 1;
        if (at + size > total)
            total = at + size;
    }
    free(order);
    free(placed);
    return total;
}
