/*
 * kernels_dw16.c - depthwise 2-d convolution sixteen channels at a time
 * (AVX-512 variant): one vector lane per channel, so every multiply-add
 * is a whole vector whatever the plane's width, and strides need no
 * phase planes.
 *
 * The per-plane kernels of kernels_dw.c vectorise along a row: on the
 * small planes of MobileNet's and EfficientNet's late stages (7 x 7,
 * 14 x 14) most lanes of a vector fall past the row or into padding, and
 * the per-plane copies cost more than the multiply-adds. Here a job takes
 * 16 channels of one image and a band of output rows: the band's input
 * rows are transposed (16 x 16 blocks in registers) into a zero-padded
 * buffer of one 16-float vector per pixel, every output pixel is then
 * the sum over the taps of a weight vector times one input vector (eight
 * outputs at once, eight independent chains), the bias and activation
 * (relu, hard_swish, silu) are applied in registers, and the band's
 * outputs are transposed back into the channel planes (with a residual,
 * the conv's epilogue then runs on them while they are in cache).
 * A last group of fewer than 16 channels runs with the missing lanes
 * zero and never stored.
 *
 * The second kernel here keeps the same layout for convs of few input
 * channels (a network's stem), with 16 output channels in the lanes.
 */
#include <stdatomic.h>
#include <string.h>

#include "conv_internal.h"

#if RLX__SGEMM_NR && defined(__AVX512F__)

#include <immintrin.h>

#include "vmath512.h"

#define LANES 16
#define OX_BLOCK 8         /* output pixels accumulated at once */
#define DW16_MAX_TAPS 64   /* kernels up to 8 x 8 */
#define DW16_BAND_PIXELS 1024 /* padded input pixels of a band: 64 KiB */

int rlxb_dw16_fits(const rlxb_conv *p)
{
    return p->depthwise && p->sh == p->sw && (p->sh == 1 || p->sh == 2) &&
           p->dh == 1 && p->dw == 1 && p->kh * p->kw <= DW16_MAX_TAPS;
}

static size_t round_up(size_t v, size_t to)
{
    return (v + to - 1) / to * to;
}

/* Pixels of a padded row: every column the output blocks read. */
static size_t dw16_tw(const rlxb_conv *p)
{
    return (round_up(p->ow, OX_BLOCK) - 1) * p->sw + p->kw;
}

size_t rlxb_dw16_band_rows(const rlxb_conv *p, size_t want_bands)
{
    size_t tw = dw16_tw(p), fit = DW16_BAND_PIXELS / tw;
    size_t rows = fit > p->kh ? (fit - p->kh) / p->sh + 1 : 1;
    if (want_bands > 1) { /* enough jobs for the threads */
        size_t per = (p->oh + want_bands - 1) / want_bands;
        if (per < rows)
            rows = per;
    }
    if (rows < 1)
        rows = 1;
    return rows > p->oh ? p->oh : rows;
}

size_t rlxb_dw16_scratch_floats(const rlxb_conv *p, size_t band_rows)
{
    size_t trows = (band_rows - 1) * p->sh + p->kh;
    return (trows * dw16_tw(p) + round_up(p->ow, LANES)) * LANES;
}

