/*
 * kernels_window.c - 2-d f32 max and average pooling and inference batch
 * norm (one not folded into a conv), threaded over channel planes.
 *
 * Pooling works a whole output row at a time: for each kernel tap the
 * range of output columns whose input is inside the row is computed
 * once, so the inner loop has no bounds checks and vectorises (stride
 * 1). Average pooling's divisor is separable: (rows of the window
 * counted) x (columns counted), the column counts made at compile time.
 * The semantics are cpu-ref's (kernels_pool.c): padding never enters a
 * max, NaN wins it; count_include_pad counts positions inside the padded
 * input, never those past the end padding that ceil mode adds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_spatial.h>

#include "blas_internal.h"

/* Fewer output elements than this run on the calling thread. */
#define PAR_MIN_ELEMS ((size_t)1 << 15)

void rlxb_window_free(rlxb_window *p)
{
    free(p->cnt_x);
    p->cnt_x = NULL;
}

/* Window positions of output index O on one axis: inside the input
 * (*IN) and inside the padded input (*PAD). */
static void axis_counts(size_t o, size_t k, size_t s, size_t d, size_t pb,
                        size_t pe, size_t n, size_t *in, size_t *pad)
{
    *in = *pad = 0;
    for (size_t t = 0; t < k; t++) {
        long pos = (long)(o * s + t * d) - (long)pb;
        *in += pos >= 0 && pos < (long)n;
        *pad += pos < (long)(n + pe);
    }
}

rlx_status rlxb_window_prepare(rlxb_backend *be,
                                    const rlx_graph_view *g, uint32_t i,
                                    rlxb_window *p)
{
    const rlx_node_view *v = g->nodes[i];
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    memset(p, 0, sizeof *p);
    if (v->op == RLX_OP_BATCH_NORM && x->rank >= 2 && v->n_inputs == 5) {
        /* [n, c, inner...]: the plane is all of inner */
        p->n = (size_t)x->shape[0];
        p->c = (size_t)x->shape[1];
        p->ih = p->oh = p->iw = p->ow = 1;
        for (uint32_t d = 2; d < x->rank; d++)
            p->ih *= (size_t)x->shape[d];
        p->oh = p->ih;
        p->eps = rlx_kit_float_attr(v, RLX_ATTR_NORM_EPSILON, 1e-5);
        return RLX_OK;
    }
    if (v->rank != 4 || x->rank != 4)
        return RLX_ERR_UNSUPPORTED;
    p->n = (size_t)x->shape[0];
    p->c = (size_t)x->shape[1];
    p->ih = (size_t)x->shape[2];
    p->iw = (size_t)x->shape[3];
    p->oh = (size_t)v->shape[2];
    p->ow = (size_t)v->shape[3];
    if (v->op != RLX_OP_MAX_POOL && v->op != RLX_OP_AVG_POOL)
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
                            "cpu-openblas compile: %s '%s': %s",
                            rlx_kit_op_name(v->op), v->name, err);
    p->kh = (size_t)sp.kernel[0];
    p->kw = (size_t)sp.kernel[1];
    p->sh = (size_t)sp.stride[0];
    p->sw = (size_t)sp.stride[1];
    p->dh = (size_t)sp.dilation[0];
    p->dw = (size_t)sp.dilation[1];
    p->ph = (size_t)sp.pad_begin[0];
    p->pw = (size_t)sp.pad_begin[1];
    p->peh = (size_t)sp.pad_end[0];
    p->pew = (size_t)sp.pad_end[1];
    p->include_pad = (int)sp.count_include_pad;
    if (v->op == RLX_OP_AVG_POOL) {
        p->cnt_x = malloc((p->ow ? p->ow : 1) * sizeof *p->cnt_x);
        if (!p->cnt_x)
            return rlx_kit_fail(be->host, RLX_ERR_OUT_OF_MEMORY,
                                "cpu-openblas compile: out of memory "
                                "planning '%s'. Fix: free memory", v->name);
        for (size_t o = 0; o < p->ow; o++) {
            size_t in, pad;
            axis_counts(o, p->kw, p->sw, p->dw, p->pw, p->pew, p->iw, &in,
                        &pad);
            p->cnt_x[o] = (float)(p->include_pad ? pad : in);
        }
    }
    return RLX_OK;
}

