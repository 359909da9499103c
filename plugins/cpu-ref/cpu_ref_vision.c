/*
 * cpu_ref_vision.c - the plan the vision ops (conv, pools, resize,
 * channel norms) share: allocation, the f32 copies i8/u8 nodes compute
 * through, and freeing.
 */
#include <stdlib.h>

#include "cpu_ref_internal.h"

static size_t count_of(const rlx_node_view *v)
{
    size_t n = 1;
    for (uint32_t i = 0; i < v->rank; i++)
        n *= (size_t)v->shape[i]; /* fits: the node was allocated */
    return n;
}

rlx__cpu_ref_vision *rlx__cpu_ref_vision_new(const rlx_graph_view *g,
                                             const rlx_node_view *v)
{
    rlx__cpu_ref_vision *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (v->dtype == RLX_DTYPE_I8 || v->dtype == RLX_DTYPE_U8) {
        size_t nx = count_of(g->nodes[v->inputs[0]]), ny = count_of(v);
        p->xin = malloc((nx ? nx : 1) * sizeof *p->xin);
        p->yout = malloc((ny ? ny : 1) * sizeof *p->yout);
        if (!p->xin || !p->yout) {
            rlx__cpu_ref_vision_free(p);
            return NULL;
        }
    }
    return p;
}

void rlx__cpu_ref_vision_free(rlx__cpu_ref_vision *p)
{
    if (!p)
        return;
    free(p->col);
    free(p->acc);
    for (int i = 0; i < 8; i++) {
        free(p->tap_idx[i]);
        free(p->tap_w[i]);
        free(p->tap_n[i]);
    }
    free(p->xin);
    free(p->yout);
    free(p);
}