/* The 16 x 16 block R (row i: R[i]) transposed in place. */
static inline void transpose16(__m512 r[LANES])
{
    __m512 t[LANES], u[LANES];
    for (int i = 0; i < LANES; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < LANES; i += 4) {
        __m512d a = _mm512_castps_pd(t[i]), b = _mm512_castps_pd(t[i + 1]);
        __m512d c = _mm512_castps_pd(t[i + 2]),
                d = _mm512_castps_pd(t[i + 3]);
        u[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
        u[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
        u[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
        u[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
    }
    /* u[4q + j]: 128-bit block k holds column 4k + j of rows 4q..4q+3 */
    for (int j = 0; j < 4; j++) {
        __m512 v0 = _mm512_shuffle_f32x4(u[j], u[4 + j], 0x88);
        __m512 v1 = _mm512_shuffle_f32x4(u[j], u[4 + j], 0xDD);
        __m512 w0 = _mm512_shuffle_f32x4(u[8 + j], u[12 + j], 0x88);
        __m512 w1 = _mm512_shuffle_f32x4(u[8 + j], u[12 + j], 0xDD);
        r[j] = _mm512_shuffle_f32x4(v0, w0, 0x88);
        r[8 + j] = _mm512_shuffle_f32x4(v0, w0, 0xDD);
        r[4 + j] = _mm512_shuffle_f32x4(v1, w1, 0x88);
        r[12 + j] = _mm512_shuffle_f32x4(v1, w1, 0xDD);
    }
}

static inline __mmask16 first_lanes(size_t n)
{
    return (__mmask16)((1u << n) - 1u);
}

/* Columns [c0, c0 + n) (n <= 16) of the CNT rows SRC + i * STEP, as one
 * vector per column: V[j] lane i = SRC[i * STEP + c0 + j]. */
static inline void gather_cols(__m512 v[LANES], const float *src,
                               size_t step, size_t cnt, size_t c0, size_t n)
{
    __mmask16 m = first_lanes(n);
    for (size_t i = 0; i < LANES; i++)
        v[i] = i < cnt ? _mm512_maskz_loadu_ps(m, src + i * step + c0)
                       : _mm512_setzero_ps();
    transpose16(v);
}

/* Output rows [oy0, oy1) of channels c0 .. c0 + cnt - 1 of image IMG. */
static void dw16_band(const rlxb_conv_ctx *cx, float *t, float *o,
                      const __m512 *wv, size_t img, size_t c0, size_t cnt,
                      size_t oy0, size_t oy1)
{
    const rlxb_conv *p = cx->p;
    size_t s = p->sh, tw = dw16_tw(p), plane = p->ih * p->iw;
    size_t trows = (oy1 - oy0 - 1) * s + p->kh;
    size_t kw = p->kw, kh = p->kh;
    const float *xg = cx->x + (img * p->m + c0) * plane;
    /* padded rows oy0 * s + r, as one vector per pixel */
    for (size_t r = 0; r < trows; r++) {
        float *d = t + r * tw * LANES;
        long iy = (long)(oy0 * s + r) - (long)p->ph;
        if (iy < 0 || iy >= (long)p->ih) {
            memset(d, 0, tw * LANES * sizeof *d);
            continue;
        }
        size_t lead = p->pw < tw ? p->pw : tw;
        size_t end = p->pw + p->iw < tw ? p->pw + p->iw : tw;
        memset(d, 0, lead * LANES * sizeof *d);
        memset(d + end * LANES, 0, (tw - end) * LANES * sizeof *d);
        const float *xr = xg + (size_t)iy * p->iw;
        for (size_t c = 0; p->pw + c < end; c += LANES) {
            size_t n = p->iw - c < LANES ? p->iw - c : LANES;
            __m512 v[LANES];
            gather_cols(v, xr, plane, cnt, c, n);
            for (size_t j = 0; j < n && p->pw + c + j < end; j++)
                _mm512_storeu_ps(d + (p->pw + c + j) * LANES, v[j]);
        }
    }
    size_t owr = round_up(p->ow, OX_BLOCK);
    float *yg = cx->y + (img * p->m + c0) * p->p;
    /* bias and activation in registers unless a residual is added */
    int epi = cx->res ? RLXB_EPI16_NONE : rlxb_epi16_of(p->act);
    __m512 bias = _mm512_maskz_loadu_ps(first_lanes(cnt), p->fbias + c0);
    for (size_t oy = oy0; oy < oy1; oy++) {
        const float *trow = t + (oy - oy0) * s * tw * LANES;
        for (size_t ox = 0; ox < owr; ox += OX_BLOCK) {
            __m512 acc[OX_BLOCK];
            for (int j = 0; j < OX_BLOCK; j++)
                acc[j] = _mm512_setzero_ps();
            for (size_t a = 0; a < kh; a++) {
                const float *tr = trow + (a * tw + ox * s) * LANES;
                for (size_t b = 0; b < kw; b++) {
                    __m512 w = wv[a * kw + b];
                    const float *q = tr + b * LANES;
#pragma GCC unroll 8
                    for (int j = 0; j < OX_BLOCK; j++)
                        acc[j] = _mm512_fmadd_ps(
                            _mm512_loadu_ps(q + (size_t)j * s * LANES), w,
                            acc[j]);
                }
            }
            if (epi != RLXB_EPI16_NONE)
                for (int j = 0; j < OX_BLOCK; j++)
                    acc[j] = rlxb_act16(epi, acc[j], bias);
            for (int j = 0; j < OX_BLOCK; j++)
                _mm512_storeu_ps(o + (ox + (size_t)j) * LANES, acc[j]);
        }
        /* back to the planes, 16 pixels of every channel at a time */
        for (size_t c = 0; c < p->ow; c += LANES) {
            size_t n = p->ow - c < LANES ? p->ow - c : LANES;
            __m512 v[LANES];
            for (size_t j = 0; j < LANES; j++)
                v[j] = _mm512_loadu_ps(o + (c + j) * LANES);
            transpose16(v);
            __mmask16 m = first_lanes(n);
            for (size_t i = 0; i < cnt; i++)
                _mm512_mask_storeu_ps(yg + i * p->p + oy * p->ow + c, m,
                                      v[i]);
        }
    }
    size_t off = oy0 * p->ow;
    if (epi == RLXB_EPI16_NONE)
        rlxb_conv_epilogue(p, yg + off,
                           cx->res ? cx->res + (img * p->m + c0) * p->p +
                                         off
                                   : NULL,
                           p->p, c0, cnt, (oy1 - oy0) * p->ow);
}

/* Jobs (image, group of 16 channels, band of cx->block output rows),
 * cx->n_blocks bands per group. */
void rlxb_dw16_jobs(void *arg, size_t begin, size_t end)
{
    const rlxb_conv_ctx *cx = arg;
    rlxb_conv *p = cx->p;
    size_t groups = (p->m + LANES - 1) / LANES, kk = p->kh * p->kw;
    unsigned slot = rlxb_conv_take_slot(p);
    float *t = p->scratch + slot * p->slot_floats;
    size_t trows = (cx->block - 1) * p->sh + p->kh;
    float *o = t + trows * dw16_tw(p) * LANES;
    __m512 wv[DW16_MAX_TAPS];
    size_t wv_group = (size_t)-1;
    for (size_t job = begin; job < end; job++) {
        size_t band = job % cx->n_blocks, rest = job / cx->n_blocks;
        size_t g = rest % groups, img = rest / groups;
        size_t c0 = g * LANES, cnt = p->m - c0 < LANES ? p->m - c0 : LANES;
        if (g != wv_group) { /* the group's taps, one vector each */
            for (size_t t0 = 0; t0 < kk; t0 += LANES) {
                size_t n = kk - t0 < LANES ? kk - t0 : LANES;
                __m512 v[LANES];
                gather_cols(v, p->packed + c0 * kk, kk, cnt, t0, n);
                for (size_t j = 0; j < n; j++)
                    wv[t0 + j] = v[j];
            }
            wv_group = g;
        }
        size_t oy0 = band * cx->block;
        size_t oy1 = oy0 + cx->block < p->oh ? oy0 + cx->block : p->oh;
        dw16_band(cx, t, o, wv, img, c0, cnt, oy0, oy1);
    }
    atomic_flag_clear_explicit(&p->busy[slot], memory_order_release);
}

/* ---- convs of few input channels (a network's stem) ---------------- */

/* The stem of MobileNet or EfficientNet (3 input channels, 3x3, stride
 * 2) has K = 27: the sgemm path packs 27-row panels by strided gathers
 * and runs a 12-row weight tile over 16 or 32 output channels. Here the
 * lanes are 16 output channels: every output pixel is the sum over the K
 * taps of one weight vector times one input value (broadcast), read from
 * a zero-padded copy of the band's input rows. */
#define C16_MAX_K 32
#define C16_MAX_C 4

int rlxb_c16_fits(const rlxb_conv *p)
{
    return !p->depthwise && !p->pointwise && p->groups == 1 &&
           p->c <= C16_MAX_C && p->k <= C16_MAX_K && p->k > 0 &&
           p->m >= 8;
}

/* Columns of a padded input row: every column the output blocks read. */
static size_t c16_wp(const rlxb_conv *p)
{
    return (round_up(p->ow, OX_BLOCK) - 1) * p->sw + (p->kw - 1) * p->dw +
           1;
}

static size_t c16_in_rows(const rlxb_conv *p, size_t band_rows)
{
    return (band_rows - 1) * p->sh + (p->kh - 1) * p->dh + 1;
}

size_t rlxb_c16_band_rows(const rlxb_conv *p, size_t want_bands)
{
    /* 8 output rows: the padded input stays in L1 */
    size_t rows = 8;
    if (want_bands > 1) {
        size_t per = (p->oh + want_bands - 1) / want_bands;
        if (per < rows)
            rows = per;
    }
    if (rows < 1)
        rows = 1;
    return rows > p->oh ? p->oh : rows;
}

size_t rlxb_c16_scratch_floats(const rlxb_conv *p, size_t band_rows)
{
    return p->c * c16_in_rows(p, band_rows) * c16_wp(p) +
           round_up(p->ow, LANES) * LANES;
}

/* Output rows [oy0, oy1) of channels c0 .. c0 + cnt - 1 of image IMG;
 * T holds the padded input rows, O one output row's pixel vectors. */
static void c16_band(const rlxb_conv_ctx *cx, float *t, float *o,
                     const __m512 *wv, size_t img, size_t c0, size_t cnt,
                     size_t oy0, size_t oy1)
{
    const rlxb_conv *p = cx->p;
    size_t wp = c16_wp(p), rows = c16_in_rows(p, oy1 - oy0);
    size_t plane = p->ih * p->iw;
    for (size_t ci = 0; ci < p->c; ci++) {
        const float *xc = cx->x + (img * p->c + ci) * plane;
        for (size_t r = 0; r < rows; r++) {
            float *d = t + (ci * rows + r) * wp;
            long iy = (long)(oy0 * p->sh + r) - (long)p->ph;
            size_t lead = p->pw < wp ? p->pw : wp;
            size_t end = p->pw + p->iw < wp ? p->pw + p->iw : wp;
            if (iy < 0 || iy >= (long)p->ih) {
                memset(d, 0, wp * sizeof *d);
                continue;
            }
            memset(d, 0, lead * sizeof *d);
            if (end > lead)
                memcpy(d + lead, xc + (size_t)iy * p->iw,
                       (end - lead) * sizeof *d);
            memset(d + end, 0, (wp - end) * sizeof *d);
        }
    }
    size_t owr = round_up(p->ow, OX_BLOCK), sw = p->sw;
    float *yg = cx->y + (img * p->m + c0) * p->p;
    int epi = cx->res ? RLXB_EPI16_NONE : rlxb_epi16_of(p->act);
    __m512 bias = _mm512_maskz_loadu_ps(first_lanes(cnt), p->fbias + c0);
    for (size_t oy = oy0; oy < oy1; oy++) {
        for (size_t ox = 0; ox < owr; ox += OX_BLOCK) {
            __m512 acc[OX_BLOCK];
            for (int j = 0; j < OX_BLOCK; j++)
                acc[j] = _mm512_setzero_ps();
            size_t q = 0;
            for (size_t ci = 0; ci < p->c; ci++)
                for (size_t a = 0; a < p->kh; a++) {
                    const float *tr = t + (ci * rows + (oy - oy0) * p->sh +
                                           a * p->dh) * wp + ox * sw;
                    for (size_t b = 0; b < p->kw; b++, q++) {
                        __m512 w = wv[q];
                        const float *e = tr + b * p->dw;
#pragma GCC unroll 8
                        for (int j = 0; j < OX_BLOCK; j++)
                            acc[j] = _mm512_fmadd_ps(
                                _mm512_set1_ps(e[(size_t)j * sw]), w,
                                acc[j]);
                    }
                }
            if (epi != RLXB_EPI16_NONE)
                for (int j = 0; j < OX_BLOCK; j++)
                    acc[j] = rlxb_act16(epi, acc[j], bias);
            for (int j = 0; j < OX_BLOCK; j++)
                _mm512_storeu_ps(o + (ox + (size_t)j) * LANES, acc[j]);
        }
        for (size_t c = 0; c < p->ow; c += LANES) {
            size_t n = p->ow - c < LANES ? p->ow - c : LANES;
            __m512 v[LANES];
            for (size_t j = 0; j < LANES; j++)
                v[j] = _mm512_loadu_ps(o + (c + j) * LANES);
            transpose16(v);
            __mmask16 m = first_lanes(n);
            for (size_t i = 0; i < cnt; i++)
                _mm512_mask_storeu_ps(yg + i * p->p + oy * p->ow + c, m,
                                      v[i]);
        }
    }
    size_t off = oy0 * p->ow;
    if (epi == RLXB_EPI16_NONE)
        rlxb_conv_epilogue(p, yg + off,
                           cx->res ? cx->res + (img * p->m + c0) * p->p +
                                         off
                                   : NULL,
                           p->p, c0, cnt, (oy1 - oy0) * p->ow);
}

/* Jobs (image, group of 16 output channels, band of cx->block output
 * rows), cx->n_blocks bands per group. The weights are the packed sgemm
 * tiles of kernels_conv.c (K in one slice: MR rows per tile, K row q of
 * tile t at t * k * MR + q * MR). */
void rlxb_c16_jobs(void *arg, size_t begin, size_t end)
{
    const rlxb_conv_ctx *cx = arg;
    rlxb_conv *p = cx->p;
    const size_t mr = RLX__SGEMM_MR;
    size_t groups = (p->m + LANES - 1) / LANES;
    unsigned slot = rlxb_conv_take_slot(p);
    float *t = p->scratch + slot * p->slot_floats;
    float *o = t + p->c * c16_in_rows(p, cx->block) * c16_wp(p);
    __m512 wv[C16_MAX_K];
    size_t wv_group = (size_t)-1;
    for (size_t job = begin; job < end; job++) {
        size_t band = job % cx->n_blocks, rest = job / cx->n_blocks;
        size_t g = rest % groups, img = rest / groups;
        size_t c0 = g * LANES, cnt = p->m - c0 < LANES ? p->m - c0 : LANES;
        if (g != wv_group) {
            for (size_t q = 0; q < p->k; q++) {
                float lane[LANES] = { 0 };
                for (size_t l = 0; l < cnt; l++) {
                    size_t ch = c0 + l;
                    lane[l] = p->packed[(ch / mr) * p->k * mr + q * mr +
                                        ch % mr];
                }
                wv[q] = _mm512_loadu_ps(lane);
            }
            wv_group = g;
        }
        size_t oy0 = band * cx->block;
        size_t oy1 = oy0 + cx->block < p->oh ? oy0 + cx->block : p->oh;
        c16_band(cx, t, o, wv, img, c0, cnt, oy0, oy1);
    }
    atomic_flag_clear_explicit(&p->busy[slot], memory_order_release);
}

#elif RLX__SGEMM_NR /* AVX2: the per-plane kernels of kernels_dw.c */

int rlxb_c16_fits(const rlxb_conv *p)
{
    (void)p;
    return 0;
}

size_t rlxb_c16_band_rows(const rlxb_conv *p, size_t want_bands)
{
    (void)p;
    (void)want_bands;
    return 1;
}

size_t rlxb_c16_scratch_floats(const rlxb_conv *p, size_t band_rows)
{
    (void)p;
    (void)band_rows;
    return 0;
}

void rlxb_c16_jobs(void *arg, size_t begin, size_t end)
{
    (void)arg;
    (void)begin;
    (void)end;
}

int rlxb_dw16_fits(const rlxb_conv *p)
{
    (void)p;
    return 0;
}

size_t rlxb_dw16_band_rows(const rlxb_conv *p, size_t want_bands)
{
    (void)p;
    (void)want_bands;
    return 1;
}

size_t rlxb_dw16_scratch_floats(const rlxb_conv *p, size_t band_rows)
{
    (void)p;
    (void)band_rows;
    return 0;
}

void rlxb_dw16_jobs(void *arg, size_t begin, size_t end)
{
    (void)arg;
    (void)begin;
    (void)end;
}

#endif
