/*
 * kernels_chlane.c - 2-d f32 convs with few output pixels per image (the
 * 7x7 and 14x14 stages of ResNet at batch 1) with the output channels on
 * the vector lanes.
 *
 * The gemm path (kernels_conv.c) puts output pixels on the lanes: a
 * 49-pixel plane fills two 32-wide panels, 49 of 64 lanes. Here the
 * product is transposed, Y^T[P x m] = col^T[P x K] . W^T[K x m]: the
 * weights are the micro-kernel's B panels (NR output channels, all
 * lanes live when m is a multiple of 16), packed once per bound buffer;
 * the columns are its packed A tiles, the P pixels split into tiles of
 * equal rows (49 = 5 x 10), gathered from the input once per run. Each
 * weight panel is read once per image, one K slice at a time reused from
 * L1 over every pixel tile, with the next slice prefetched meanwhile;
 * the result is transposed back to NCHW with the bias, residual and
 * activation applied (rlxb_conv_epilogue). Threads split the weight
 * panels.
 *
 * The AVX-512 variant only. Where it runs is decided per conv at compile
 * time (rlxb_chlane_fits) or by the setting cpu-openblas.chlane.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"

#if RLX__SGEMM_NR

/* The setting cpu-openblas.chlane (RLX_CPU_OPENBLAS_CHLANE): 0 never, 1
 * or unset where it fits. 0, 1, or -1 when bad (reported). */
int rlxb_chlane_setting(const rlx_compile_options *o, const rlx_host *host)
{
    return rlxb_conv_setting(o, host, "cpu-openblas.chlane",
                             "RLX_CPU_OPENBLAS_CHLANE", 1,
                             "set it to 1 (output channels on the lanes for "
                             "convs of few output pixels, the default), 0 "
                             "(never), or unset it");
}

#if defined(__AVX512F__)

#include <immintrin.h>

#define NR RLX__SGEMM_NR
#define MR RLX__SGEMM_MR
/* Output pixels per image at most: ResNet's 14x14 stage (at 196 the
 * gemm path's panels are 7/8 full, but its stride-2 conv's im2col costs
 * more than the gather here); above, the A tiles outgrow L2. */
#define CHLANE_MAX_P 196

int rlxb_chlane_fits(const rlxb_conv *p)
{
    /* at least 2 pixels (one is conv_vec's), channels enough to fill the
     * lanes, pixels that leave a 32-wide panel part empty; pointwise
     * stride-1 convs stay on the implicit GEMM, which reads x in place */
    return p->groups == 1 && !p->depthwise && !p->pointwise && p->p >= 2 &&
           p->p <= CHLANE_MAX_P && p->p % NR != 0 && p->m >= 64 &&
           p->k >= 64 && p->c * p->ih * p->iw < ((size_t)1 << 31);
}

size_t rlxb_chlane_packed_floats(const rlxb_conv *p)
{
    return rlx__sgemm_packed_floats(p->k, p->m);
}

void rlxb_chlane_pack(rlxb_conv *p, const float *w, const float *scale)
{
    /* panel j0 / NR at j0 * K: B(q, j) = W[j0 + j][q] * scale */
    rlx__sgemm_pack_b(w, p->k, 1, p->k, p->m, p->packed);
    for (size_t j0 = 0; j0 < p->m; j0 += NR) {
        size_t cols = p->m - j0 < NR ? p->m - j0 : NR;
        float *panel = p->packed + j0 * p->k;
        for (size_t q = 0; q < p->k; q++)
            for (size_t j = 0; j < cols; j++)
                panel[q * NR + j] *= scale[j0 + j];
    }
}

/* Pixel tiles: as many as MR-row tiles need, of equal rows. */
static size_t n_ptiles(const rlxb_conv *p)
{
    return (p->p + MR - 1) / MR;
}

static size_t ptile_rows(const rlxb_conv *p)
{
    size_t t = n_ptiles(p);
    return (p->p + t - 1) / t;
}

/* col^T of image XI as packed A tiles: tile t (pixels [t * rows, ...))
 * at A + t * K * MR, A(i, q) at [q * MR + i]. Per kernel tap and tile
 * the input offsets and the in-plane mask are worked out once, then
 * every input channel is one masked gather. */
static void gather_cols(const rlxb_conv *p, const float *xi, float *a)
{
    size_t nt = n_ptiles(p), rows = ptile_rows(p), taps = p->kh * p->kw;
    size_t plane = p->ih * p->iw;
    for (size_t t = 0; t < nt; t++) {
        size_t j0 = t * rows, nr = p->p - j0 < rows ? p->p - j0 : rows;
        __mmask16 live = (__mmask16)((1u << nr) - 1);
        float *at = a + t * p->k * MR;
        for (size_t tap = 0; tap < taps; tap++) {
            size_t ta = tap / p->kw, tb = tap % p->kw;
            int32_t off[16] = { 0 };
            __mmask16 in = 0;
            for (size_t i = 0; i < nr; i++) {
                size_t j = j0 + i, oy = j / p->ow, ox = j % p->ow;
                long r = (long)(oy * p->sh + ta * p->dh) - (long)p->ph;
                long c = (long)(ox * p->sw + tb * p->dw) - (long)p->pw;
                if (r >= 0 && r < (long)p->ih && c >= 0 &&
                    c < (long)p->iw) {
                    off[i] = (int32_t)(r * (long)p->iw + c);
                    in |= (__mmask16)(1u << i);
                }
            }
            __m512i vo = _mm512_loadu_si512(off);
            for (size_t ci = 0; ci < p->cg; ci++) {
                __m512 v = _mm512_mask_i32gather_ps(
                    _mm512_setzero_ps(), in, vo, xi + ci * plane, 4);
                _mm512_mask_storeu_ps(at + (ci * taps + tap) * MR, live, v);
            }
        }
    }
}