typedef struct window_ctx {
    rlx_op op;
    const rlxb_window *p;
    const float *const *in;
    float *y;
} window_ctx;

/* Output columns [*lo, *hi) whose tap at column offset OFF (input
 * column ox * sw + off) is inside the row. */
static void col_range(const rlxb_window *p, long off, long *lo,
                      long *hi)
{
    long sw = (long)p->sw, iw = (long)p->iw;
    *lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
    *hi = iw - 1 - off < 0 ? 0 : (iw - 1 - off) / sw + 1;
    if (*hi > (long)p->ow)
        *hi = (long)p->ow;
}

static void pool_planes(void *arg, size_t begin, size_t end)
{
    const window_ctx *cx = arg;
    const rlxb_window *p = cx->p;
    int is_max = cx->op == RLX_OP_MAX_POOL;
    for (size_t plane = begin; plane < end; plane++) {
        const float *xc = cx->in[0] + plane * p->ih * p->iw;
        float *yc = cx->y + plane * p->oh * p->ow;
        for (size_t oy = 0; oy < p->oh; oy++) {
            float *row = yc + oy * p->ow;
            float init = is_max ? -INFINITY : 0.0f;
            for (size_t ox = 0; ox < p->ow; ox++)
                row[ox] = init;
            size_t rows_in = 0, rows_pad = 0;
            axis_counts(oy, p->kh, p->sh, p->dh, p->ph, p->peh, p->ih,
                        &rows_in, &rows_pad);
            for (size_t a = 0; a < p->kh; a++) {
                long r = (long)(oy * p->sh + a * p->dh) - (long)p->ph;
                if (r < 0 || r >= (long)p->ih)
                    continue;
                const float *xr = xc + (size_t)r * p->iw;
                for (size_t b = 0; b < p->kw; b++) {
                    long off = (long)(b * p->dw) - (long)p->pw, lo, hi;
                    col_range(p, off, &lo, &hi);
                    if (hi <= lo)
                        continue;
                    long sw = (long)p->sw, len = hi - lo;
                    /* input column of output lo, then every sw */
                    const float *xs = xr + (lo * sw + off);
                    float *yo = row + lo;
                    if (is_max) { /* NaN, once in, stays */
                        for (long t = 0; t < len; t++) {
                            float v = xs[t * sw];
                            yo[t] = v > yo[t] || v != v ? v : yo[t];
                        }
                    } else {
                        for (long t = 0; t < len; t++)
                            yo[t] += xs[t * sw];
                    }
                }
            }
            if (!is_max) {
                float ry = (float)(p->include_pad ? rows_pad : rows_in);
                for (size_t ox = 0; ox < p->ow; ox++)
                    row[ox] /= ry * p->cnt_x[ox];
            }
        }
    }
}

/* y = x * mul[c] + add[c], mul = scale / sqrt(var + eps), add = bias -
 * mean * mul, per (image, channel) plane. */
static void bn_planes(void *arg, size_t begin, size_t end)
{
    const window_ctx *cx = arg;
    const rlxb_window *p = cx->p;
    const float *const *in = cx->in;
    size_t inner = p->ih * p->iw;
    for (size_t plane = begin; plane < end; plane++) {
        size_t c = plane % p->c;
        double mul = in[1][c] / sqrt((double)in[4][c] + p->eps);
        float m = (float)mul, a = (float)(in[2][c] - in[3][c] * mul);
        const float *x = in[0] + plane * inner;
        float *y = cx->y + plane * inner;
        for (size_t i = 0; i < inner; i++)
            y[i] = x[i] * m + a;
    }
}

void rlxb_window_run(rlxb_pool *pool, rlx_op op,
                          const rlxb_window *p, const float *const *in,
                          float *y)
{
    window_ctx cx = { .op = op, .p = p, .in = in, .y = y };
    size_t planes = p->n * p->c;
    size_t elems = planes * p->oh * p->ow;
    rlxb_task_fn fn = op == RLX_OP_BATCH_NORM ? bn_planes : pool_planes;
    if (planes > 1 && elems >= PAR_MIN_ELEMS &&
        rlxb_pool_threads(pool) > 1)
        rlxb_parallel_for(pool, planes, 1, fn, &cx);
    else
        fn(&cx, 0, planes);
}
