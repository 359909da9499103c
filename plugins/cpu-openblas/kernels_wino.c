/*
 * kernels_wino.c - 3x3 stride-1 2-d convs (one group, no dilation) by
 * Winograd's F(4x4, 3x3): each 4x4 block of outputs ("tile") of a
 * channel plane comes from a 6x6 input patch, and in the transformed
 * domain the 3x3 conv is 36 independent products
 *
 *   M_xi[m x T] = U_xi[m x C] . V_xi[C x T],   xi = 0..35,
 *
 * U = G g G^T (weights, 6x6 per output/input channel pair), V = B^T d B
 * (input patches), then Y = A^T M A per tile: 36 multiplies per 16
 * outputs against 144, at the cost of the transforms.
 *
 * - The weights are transformed (in double, a folded batch norm
 *   included) and packed once per bound buffer, as the A tiles of the
 *   plugin's micro-kernel, xi-major and sliced along C like
 *   kernels_conv.c's packed weights.
 * - A job is a block of panels of NR tiles (tiles flattened over image,
 *   tile row, tile column). The input transform writes V of every xi for
 *   the block straight in the micro-kernel's B panel layout (rows = input
 *   channels, columns = tiles); it runs vectorised over 16 tiles: the
 *   6 input rows of a tile row are first combined vertically over whole
 *   columns (contiguous loads, masked at the edges, zero outside), then
 *   the stride-4 columns of the result are split out with permutes and
 *   combined horizontally.
 * - The products run xi by xi on rlx__sgemm_tile, a weight tile reused
 *   from L1 over the block's panels, into M (the same panel layout with
 *   output channels as rows).
 * - The output transform reads 16 tiles of one output channel per
 *   vector, interleaves the 4 columns of each tile row back into image
 *   order, and adds the bias, residual and relu in registers while
 *   storing (other activations through the conv epilogue).
 *
 * The AVX-512 variant only. Where it runs is decided per conv at compile
 * time by shape (rlxb_wino_pays) or by the setting cpu-openblas.winograd.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"

#if RLX__SGEMM_NR

/* The setting cpu-openblas.winograd (RLX_CPU_OPENBLAS_WINOGRAD): 0 never,
 * 1 for every conv it can run, unset: where it pays. 0, 1, 2 (unset), or
 * -1 when bad (reported). */
int rlxb_wino_setting(const rlx_compile_options *o, const rlx_host *host)
{
    return rlxb_conv_setting(o, host, "cpu-openblas.winograd",
                             "RLX_CPU_OPENBLAS_WINOGRAD", 2,
                             "set it to 1 (Winograd for every 3x3 stride-1 "
                             "conv), 0 (never), or unset it (where it is "
                             "faster, the default)");
}

#if defined(__AVX512F__)

#include <immintrin.h>

#define NR RLX__SGEMM_NR
#define MR RLX__SGEMM_MR
#define KC 256
#define XI 36 /* points of the transformed 6x6 tile */
#define ALWAYS_INLINE static inline __attribute__((always_inline))
/* Bytes of one job's V and M together that stay in L2. */
#define WINO_BLOCK_BYTES ((size_t)1024 << 10)

int rlxb_wino_fits(const rlxb_conv *p)
{
    return p->kh == 3 && p->kw == 3 && p->sh == 1 && p->sw == 1 &&
           p->dh == 1 && p->dw == 1 && p->groups == 1 && !p->depthwise &&
           p->c > 0 && p->m > 0 && p->p > 0;
}

static size_t tiles_h(const rlxb_conv *p)
{
    return (p->oh + 3) / 4;
}

static size_t tiles_w(const rlxb_conv *p)
{
    return (p->ow + 3) / 4;
}

