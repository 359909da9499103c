/*
 * kernels_pool.c - max_pool, avg_pool and lp_pool for the reference
 * backend: each output reads its window directly, accumulating in
 * double. Padding never enters a max; avg_pool divides by the window's
 * elements inside the input, or with count_include_pad by its positions
 * inside the padded input (positions past the end padding, which ceil
 * mode can add, never count); lp_pool treats padding as 0. max_pool_index
 * gives where each max is.
 */
#include <math.h>
#include <stdlib.h>

#include "cpu_ref_internal.h"

rlx_status rlx__cpu_ref_pool_prepare(const rlx_host *host,
                                     const rlx_graph_view *g,
                                     const rlx_node_view *v,
                                     const char *name,
                                     rlx__cpu_ref_vision **out)
{
    rlx__cpu_ref_vision *p = rlx__cpu_ref_vision_new(g, v);
    *out = p;
    if (!p)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory planning '%s'. "
                            "Fix: free memory", name);
    return rlx__cpu_ref_window_read(host, g, v, name, p);
}

static double pool_one(rlx_op op, const rlx__cpu_ref_vision *p,
                       const float *xc, const size_t *oidx)
{
    const rlx_kit_spatial *sp = &p->sp;
    size_t kidx[RLX_KIT_SPATIAL_MAX] = { 0 };
    double best = -INFINITY, sum = 0;
    size_t inside_n = 0, padded_n = 0;
    for (size_t kk = 0; kk < p->k_sp; kk++) {
        /* kidx counts through the kernel, last axis fastest */
        if (kk)
            for (uint32_t d = sp->s; d-- > 0;) {
                if (++kidx[d] < (size_t)sp->kernel[d])
                    break;
                kidx[d] = 0;
            }
        size_t off = 0;
        int inside = 1, padded = 1;
        for (uint32_t d = 0; d < sp->s; d++) {
            int64_t pos = (int64_t)oidx[d] * sp->stride[d] -
                          sp->pad_begin[d] +
                          (int64_t)kidx[d] * sp->dilation[d];
            inside = inside && pos >= 0 && pos < (int64_t)p->in[d];
            padded = padded && pos < (int64_t)p->in[d] + sp->pad_end[d];
            if (inside)
                off = off * p->in[d] + (size_t)pos;
        }
        padded_n += padded;
        if (!inside)
            continue;
        double v = xc[off];
        inside_n++;
        if (op == RLX_OP_MAX_POOL) {
            if (v > best || isnan(v))
                best = v;
            if (isnan(best))
                return best; /* NaN wins a max, as in NumPy */
        } else if (op == RLX_OP_AVG_POOL) {
            sum += v;
        } else {
            sum += pow(fabs(v), (double)sp->p);
        }
    }
    if (op == RLX_OP_MAX_POOL)
        return best;
    if (op == RLX_OP_AVG_POOL)
        return sum / (double)(sp->count_include_pad ? padded_n : inside_n);
    return pow(sum, 1.0 / (double)sp->p);
}

void rlx__cpu_ref_pool_run(rlx_op op, const rlx__cpu_ref_vision *p,
                           const float *x, float *y)
{
    size_t oidx[RLX_KIT_SPATIAL_MAX] = { 0 };
    for (size_t nc = 0; nc < p->n * p->c; nc++) {
        const float *xc = x + nc * p->in_sp;
        float *yc = y + nc * p->out_sp;
        for (size_t o = 0; o < p->out_sp; o++) {
            size_t f = o;
            for (uint32_t d = p->sp.s; d-- > 0;) {
                oidx[d] = f % p->out[d];
                f /= p->out[d];
            }
            yc[o] = rlx__cpu_ref_to_f32(pool_one(op, p, xc, oidx));
        }
    }
}

/* max_pool_index: the flat input position of each window's maximum
 * (docs/ops.md), the same walk as pool_one's max; storage_order 1 (in
 * sp.p) numbers the spatial position column-major. */
static int64_t argmax_one(const rlx__cpu_ref_vision *p, const float *xc,
                          const size_t *oidx)
{
    const rlx_kit_spatial *sp = &p->sp;
    size_t kidx[RLX_KIT_SPATIAL_MAX] = { 0 };
    double best = 0;
    int64_t at = -1;
    for (size_t kk = 0; kk < p->k_sp; kk++) {
        if (kk)
            for (uint32_t d = sp->s; d-- > 0;) {
                if (++kidx[d] < (size_t)sp->kernel[d])
                    break;
                kidx[d] = 0;
            }
        size_t off = 0, col = 0, step = 1;
        int inside = 1;
        for (uint32_t d = 0; d < sp->s; d++) {
            int64_t pos = (int64_t)oidx[d] * sp->stride[d] -
                          sp->pad_begin[d] +
                          (int64_t)kidx[d] * sp->dilation[d];
            inside = inside && pos >= 0 && pos < (int64_t)p->in[d];
            if (inside) {
                off = off * p->in[d] + (size_t)pos;
                col += (size_t)pos * step;
                step *= p->in[d];
            }
        }
        if (!inside)
            continue;
        double v = xc[off];
        if (at < 0 || v > best || (isnan(v) && !isnan(best))) {
            best = v;
            at = (int64_t)(sp->p == 1 ? col : off);
        }
    }
    return at;
}

void rlx__cpu_ref_pool_index_run(const rlx__cpu_ref_vision *p,
                                 const float *x, int64_t *y)
{
    size_t oidx[RLX_KIT_SPATIAL_MAX] = { 0 };
    for (size_t nc = 0; nc < p->n * p->c; nc++) {
        const float *xc = x + nc * p->in_sp;
        for (size_t o = 0; o < p->out_sp; o++) {
            size_t f = o;
            for (uint32_t d = p->sp.s; d-- > 0;) {
                oidx[d] = f % p->out[d];
                f /= p->out[d];
            }
            int64_t at = argmax_one(p, xc, oidx);
            y[nc * p->out_sp + o] =
                at < 0 ? -1 : (int64_t)(nc * p->in_sp) + at;
        }
    }
}
