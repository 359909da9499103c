/*
 * kernels_qconv.c - conv_integer on AVX-512 VNNI straight from a
 * channel-last copy of its input: no im2col and no column panels.
 *
 * On the GEMM of kernels_q.c a conv's columns are built (im2col, kh*kw
 * times the input's bytes) and then packed, two passes over the largest
 * operand. Here the roles are swapped: the output pixels are the
 * broadcast side and the weights the vector side. Each image (and group)
 * is copied once into [row][column][channel] bytes, channels padded to
 * 4 and the spatial padding written out as x's zero point, so the four
 * bytes vpdpbusd broadcasts are four channels of one pixel and one tap,
 * and every tap sits at a fixed offset from its output pixel's corner:
 * a tile of 8 output pixels by 32 output channels needs 8 pointers.
 * Without dilation the kw taps of a kernel row are one run of kw * cp
 * bytes (a 7x7 stem over 3 channels: 28 bytes, not 7 runs of 4). The
 * weights are packed once per bound buffer as [tap][channel / 4][32][4].
 *
 * The activations are the u8 side and the weights the s8 side (a byte of
 * the other signedness flipped by xor 0x80, its zero point moved by
 * 128). The path is taken when every moved weight zero point is 0 (s8
 * symmetric weights, the usual case); then
 * sum (x - zx) w = sum x w - zx sum w, and zx sum w folds into the bias.
 * Padding reads zx, so it adds 0, and padded channels have weight 0.
 * The epilogue does cpu-ref's float operations in its order, on 16
 * lanes: f32(acc + bias), the multiply, the divide by the scale (skipped
 * when it is 1), then NaN to 0, the clamp, and vcvtps2dq, which rounds
 * half to even in the default rounding mode as nearbyintf does (the
 * bounds are integers, so clamping before rounding is the same), + zero
 * point. The tile is transposed to the result's [channel][pixel] rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define QC_X86 1
#else
#define QC_X86 0
#endif

#define PX 8       /* output pixels per tile (broadcast side) */
#define CW 32      /* output channels per tile: two zmm of i32 */
#define CHUNK 16   /* most tiles of pixels per task */

struct rlxb_qconv {
    size_t cp;                /* channels per group, rounded up to 4 */
    size_t taps;              /* kh * kw */
    size_t np;                /* panels of CW output channels per group */
    uint64_t key;             /* a_key the weights were packed under */
    int packed;
    uint8_t *pw;              /* [groups][np][taps][cp / 4][CW][4] s8 */
    int32_t *csw;             /* [groups][np * CW] sums of pw's columns */
    int32_t *off;             /* per run: bias - zx * csw */
    float *mult;              /* per run: multiplier per channel */
    size_t ihp, iwp;          /* the copy's padded height and width */
    size_t nseg, seglen;      /* runs of bytes per pixel, their length */
    size_t *segoff;           /* [nseg] offsets from the pixel's corner */
    uint8_t *xt;              /* [nb * groups][ihp][iwp][cp] */
    uint8_t *padrow;          /* [iwp][cp] of zero point (per run) */
};

void rlxb_qconv_free(struct rlxb_qconv *q)
{
    if (!q)
        return;
    free(q->pw);
    free(q->csw);
    free(q->off);
    free(q->mult);
    free(q->xt);
    free(q->padrow);
    free(q->segoff);
    free(q);
}

#if QC_X86

typedef struct qcrun {
    const rlxb_qplan *p;
    const struct rlxb_qconv *q;
    const uint8_t *x;
    uint8_t xflip;            /* brings x to u8 */
    uint8_t zxu;              /* x's zero point as a u8 byte */
    void *y;
    int on;                   /* the requantization is fused */
    float scale, flo, fhi;
    int nan;                  /* a NaN can arise (a NaN or inf operand) */
    int32_t zp;
    size_t rchunk, n_rchunks; /* the copy: input rows per task */
    size_t chunk, n_chunks;   /* conv: tiles per task */
} qcrun;

static int32_t byte_at(rlx_dtype t, const void *p, size_t i)
{
    return t == RLX_DTYPE_U8 ? (int32_t)((const uint8_t *)p)[i]
                             : (int32_t)((const int8_t *)p)[i];
}