int rlxb_wino_pays(const rlxb_conv *p)
{
    if (p->c < 16 || p->m < 16)
        return 0; /* the transforms outweigh the products */
    /* multiplies per input-output channel pair: 36 per tile of the
     * (zero-padded) panels against 9 per output; the transforms and the
     * 4x larger weights take some of the gain, so it must be 1.4x
     * fewer (measured: 1.4x faster at 1.5x fewer, slower at 0.4x) */
    size_t t = p->n * tiles_h(p) * tiles_w(p);
    size_t slots = (t + NR - 1) / NR * NR;
    if (slots * XI * 7 > p->n * p->p * 9 * 5)
        return 0;
    /* and the weights, 27 floats more per channel pair, read from
     * memory each run in a whole model: at least 10 multiplies saved
     * per byte more (at batch 1 the 14x14 stage saves 6, and ran
     * slower by it across ResNet-18) */
    return p->n * p->p * 9 - slots * XI >= 10 * 27 * sizeof(float);
}

static size_t m_tiles(const rlxb_conv *p)
{
    return (p->m + MR - 1) / MR;
}

/* The K slice along C: at most KC, the slices of one size. */
static size_t wino_kc(size_t c)
{
    size_t n = (c + KC - 1) / KC;
    return (c + n - 1) / n;
}

size_t rlxb_wino_packed_floats(const rlxb_conv *p)
{
    return XI * m_tiles(p) * p->c * MR;
}

/* U = G g G^T of one 3x3 kernel G3 (scaled by S), in double. */
static void weight_transform(const float *g3, double s, double u[XI])
{
    static const double G[6][3] = {
        { 1.0 / 4, 0, 0 },
        { -1.0 / 6, -1.0 / 6, -1.0 / 6 },
        { -1.0 / 6, 1.0 / 6, -1.0 / 6 },
        { 1.0 / 24, 1.0 / 12, 1.0 / 6 },
        { 1.0 / 24, -1.0 / 12, 1.0 / 6 },
        { 0, 0, 1 },
    };
    double t[6][3];
    for (int i = 0; i < 6; i++)
        for (int b = 0; b < 3; b++)
            t[i][b] = G[i][0] * g3[b] + G[i][1] * g3[3 + b] +
                      G[i][2] * g3[6 + b];
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            u[i * 6 + j] = s * (t[i][0] * G[j][0] + t[i][1] * G[j][1] +
                                t[i][2] * G[j][2]);
}

/* Point xi, C slice [k0, k0 + kc), weight tile t: kc x MR at xi * tiles
 * * C * MR + k0 * tiles * MR + t * kc * MR, U(row i, channel q) at
 * [(q - k0) * MR + i]. */
static size_t u_at(const rlxb_conv *p, size_t xi, size_t k0, size_t kc,
                   size_t t)
{
    size_t tiles = m_tiles(p);
    return xi * tiles * p->c * MR + k0 * tiles * MR + t * kc * MR;
}

void rlxb_wino_pack(rlxb_conv *p, const float *w, const float *scale)
{
    size_t kcs = wino_kc(p->c);
    memset(p->packed, 0, rlxb_wino_packed_floats(p) * sizeof *p->packed);
    double u[XI];
    for (size_t m = 0; m < p->m; m++)
        for (size_t c = 0; c < p->c; c++) {
            weight_transform(w + (m * p->c + c) * 9, scale[m], u);
            size_t k0 = c / kcs * kcs;
            size_t kc = p->c - k0 < kcs ? p->c - k0 : kcs;
            size_t t = m / MR, i = m % MR;
            for (size_t xi = 0; xi < XI; xi++)
                p->packed[u_at(p, xi, k0, kc, t) + (c - k0) * MR + i] =
                    (float)u[xi];
        }
}

/* A run of tiles of one tile row of one image within a panel (for the
 * output transform: within one half of it). */
typedef struct seg {
    size_t img, ty, tx, n; /* first tile, count */
    size_t col;            /* its column in the panel */
} seg;

/* The segments of the NT tiles from global tile G0 on, cut at the
 * halves when HALVES: at most 2 * NR. */
