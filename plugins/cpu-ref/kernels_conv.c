/*
 * kernels_conv.c - conv and conv_transpose for the reference backend.
 *
 * conv lowers each (image, group) to an im2col matrix and a plain
 * weights x columns product accumulated in double, tiled so the columns
 * stay in cache: readable, and fast enough that a ResNet-18 runs in
 * seconds. conv_transpose scatters each
 * input element times the kernel into a double accumulator, the
 * definition read literally.
 */
#include <stdlib.h>
#include <string.h>

#include "cpu_ref_internal.h"

#define FIX_REPORT " Fix: report this as a bug in the rlx core"

/* Product of N sizes, or 0 with *OVF set when it overflows size_t. */
static size_t product(const size_t *d, uint32_t n, int *ovf)
{
    size_t p = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (d[i] && p > SIZE_MAX / d[i])
            *ovf = 1;
        p *= d[i];
    }
    return p;
}

rlx_status rlx__cpu_ref_window_read(const rlx_host *host,
                                    const rlx_graph_view *g,
                                    const rlx_node_view *v, const char *name,
                                    rlx__cpu_ref_vision *p)
{
    char err[256];
    rlx__cpu_ref_attrs a = rlx__cpu_ref_attrs_of(v);
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    if (rlx_kit_spatial_parse(v->op, x->rank, a.n_ints, a.ints, &p->sp, err,
                              sizeof err) != 0 || v->rank != x->rank)
        return rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-ref compile: %s '%s': %s",
                            rlx_kit_op_name(v->op), name, err);
    if (rlx_kit_op_is_conv(v->op)) {
        const rlx_node_view *w = g->nodes[v->inputs[1]];
        if (w->rank != x->rank)
            return rlx_kit_fail(host, RLX_ERR_SHAPE,
                                "cpu-ref compile: %s '%s' has weights of "
                                "rank %u." FIX_REPORT,
                                rlx_kit_op_name(v->op), name,
                                (unsigned)w->rank);
        for (uint32_t i = 0; i < p->sp.s; i++)
            p->sp.kernel[i] = w->shape[2 + i];
    }
    p->n = (size_t)x->shape[0];
    p->c = (size_t)x->shape[1];
    p->m = (size_t)v->shape[1];
    int ovf = 0;
    size_t k[RLX_KIT_SPATIAL_MAX];
    for (uint32_t i = 0; i < p->sp.s; i++) {
        p->in[i] = (size_t)x->shape[2 + i];
        p->out[i] = (size_t)v->shape[2 + i];
        k[i] = (size_t)p->sp.kernel[i];
        int64_t want = rlx_kit_spatial_out(v->op, &p->sp, i, x->shape[2 + i],
                                           err, sizeof err);
        if (want != v->shape[2 + i])
            return rlx_kit_fail(host, RLX_ERR_SHAPE,
                                "cpu-ref compile: %s '%s': spatial axis "
                                "%u has size %lld, the attributes give "
                                "%lld." FIX_REPORT, rlx_kit_op_name(v->op),
                                name, (unsigned)i,
                                (long long)v->shape[2 + i], (long long)want);
    }
    p->in_sp = product(p->in, p->sp.s, &ovf);
    p->out_sp = product(p->out, p->sp.s, &ovf);
    p->k_sp = product(k, p->sp.s, &ovf);
    if (ovf)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: %s '%s' is too large to "
                            "index. Fix: use smaller dims",
                            rlx_kit_op_name(v->op), name);
    return RLX_OK;
}