#define T512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

/* ---- the channel-last copy --------------------------------------------- */

/* 16 rows of 16 bytes (channels of 16 pixels) to 16 pixels of 16
 * channels: four unpack stages. */
static inline T512 void t16(const __m128i *r, __m128i *out)
{
    __m128i a[16], b[16], c[16];
    for (int i = 0; i < 8; i++) {
        a[i] = _mm_unpacklo_epi8(r[2 * i], r[2 * i + 1]);     /* px 0-7 */
        a[8 + i] = _mm_unpackhi_epi8(r[2 * i], r[2 * i + 1]); /* 8-15 */
    }
    for (int j = 0; j < 4; j++) { /* channels 4j .. 4j + 3 */
        b[4 * j + 0] = _mm_unpacklo_epi16(a[2 * j], a[2 * j + 1]);
        b[4 * j + 1] = _mm_unpackhi_epi16(a[2 * j], a[2 * j + 1]);
        b[4 * j + 2] = _mm_unpacklo_epi16(a[8 + 2 * j], a[9 + 2 * j]);
        b[4 * j + 3] = _mm_unpackhi_epi16(a[8 + 2 * j], a[9 + 2 * j]);
    }
    for (int k = 0; k < 2; k++) /* channels 8k .. 8k + 7 */
        for (int h = 0; h < 4; h++) {
            c[8 * k + 2 * h] = _mm_unpacklo_epi32(b[8 * k + h],
                                                  b[8 * k + 4 + h]);
            c[8 * k + 2 * h + 1] = _mm_unpackhi_epi32(b[8 * k + h],
                                                      b[8 * k + 4 + h]);
        }
    for (int q = 0; q < 8; q++) { /* pixels 2q, 2q + 1 */
        out[2 * q] = _mm_unpacklo_epi64(c[q], c[8 + q]);
        out[2 * q + 1] = _mm_unpackhi_epi64(c[q], c[8 + q]);
    }
}

/* Pixels [p0, p1) of a block's input (its planes at SRC, HW bytes
 * apart) to their places in the block's padded copy XT: 16 pixels at a
 * time (across input rows: a 7 or 14 wide row is no shorter a run),
 * their channels 16 at a time through t16, the rest four at a time;
 * padded channels are 0. A last block of fewer than 16 pixels is moved
 * back over the one before (writing the same bytes again). */
static T512 void transpose_run(const qcrun *r, const uint8_t *src,
                               size_t hw, size_t p0, size_t p1,
                               uint8_t *xt)
{
    const rlxb_qplan *p = r->p;
    const struct rlxb_qconv *q = r->q;
    size_t cp = q->cp, iw = p->iw, c16 = p->cg / 16 * 16;
    const __m128i flip = _mm_set1_epi8((char)r->xflip);
    const __m128i z = _mm_setzero_si128();
    if (p1 - p0 < 16) {
        for (size_t px = p0; px < p1; px++) {
            uint8_t *d = xt + ((px / iw + p->ph) * q->iwp + px % iw +
                               p->pw) * cp;
            for (size_t c = 0; c < cp; c++)
                d[c] = c < p->cg ? (uint8_t)(src[c * hw + px] ^ r->xflip)
                                 : 0;
        }
        return;
    }
    for (size_t px = p0; px < p1; px += 16) {
        if (px + 16 > p1)
            px = p1 - 16;
        uint8_t *d[16];
        size_t y = px / iw, x = px % iw;
        for (size_t i = 0; i < 16; i++) {
            d[i] = xt + ((y + p->ph) * q->iwp + x + p->pw) * cp;
            if (++x == iw) {
                x = 0;
                y++;
            }
        }
        for (size_t c0 = 0; c0 < c16; c0 += 16) {
            __m128i in[16], out[16];
            for (size_t k = 0; k < 16; k++)
                in[k] = _mm_xor_si128(
                    flip, _mm_loadu_si128((const __m128i *)(
                              src + (c0 + k) * hw + px)));
            t16(in, out);
            for (size_t i = 0; i < 16; i++)
                _mm_storeu_si128((__m128i *)(d[i] + c0), out[i]);
        }
        /* the rest, four channels at a time; channels past cg read as 0
         * (a stem's 3 of 4) */
        for (size_t c0 = c16; c0 < cp; c0 += 4) {
            __m128i v4[4];
            for (size_t k = 0; k < 4; k++)
                v4[k] = c0 + k < p->cg
                            ? _mm_xor_si128(flip, _mm_loadu_si128(
                                                      (const __m128i *)(
                                                          src + (c0 + k) *
                                                                    hw +
                                                          px)))
                            : z;
            __m128i ab0 = _mm_unpacklo_epi8(v4[0], v4[1]);
            __m128i ab1 = _mm_unpackhi_epi8(v4[0], v4[1]);
            __m128i cd0 = _mm_unpacklo_epi8(v4[2], v4[3]);
            __m128i cd1 = _mm_unpackhi_epi8(v4[2], v4[3]);
            __m128i v[4] = { _mm_unpacklo_epi16(ab0, cd0),
                             _mm_unpackhi_epi16(ab0, cd0),
                             _mm_unpacklo_epi16(ab1, cd1),
                             _mm_unpackhi_epi16(ab1, cd1) };
            for (size_t k = 0; k < 4; k++) {
                int32_t w[4];
                _mm_storeu_si128((__m128i *)w, v[k]);
                for (size_t l = 0; l < 4; l++)
                    memcpy(d[4 * k + l] + c0, &w[l], 4);
            }
        }
    }
}