static size_t segments(const rlxb_conv *p, size_t g0, size_t nt,
                       int halves, seg *out)
{
    size_t tw = tiles_w(p), per = tiles_h(p) * tw, n = 0;
    for (size_t j = 0; j < nt;) {
        size_t g = g0 + j, rem = g % per;
        size_t tx = rem % tw, len = tw - tx;
        size_t half_end = (j / 16 + 1) * 16;
        if (len > nt - j)
            len = nt - j;
        if (halves && len > half_end - j)
            len = half_end - j;
        out[n++] = (seg){ .img = g / per, .ty = rem / tw, .tx = tx,
                          .n = len, .col = j };
        j += len;
    }
    return n;
}

static __mmask16 lanes(long lo, long hi)
{
    if (lo < 0)
        lo = 0;
    if (hi > 16)
        hi = 16;
    if (hi <= lo)
        return 0;
    return (__mmask16)(((1u << (hi - lo)) - 1) << lo);
}

/* B^T's rows on six vectors (the 1-d input transform). */
ALWAYS_INLINE void bt6(__m512 d0, __m512 d1, __m512 d2, __m512 d3,
                       __m512 d4, __m512 d5, __m512 o[6])
{
    const __m512 f4 = _mm512_set1_ps(4.0f), f5 = _mm512_set1_ps(5.0f);
    const __m512 f2 = _mm512_set1_ps(2.0f);
    __m512 a = _mm512_fnmadd_ps(f4, d2, d4); /* d4 - 4 d2 */
    __m512 b = _mm512_fnmadd_ps(f4, d1, d3); /* d3 - 4 d1 */
    __m512 c = _mm512_sub_ps(d4, d2);
    __m512 e = _mm512_mul_ps(f2, _mm512_sub_ps(d3, d1));
    o[0] = _mm512_fmadd_ps(f4, d0, _mm512_fnmadd_ps(f5, d2, d4));
    o[1] = _mm512_add_ps(a, b);
    o[2] = _mm512_sub_ps(a, b);
    o[3] = _mm512_add_ps(c, e);
    o[4] = _mm512_sub_ps(c, e);
    o[5] = _mm512_fmadd_ps(f4, d1, _mm512_fnmadd_ps(f5, d3, d5));
}

/* A^T's rows on six vectors (the 1-d output transform). */
ALWAYS_INLINE void at6(__m512 m0, __m512 m1, __m512 m2, __m512 m3,
                       __m512 m4, __m512 m5, __m512 o[4])
{
    __m512 pp = _mm512_add_ps(m1, m2), q = _mm512_sub_ps(m1, m2);
    __m512 r = _mm512_add_ps(m3, m4), s = _mm512_sub_ps(m3, m4);
    o[0] = _mm512_add_ps(_mm512_add_ps(m0, pp), r);
    o[1] = _mm512_fmadd_ps(_mm512_set1_ps(2.0f), s, q);
    o[2] = _mm512_fmadd_ps(_mm512_set1_ps(4.0f), r, pp);
    o[3] = _mm512_add_ps(_mm512_fmadd_ps(_mm512_set1_ps(8.0f), s, q), m5);
}

/* Columns of the vertical pass of one segment: NR tiles read 4 * NR + 2
 * columns; the permutes of the last 16 tiles read five vectors. */
#define VROW (4 * NR + 16)

/* V of segment S for channels [0, C) into the panel at V (xi stride
 * XSTEP floats, channel rows of NR). */
