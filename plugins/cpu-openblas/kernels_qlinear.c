/*
 * kernels_qlinear.c - quantize_linear and dequantize_linear, per tensor
 * and per axis, f32 on the float side, threaded and in loops the
 * compiler vectorises (the blocked form of opset 21 and f16/bf16 scales
 * stay with cpu-ref). Bit-identical to cpu-ref (kernels_quant.c):
 * quantize divides in f32, rounds half to even (nearbyintf in the
 * default rounding mode; the double cpu-ref rounds in is exact for any
 * f32), NaN gives the zero point, then + zero point and saturation;
 * dequantize computes (f32(x) - f32(zero point)) * scale.
 */
#include <math.h>
#include <string.h>

#include "blas_internal.h"

static size_t numel(const rlx_node_view *v)
{
    size_t n = 1;
    for (uint32_t d = 0; d < v->rank; d++)
        n *= (size_t)v->shape[d];
    return n;
}

rlx_status rlxb_qlin_prepare(const rlx_graph_view *g, uint32_t i,
                             rlxb_qlin *p)
{
    const rlx_node_view *v = g->nodes[i];
    if ((v->op != RLX_OP_QUANTIZE_LINEAR &&
         v->op != RLX_OP_DEQUANTIZE_LINEAR) || v->n_inputs != 3)
        return RLX_ERR_UNSUPPORTED;
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    const rlx_node_view *s = g->nodes[v->inputs[1]];
    const rlx_node_view *z = g->nodes[v->inputs[2]];
    int q = v->op == RLX_OP_QUANTIZE_LINEAR;
    rlx_dtype byte = q ? v->dtype : x->dtype;
    if (s->dtype != RLX_DTYPE_F32 || z->dtype != byte ||
        (q ? x->dtype != RLX_DTYPE_F32 || (byte != RLX_DTYPE_U8 &&
                                            byte != RLX_DTYPE_I8)
           : v->dtype != RLX_DTYPE_F32 ||
                 (byte != RLX_DTYPE_U8 && byte != RLX_DTYPE_I8 &&
                  byte != RLX_DTYPE_I32)) ||
        rlx_kit_int_attr(v, RLX_ATTR_QUANT_BLOCK_SIZE, 0) != 0 ||
        numel(z) != numel(s) || x->rank != v->rank)
        return RLX_ERR_UNSUPPORTED;
    memset(p, 0, sizeof *p);
    p->quantize = q;
    p->tx = byte;
    p->outer = 1;
    p->len = 1;
    p->inner = numel(x);
    if (numel(s) == 1 && s->rank <= 1)
        return RLX_OK; /* per tensor: one segment */
    int64_t axis = rlx_kit_int_attr(v, RLX_ATTR_QUANT_AXIS, 1);
    if (axis < 0)
        axis += x->rank;
    if (axis < 0 || axis >= (int64_t)x->rank || s->rank != 1 ||
        (size_t)s->shape[0] != (size_t)x->shape[axis])
        return RLX_ERR_UNSUPPORTED; /* cpu-ref reports it */
    p->outer = p->inner = 1;
    for (int64_t d = 0; d < axis; d++)
        p->outer *= (size_t)x->shape[d];
    for (uint32_t d = (uint32_t)axis + 1; d < x->rank; d++)
        p->inner *= (size_t)x->shape[d];
    p->len = (size_t)x->shape[axis];
    return RLX_OK;
}

typedef struct qlrun {
    const rlxb_qlin *p;
    const void *x;
    const float *s;
    const void *z;
    void *y;
} qlrun;

static int32_t zp_at(rlx_dtype t, const void *z, size_t k)
{
    switch (t) {
    case RLX_DTYPE_U8: return ((const uint8_t *)z)[k];
    case RLX_DTYPE_I8: return ((const int8_t *)z)[k];
    default: return ((const int32_t *)z)[k];
    }
}

/* Elements [b, e), all with scale element K. */
static void segment(const qlrun *r, size_t k, size_t b, size_t e)
{
    const rlxb_qlin *p = r->p;
    float s = r->s[k];
    int32_t zp = zp_at(p->tx, r->z, k);
    if (p->quantize) {
        const float *x = r->x;
        int32_t lo = p->tx == RLX_DTYPE_U8 ? 0 : -128;
        int32_t hi = p->tx == RLX_DTYPE_U8 ? 255 : 127;
        float flo = (float)(lo - zp), fhi = (float)(hi - zp);
        uint8_t *y = r->y;
        for (size_t i = b; i < e; i++) {
            float q = x[i] / s;
            float t = q == q ? nearbyintf(q) : 0.0f;
            t = t < flo ? flo : t;
            t = t > fhi ? fhi : t;
            y[i] = (uint8_t)((int32_t)t + zp); /* i8: two's complement */
        }
        return;
    }
    float fz = (float)zp, *y = r->y;
    switch (p->tx) {
    case RLX_DTYPE_U8: {
        const uint8_t *x = r->x;
        for (size_t i = b; i < e; i++)
            y[i] = ((float)x[i] - fz) * s;
        break;
    }
    case RLX_DTYPE_I8: {
        const int8_t *x = r->x;
        for (size_t i = b; i < e; i++)
            y[i] = ((float)x[i] - fz) * s;
        break;
    }
    default: {
        const int32_t *x = r->x;
        for (size_t i = b; i < e; i++)
            y[i] = ((float)x[i] - fz) * s;
        break;
    }
    }
}

static void task(void *arg, size_t begin, size_t end)
{
    const qlrun *r = arg;
    const rlxb_qlin *p = r->p;
    /* items are elements; cut at every change of scale element */
    size_t i = begin;
    while (i < end) {
        size_t row = i / p->inner;
        size_t stop = (row + 1) * p->inner;
        if (stop > end)
            stop = end;
        segment(r, row % p->len, i, stop);
        i = stop;
    }
}

void rlxb_qlin_run(rlxb_pool *pool, const rlxb_qlin *p, const void *x,
                   const void *s, const void *z, void *y)
{
    qlrun r = { .p = p, .x = x, .s = s, .z = z, .y = y };
    rlxb_parallel_for(pool, p->outer * p->len * p->inner, (size_t)1 << 15,
                      task, &r);
}
