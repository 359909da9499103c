/*
 * kernels_convt.c - 2-d f32 conv_transpose (one group) as a GEMM and a
 * col2im scatter, instead of cpu-ref's per-element loop (the upsampling
 * head of detectors such as PP-OCR's spends most of its time here).
 *
 * Per image: col[M*KH*KW x P] = Wt . X, where X is the image's [C x P]
 * input (P = ih * iw) packed as the sgemm's B side and Wt[(m,ky,kx), c]
 * is the weight tensor [C, M, KH, KW] transposed (once per bound buffer).
 * Then each output plane is its bias plus, for every tap (ky, kx), the
 * tap's row of col added at (iy * sh - ph + ky * dh, ix * sw - pw +
 * kx * dw); taps that overlap (kernel larger than the stride) add up.
 * The planes are independent, so the scatter runs one plane per job.
 */
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_spatial.h>

#include "sgemm.h"

/* Fewer multiply-adds than this run on the calling thread. */
#define PAR_MIN_MACS ((size_t)1 << 18)

void rlxb_convt_free(rlxb_convt *p)
{
    free(p->wt);
    free(p->xpack);
    free(p->col);
    p->wt = p->xpack = p->col = NULL;
    p->wt_key = 0;
}

rlx_status rlxb_convt_prepare(rlxb_backend *be, const rlx_graph_view *g,
                              uint32_t i, rlxb_convt *p)
{
#if RLX__SGEMM_NR
    const rlx_node_view *v = g->nodes[i];
    if (v->op != RLX_OP_CONV_TRANSPOSE || v->rank != 4 ||
        v->n_inputs < 2 || v->n_inputs > 3)
        return RLX_ERR_UNSUPPORTED;
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    const rlx_node_view *w = g->nodes[v->inputs[1]];
    if (x->rank != 4 || w->rank != 4)
        return RLX_ERR_UNSUPPORTED;
    rlx_kit_spatial sp;
    char err[256];
    uint32_t n_ints = 0;
    const int64_t *ints = NULL;
    if (RLX_HAS_FIELD(v->struct_size, rlx_node_view, int_attrs)) {
        n_ints = v->n_int_attrs;
        ints = v->int_attrs;
    }
    if (rlx_kit_spatial_parse(v->op, 4, n_ints, ints, &sp, err,
                              sizeof err) != 0)
        return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-openblas compile: conv_transpose '%s': %s",
                            v->name, err);
    if (sp.group != 1 || w->shape[0] != x->shape[1] ||
        w->shape[1] != v->shape[1] || x->shape[0] != v->shape[0])
        return RLX_ERR_UNSUPPORTED; /* groups: cpu-ref */
    memset(p, 0, sizeof *p);
    p->n = (size_t)x->shape[0];
    p->c = (size_t)x->shape[1];
    p->ih = (size_t)x->shape[2];
    p->iw = (size_t)x->shape[3];
    p->m = (size_t)v->shape[1];
    p->oh = (size_t)v->shape[2];
    p->ow = (size_t)v->shape[3];
    p->kh = (size_t)w->shape[2];
    p->kw = (size_t)w->shape[3];
    p->sh = (size_t)sp.stride[0];
    p->sw = (size_t)sp.stride[1];
    p->dh = (size_t)sp.dilation[0];
    p->dw = (size_t)sp.dilation[1];
    p->ph = (size_t)sp.pad_begin[0];
    p->pw = (size_t)sp.pad_begin[1];
    p->rows = p->m * p->kh * p->kw;
    p->p = p->ih * p->iw;
    p->has_bias = v->n_inputs == 3;
    return RLX_OK;
#else
    (void)be;
    (void)g;
    (void)i;
    (void)p;
    return RLX_ERR_UNSUPPORTED; /* the portable variant: cpu-ref */
#endif
}

#if RLX__SGEMM_NR

typedef struct convt_ctx {
    const rlxb_convt *p;
    const float *bias;
    const float *col;   /* this image's [rows x P] */
    float *y;           /* this image's [M, oh, ow] */
} convt_ctx;