static void input_tiles(const rlxb_conv *p, const float *x, const seg *s,
                        float *v, size_t xstep)
{
    long ih = (long)p->ih, iw = (long)p->iw;
    long r0 = (long)(s->ty * 4) - (long)p->ph;
    long c0 = (long)(s->tx * 4) - (long)p->pw;
    __mmask16 cm[VROW / 16];
    for (int k = 0; k < VROW / 16; k++)
        cm[k] = lanes(-(c0 + 16 * k), iw - (c0 + 16 * k));
    int rows_ok[6];
    for (int k = 0; k < 6; k++)
        rows_ok[k] = r0 + k >= 0 && r0 + k < ih;
    /* the vectors holding the live columns; the rest stay zero */
    int nv = (int)((4 * s->n + 2 + 15) / 16);
    const __m512i x01 = _mm512_set_epi32(29, 25, 21, 17, 13, 9, 5, 1, 28,
                                         24, 20, 16, 12, 8, 4, 0);
    const __m512i y01 = _mm512_set_epi32(31, 27, 23, 19, 15, 11, 7, 3, 30,
                                         26, 22, 18, 14, 10, 6, 2);
    const __m512i lo8 = _mm512_set_epi32(23, 22, 21, 20, 19, 18, 17, 16, 7,
                                         6, 5, 4, 3, 2, 1, 0);
    const __m512i hi8 = _mm512_set_epi32(31, 30, 29, 28, 27, 26, 25, 24,
                                         15, 14, 13, 12, 11, 10, 9, 8);
    const __m512i sh0 = _mm512_set_epi32(16, 15, 14, 13, 12, 11, 10, 9, 8,
                                         7, 6, 5, 4, 3, 2, 1);
    const __m512i sh1 = _mm512_set_epi32(17, 15, 14, 13, 12, 11, 10, 9, 8,
                                         7, 6, 5, 4, 3, 2, 1);
    float tmp[6][VROW] __attribute__((aligned(64)));
    memset(tmp, 0, sizeof tmp);
    for (size_t c = 0; c < p->c; c++) {
        const float *xc = x + (s->img * p->c + c) * p->ih * p->iw;
        const float *xr[6];
        for (int k = 0; k < 6; k++)
            xr[k] = rows_ok[k] ? xc + (r0 + k) * iw : NULL;
        /* vertical: B^T over the 6 rows, column by column */
        for (int k = 0; k < nv; k++) {
            __m512 d[6];
            for (int r = 0; r < 6; r++)
                d[r] = xr[r] && cm[k]
                           ? _mm512_maskz_loadu_ps(cm[k],
                                                   xr[r] + c0 + 16 * k)
                           : _mm512_setzero_ps();
            __m512 o[6];
            bt6(d[0], d[1], d[2], d[3], d[4], d[5], o);
            for (int i = 0; i < 6; i++)
                _mm512_store_ps(&tmp[i][16 * k], o[i]);
        }
        /* horizontal, 16 tiles at a time: tile t's columns 4t .. 4t + 5
         * of each row */
        for (size_t t0 = 0; t0 < s->n; t0 += 16) {
            size_t left = s->n - t0;
            const __mmask16 keep =
                (__mmask16)(left >= 16 ? 0xffffu : (1u << left) - 1);
            float *vc = v + c * NR + s->col + t0;
            for (int i = 0; i < 6; i++) {
                const float *ti = &tmp[i][4 * t0];
                __m512 a0 = _mm512_load_ps(ti);
                __m512 a1 = _mm512_load_ps(ti + 16);
                __m512 a2 = _mm512_load_ps(ti + 32);
                __m512 a3 = _mm512_load_ps(ti + 48);
                __m512 a4 = _mm512_load_ps(ti + 64);
                __m512 xa = _mm512_permutex2var_ps(a0, x01, a1);
                __m512 ya = _mm512_permutex2var_ps(a0, y01, a1);
                __m512 xb = _mm512_permutex2var_ps(a2, x01, a3);
                __m512 yb = _mm512_permutex2var_ps(a2, y01, a3);
                __m512 e0 = _mm512_permutex2var_ps(xa, lo8, xb);
                __m512 e1 = _mm512_permutex2var_ps(xa, hi8, xb);
                __m512 e2 = _mm512_permutex2var_ps(ya, lo8, yb);
                __m512 e3 = _mm512_permutex2var_ps(ya, hi8, yb);
                __m512 e4 = _mm512_permutex2var_ps(e0, sh0, a4);
                __m512 e5 = _mm512_permutex2var_ps(e1, sh1, a4);
                __m512 o[6];
                bt6(e0, e1, e2, e3, e4, e5, o);
                for (int j = 0; j < 6; j++)
                    _mm512_mask_storeu_ps(
                        vc + (size_t)(i * 6 + j) * xstep, keep, o[j]);
            }
        }
    }
}

/* Y = A^T M A for the 16 tiles of output channel row MV (xi stride
 * XSTEP) into OUT[a][4 * t + b] (image order within each tile row). */