rlx_status rlx__cpu_ref_conv_prepare(const rlx_host *host,
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
    rlx_status st = rlx__cpu_ref_window_read(host, g, v, name, p);
    if (st != RLX_OK)
        return st;
    p->has_bias = v->n_inputs == 3;
    size_t grp = (size_t)p->sp.group;
    if (p->c % grp || p->m % grp)
        return rlx_kit_fail(host, RLX_ERR_SHAPE,
                            "cpu-ref compile: %s '%s': channels %zu -> %zu "
                            "with group %zu." FIX_REPORT,
                            rlx_kit_op_name(v->op), name, p->c, p->m, grp);
    size_t rows = p->c / grp * p->k_sp;
    size_t ncol = 1, nacc = 1; /* conv accumulates in a stack tile */
    int big = 0;
    if (v->op == RLX_OP_CONV) {
        big = p->out_sp && rows > SIZE_MAX / sizeof(float) / p->out_sp;
        ncol = big ? 1 : rows * p->out_sp;
    } else {
        big = p->out_sp && p->m > SIZE_MAX / sizeof(double) / p->out_sp;
        nacc = big ? 1 : p->m * p->out_sp;
    }
    p->col = big ? NULL : malloc((ncol ? ncol : 1) * sizeof *p->col);
    p->acc = big ? NULL : malloc((nacc ? nacc : 1) * sizeof *p->acc);
    if (!p->col || !p->acc)
        return rlx_kit_fail(host, RLX_ERR_OUT_OF_MEMORY,
                            "cpu-ref compile: out of memory for the "
                            "scratch of %s '%s'. Fix: use smaller dims or "
                            "less padding", rlx_kit_op_name(v->op), name);
    return RLX_OK;
}

/* Split flat index F over the S sizes D (last fastest) into IDX. */
static void unflatten(size_t f, const size_t *d, uint32_t s, size_t *idx)
{
    for (uint32_t i = s; i-- > 0;) {
        idx[i] = f % d[i];
        f /= d[i];
    }
}

/* Column matrix of one group: row (ci, kk), column p = the input under
 * kernel tap kk of output position p (0 in the padding). */
static void im2col(const rlx__cpu_ref_vision *p, const float *xg, size_t cg,
                   float *col)
{
    const rlx_kit_spatial *sp = &p->sp;
    size_t ks[RLX_KIT_SPATIAL_MAX], kidx[RLX_KIT_SPATIAL_MAX];
    size_t oidx[RLX_KIT_SPATIAL_MAX];
    for (uint32_t d = 0; d < sp->s; d++)
        ks[d] = (size_t)sp->kernel[d];
    for (size_t ci = 0; ci < cg; ci++) {
        const float *xc = xg + ci * p->in_sp;
        for (size_t kk = 0; kk < p->k_sp; kk++) {
            float *row = col + (ci * p->k_sp + kk) * p->out_sp;
            unflatten(kk, ks, sp->s, kidx);
            for (size_t o = 0; o < p->out_sp; o++) {
                unflatten(o, p->out, sp->s, oidx);
                size_t off = 0;
                int inside = 1;
                for (uint32_t d = 0; d < sp->s && inside; d++) {
                    int64_t pos = (int64_t)oidx[d] * sp->stride[d] -
                                  sp->pad_begin[d] +
                                  (int64_t)kidx[d] * sp->dilation[d];
                    inside = pos >= 0 && pos < (int64_t)p->in[d];
                    off = off * p->in[d] + (size_t)pos;
                }
                row[o] = inside ? xc[off] : 0.0f;
            }
        }
    }
}

/* Output positions and channels per tile of the product: a tile of the
 * column matrix (all rows, CONV_TILE_O columns) stays in cache while
 * CONV_TILE_M output channels read it. */
enum { CONV_TILE_O = 128, CONV_TILE_M = 4 };