typedef struct chlane_ctx {
    rlxb_conv *p;
    const float *a; /* the packed col^T tiles */
    float *yt;      /* Y^T [P x m] */
} chlane_ctx;

/* Weight panels [begin, end) over every pixel tile. */
static void chlane_jobs(void *arg, size_t begin, size_t end)
{
    const chlane_ctx *cx = arg;
    const rlxb_conv *p = cx->p;
    size_t nt = n_ptiles(p), rows = ptile_rows(p);
    size_t kcs = rlxb_conv_slice(p->k);
    for (size_t pn = begin; pn < end; pn++) {
        size_t j0 = pn * NR, nr = p->m - j0 < NR ? p->m - j0 : NR;
        const float *panel = p->packed + j0 * p->k;
        /* the stream goes on into the next panel: prefetch one slice
         * ahead, split between the tiles */
        const float *stream_end = p->packed + rlxb_chlane_packed_floats(p);
        for (size_t k0 = 0; k0 < p->k; k0 += kcs) {
            size_t kc = p->k - k0 < kcs ? p->k - k0 : kcs;
            const float *bp = panel + k0 * NR;
            const char *next = (const char *)(bp + kc * NR);
            size_t lines = kc * NR * sizeof(float) / 64;
            size_t per = (lines + nt - 1) / nt;
            for (size_t t = 0; t < nt; t++) {
                size_t i0 = t * rows;
                size_t mr = p->p - i0 < rows ? p->p - i0 : rows;
                const char *pf = next + t * per * 64;
                size_t pl = per;
                if (pf >= (const char *)stream_end)
                    pl = 0;
                else if (pf + pl * 64 > (const char *)stream_end)
                    pl = (size_t)((const char *)stream_end - pf) / 64;
                if (pl > kc)
                    pl = kc;
                rlx__sgemm_tile(mr, nr, kc, cx->a + t * p->k * MR + k0 * MR,
                                0, 1, bp, cx->yt + i0 * p->m + j0, p->m,
                                k0 > 0, NULL, pl ? pf : NULL, pl);
            }
        }
    }
}

/* Y^T [P x m] of one image back to Y [m x P], then the epilogue. */
static void untranspose(const rlxb_conv *p, const float *yt, float *y,
                        const float *res)
{
    for (size_t c0 = 0; c0 < p->m; c0 += 16) {
        size_t cn = p->m - c0 < 16 ? p->m - c0 : 16;
        for (size_t j = 0; j < p->p; j++)
            for (size_t c = 0; c < cn; c++)
                y[(c0 + c) * p->p + j] = yt[j * p->m + c0 + c];
    }
    rlxb_conv_epilogue(p, y, res, p->p, 0, p->m, p->p);
}

int rlxb_chlane_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
                    const float *res, float *y, int par)
{
    size_t nt = n_ptiles(p);
    size_t a_floats = nt * p->k * MR;
    if (rlxb_conv_ensure_scratch(p, 1, a_floats + p->p * p->m) != 0)
        return -1;
    chlane_ctx cx = { .p = p, .a = p->scratch,
                      .yt = p->scratch + a_floats };
    size_t panels = (p->m + NR - 1) / NR;
    for (size_t img = 0; img < p->n; img++) {
        gather_cols(p, x + img * p->c * p->ih * p->iw, p->scratch);
        if (par && panels > 1)
            rlxb_parallel_for(pool, panels, 1, chlane_jobs, &cx);
        else
            chlane_jobs(&cx, 0, panels);
        size_t yoff = img * p->m * p->p;
        untranspose(p, cx.yt, y + yoff, res ? res + yoff : NULL);
    }
    return 0;
}

#else /* AVX2: the gemm path */

int rlxb_chlane_fits(const rlxb_conv *p)
{
    (void)p;
    return 0;
}

size_t rlxb_chlane_packed_floats(const rlxb_conv *p)
{
    (void)p;
    return 0;
}

void rlxb_chlane_pack(rlxb_conv *p, const float *w, const float *scale)
{
    (void)p;
    (void)w;
    (void)scale;
}

int rlxb_chlane_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
                    const float *res, float *y, int par)
{
    (void)pool;
    (void)p;
    (void)x;
    (void)res;
    (void)y;
    (void)par;
    return -1;
}

#endif /* __AVX512F__ */

#endif /* RLX__SGEMM_NR */