static void output_tiles(const float *mv, size_t xstep, float out[4][64])
{
    __m512 s[6][4];
    for (int i = 0; i < 6; i++) {
        const float *r = mv + (size_t)i * 6 * xstep;
        at6(_mm512_loadu_ps(r), _mm512_loadu_ps(r + xstep),
            _mm512_loadu_ps(r + 2 * xstep), _mm512_loadu_ps(r + 3 * xstep),
            _mm512_loadu_ps(r + 4 * xstep), _mm512_loadu_ps(r + 5 * xstep),
            s[i]);
    }
    /* lanes of 128 bits: [A.l0 B.l0 A.l1 B.l1] and [A.l2 B.l2 A.l3 B.l3] */
    const __m512i ab01 = _mm512_set_epi32(23, 22, 21, 20, 7, 6, 5, 4, 19,
                                          18, 17, 16, 3, 2, 1, 0);
    const __m512i ab23 = _mm512_set_epi32(31, 30, 29, 28, 15, 14, 13, 12,
                                          27, 26, 25, 24, 11, 10, 9, 8);
    for (int b = 0; b < 4; b++) {
        __m512 y[4];
        at6(s[0][b], s[1][b], s[2][b], s[3][b], s[4][b], s[5][b], y);
        for (int a = 0; a < 4; a++)
            _mm512_store_ps(&out[a][16 * b], y[a]); /* y[a][b] over t */
    }
    /* out[a] holds (b, t); make it (t, b) */
    for (int a = 0; a < 4; a++) {
        __m512 y0 = _mm512_load_ps(&out[a][0]);
        __m512 y1 = _mm512_load_ps(&out[a][16]);
        __m512 y2 = _mm512_load_ps(&out[a][32]);
        __m512 y3 = _mm512_load_ps(&out[a][48]);
        __m512 l01 = _mm512_unpacklo_ps(y0, y1), h01 = _mm512_unpackhi_ps(y0, y1);
        __m512 l23 = _mm512_unpacklo_ps(y2, y3), h23 = _mm512_unpackhi_ps(y2, y3);
        /* per 128-bit lane k: tiles 4k, 4k + 1, 4k + 2, 4k + 3 */
        __m512 ta = _mm512_castpd_ps(_mm512_unpacklo_pd(
            _mm512_castps_pd(l01), _mm512_castps_pd(l23)));
        __m512 tb = _mm512_castpd_ps(_mm512_unpackhi_pd(
            _mm512_castps_pd(l01), _mm512_castps_pd(l23)));
        __m512 tc = _mm512_castpd_ps(_mm512_unpacklo_pd(
            _mm512_castps_pd(h01), _mm512_castps_pd(h23)));
        __m512 td = _mm512_castpd_ps(_mm512_unpackhi_pd(
            _mm512_castps_pd(h01), _mm512_castps_pd(h23)));
        __m512 e = _mm512_permutex2var_ps(ta, ab01, tb);
        __m512 f = _mm512_permutex2var_ps(tc, ab01, td);
        __m512 g = _mm512_permutex2var_ps(ta, ab23, tb);
        __m512 h = _mm512_permutex2var_ps(tc, ab23, td);
        _mm512_store_ps(&out[a][0], _mm512_shuffle_f32x4(e, f, 0x44));
        _mm512_store_ps(&out[a][16], _mm512_shuffle_f32x4(e, f, 0xee));
        _mm512_store_ps(&out[a][32], _mm512_shuffle_f32x4(g, h, 0x44));
        _mm512_store_ps(&out[a][48], _mm512_shuffle_f32x4(g, h, 0xee));
    }
}

/* N outputs SRC of channel CH at Y (residual RES or NULL): the epilogue
 * in registers for bias, residual and relu, else through the conv's. */