static void conv_run(rlx__cpu_ref_vision *p, const float *x, const float *w,
                     const float *b, float *y)
{
    size_t grp = (size_t)p->sp.group, cg = p->c / grp, mg = p->m / grp;
    size_t kg = cg * p->k_sp, np = p->out_sp;
    double acc[CONV_TILE_M][CONV_TILE_O];
    for (size_t n = 0; n < p->n; n++) {
        for (size_t g = 0; g < grp; g++) {
            im2col(p, x + (n * p->c + g * cg) * p->in_sp, cg, p->col);
            for (size_t o0 = 0; o0 < np; o0 += CONV_TILE_O) {
                size_t on = np - o0 < CONV_TILE_O ? np - o0 : CONV_TILE_O;
                for (size_t m0 = 0; m0 < mg; m0 += CONV_TILE_M) {
                    size_t mn = mg - m0 < CONV_TILE_M ? mg - m0 : CONV_TILE_M;
                    size_t mm = g * mg + m0; /* first output channel */
                    for (size_t j = 0; j < mn; j++)
                        for (size_t o = 0; o < on; o++)
                            acc[j][o] = b ? b[mm + j] : 0.0;
                    for (size_t kk = 0; kk < kg; kk++) {
                        const float *cr = p->col + kk * np + o0;
                        if (mn == CONV_TILE_M) { /* one read, four sums */
                            double w0 = w[mm * kg + kk];
                            double w1 = w[(mm + 1) * kg + kk];
                            double w2 = w[(mm + 2) * kg + kk];
                            double w3 = w[(mm + 3) * kg + kk];
                            for (size_t o = 0; o < on; o++) {
                                double c = cr[o];
                                acc[0][o] += w0 * c;
                                acc[1][o] += w1 * c;
                                acc[2][o] += w2 * c;
                                acc[3][o] += w3 * c;
                            }
                            continue;
                        }
                        for (size_t j = 0; j < mn; j++) {
                            double wv = w[(mm + j) * kg + kk];
                            for (size_t o = 0; o < on; o++)
                                acc[j][o] += wv * cr[o];
                        }
                    }
                    for (size_t j = 0; j < mn; j++) {
                        float *yr = y + (n * p->m + mm + j) * np + o0;
                        for (size_t o = 0; o < on; o++)
                            yr[o] = rlx__cpu_ref_to_f32(acc[j][o]);
                    }
                }
            }
        }
    }
}

/* y[n, g*mg+mo, i*stride - pad + k*dil] += x[n, ci, i] * w[ci, mo, k] */
static void conv_transpose_run(rlx__cpu_ref_vision *p, const float *x,
                               const float *w, const float *b, float *y)
{
    const rlx_kit_spatial *sp = &p->sp;
    size_t grp = (size_t)sp->group, cg = p->c / grp, mg = p->m / grp;
    size_t ks[RLX_KIT_SPATIAL_MAX], kidx[RLX_KIT_SPATIAL_MAX];
    size_t iidx[RLX_KIT_SPATIAL_MAX];
    for (uint32_t d = 0; d < sp->s; d++)
        ks[d] = (size_t)sp->kernel[d];
    for (size_t n = 0; n < p->n; n++) {
        for (size_t i = 0; i < p->m * p->out_sp; i++)
            p->acc[i] = b ? b[i / p->out_sp] : 0.0;
        for (size_t ci = 0; ci < p->c; ci++) {
            size_t g = ci / cg;
            const float *xc = x + (n * p->c + ci) * p->in_sp;
            for (size_t ip = 0; ip < p->in_sp; ip++) {
                double xv = xc[ip];
                unflatten(ip, p->in, sp->s, iidx);
                for (size_t kk = 0; kk < p->k_sp; kk++) {
                    unflatten(kk, ks, sp->s, kidx);
                    size_t off = 0;
                    int inside = 1;
                    for (uint32_t d = 0; d < sp->s && inside; d++) {
                        int64_t pos = (int64_t)iidx[d] * sp->stride[d] -
                                      sp->pad_begin[d] +
                                      (int64_t)kidx[d] * sp->dilation[d];
                        inside = pos >= 0 && pos < (int64_t)p->out[d];
                        off = off * p->out[d] + (size_t)pos;
                    }
                    if (!inside)
                        continue;
                    for (size_t mo = 0; mo < mg; mo++)
                        p->acc[(g * mg + mo) * p->out_sp + off] +=
                            xv * w[(ci * mg + mo) * p->k_sp + kk];
                }
            }
        }
        float *yn = y + n * p->m * p->out_sp;
        for (size_t i = 0; i < p->m * p->out_sp; i++)
            yn[i] = rlx__cpu_ref_to_f32(p->acc[i]);
    }
}

void rlx__cpu_ref_conv_run(rlx_op op, rlx__cpu_ref_vision *p,
                           const float *x, const float *w, const float *b,
                           float *y)
{
    if (op == RLX_OP_CONV)
        conv_run(p, x, w, b, y);
    else
        conv_transpose_run(p, x, w, b, y);
}