/* Input rows of a block into the padded copy, with the padding around
 * them (the first task of a block writes the rows above, the last those
 * below). */
static void transpose_task(void *arg, size_t begin, size_t end)
{
    const qcrun *r = arg;
    const rlxb_qplan *p = r->p;
    const struct rlxb_qconv *q = r->q;
    size_t hw = p->ih * p->iw, cp = q->cp, rowb = q->iwp * cp;
    for (size_t t = begin; t < end; t++) {
        size_t blk = t / r->n_rchunks, c = t % r->n_rchunks;
        size_t y0 = c * r->rchunk;
        size_t y1 = y0 + r->rchunk < p->ih ? y0 + r->rchunk : p->ih;
        size_t img = blk / p->groups, g = blk % p->groups;
        const uint8_t *src = r->x + (img * p->c + g * p->cg) * hw;
        uint8_t *xt = q->xt + blk * q->ihp * rowb;
        if (y0 == 0)
            for (size_t y = 0; y < p->ph; y++)
                memcpy(xt + y * rowb, q->padrow, rowb);
        if (y1 == p->ih)
            for (size_t y = p->ph + p->ih; y < q->ihp; y++)
                memcpy(xt + y * rowb, q->padrow, rowb);
        for (size_t y = y0; y < y1; y++) {
            uint8_t *d = xt + (p->ph + y) * rowb;
            size_t right = (p->pw + p->iw) * cp;
            memcpy(d, q->padrow, p->pw * cp);
            memcpy(d + right, q->padrow, rowb - right);
        }
        transpose_run(r, src, hw, y0 * p->iw, y1 * p->iw, xt);
    }
}

/* ---- the micro-kernel --------------------------------------------------- */

/* C[R][CW] = sum over the runs of pixel bytes (u8: NSEG runs of LEN
 * bytes at SEGOFF from each of the R corners A) times the panel B (s8,
 * [nseg][len / 4][CW][4]). Named accumulators, as in qgemm.c; one
 * function per R (the last tile of an image is short: a 7x7 output is
 * six tiles of 8 and one of 1), the unused rows compiled away, and per
 * panel width W (32, or 16 for a last panel of at most 16 channels:
 * [nseg][len / 4][16][4], one zmm per row). */