ALWAYS_INLINE void store_row(const rlxb_conv *p, const float *src, float *y,
                             const float *res, size_t ch, size_t n,
                             int relu)
{
    if (p->act != RLX_OP_RELU && p->act != RLX_OP_INVALID) {
        memcpy(y, src, n * sizeof *y);
        rlxb_conv_epilogue(p, y, res, n, ch, 1, n);
        return;
    }
    const __m512 bias = _mm512_set1_ps(p->fbias[ch]), zero = _mm512_setzero_ps();
    for (size_t j = 0; j < n; j += 16) {
        __mmask16 m = n - j >= 16 ? 0xffff
                                  : (__mmask16)((1u << (n - j)) - 1);
        __m512 v = _mm512_add_ps(_mm512_maskz_loadu_ps(m, src + j), bias);
        __m512 r = res ? _mm512_maskz_loadu_ps(m, res + j) : zero;
        if (res && (p->res_first || !relu))
            v = _mm512_add_ps(v, r);
        if (relu) /* max(0, v) keeps a NaN v */
            v = _mm512_max_ps(zero, v);
        if (res && relu && !p->res_first)
            v = _mm512_add_ps(v, r);
        _mm512_mask_storeu_ps(y + j, m, v);
    }
}

/* Floats from one point xi's rows to the next' (ROWS of NR): a line
 * more than the rows, so the 36 rows the transforms touch at once fall
 * in different L1 sets rather than one (a multiple of 4 KiB apart). */
static size_t xi_step(size_t rows)
{
    return rows * NR + 16;
}

typedef struct wino_ctx {
    rlxb_conv *p;
    const float *x, *res;
    float *y;
    size_t tiles, panels, block, n_blocks;
} wino_ctx;

static void wino_jobs(void *arg, size_t begin, size_t end)
{
    const wino_ctx *cx = arg;
    rlxb_conv *p = cx->p;
    unsigned slot = rlxb_conv_take_slot(p);
    size_t P = cx->block, tiles = m_tiles(p), kcs = wino_kc(p->c);
    size_t vstep = xi_step(P * p->c), mstep = xi_step(P * p->m);
    float *v = p->scratch + slot * p->slot_floats;
    float *mb = v + XI * vstep;
    seg sg[2 * NR];
    float out[4][64] __attribute__((aligned(64)));
    for (size_t job = begin; job < end; job++) {
        size_t pn0 = job * P;
        size_t np = cx->panels - pn0 < P ? cx->panels - pn0 : P;
        /* input transform, panel by panel */
        for (size_t pn = 0; pn < np; pn++) {
            size_t g0 = (pn0 + pn) * NR;
            size_t nt = cx->tiles - g0 < NR ? cx->tiles - g0 : NR;
            float *vp = v + pn * p->c * NR;
            if (nt < NR) /* the dead columns zero, not stale */
                for (size_t xi = 0; xi < XI; xi++)
                    for (size_t c = 0; c < p->c; c++)
                        memset(vp + xi * vstep + c * NR + nt, 0,
                               (NR - nt) * sizeof *vp);
            size_t n_seg = segments(p, g0, nt, 0, sg);
            for (size_t k = 0; k < n_seg; k++)
                input_tiles(p, cx->x, &sg[k], vp, vstep);
        }
        /* the 36 products: a weight tile over every panel of the block */
        for (size_t xi = 0; xi < XI; xi++)
            for (size_t k0 = 0; k0 < p->c; k0 += kcs) {
                size_t kc = p->c - k0 < kcs ? p->c - k0 : kcs;
                for (size_t t = 0; t < tiles; t++) {
                    size_t i = t * MR, mr = p->m - i < MR ? p->m - i : MR;
                    const float *u = p->packed + u_at(p, xi, k0, kc, t);
                    /* the next weight tile (the stream goes on through
                     * the slices and points) into L1 while this one runs */
                    const char *pf = (const char *)(u + kc * MR);
                    if (xi + 1 == XI && k0 + kc == p->c && t + 1 == tiles)
                        pf = NULL;
                    for (size_t pn = 0; pn < np; pn++) {
                        size_t g0 = (pn0 + pn) * NR;
                        size_t nt = cx->tiles - g0 < NR ? cx->tiles - g0
                                                        : NR;
                        rlx__sgemm_tile(
                            mr, nt, kc, u, 0, 1,
                            v + xi * vstep + (pn * p->c + k0) * NR,
                            mb + xi * mstep + (pn * p->m + i) * NR, NR,
                            k0 > 0, NULL, pn == 0 ? pf : NULL,
                            pf ? kc * MR * sizeof(float) / 64 : 0);
                    }
                }
            }
        /* output transform and epilogue, 16 tiles at a time */
        for (size_t pn = 0; pn < np; pn++) {
            size_t g0 = (pn0 + pn) * NR;
            size_t nt = cx->tiles - g0 < NR ? cx->tiles - g0 : NR;
            size_t n_seg = segments(p, g0, nt, 1, sg);
            for (size_t half = 0; half * 16 < nt; half++)
                for (size_t m = 0; m < p->m; m++) {
                    output_tiles(mb + (pn * p->m + m) * NR + half * 16,
                                 mstep, out);
                    for (size_t k = 0; k < n_seg; k++) {
                        const seg *s = &sg[k];
                        if (s->col / 16 != half)
                            continue;
                        size_t ox = s->tx * 4, lt = s->col - half * 16;
                        size_t n = s->n * 4 < p->ow - ox ? s->n * 4
                                                         : p->ow - ox;
                        for (size_t a = 0; a < 4; a++) {
                            size_t oy = s->ty * 4 + a;
                            if (oy >= p->oh)
                                break;
                            size_t at = ((s->img * p->m + m) * p->oh + oy) *
                                            p->ow + ox;
                            const float *r = cx->res ? cx->res + at : NULL;
                            if (p->act == RLX_OP_RELU) /* two copies */
                                store_row(p, &out[a][4 * lt], cx->y + at, r,
                                          m, n, 1);
                            else
                                store_row(p, &out[a][4 * lt], cx->y + at, r,
                                          m, n, 0);
                        }
                    }
                }
        }
    }
    atomic_flag_clear_explicit(&p->busy[slot], memory_order_release);
}

