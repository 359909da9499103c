/*
 * kernels_resize.c - nearest-neighbour f32 resize of any rank as a
 * threaded row gather, instead of cpu-ref's per-element tap loop (the
 * feature pyramid of detectors such as PP-OCR's upsamples with it).
 *
 * cpu-ref's planner works out which input index each output index of
 * each axis reads (ONNX's coordinate transforms and rounding modes, in
 * one place); compile turns those into element offsets. An output row
 * (the last axis) then reads one input row through the last axis's
 * offsets, and a row that reads the same input row as the one before it
 * (upsampling) is a copy of it.
 */
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"
#include "cpu_ref_vision.h"

void rlxb_resize_free(rlxb_resize *p)
{
    free(p->off);
    p->off = NULL;
}

rlx_status rlxb_resize_prepare(rlxb_backend *be, const rlx_graph_view *g,
                               uint32_t i, rlxb_resize *p)
{
    const rlx_node_view *v = g->nodes[i];
    if (v->op != RLX_OP_RESIZE || v->n_inputs != 1 || v->rank == 0 ||
        v->rank > 8 || g->nodes[v->inputs[0]]->rank != v->rank ||
        !RLX_HAS_FIELD(v->struct_size, rlx_node_view, int_attrs) ||
        v->n_int_attrs <= RLX_ATTR_RESIZE_MODE ||
        v->int_attrs[RLX_ATTR_RESIZE_MODE] != RLX_RESIZE_NEAREST)
        return RLX_ERR_UNSUPPORTED; /* linear, cubic: cpu-ref */
    rlx__cpu_ref_vision *vp = NULL;
    rlx_status st = rlx__cpu_ref_resize_prepare(be->host, g, v, v->name,
                                                &vp);
    if (st != RLX_OK) {
        rlx__cpu_ref_vision_free(vp);
        return st;
    }
    memset(p, 0, sizeof *p);
    uint32_t r = v->rank;
    size_t total = 0, stride[8];
    for (uint32_t d = r; d-- > 0;) {
        stride[d] = d + 1 < r ? stride[d + 1] * vp->r_in[d + 1] : 1;
        total += vp->r_out[d];
    }
    p->rank = r;
    p->off = malloc((total ? total : 1) * sizeof *p->off);
    if (!p->off) {
        rlx__cpu_ref_vision_free(vp);
        return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-openblas compile: out of memory planning "
                            "resize '%s'. Fix: free memory", v->name);
    }
    size_t at = 0;
    p->rows = 1;
    for (uint32_t d = 0; d < r; d++) {
        p->out[d] = vp->r_out[d];
        p->axis[d] = at;
        if (d + 1 < r)
            p->rows *= p->out[d];
        for (size_t o = 0; o < p->out[d]; o++) {
            if (vp->tap_n[d][o] != 1) { /* extrapolated (crop): cpu-ref */
                rlx__cpu_ref_vision_free(vp);
                rlxb_resize_free(p);
                return RLX_ERR_UNSUPPORTED;
            }
            p->off[at++] = (size_t)vp->tap_idx[d]
                                       [o * RLX__CPU_REF_RESIZE_TAPS] *
                           stride[d];
        }
    }
    rlx__cpu_ref_vision_free(vp);
    return RLX_OK;
}

typedef struct resize_ctx {
    const rlxb_resize *p;
    const float *x;
    float *y;
} resize_ctx;

/* Output rows [begin, end). */
static void resize_rows(void *arg, size_t begin, size_t end)
{
    const resize_ctx *cx = arg;
    const rlxb_resize *p = cx->p;
    const uint32_t last = p->rank - 1;
    const size_t len = p->out[last];
    const size_t *ol = p->off + p->axis[last];
    size_t prev = SIZE_MAX;
    for (size_t q = begin; q < end; q++) {
        /* the row's input offset from its index on each outer axis */
        size_t base = 0, rest = q;
        for (uint32_t d = last; d-- > 0;) {
            base += p->off[p->axis[d] + rest % p->out[d]];
            rest /= p->out[d];
        }
        float *yr = cx->y + q * len;
        if (base == prev) {
            memcpy(yr, yr - len, len * sizeof *yr);
            continue;
        }
        const float *xr = cx->x + base;
        for (size_t j = 0; j < len; j++)
            yr[j] = xr[ol[j]];
        prev = base;
    }
}

void rlxb_resize_run(rlxb_pool *pool, const rlxb_resize *p, const float *x,
                     float *y)
{
    resize_ctx cx = { .p = p, .x = x, .y = y };
    size_t len = p->out[p->rank - 1];
    if (p->rows == 0 || len == 0)
        return;
    /* rows of at least 16k elements a task */
    size_t grain = len >= 16384 ? 1 : 16384 / len;
    if (rlxb_pool_threads(pool) > 1 && p->rows > grain)
        rlxb_parallel_for(pool, p->rows, grain, resize_rows, &cx);
    else
        resize_rows(&cx, 0, p->rows);
}
