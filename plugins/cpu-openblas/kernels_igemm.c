/*
 * kernels_igemm.c - stride-1 2-d convs that need no padding (pointwise
 * 1x1 convs, "valid" convs) as an implicit GEMM: no column matrix is
 * built, the micro-kernel reads the input itself.
 *
 * At stride 1 without padding, the column matrix's row of tap (a, b) of
 * channel ci, over the outputs flattened with the input's row step IW
 * (= ow + (kw - 1) * dw), is the input plane read from offset
 * ci * ih * iw + a * dh * iw + b * dw on: one contiguous run per tap. So
 * a panel of NR flattened outputs needs, per row q of K, one (unaligned)
 * vector pair at x + off[q], and an offset table replaces im2col (for a
 * pointwise conv, the copy of the whole input into panels). When kw > 1
 * the iw - ow columns past each output row are computed and dropped.
 * The weights are the packed A tiles of kernels_conv.c. Per panel the K
 * slices run in turn (a slice's input rows stay in L1 across the weight
 * tiles), the partial sums of every tile in a per-thread buffer; the
 * last slice stores a tile to y and runs the epilogue on it while it is
 * in L1.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"

#if RLX__SGEMM_NR && defined(__AVX512F__)

#include <immintrin.h>

#include "vmath512.h"

#define NR RLX__SGEMM_NR
#define MR RLX__SGEMM_MR
#define ALWAYS_INLINE static inline __attribute__((always_inline))
/* floats ahead of a panel that its first tile prefetches: 4 panels */
#define IG_PF_AHEAD (4 * NR)

int rlxb_igemm_fits(const rlxb_conv *p)
{
    /* the input's planes are the flattened ones: stride 1, no padding
     * (a padded copy of every conv's input costs more, in cache misses
     * across a whole model, than the im2col it saves); the offsets of
     * one group are 32-bit */
    return p->sh == 1 && p->sw == 1 && p->ph == 0 && p->pw == 0 &&
           p->oh + (p->kh - 1) * p->dh == p->ih &&
           p->ow + (p->kw - 1) * p->dw == p->iw && !p->depthwise &&
           p->k > 0 && p->p > 1 &&
           p->cg * p->ih * p->iw < ((size_t)1 << 31);
}

/* One tile over one K slice [k0, k0 + kc): C[rows x NR] = CIN + A . B
 * (CIN with row step NR, or NULL for zeros), A the slice's packed tile
 * (A(i, q) at a[q * MR + i]), B(q, j) = xb[off[q] + j], its lanes past
 * the panel's end masked (never read). With EPI (not RLXB_EPI16_NONE), row
 * i gets BIAS[i] and the activation before it is stored. */
ALWAYS_INLINE void ig_tile(const size_t rows, const int wide, size_t kc,
                           const float *a, const float *xb,
                           const uint32_t *off, __mmask16 m0,
                           __mmask16 m1, const float *cin, float *c,
                           size_t ldc, int epi, const float *bias,
                           int pf)
{
    __m512 x0[MR], x1[MR];
    /* C's tile is written at the end: start its misses now */
#pragma GCC unroll 12
    for (size_t i = 0; i < rows; i++) {
        _mm_prefetch((const char *)(c + i * ldc), _MM_HINT_T0);
        _mm_prefetch((const char *)(c + i * ldc + 31), _MM_HINT_T0);
    }
#pragma GCC unroll 12
    for (size_t i = 0; i < rows; i++) {
        x0[i] = cin ? _mm512_load_ps(cin + i * NR) : _mm512_setzero_ps();
        x1[i] = cin && wide ? _mm512_load_ps(cin + i * NR + 16)
                            : _mm512_setzero_ps();
    }
    for (size_t q = 0; q < kc; q++) {
        const float *b = xb + off[q], *aq = a + q * MR;
        if (pf) { /* the same rows of a later panel (each row of B is
                   * another input plane: too many streams for the
                   * hardware prefetcher) */
            _mm_prefetch((const char *)(b + IG_PF_AHEAD), _MM_HINT_T0);
            _mm_prefetch((const char *)(b + IG_PF_AHEAD + 16), _MM_HINT_T0);
        }
        __m512 b0 = _mm512_maskz_loadu_ps(m0, b);
        __m512 b1 = wide ? _mm512_maskz_loadu_ps(m1, b + 16)
                         : _mm512_setzero_ps();
#pragma GCC unroll 12
        for (size_t i = 0; i < rows; i++) {
            __m512 u = _mm512_set1_ps(aq[i]);
            x0[i] = _mm512_fmadd_ps(u, b0, x0[i]);
            if (wide)
                x1[i] = _mm512_fmadd_ps(u, b1, x1[i]);
        }
    }
    if (epi != RLXB_EPI16_NONE) {
#pragma GCC unroll 12
        for (size_t i = 0; i < rows; i++) {
            __m512 b = _mm512_set1_ps(bias[i]);
            x0[i] = rlxb_act16(epi, x0[i], b);
            x1[i] = rlxb_act16(epi, x1[i], b);
        }
    }
#pragma GCC unroll 12
    for (size_t i = 0; i < rows; i++) {
        _mm512_mask_storeu_ps(c + i * ldc, m0, x0[i]);
        _mm512_mask_storeu_ps(c + i * ldc + 16, m1, x1[i]);
    }
}