int rlxb_wino_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
                  const float *res, float *y, int par)
{
    wino_ctx cx = { .p = p, .x = x, .res = res, .y = y };
    cx.tiles = p->n * tiles_h(p) * tiles_w(p);
    cx.panels = (cx.tiles + NR - 1) / NR;
    size_t per_panel = XI * (p->c + p->m) * NR * sizeof(float);
    size_t most = WINO_BLOCK_BYTES / per_panel;
    cx.block = most < 1 ? 1 : most > cx.panels ? cx.panels : most;
    size_t threads = rlxb_pool_threads(pool);
    if (par) { /* a job per thread at least */
        size_t per = (cx.panels + threads - 1) / threads;
        if (per < cx.block)
            cx.block = per < 1 ? 1 : per;
    }
    cx.n_blocks = (cx.panels + cx.block - 1) / cx.block;
    if (rlxb_conv_ensure_scratch(p, par ? (unsigned)threads : 1,
                                 XI * (xi_step(cx.block * p->c) +
                                       xi_step(cx.block * p->m))) != 0)
        return -1;
    if (par && cx.n_blocks > 1)
        rlxb_parallel_for(pool, cx.n_blocks, 1, wino_jobs, &cx);
    else
        wino_jobs(&cx, 0, cx.n_blocks);
    return 0;
}

#else /* not the AVX-512 variant: im2col + sgemm runs every conv */

int rlxb_wino_fits(const rlxb_conv *p)
{
    (void)p;
    return 0;
}

int rlxb_wino_pays(const rlxb_conv *p)
{
    (void)p;
    return 0;
}

size_t rlxb_wino_packed_floats(const rlxb_conv *p)
{
    (void)p;
    return 0;
}

void rlxb_wino_pack(rlxb_conv *p, const float *w, const float *scale)
{
    (void)p;
    (void)w;
    (void)scale;
}

int rlxb_wino_run(rlxb_pool *pool, rlxb_conv *p, const float *x,
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

#endif /* AVX-512 */

#endif /* RLX__SGEMM_NR */
