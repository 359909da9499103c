/*
 * gpu_plan.c - the compile-time memory plan: each storage's live interval
 * of steps; the kit's planner (rlx_kit_plan_memory) then gives arena
 * offsets by liveness, so a run allocates nothing.
 */
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
        touch(exe, st->in5, (int)s);
        if (st->kind == RLXG_STEP_QUANT && st->q.chain)
            for (int j = 0; j < 8; j++)
                touch(exe, st->extra[j], (int)s);
    }
    for (uint32_t o = 0; o < g->n_outputs; o++)
        touch(exe, (int)g->outputs[o], (int)exe->n_steps);
}