#define IG_CASE(R)                                                        \
    case R:                                                               \
        if (m1)                                                           \
            ig_tile(R, 1, kc, a, xb, off, m0, m1, cin, c, ldc, epi, bias, \
                    pf);                                                  \
        else                                                              \
            ig_tile(R, 0, kc, a, xb, off, m0, m1, cin, c, ldc, epi, bias, \
                    pf);                                                  \
        return;

static void ig_tile_any(size_t rows, size_t nr, size_t kc, const float *a,
                        const float *xb, const uint32_t *off,
                        const float *cin, float *c, size_t ldc, int epi,
                        const float *bias, int pf)
{
    __mmask16 m0 = nr >= 16 ? 0xffff : (__mmask16)((1u << nr) - 1);
    __mmask16 m1 = nr >= 32   ? 0xffff
                   : nr <= 16 ? 0
                              : (__mmask16)((1u << (nr - 16)) - 1);
    switch (rows) {
        IG_CASE(1) IG_CASE(2) IG_CASE(3) IG_CASE(4) IG_CASE(5) IG_CASE(6)
        IG_CASE(7) IG_CASE(8) IG_CASE(9) IG_CASE(10) IG_CASE(11)
        IG_CASE(12)
    default:
        return;
    }
}

/* One run, as the pool's tasks see it. */
typedef struct ig_ctx {
    rlxb_conv *p;
    const float *x, *res;
    float *y;
    size_t len;           /* flattened outputs, (oh - 1) iw + ow */
    size_t panels, block, n_blocks;
} ig_ctx;

/* Panels of one (image, group) in blocks: per panel, K slice by slice
 * (the slice's input rows stay in L1 across the weight tiles), every
 * tile's partial sums in ACC, a panel of tiles * MR rows; at the last
 * slice a tile goes to y (with the epilogue) while it is in L1. */