/* Output planes [begin, end): bias, then every tap's row scattered. */
static void scatter_jobs(void *arg, size_t begin, size_t end)
{
    const convt_ctx *cx = arg;
    const rlxb_convt *p = cx->p;
    const size_t plane = p->oh * p->ow;
    for (size_t mo = begin; mo < end; mo++) {
        float *yp = cx->y + mo * plane;
        float b = cx->bias ? cx->bias[mo] : 0.0f;
        for (size_t q = 0; q < plane; q++)
            yp[q] = b;
        for (size_t ky = 0; ky < p->kh; ky++)
            for (size_t kx = 0; kx < p->kw; kx++) {
                const float *row =
                    cx->col + ((mo * p->kh + ky) * p->kw + kx) * p->p;
                /* the input columns whose output column is inside */
                long off = (long)(kx * p->dw) - (long)p->pw;
                size_t ix0 = 0, ix1 = p->iw;
                while (ix0 < ix1 && (long)(ix0 * p->sw) + off < 0)
                    ix0++;
                while (ix1 > ix0 &&
                       (long)((ix1 - 1) * p->sw) + off >= (long)p->ow)
                    ix1--;
                for (size_t iy = 0; iy < p->ih; iy++) {
                    long oy = (long)(iy * p->sh + ky * p->dh) - (long)p->ph;
                    if (oy < 0 || oy >= (long)p->oh)
                        continue;
                    if (ix0 >= ix1)
                        continue;
                    const float *r = row + iy * p->iw + ix0;
                    float *yr = yp + (size_t)oy * p->ow +
                                (size_t)((long)(ix0 * p->sw) + off);
                    size_t len = ix1 - ix0;
                    if (p->sw == 1)
                        for (size_t t = 0; t < len; t++)
                            yr[t] += r[t];
                    else
                        for (size_t t = 0; t < len; t++)
                            yr[t * p->sw] += r[t];
                }
            }
    }
}

/* 64-byte aligned, FLOATS rounded up to whole lines */
static float *alloc_floats(size_t floats)
{
    size_t bytes = (floats * sizeof(float) + 63) & ~(size_t)63;
    return aligned_alloc(64, bytes ? bytes : 64);
}

int rlxb_convt_run(rlxb_pool *pool, rlxb_convt *p, const float *const *in,
                   float *y)
{
    const float *x = in[0], *w = in[1];
    const float *bias = p->has_bias ? in[2] : NULL;
    const size_t plane = p->oh * p->ow;
    if (p->n == 0 || p->m == 0 || plane == 0)
        return 0;
    if (!p->wt) {
        p->wt = alloc_floats(p->rows * p->c);
        p->xpack = alloc_floats(rlx__sgemm_packed_floats(p->c, p->p));
        p->col = alloc_floats(p->rows * p->p);
        if (!p->wt || !p->xpack || !p->col) {
            rlxb_convt_free(p);
            return -1;
        }
    }
    if (p->wt_key == 0 || p->wt_key != p->packed_key) {
        /* Wt[r][ci] = w[ci][r]: the weights as the row-major A side */
        for (size_t ci = 0; ci < p->c; ci++)
            for (size_t r = 0; r < p->rows; r++)
                p->wt[r * p->c + ci] = w[ci * p->rows + r];
        p->packed_key = p->wt_key;
    }
    size_t threads = rlxb_pool_threads(pool);
    int par = threads > 1 && p->rows * p->p * p->c >= PAR_MIN_MACS;
    const rlx__sgemm_epi none = { .act = RLX_OP_INVALID };
    for (size_t img = 0; img < p->n; img++) {
        convt_ctx cx = { .p = p, .bias = bias, .col = p->col,
                         .y = y + img * p->m * plane };
        if (p->c == 0 || p->p == 0) {
            memset(p->col, 0, p->rows * p->p * sizeof *p->col);
        } else {
            rlx__sgemm_pack_b(x + img * p->c * p->p, p->p, 0, p->c, p->p,
                              p->xpack);
            rlx__sgemm_run(pool, p->rows, p->p, p->c, p->wt, p->c,
                           p->xpack, p->col, p->p, &none);
        }
        if (par && p->m > 1)
            rlxb_parallel_for(pool, p->m, 1, scatter_jobs, &cx);
        else
            scatter_jobs(&cx, 0, p->m);
    }
    return 0;
}

#else /* the portable variant: prepare sends conv_transpose away */

int rlxb_convt_run(rlxb_pool *pool, rlxb_convt *p, const float *const *in,
                   float *y)
{
    (void)pool;
    (void)p;
    (void)in;
    (void)y;
    return -1;
}

#endif /* RLX__SGEMM_NR */