#define ROWQ(R, W, i)                                                      \
    do {                                                                   \
        if (R > (i)) {                                                     \
            int32_t w_;                                                    \
            memcpy(&w_, s##i + q, 4);                                      \
            __m512i av_ = _mm512_set1_epi32(w_);                           \
            c##i##0 = _mm512_dpbusd_epi32(c##i##0, av_, b0);               \
            if (W > 16)                                                    \
                c##i##1 = _mm512_dpbusd_epi32(c##i##1, av_, b1);           \
        }                                                                  \
    } while (0)
#define STOREQ(R, W, i)                                                    \
    do {                                                                   \
        if (R > (i)) {                                                     \
            _mm512_storeu_si512(c + (i) * CW, c##i##0);                    \
            if (W > 16)                                                    \
                _mm512_storeu_si512(c + (i) * CW + 16, c##i##1);           \
        }                                                                  \
    } while (0)
#define TILEQ(NAME, R, W)                                                  \
    static T512 void NAME(const uint8_t *const *a, const size_t *segoff,   \
                          size_t nseg, size_t len, const uint8_t *b,       \
                          int32_t *c)                                      \
    {                                                                      \
        __m512i c00 = _mm512_setzero_si512(), c01 = c00, c10 = c00,        \
                c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00,     \
                c40 = c00, c41 = c00, c50 = c00, c51 = c00, c60 = c00,     \
                c61 = c00, c70 = c00, c71 = c00;                           \
        for (size_t t = 0; t < nseg; t++) {                                \
            size_t o = segoff[t];                                          \
            const uint8_t *s0 = a[0] + o, *s1 = R > 1 ? a[1] + o : s0,     \
                          *s2 = R > 2 ? a[2] + o : s0,                     \
                          *s3 = R > 3 ? a[3] + o : s0,                     \
                          *s4 = R > 4 ? a[4] + o : s0,                     \
                          *s5 = R > 5 ? a[5] + o : s0,                     \
                          *s6 = R > 6 ? a[6] + o : s0,                     \
                          *s7 = R > 7 ? a[7] + o : s0;                     \
            for (size_t q = 0; q < len; q += 4, b += 4 * (W)) {            \
                __m512i b0 = _mm512_loadu_si512(b);                        \
                __m512i b1 = W > 16 ? _mm512_loadu_si512(b + 64) : b0;     \
                ROWQ(R, W, 0);                                             \
                ROWQ(R, W, 1);                                             \
                ROWQ(R, W, 2);                                             \
                ROWQ(R, W, 3);                                             \
                ROWQ(R, W, 4);                                             \
                ROWQ(R, W, 5);                                             \
                ROWQ(R, W, 6);                                             \
                ROWQ(R, W, 7);                                             \
            }                                                              \
        }                                                                  \
        STOREQ(R, W, 0);                                                   \
        STOREQ(R, W, 1);                                                   \
        STOREQ(R, W, 2);                                                   \
        STOREQ(R, W, 3);                                                   \
        STOREQ(R, W, 4);                                                   \
        STOREQ(R, W, 5);                                                   \
        STOREQ(R, W, 6);                                                   \
        STOREQ(R, W, 7);                                                   \
    }
#if PX != 8 || CW != 32
#error "the tiles are written for 8 pixels by 32 channels"
#endif
/* full panels, and half ones (the last of 16 or fewer channels: the 16,
 * 24 or 40 channels of MobileNet's and EfficientNet's convs) */
TILEQ(tile1, 1, 32)
TILEQ(tile2, 2, 32)
TILEQ(tile3, 3, 32)
TILEQ(tile4, 4, 32)
TILEQ(tile5, 5, 32)
TILEQ(tile6, 6, 32)
TILEQ(tile7, 7, 32)
TILEQ(tile8, 8, 32)
TILEQ(half1, 1, 16)
TILEQ(half2, 2, 16)
TILEQ(half3, 3, 16)
TILEQ(half4, 4, 16)
TILEQ(half5, 5, 16)
TILEQ(half6, 6, 16)
TILEQ(half7, 7, 16)
TILEQ(half8, 8, 16)
typedef void (*tile_fn)(const uint8_t *const *, const size_t *, size_t,
                        size_t, const uint8_t *, int32_t *);
static const tile_fn tiles[2][PX + 1] = {
    { NULL, tile1, tile2, tile3, tile4, tile5, tile6, tile7, tile8 },
    { NULL, half1, half2, half3, half4, half5, half6, half7, half8 } };

/* ---- the epilogue ------------------------------------------------------- */

/* Sixteen lanes of the requantization (see the top of the file). NAN:
 * NaN lanes become 0 (with finite multipliers and a finite nonzero
 * scale none can arise: an overflow is inf, which the clamp takes). */
static inline T512 __m128i requant16(__m512i v, __m512 mu, __m512 sc,
                                     int div, int nan, __m512 lo,
                                     __m512 hi, __m512i zp)
{
    __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(v), mu);
    if (div)
        f = _mm512_div_ps(f, sc);
    if (nan)
        f = _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(f, f, _CMP_ORD_Q), f);
    f = _mm512_min_ps(_mm512_max_ps(f, lo), hi);
    return _mm512_cvtepi32_epi8(
        _mm512_add_epi32(_mm512_cvtps_epi32(f), zp));
}

/* Two rows of 8 bytes (channels J and J + 1 of 8 pixels) from the low
 * and high halves of D. */
static inline T512 void put2(__m128i d, uint8_t *y0, uint8_t *y1, int two)
{
    _mm_storel_epi64((__m128i *)y0, d);
    if (two)
        _mm_storel_epi64((__m128i *)y1, _mm_unpackhi_epi64(d, d));
}

/* Bytes BT[PX][CW] (pixel rows) into the result's channel rows: 16
 * channels at a time, an 8 by 16 byte transpose in three unpack
 * stages. */
static T512 void store_t(const uint8_t *bt, uint8_t *y, size_t n, size_t nc)
{
    for (size_t h = 0; h < CW && h < nc; h += 16) {
        __m128i r[PX];
        for (int i = 0; i < PX; i++)
            r[i] = _mm_loadu_si128((const __m128i *)(bt + i * CW + h));
        __m128i a0 = _mm_unpacklo_epi8(r[0], r[1]);
        __m128i a1 = _mm_unpackhi_epi8(r[0], r[1]);
        __m128i a2 = _mm_unpacklo_epi8(r[2], r[3]);
        __m128i a3 = _mm_unpackhi_epi8(r[2], r[3]);
        __m128i a4 = _mm_unpacklo_epi8(r[4], r[5]);
        __m128i a5 = _mm_unpackhi_epi8(r[4], r[5]);
        __m128i a6 = _mm_unpacklo_epi8(r[6], r[7]);
        __m128i a7 = _mm_unpackhi_epi8(r[6], r[7]);
        __m128i b0 = _mm_unpacklo_epi16(a0, a2);
        __m128i b1 = _mm_unpackhi_epi16(a0, a2);
        __m128i b2 = _mm_unpacklo_epi16(a1, a3);
        __m128i b3 = _mm_unpackhi_epi16(a1, a3);
        __m128i b4 = _mm_unpacklo_epi16(a4, a6);
        __m128i b5 = _mm_unpackhi_epi16(a4, a6);
        __m128i b6 = _mm_unpacklo_epi16(a5, a7);
        __m128i b7 = _mm_unpackhi_epi16(a5, a7);
        __m128i d[8] = { _mm_unpacklo_epi32(b0, b4),
                         _mm_unpackhi_epi32(b0, b4),
                         _mm_unpacklo_epi32(b1, b5),
                         _mm_unpackhi_epi32(b1, b5),
                         _mm_unpacklo_epi32(b2, b6),
                         _mm_unpackhi_epi32(b2, b6),
                         _mm_unpacklo_epi32(b3, b7),
                         _mm_unpackhi_epi32(b3, b7) };
        for (size_t k = 0; k < 8; k++) {
            size_t j = h + 2 * k;
            if (j >= nc)
                break;
            put2(d[k], y + j * n, y + (j + 1) * n, j + 1 < nc);
        }
    }
}

/* Tile C (NPX pixels from PIX0 by NC channels from CH0 of block BLK)
 * into the result. */
static T512 void put_tile(const qcrun *r, const int32_t *c, size_t blk,
                          size_t pix0, size_t npx, size_t ch0, size_t nc)
{
    const rlxb_qplan *p = r->p;
    const struct rlxb_qconv *q = r->q;
    size_t g = blk % p->groups, n = p->n;
    size_t gi = g * q->np * CW + ch0; /* into off and mult */
    size_t out = (blk * p->m + ch0) * n + pix0;
    if (!r->on) {
        int32_t *y = (int32_t *)r->y + out;
        for (size_t j = 0; j < nc; j++)
            for (size_t i = 0; i < npx; i++)
                y[j * n + i] = (int32_t)((uint32_t)c[i * CW + j] +
                                         (uint32_t)q->off[gi + j]);
        return;
    }
    __m512i o0 = _mm512_loadu_si512(q->off + gi);
    __m512i o1 = _mm512_loadu_si512(q->off + gi + 16);
    __m512 m0 = _mm512_loadu_ps(q->mult + gi);
    __m512 m1 = _mm512_loadu_ps(q->mult + gi + 16);
    __m512 sc = _mm512_set1_ps(r->scale);
    __m512 lo = _mm512_set1_ps(r->flo), hi = _mm512_set1_ps(r->fhi);
    __m512i zp = _mm512_set1_epi32(r->zp);
    int div = r->scale != 1.0f;
    uint8_t bt[PX * CW];
    for (size_t i = 0; i < npx; i++) {
        __m512i v0 = _mm512_add_epi32(
            _mm512_loadu_si512(c + i * CW), o0);
        _mm_storeu_si128((__m128i *)(bt + i * CW),
                         requant16(v0, m0, sc, div, r->nan, lo, hi, zp));
        if (nc <= 16) /* a half panel's tile has only 16 lanes */
            continue;
        __m512i v1 = _mm512_add_epi32(
            _mm512_loadu_si512(c + i * CW + 16), o1);
        _mm_storeu_si128((__m128i *)(bt + i * CW + 16),
                         requant16(v1, m1, sc, div, r->nan, lo, hi, zp));
    }
    uint8_t *y = (uint8_t *)r->y + out;
    if (npx == PX) {
        store_t(bt, y, n, nc);
        return;
    }
    for (size_t j = 0; j < nc; j++)
        for (size_t i = 0; i < npx; i++)
            y[j * n + i] = bt[i * CW + j];
}

/* ---- tasks -------------------------------------------------------------- */

static void conv_task(void *arg, size_t begin, size_t end)
{
    const qcrun *r = arg;
    const rlxb_qplan *p = r->p;
    const struct rlxb_qconv *q = r->q;
    size_t np = q->np, n_tiles = (p->n + PX - 1) / PX;
    size_t panel = q->taps * q->cp * CW;
    int32_t c[PX * CW];
    const uint8_t *a[PX];
    for (size_t t = begin; t < end; t++) {
        size_t pnl = t % np, rest = t / np;
        size_t ch = rest % r->n_chunks, blk = rest / r->n_chunks;
        size_t t0 = ch * r->chunk;
        size_t nt = n_tiles - t0 < r->chunk ? n_tiles - t0 : r->chunk;
        size_t g = blk % p->groups, ch0 = pnl * CW;
        size_t nc = p->m - ch0 < CW ? p->m - ch0 : CW;
        const uint8_t *b = q->pw + (g * np + pnl) * panel;
        const uint8_t *xt = q->xt + blk * q->ihp * q->iwp * q->cp;
        /* the corner (tap 0, 0) of each pixel, stepped without
         * division */
        size_t pix0 = t0 * PX, oy = pix0 / p->ow, ox = pix0 % p->ow;
        for (size_t tt = 0; tt < nt; tt++, pix0 += PX) {
            size_t npx = p->n - pix0 < PX ? p->n - pix0 : PX;
            for (size_t i = 0; i < npx; i++) {
                a[i] = xt + ((oy * p->sh) * q->iwp + ox * p->sw) * q->cp;
                if (++ox == p->ow) {
                    ox = 0;
                    oy++;
                }
            }
            tiles[nc <= 16][npx](a, q->segoff, q->nseg, q->seglen, b, c);
            put_tile(r, c, blk, pix0, npx, ch0, nc);
        }
    }
}

/* ---- plan and run ------------------------------------------------------- */

/* The weights as panels, flipped to s8, with their column sums. */
static void pack_w(const rlxb_qplan *p, struct rlxb_qconv *q,
                   const uint8_t *w, uint8_t wflip)
{
    size_t cp = q->cp, taps = q->taps, np = q->np;
    size_t panel = taps * cp * CW;
    memset(q->pw, 0, p->groups * np * panel);
    memset(q->csw, 0, p->groups * np * CW * sizeof *q->csw);
    for (size_t g = 0; g < p->groups; g++)
        for (size_t oc = 0; oc < p->m; oc++) {
            const uint8_t *src = w + (g * p->m + oc) * p->k;
            /* the last panel is half wide when it holds at most 16 */
            size_t w16 = oc / CW == np - 1 && p->m - oc / CW * CW <= 16;
            size_t lanes = w16 ? 16 : CW;
            uint8_t *d = q->pw + (g * np + oc / CW) * panel + (oc % CW) * 4;
            uint32_t sum = 0; /* wraps, as every sum here */
            for (size_t c = 0; c < p->cg; c++)
                for (size_t t = 0; t < taps; t++) {
                    uint8_t v = (uint8_t)(src[c * taps + t] ^ wflip);
                    d[(t * (cp / 4) + c / 4) * 4 * lanes + c % 4] = v;
                    sum += (uint32_t)(int32_t)(int8_t)v;
                }
            q->csw[g * np * CW + oc] = (int32_t)sum;
        }
}

static struct rlxb_qconv *plan_of(rlxb_qplan *p)
{
    if (p->direct)
        return p->direct;
    struct rlxb_qconv *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->cp = (p->cg + 3) / 4 * 4;
    q->taps = p->kh * p->kw;
    q->np = (p->m + CW - 1) / CW;
    size_t ch = p->groups * q->np * CW;
    /* a cache line per 16 lanes of a panel row: loads never split */
    q->pw = aligned_alloc(RLXB_ALIGN, (ch * q->taps * q->cp + RLXB_ALIGN) /
                                          RLXB_ALIGN * RLXB_ALIGN);
    q->csw = malloc(ch * sizeof *q->csw);
    q->off = malloc(ch * sizeof *q->off);
    q->mult = malloc(ch * sizeof *q->mult);
    /* the copy covers every tap of every output pixel: the padding
     * before x, x, and whatever the last taps reach past it */
    size_t eh = (p->oh - 1) * p->sh + (p->kh - 1) * p->dh + 1;
    size_t ew = (p->ow - 1) * p->sw + (p->kw - 1) * p->dw + 1;
    q->ihp = eh > p->ph + p->ih ? eh : p->ph + p->ih;
    q->iwp = ew > p->pw + p->iw ? ew : p->pw + p->iw;
    int run = p->dw == 1; /* a kernel row's taps are one run */
    q->nseg = run ? p->kh : q->taps;
    q->seglen = run ? p->kw * q->cp : q->cp;
    q->segoff = malloc(q->nseg * sizeof *q->segoff);
    for (size_t s = 0; q->segoff && s < q->nseg; s++) {
        size_t ky = run ? s : s / p->kw, kx = run ? 0 : s % p->kw;
        q->segoff[s] = (ky * p->dh * q->iwp + kx * p->dw) * q->cp;
    }
    q->xt = malloc(p->nb * p->groups * q->ihp * q->iwp * q->cp + 1);
    q->padrow = malloc(q->iwp * q->cp + 1);
    if (!q->pw || !q->csw || !q->off || !q->mult || !q->xt || !q->segoff ||
        !q->padrow) {
        rlxb_qconv_free(q);
        return NULL;
    }
    p->direct = q;
    return q;
}

int rlxb_qconv_run(rlxb_pool *pool, rlxb_qplan *p, const void *const *in,
                   void *y, int path)
{
    const rlxb_qepi *e = &p->epi;
    if (path != RLXB_QPATH_VNNI512 || !p->is_conv ||
        (e->on && (e->mult_mode == 2 || (e->bias_in >= 0 && e->bias_col))))
        return 1;
    /* the weights' zero points, moved to s8, must all be 0 */
    uint8_t wflip = p->ta == RLX_DTYPE_U8 ? 0x80 : 0;
    int32_t wmove = wflip ? -128 : 0;
    size_t rows = p->groups * p->m;
    for (size_t i = 0; i < (p->za_count == 1 ? 1 : rows); i++)
        if (byte_at(p->ta, in[3], i) + wmove != 0)
            return 1;
    if (p->k == 0 || p->ih * p->iw == 0)
        return 1;
    if (p->n == 0 || p->m == 0 || p->nb == 0)
        return 0;
    struct rlxb_qconv *q = plan_of(p);
    if (!q)
        return -1;
    if (!q->packed || !p->a_key || q->key != p->a_key) {
        pack_w(p, q, in[1], wflip);
        q->packed = 1;
        q->key = p->a_key;
    }
    qcrun r = { .p = p, .q = q, .x = in[0], .y = y, .on = e->on };
    r.xflip = p->tb == RLX_DTYPE_I8 ? 0x80 : 0;
    int32_t zx = byte_at(p->tb, in[2], 0) + (r.xflip ? 128 : 0);
    r.zxu = (uint8_t)zx;
    /* a row of padding: zx in the real channels, 0 in the padded ones */
    memset(q->padrow, 0, q->iwp * q->cp);
    for (size_t i = 0; i < q->iwp; i++)
        memset(q->padrow + i * q->cp, r.zxu, p->cg);
    /* per channel: bias - zx * sum w (wrapping), the multiplier */
    const int32_t *bias = e->on && e->bias_in >= 0 ? in[e->bias_in] : NULL;
    size_t np = q->np;
    for (size_t g = 0; g < p->groups; g++)
        for (size_t j = 0; j < np * CW; j++) {
            size_t i = g * np * CW + j, row = g * p->m + j;
            int live = j < p->m;
            uint32_t o = (uint32_t)0 - (uint32_t)zx * (uint32_t)q->csw[i];
            if (bias && live)
                o += (uint32_t)bias[row];
            q->off[i] = (int32_t)o;
            q->mult[i] = 0.0f;
            if (e->on && live)
                q->mult[i] = ((const float *)in[e->mult_in])
                    [e->mult_mode == 1 ? row : 0];
            r.nan |= !isfinite(q->mult[i]);
        }
    if (e->on) {
        r.scale = *(const float *)in[e->scale_in];
        r.nan |= !isfinite(r.scale) || r.scale == 0.0f;
        r.zp = byte_at(e->out, in[e->zp_in], 0);
        int32_t lo = e->out == RLX_DTYPE_U8 ? 0 : -128;
        int32_t hi = e->out == RLX_DTYPE_U8 ? 255 : 127;
        for (uint32_t c = 0; c < e->n_clamp; c++) {
            int32_t v = byte_at(e->out, in[e->clamp_in[c]], 0);
            if (e->clamp_op[c] == RLX_OP_MAX) {
                lo = lo > v ? lo : v;
                hi = hi > v ? hi : v;
            } else {
                lo = lo < v ? lo : v;
                hi = hi < v ? hi : v;
            }
        }
        r.flo = (float)(lo - r.zp);
        r.fhi = (float)(hi - r.zp);
    }
    size_t blocks = p->nb * p->groups;
    unsigned threads = rlxb_pool_threads(pool);
    threads = threads ? threads : 1;
    /* the copy: input rows of about 4 KiB per task */
    r.rchunk = 4096 / (p->iw * q->cp) + 1;
    if (r.rchunk * p->iw < 64) /* and at least 64 pixels */
        r.rchunk = (64 + p->iw - 1) / p->iw;
    r.n_rchunks = (p->ih + r.rchunk - 1) / r.rchunk;
    rlxb_parallel_for(pool, blocks * r.n_rchunks, 1, transpose_task, &r);
    /* the conv: halve the tiles per task until every thread has a few
     * tasks of equal size */
    size_t n_tiles = (p->n + PX - 1) / PX;
    r.chunk = n_tiles < CHUNK ? n_tiles : CHUNK;
    while (r.chunk > 1 &&
           blocks * np * ((n_tiles + r.chunk - 1) / r.chunk) < 4 * threads)
        r.chunk = (r.chunk + 1) / 2;
    r.n_chunks = (n_tiles + r.chunk - 1) / r.chunk;
    rlxb_parallel_for(pool, blocks * r.n_chunks * np, 1, conv_task, &r);
    return 0;
}

#else /* !QC_X86 */

int rlxb_qconv_run(rlxb_pool *pool, rlxb_qplan *p, const void *const *in,
                   void *y, int path)
{
    (void)pool;
    (void)p;
    (void)in;
    (void)y;
    (void)path;
    return 1;
}

#endif