static void gemm_jobs(void *arg, size_t begin, size_t end)
{
    const ig_ctx *cx = arg;
    rlxb_conv *p = cx->p;
    size_t tiles = (p->mg + MR - 1) / MR, kcs = rlxb_conv_slice(p->k);
    size_t plane = p->ih * p->iw, wp = p->iw;
    int direct = wp == p->ow; /* flattened outputs are y's own */
    /* the epilogues the tile applies itself (no residual to read) */
    int epi = RLXB_EPI16_NONE;
    if (direct && !cx->res)
        epi = rlxb_epi16_of(p->act);
    unsigned slot = rlxb_conv_take_slot(p);
    float *acc = p->scratch + slot * p->slot_floats;
    for (size_t job = begin; job < end; job++) {
        size_t blk = job % cx->n_blocks, ng = job / cx->n_blocks;
        size_t g = ng % p->groups, img = ng / p->groups;
        size_t p0 = blk * cx->block;
        size_t p1 = p0 + cx->block < cx->panels ? p0 + cx->block
                                                : cx->panels;
        const float *xg = cx->x + (img * p->c + g * p->cg) * plane;
        size_t yoff = (img * p->m + g * p->mg) * p->p;
        float *yg = cx->y + yoff;
        const float *rg = cx->res ? cx->res + yoff : NULL;
        const float *wg = rlxb_conv_packed(p, img) + g * tiles * p->k * MR;
        for (size_t pn = p0; pn < p1; pn++) {
            size_t j0 = pn * NR, nr = cx->len - j0 < NR ? cx->len - j0 : NR;
            for (size_t k0 = 0; k0 < p->k; k0 += kcs) {
                size_t kc = p->k - k0 < kcs ? p->k - k0 : kcs;
                int last = k0 + kc == p->k;
                for (size_t t = 0; t < tiles; t++) {
                    size_t i = t * MR, rows = p->mg - i < MR ? p->mg - i
                                                             : MR;
                    float *at = acc + i * NR;
                    const float *a = wg + k0 * tiles * MR + t * kc * MR;
                    const float *cin = k0 ? at : NULL;
                    if (last && direct) {
                        float *c = yg + i * p->p + j0;
                        ig_tile_any(rows, nr, kc, a, xg + j0, p->koff + k0,
                                    cin, c, p->p, epi,
                                    p->fbias + g * p->mg + i, t == 0);
                        if (epi == RLXB_EPI16_NONE)
                            rlxb_conv_epilogue(
                                p, c, rg ? rg + i * p->p + j0 : NULL, p->p,
                                g * p->mg + i, rows, nr);
                        continue;
                    }
                    ig_tile_any(rows, nr, kc, a, xg + j0, p->koff + k0, cin,
                                at, NR, RLXB_EPI16_NONE, NULL, t == 0);
                    if (!last)
                        continue;
                    /* the live columns, one run per output row */
                    for (size_t jj = 0; jj < nr;) {
                        size_t oy = (j0 + jj) / wp, ox = (j0 + jj) % wp;
                        if (ox >= p->ow) { /* past the output row: dropped */
                            jj += wp - ox;
                            continue;
                        }
                        size_t run = p->ow - ox < nr - jj ? p->ow - ox
                                                          : nr - jj;
                        size_t o = i * p->p + oy * p->ow + ox;
                        for (size_t r = 0; r < rows; r++)
                            memcpy(yg + o + r * p->p, at + r * NR + jj,
                                   run * sizeof *at);
                        rlxb_conv_epilogue(p, yg + o, rg ? rg + o : NULL,
                                           p->p, g * p->mg + i, rows, run);
                        jj += run;
                    }
                }
            }
        }
    }
    atomic_flag_clear_explicit(&p->busy[slot], memory_order_release);
}

int rlxb_igemm_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
                   const float *res, float *y, int par)
{
    ig_ctx cx = { .p = p, .x = x, .res = res, .y = y };
    size_t plane = p->ih * p->iw, threads = rlxb_pool_threads(pool);
    if (!p->koff) { /* the offset of each row of K in a group's planes */
        p->koff = malloc(p->k * sizeof *p->koff);
        if (!p->koff)
            return -1;
        size_t q = 0;
        for (size_t ci = 0; ci < p->cg; ci++)
            for (size_t a = 0; a < p->kh; a++)
                for (size_t b = 0; b < p->kw; b++)
                    p->koff[q++] = (uint32_t)(ci * plane +
                                              a * p->dh * p->iw +
                                              b * p->dw);
    }
    cx.len = (p->oh - 1) * p->iw + p->ow;
    cx.panels = (cx.len + NR - 1) / NR;
    /* enough jobs for every thread, twice over when there are few */
    size_t outer = p->n * p->groups;
    cx.block = cx.panels;
    if (par) {
        size_t want = 2 * threads, need = (want + outer - 1) / outer;
        cx.block = (cx.panels + need - 1) / need;
    }
    cx.n_blocks = (cx.panels + cx.block - 1) / cx.block;
    size_t jobs = outer * cx.n_blocks;
    /* one panel of partial sums per thread that may run a task at once */
    if (rlxb_conv_ensure_scratch(p, par ? (unsigned)threads : 1,
                                 (p->mg + MR - 1) / MR * MR * NR) != 0)
        return -1;
    if (par && jobs > 1)
        rlxb_parallel_for(pool, jobs, 1, gemm_jobs, &cx);
    else
        gemm_jobs(&cx, 0, jobs);
    return 0;
}

#elif RLX__SGEMM_NR /* AVX2: the im2col path of kernels_conv.c */

int rlxb_igemm_fits(const rlxb_conv *p)
{
    (void)p;
    return 0;
}

int rlxb_igemm_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
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

#endif
