/*
 * kernels_conv.c - 2-d f32 convolution on the plugin's own sgemm tiles
 * (1-d convs run as 2-d ones of height 1).
 *
 * Per image and group the output is Y[mg x P] = W[mg x K] . col[K x P]
 * (K = cg * kh * kw, P = oh * ow), so the result lands in NCHW with no
 * transpose. The weights are the A side: packed once per bound buffer
 * into the MR-row tiles rlx__sgemm_tile reads (packed form), with a
 * folded batch norm applied while packing. The columns are the B side:
 * im2col writes them straight into NR-wide panels (for 1x1 stride-1
 * convs that is pack_b of the input itself), a block of panels per job,
 * so the column matrix is never materialised whole. Jobs are (image,
 * group, block of panels), run on the backend's pool. The epilogue (bias
 * per output channel, residual, activation) runs on each tile at the
 * last K slice while it is in L1.
 *
 * Depthwise convs (one input channel per group) run a direct kernel,
 * one channel plane per job (kernels_dw.c).
 */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/kit_spatial.h>

#include "conv_internal.h"
#include "sgemm.h"
#include "vmath.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#define KC 256
/* Floats of the column block of one job, at most (it stays in L2). */
#define COL_BLOCK_FLOATS ((size_t)96 << 10)
/* Fewer multiply-adds than this run on the calling thread. */
#define PAR_MIN_MACS ((size_t)1 << 18)

void rlxb_conv_free(rlxb_conv *p)
{
    free(p->packed);
    free(p->fbias);
    free(p->scratch);
    free(p->busy);
    free(p->koff);
    free(p->spacked);
    p->koff = NULL;
    p->spacked = NULL;
    p->spacked_floats = 0;
    p->packed = p->fbias = p->scratch = NULL;
    p->busy = NULL;
    p->n_slots = 0;
    p->slot_floats = 0;
    p->packed_ok = 0;
}

#if RLX__SGEMM_NR
/* A 0/1 conv setting NAME (environment variable ENV): 0 or 1 as set,
 * UNSET when it is not, -1 when bad (reported, ending with FIX). One
 * parser for cpu-openblas.conv, .winograd and .chlane. */
int rlxb_conv_setting(const rlx_compile_options *o, const rlx_host *host,
                      const char *name, const char *env, int unset,
                      const char *fix)
{
    char v[16];
    rlx_status st = rlx_compile_get_option(o, host, name, v, sizeof v);
    if (st == RLX_ERR_NOT_FOUND)
        return unset;
    if (st == RLX_OK && (!strcmp(v, "0") || !strcmp(v, "1")))
        return v[0] == '1';
    if (st != RLX_OK)
        snprintf(v, sizeof v, "(too long)");
    rlx_kit_fail(host, RLX_ERR_INVALID_ARGUMENT,
                 "cpu-openblas compile: setting %s (%s) is '%s'. Fix: %s",
                 name, env, v, fix);
    return -1;
}

/* The setting cpu-openblas.conv (RLX_CPU_OPENBLAS_CONV): 0 sends convs
 * to cpu-ref as before they had a kernel here (to compare, or to rule
 * the kernel out); default on. */
static int conv_wanted(const rlx_compile_options *o, const rlx_host *host)
{
    return rlxb_conv_setting(o, host, "cpu-openblas.conv",
                             "RLX_CPU_OPENBLAS_CONV", 1,
                             "set it to 1 (own conv kernels, the default) "
                             "or 0 (cpu-ref's), or unset it");
}
#endif

rlx_status rlxb_conv_prepare(rlxb_backend *be,
                                  const rlx_graph_view *g, uint32_t i,
                                  rlxb_conv *p,
                                  const rlx_compile_options *options)
{
#if RLX__SGEMM_NR
    const rlx_node_view *v = g->nodes[i];
    /* 1-d convs run as 2-d ones of height 1 */
    if (v->op != RLX_OP_CONV || (v->rank != 4 && v->rank != 3) ||
        v->n_inputs < 2 || v->n_inputs > 3)
        return RLX_ERR_UNSUPPORTED;
    int wanted = conv_wanted(options, be->host);
    if (wanted < 0)
        return RLX_ERR_INVALID_ARGUMENT;
    if (!wanted)
        return RLX_ERR_UNSUPPORTED;
    const rlx_node_view *x = g->nodes[v->inputs[0]];
    const rlx_node_view *w = g->nodes[v->inputs[1]];
    uint32_t r = v->rank;
    if (x->rank != r || w->rank != r)
        return RLX_ERR_UNSUPPORTED;
    rlx_kit_spatial sp;
    char err[256];
    uint32_t n_ints = 0;
    const int64_t *ints = NULL;
    if (RLX_HAS_FIELD(v->struct_size, rlx_node_view, int_attrs)) {
        n_ints = v->n_int_attrs;
        ints = v->int_attrs;
    }
    if (rlx_kit_spatial_parse(v->op, r, n_ints, ints, &sp, err,
                              sizeof err) != 0)
        return rlx_kit_fail(be->host, RLX_ERR_INVALID_ARGUMENT,
                            "cpu-openblas compile: conv '%s': %s",
                            v->name, err);
    if (r == 3) { /* axis 1 (width) is the only spatial axis */
        sp.stride[1] = sp.stride[0];
        sp.dilation[1] = sp.dilation[0];
        sp.pad_begin[1] = sp.pad_begin[0];
        sp.stride[0] = sp.dilation[0] = 1;
        sp.pad_begin[0] = 0;
    }
    memset(p, 0, sizeof *p);
    p->n = (size_t)x->shape[0];
    p->c = (size_t)x->shape[1];
    p->ih = r == 4 ? (size_t)x->shape[2] : 1;
    p->iw = (size_t)x->shape[r - 1];
    p->m = (size_t)v->shape[1];
    p->oh = r == 4 ? (size_t)v->shape[2] : 1;
    p->ow = (size_t)v->shape[r - 1];
    p->kh = r == 4 ? (size_t)w->shape[2] : 1;
    p->kw = (size_t)w->shape[r - 1];
    p->groups = (size_t)sp.group;
    p->sh = (size_t)sp.stride[0];
    p->sw = (size_t)sp.stride[1];
    p->dh = (size_t)sp.dilation[0];
    p->dw = (size_t)sp.dilation[1];
    p->ph = (size_t)sp.pad_begin[0];
    p->pw = (size_t)sp.pad_begin[1];
    if (p->groups == 0 || p->c % p->groups || p->m % p->groups ||
        (size_t)w->shape[0] != p->m ||
        (size_t)w->shape[1] * p->groups != p->c)
        return RLX_ERR_UNSUPPORTED; /* cpu-ref reports it */
    p->cg = p->c / p->groups;
    p->mg = p->m / p->groups;
    p->k = p->cg * p->kh * p->kw;
    p->p = p->oh * p->ow;
    p->depthwise = p->cg == 1 && p->mg == 1;
    p->pointwise = p->kh == 1 && p->kw == 1 && p->sh == 1 && p->sw == 1 &&
                   p->ph == 0 && p->pw == 0 && p->oh == p->ih &&
                   p->ow == p->iw;
    p->bias_in = v->n_inputs == 3 ? 2 : -1;
    p->res_in = p->bn_in = p->scale_in = -1;
    p->act = RLX_OP_INVALID;
    int wino = rlxb_wino_setting(options, be->host);
    if (wino < 0)
        return RLX_ERR_INVALID_ARGUMENT;
    p->wino = wino && rlxb_wino_fits(p) && (wino == 1 || rlxb_wino_pays(p));
    if (p->wino)
        rlx_kit_log(be->host, RLX_LOG_DEBUG,
                    "cpu-openblas: conv '%s' by Winograd F(4x4, 3x3)",
                    v->name);
    int chlane = rlxb_chlane_setting(options, be->host);
    if (chlane < 0)
        return RLX_ERR_INVALID_ARGUMENT;
    p->chlane = chlane && !p->wino && rlxb_chlane_fits(p);
    if (p->chlane)
        rlx_kit_log(be->host, RLX_LOG_DEBUG,
                    "cpu-openblas: conv '%s' with channels on the lanes",
                    v->name);
    return RLX_OK;
#else
    (void)be;
    (void)g;
    (void)i;
    (void)p;
    (void)options;
    return RLX_ERR_UNSUPPORTED; /* the portable variant: cpu-ref */
#endif
}

#if RLX__SGEMM_NR

#define NR RLX__SGEMM_NR
#define MR RLX__SGEMM_MR

static size_t m_tiles(const rlxb_conv *p)
{
    return (p->mg + MR - 1) / MR;
}

/* The K slice: at most KC, the slices of one size. */
static size_t conv_kc(size_t k)
{
    size_t n = (k + KC - 1) / KC;
    return (k + n - 1) / n;
}

size_t rlxb_conv_slice(size_t k)
{
    return conv_kc(k);
}

/* Per-channel scale of a folded batch norm (1 without one). */
static float bn_scale(const rlxb_conv *p, const float *const *in,
                      size_t ch)
{
    if (p->bn_in < 0)
        return 1.0f;
    const float *scale = in[p->bn_in], *var = in[p->bn_in + 3];
    return (float)((double)scale[ch] /
                   sqrt((double)var[ch] + (double)p->bn_eps));
}

/* The packed weights and folded bias for this run's operands: kept
 * while every key matches (params and constants), else redone. */
static int pack_weights(rlxb_conv *p, const float *const *in)
{
    int same = p->packed_ok;
    for (int k = 0; same && k < RLXB_CONV_KEYS; k++)
        same = p->keys[k] == p->packed_keys[k];
    for (int k = 0; same && k < RLXB_CONV_KEYS; k++)
        same = p->keys[k] != 0 || (k > 1 && p->bn_in < 0) ||
               (k == 1 && p->bias_in < 0);
    if (same)
        return 0;
    size_t floats = p->depthwise ? p->m * p->kh * p->kw
                    : p->wino    ? rlxb_wino_packed_floats(p)
                    : p->chlane  ? rlxb_chlane_packed_floats(p)
                                 : p->groups * m_tiles(p) * p->k * MR;
    if (!p->packed) {
        p->packed = aligned_alloc(RLXB_ALIGN,
                                  (floats * sizeof(float) + RLXB_ALIGN -
                                   1) / RLXB_ALIGN * RLXB_ALIGN);
        p->fbias = malloc((p->m ? p->m : 1) * sizeof *p->fbias);
        if (!p->packed || !p->fbias) {
            rlxb_conv_free(p);
            return -1;
        }
    }
    const float *w = in[1];
    for (size_t ch = 0; ch < p->m; ch++) {
        float b = p->bias_in >= 0 ? in[p->bias_in][ch] : 0.0f;
        if (p->bn_in >= 0) /* (b - mean) * s + beta */
            b = (b - in[p->bn_in + 2][ch]) * bn_scale(p, in, ch) +
                in[p->bn_in + 1][ch];
        p->fbias[ch] = b;
    }
    if (p->wino || p->chlane) { /* kernels_wino.c, kernels_chlane.c */
        float *scale = malloc((p->m ? p->m : 1) * sizeof *scale);
        if (!scale)
            return -1;
        for (size_t ch = 0; ch < p->m; ch++)
            scale[ch] = bn_scale(p, in, ch);
        if (p->wino)
            rlxb_wino_pack(p, w, scale);
        else
            rlxb_chlane_pack(p, w, scale);
        free(scale);
    } else if (p->depthwise) {
        size_t kk = p->kh * p->kw;
        for (size_t ch = 0; ch < p->m; ch++) {
            float s = bn_scale(p, in, ch);
            for (size_t q = 0; q < kk; q++)
                p->packed[ch * kk + q] = w[ch * kk + q] * s;
        }
    } else {
        /* group g, K slice [k0, k0 + kc) (conv_kc), tile t: kc x MR at
         * g * tiles * K * MR + k0 * tiles * MR + t * kc * MR, A(i, q) at
         * [(q - k0) * MR + i]: the tiles of one slice are one stream */
        size_t tiles = m_tiles(p), kcs = conv_kc(p->k);
        for (size_t g = 0; g < p->groups; g++)
            for (size_t k0 = 0; k0 < p->k; k0 += kcs) {
                size_t kc = p->k - k0 < kcs ? p->k - k0 : kcs;
                for (size_t t = 0; t < tiles; t++) {
                    float *dst = p->packed + g * tiles * p->k * MR +
                                 k0 * tiles * MR + t * kc * MR;
                    for (size_t i = 0; i < MR; i++) {
                        size_t row = t * MR + i, ch = g * p->mg + row;
                        if (row >= p->mg) {
                            for (size_t q = 0; q < kc; q++)
                                dst[q * MR + i] = 0.0f;
                            continue;
                        }
                        float s = bn_scale(p, in, ch);
                        const float *src = w + ch * p->k + k0;
                        for (size_t q = 0; q < kc; q++)
                            dst[q * MR + i] = src[q] * s;
                    }
                }
            }
    }
    memcpy(p->packed_keys, p->keys, sizeof p->keys);
    p->packed_ok = 1;
    return 0;
}

/* Bias, residual and activation on ROWS x COLS of Y (row step LD),
 * row r being output channel CH0 + r; RES at the same place or NULL.
 * The activation runs on chunks through a buffer on the stack, so the
 * vectorised unary kernels (kernels_ew.c) do it. */
#define EPI_CHUNK 256
void rlxb_conv_epilogue(const rlxb_conv *p, float *y,
                             const float *res, size_t ld, size_t ch0,
                             size_t rows, size_t cols)
{
    float t[EPI_CHUNK];
    for (size_t r = 0; r < rows; r++) {
        float b = p->fbias[ch0 + r], *yr = y + r * ld;
        const float *rr = res ? res + r * ld : NULL;
        if (p->act == RLX_OP_RELU && !rr) {
            for (size_t j = 0; j < cols; j++) {
                float v = yr[j] + b;
                yr[j] = v > 0.0f || v != v ? v : 0.0f;
            }
            continue;
        }
        if (p->act == RLX_OP_INVALID) {
            if (rr)
                for (size_t j = 0; j < cols; j++)
                    yr[j] = yr[j] + b + rr[j];
            else
                for (size_t j = 0; j < cols; j++)
                    yr[j] += b;
            continue;
        }
        for (size_t j0 = 0; j0 < cols; j0 += EPI_CHUNK) {
            size_t n = cols - j0 < EPI_CHUNK ? cols - j0 : EPI_CHUNK;
            float *yc = yr + j0;
            if (rr && p->res_first)
                for (size_t j = 0; j < n; j++)
                    t[j] = yc[j] + b + rr[j0 + j];
            else
                for (size_t j = 0; j < n; j++)
                    t[j] = yc[j] + b;
            rlxb_unary_range(p->act, p->approx, t, yc, n);
            if (rr && !p->res_first)
                for (size_t j = 0; j < n; j++)
                    yc[j] += rr[j0 + j];
        }
    }
}

/* Of LEN outputs whose input columns are c0 + t * sw, those in [*lo,
 * *hi) fall inside a row of IW. */
static void tap_cols(long c0, long sw, long iw, long len, long *lo,
                     long *hi)
{
    *lo = c0 >= 0 ? 0 : (-c0 + sw - 1) / sw;
    *hi = c0 < iw ? (iw - 1 - c0) / sw + 1 : 0;
    if (*hi > len)
        *hi = len;
    if (*lo > *hi)
        *lo = *hi;
}

/* Rows [q0, q1) and columns [j0, j0 + nr) of the column matrix of
 * image-group XG as one panel of (q1 - q0) x NR (zero padded on the
 * right and in the padding). The columns are cut into runs inside one
 * output row; for each kernel tap a run is zeros, a strided copy of an
 * input row, zeros. The column bounds of a run depend only on the tap's
 * column, so they are worked out once per call (no division per row:
 * at 32 floats a row, divisions cost more than the copy). */
#define IM2COL_KW 16 /* kernel widths whose bounds are kept on the stack */
static void im2col_panel(const rlxb_conv *p, const float *xg,
                         size_t j0, size_t nr, size_t q0, size_t q1,
                         float *dst)
{
    size_t seg_at[NR + 1], seg_oy[NR], n_seg = 0;
    long seg_c0[NR];
    for (size_t jj = 0; jj < nr;) {
        size_t j = j0 + jj, oy = j / p->ow, ox = j % p->ow;
        size_t len = p->ow - ox < nr - jj ? p->ow - ox : nr - jj;
        seg_at[n_seg] = jj;
        seg_oy[n_seg] = oy;
        seg_c0[n_seg++] = (long)(ox * p->sw) - (long)p->pw;
        jj += len;
    }
    seg_at[n_seg] = nr;
    long ih = (long)p->ih, iw = (long)p->iw, sw = (long)p->sw;
    /* run sg at tap column b: columns [lo, hi) of it read the input */
    int kept = p->kw <= IM2COL_KW;
    long lo_t[NR * IM2COL_KW], hi_t[NR * IM2COL_KW];
    for (size_t sg = 0; kept && sg < n_seg; sg++)
        for (size_t b = 0; b < p->kw; b++) {
            long len = (long)(seg_at[sg + 1] - seg_at[sg]), lo, hi;
            tap_cols(seg_c0[sg] + (long)(b * p->dw), sw, iw, len, &lo, &hi);
            lo_t[sg * IM2COL_KW + b] = lo;
            hi_t[sg * IM2COL_KW + b] = hi;
        }
    size_t taps = p->kh * p->kw;
    size_t ci = q0 / taps, a = q0 % taps / p->kw, b = q0 % p->kw;
    for (size_t q = q0; q < q1; q++, dst += NR) {
        const float *xc = xg + ci * p->ih * p->iw;
#if defined(__AVX512F__)
        if (sw <= 2) { /* the row zeroed, then each run's live part */
            _mm512_storeu_ps(dst, _mm512_setzero_ps());
            _mm512_storeu_ps(dst + 16, _mm512_setzero_ps());
        }
#endif
        for (size_t sg = 0; sg < n_seg; sg++) {
            float *d = dst + seg_at[sg];
            long len = (long)(seg_at[sg + 1] - seg_at[sg]);
            long r = (long)(seg_oy[sg] * p->sh + a * p->dh) - (long)p->ph;
            long c0 = seg_c0[sg] + (long)(b * p->dw), lo = 0, hi = 0;
            if (r >= 0 && r < ih) {
                if (kept) {
                    lo = lo_t[sg * IM2COL_KW + b];
                    hi = hi_t[sg * IM2COL_KW + b];
                } else {
                    tap_cols(c0, sw, iw, len, &lo, &hi);
                }
            }
#if defined(__AVX512F__)
            if (sw == 1) { /* masked copies: no call, no scalar edge */
                const float *xs = xc + r * iw + c0 + lo;
                for (long t = 0; t < hi - lo; t += 16) {
                    long n = hi - lo - t < 16 ? hi - lo - t : 16;
                    __mmask16 m = (__mmask16)((1u << n) - 1);
                    _mm512_mask_storeu_ps(d + lo + t, m,
                                          _mm512_maskz_loadu_ps(m, xs + t));
                }
                continue;
            }
            if (sw == 2) { /* 2n input columns, the even ones kept */
                const float *xs = xc + r * iw + c0 + lo * 2;
                const __m512i even = _mm512_set_epi32(
                    30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
                for (long t = 0; t < hi - lo; t += 16) {
                    long n = hi - lo - t < 16 ? hi - lo - t : 16;
                    /* the last output reads column 2 (n - 1): 2n - 1
                     * columns, no further */
                    long span = 2 * n - 1;
                    __mmask16 m0 = (__mmask16)(span >= 16
                                                   ? 0xffffu
                                                   : (1u << span) - 1);
                    __mmask16 m1 = (__mmask16)(
                        span <= 16 ? 0u : (1u << (span - 16)) - 1);
                    __m512 a0 = _mm512_maskz_loadu_ps(m0, xs + 2 * t);
                    __m512 a1 = _mm512_maskz_loadu_ps(m1, xs + 2 * t + 16);
                    _mm512_mask_storeu_ps(
                        d + lo + t, (__mmask16)((1u << n) - 1),
                        _mm512_permutex2var_ps(a0, even, a1));
                }
                continue;
            }
#endif
            for (long t = 0; t < lo; t++)
                d[t] = 0.0f;
            if (hi > lo) { /* row r, columns c0 + t * sw */
                const float *xs = xc + r * iw + c0 + lo * sw;
                if (sw == 1)
                    memcpy(d + lo, xs, (size_t)(hi - lo) * sizeof *d);
                else
                    for (long t = 0; t < hi - lo; t++)
                        d[lo + t] = xs[t * sw];
            }
            for (long t = hi; t < len; t++)
                d[t] = 0.0f;
        }
        for (size_t jj = nr; jj < NR; jj++)
            dst[jj] = 0.0f;
        if (++b == p->kw) {
            b = 0;
            if (++a == p->kh) {
                a = 0;
                ci++;
            }
        }
    }
}

/* A free scratch slot: at most n_slots tasks run at once. */
unsigned rlxb_conv_take_slot(rlxb_conv *p)
{
    for (;;)
        for (unsigned s = 0; s < p->n_slots; s++)
            if (!atomic_flag_test_and_set_explicit(&p->busy[s],
                                                   memory_order_acquire))
                return s;
}

/* SLOTS blocks of FLOATS each, kept across runs while big enough; 0, or
 * -1 when out of memory. */
int rlxb_conv_ensure_scratch(rlxb_conv *p, unsigned slots, size_t floats)
{
    if (p->scratch && p->slot_floats >= floats && p->n_slots >= slots)
        return 0;
    free(p->scratch);
    free(p->busy);
    p->scratch = aligned_alloc(RLXB_ALIGN,
                               (slots * floats * sizeof(float) +
                                RLXB_ALIGN - 1) / RLXB_ALIGN *
                                   RLXB_ALIGN);
    p->busy = malloc(slots * sizeof *p->busy);
    if (!p->scratch || !p->busy) {
        free(p->scratch);
        free(p->busy);
        p->scratch = NULL;
        p->busy = NULL;
        p->n_slots = 0;
        p->slot_floats = 0;
        return -1;
    }
    for (unsigned s = 0; s < slots; s++)
        atomic_flag_clear(&p->busy[s]);
    p->n_slots = slots;
    p->slot_floats = floats;
    return 0;
}

static void gemm_jobs(void *arg, size_t begin, size_t end)
{
    const rlxb_conv_ctx *cx = arg;
    rlxb_conv *p = cx->p;
    size_t tiles = m_tiles(p);
    unsigned slot = rlxb_conv_take_slot(p);
    float *col = p->scratch + slot * p->slot_floats;
    for (size_t job = begin; job < end; job++) {
        size_t blk = job % cx->n_blocks, ng = job / cx->n_blocks;
        size_t g = ng % p->groups, img = ng / p->groups;
        size_t p0 = blk * cx->block;
        size_t p1 = p0 + cx->block < cx->panels ? p0 + cx->block
                                                : cx->panels;
        const float *xg = cx->x + (img * p->c + g * p->cg) * p->ih * p->iw;
        size_t yoff = (img * p->m + g * p->mg) * p->p;
        float *yg = cx->y + yoff;
        const float *rg = cx->res ? cx->res + yoff : NULL;
        const float *wg = rlxb_conv_packed(p, img) + g * tiles * p->k * MR;
        /* K slices of equal size: the columns of one slice for the whole
         * block, then every weight tile over them, so each tile's slice
         * of A is read once per block from L2 (a block spans as many
         * panels as the slice lets fit there) */
        size_t kcs = conv_kc(p->k);
        for (size_t k0 = 0; k0 < p->k; k0 += kcs) {
            size_t kc = p->k - k0 < kcs ? p->k - k0 : kcs;
            int last = k0 + kc == p->k;
            for (size_t pn = p0; pn < p1; pn++) {
                size_t j0 = pn * NR, nr = p->p - j0 < NR ? p->p - j0 : NR;
                float *dst = col + (pn - p0) * kc * NR;
                if (p->pointwise)
                    rlx__sgemm_pack_b(xg + k0 * p->p + j0, p->p, 0, kc, nr,
                                      dst);
                else
                    im2col_panel(p, xg, j0, nr, k0, k0 + kc, dst);
            }
            for (size_t pn = p0; pn < p1; pn++) {
                size_t j0 = pn * NR, nr = p->p - j0 < NR ? p->p - j0 : NR;
                const float *bp = col + (pn - p0) * kc * NR;
                for (size_t t = 0; t < tiles; t++) {
                    size_t i = t * MR, mr = p->mg - i < MR ? p->mg - i : MR;
                    float *c = yg + i * p->p + j0;
                    rlx__sgemm_tile(mr, nr, kc,
                                    wg + k0 * tiles * MR + t * kc * MR, 0,
                                    1, bp, c, p->p, k0 > 0, NULL, NULL, 0);
                    if (last)
                        rlxb_conv_epilogue(
                            p, c, rg ? rg + i * p->p + j0 : NULL, p->p,
                            g * p->mg + i, mr, nr);
                }
            }
        }
    }
    atomic_flag_clear_explicit(&p->busy[slot], memory_order_release);
}

/* A pointwise conv of one output pixel per image (squeeze-excite's
 * fully connected layers): y[img] = W . x[img] on the packed weights,
 * each weight tile's MR rows in one vector per K step (a panel of the
 * gemm path would be 1 column of NR). */
static void conv_vec(const rlxb_conv *p, const float *x, float *y,
                     const float *res)
{
    size_t tiles = m_tiles(p), kcs = conv_kc(p->k);
    for (size_t img = 0; img < p->n; img++) {
        const float *xi = x + img * p->c;
        float *yi = y + img * p->m;
        for (size_t t = 0; t < tiles; t++) {
            size_t rows = p->m - t * MR < MR ? p->m - t * MR : MR;
            float acc[MR];
#if defined(__AVX512F__)
            const __mmask16 lanes = (__mmask16)((1u << MR) - 1);
            /* four sums, so four FMA chains overlap (one waits on its
             * own latency at every K step) */
            __m512 v = _mm512_setzero_ps(), v1 = v, v2 = v, v3 = v;
            for (size_t k0 = 0; k0 < p->k; k0 += kcs) {
                size_t kc = p->k - k0 < kcs ? p->k - k0 : kcs, q = 0;
                const float *a = p->packed + k0 * tiles * MR + t * kc * MR;
                const float *xq = xi + k0;
                for (; q + 4 <= kc; q += 4) {
                    v = _mm512_fmadd_ps(
                        _mm512_maskz_loadu_ps(lanes, a + q * MR),
                        _mm512_set1_ps(xq[q]), v);
                    v1 = _mm512_fmadd_ps(
                        _mm512_maskz_loadu_ps(lanes, a + (q + 1) * MR),
                        _mm512_set1_ps(xq[q + 1]), v1);
                    v2 = _mm512_fmadd_ps(
                        _mm512_maskz_loadu_ps(lanes, a + (q + 2) * MR),
                        _mm512_set1_ps(xq[q + 2]), v2);
                    v3 = _mm512_fmadd_ps(
                        _mm512_maskz_loadu_ps(lanes, a + (q + 3) * MR),
                        _mm512_set1_ps(xq[q + 3]), v3);
                }
                for (; q < kc; q++)
                    v = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(lanes,
                                                              a + q * MR),
                                        _mm512_set1_ps(xq[q]), v);
            }
            v = _mm512_add_ps(_mm512_add_ps(v, v1), _mm512_add_ps(v2, v3));
            _mm512_mask_storeu_ps(acc, lanes, v);
#else
            for (size_t i = 0; i < MR; i++)
                acc[i] = 0.0f;
            for (size_t k0 = 0; k0 < p->k; k0 += kcs) {
                size_t kc = p->k - k0 < kcs ? p->k - k0 : kcs;
                const float *a = p->packed + k0 * tiles * MR + t * kc * MR;
                for (size_t q = 0; q < kc; q++)
                    for (size_t i = 0; i < MR; i++)
                        acc[i] += a[q * MR + i] * xi[k0 + q];
            }
#endif
            memcpy(yi + t * MR, acc, rows * sizeof *acc);
        }
        rlxb_conv_epilogue(p, yi, res ? res + img * p->m : NULL, 1, 0,
                                p->m, 1);
    }
}

/* Each image's packed weights with column k times its scale S[k] (one
 * group: the packed layout is slice, tile, K row, MR rows). */
static int scale_weights(rlxb_conv *p, const float *s)
{
    size_t per = m_tiles(p) * p->k * MR, tiles = m_tiles(p);
    if (p->spacked_floats < per) {
        free(p->spacked);
        p->spacked_floats = 0;
        p->spacked = aligned_alloc(RLXB_ALIGN,
                                   (p->n * per * sizeof(float) +
                                    RLXB_ALIGN - 1) / RLXB_ALIGN *
                                       RLXB_ALIGN);
        if (!p->spacked)
            return -1;
        p->spacked_floats = per;
    }
    size_t kcs = conv_kc(p->k);
    for (size_t img = 0; img < p->n; img++) {
        const float *si = s + img * p->c;
        float *restrict d = p->spacked + img * per;
        const float *restrict w = p->packed;
        for (size_t k0 = 0; k0 < p->k; k0 += kcs) {
            size_t kc = p->k - k0 < kcs ? p->k - k0 : kcs;
            for (size_t t = 0; t < tiles; t++, w += kc * MR, d += kc * MR)
                for (size_t q = 0; q < kc; q++) {
                    float sq = si[k0 + q];
                    for (size_t i = 0; i < MR; i++)
                        d[q * MR + i] = w[q * MR + i] * sq;
                }
        }
    }
    return 0;
}

int rlxb_conv_run(rlxb_pool *pool, rlxb_conv *p,
                       const float *const *in, float *y)
{
    if (p->n == 0 || p->m == 0 || p->p == 0)
        return 0;
    if (pack_weights(p, in) != 0)
        return -1;
    if (p->scale_in >= 0 && scale_weights(p, in[p->scale_in]) != 0)
        return -1;
    rlxb_conv_ctx cx = { .p = p, .x = in[0], .y = y,
                    .res = p->res_in >= 0 ? in[p->res_in] : NULL };
    size_t threads = rlxb_pool_threads(pool);
    size_t macs = p->n * p->m * p->p * p->k;
    int par = threads > 1 && macs >= PAR_MIN_MACS;
    if (p->depthwise && rlxb_dw16_fits(p)) {
        size_t groups = p->n * ((p->m + 15) / 16);
        size_t want = par ? (2 * threads + groups - 1) / groups : 1;
        cx.block = rlxb_dw16_band_rows(p, want);
        cx.n_blocks = (p->oh + cx.block - 1) / cx.block;
        if (rlxb_conv_ensure_scratch(
                p, par ? (unsigned)threads : 1,
                rlxb_dw16_scratch_floats(p, cx.block)) != 0)
            return -1;
        size_t jobs = groups * cx.n_blocks;
        if (par && jobs > 1)
            rlxb_parallel_for(pool, jobs, 1, rlxb_dw16_jobs, &cx);
        else
            rlxb_dw16_jobs(&cx, 0, jobs);
        return 0;
    }
    if (p->depthwise) {
        size_t planes = p->n * p->m;
        rlxb_task_fn fn = rlxb_dw_jobs;
        if (rlxb_dw_phased(p)) {
            if (rlxb_conv_ensure_scratch(p, par ? (unsigned)threads : 1,
                               rlxb_dw_scratch_floats(p)) != 0)
                return -1;
            fn = rlxb_dw_phase_jobs;
        }
        if (par && planes > 1)
            rlxb_parallel_for(pool, planes, 1, fn, &cx);
        else
            fn(&cx, 0, planes);
        return 0;
    }
    if (p->k == 0) { /* an empty sum: the epilogue on zeros */
        for (size_t img = 0; img < p->n; img++) {
            float *yi = y + img * p->m * p->p;
            memset(yi, 0, p->m * p->p * sizeof *y);
            rlxb_conv_epilogue(
                p, yi, cx.res ? cx.res + img * p->m * p->p : NULL, p->p, 0,
                p->m, p->p);
        }
        return 0;
    }
    if (!p->wino && rlxb_c16_fits(p)) { /* few input channels: the stem */
        size_t groups = p->n * ((p->m + 15) / 16);
        size_t want = par ? (2 * threads + groups - 1) / groups : 1;
        cx.block = rlxb_c16_band_rows(p, want);
        cx.n_blocks = (p->oh + cx.block - 1) / cx.block;
        if (rlxb_conv_ensure_scratch(
                p, par ? (unsigned)threads : 1,
                rlxb_c16_scratch_floats(p, cx.block)) != 0)
            return -1;
        size_t jobs = groups * cx.n_blocks;
        if (par && jobs > 1)
            rlxb_parallel_for(pool, jobs, 1, rlxb_c16_jobs, &cx);
        else
            rlxb_c16_jobs(&cx, 0, jobs);
        return 0;
    }
    if (p->p == 1 && p->pointwise && p->groups == 1) { /* SE's 1x1s */
        conv_vec(p, in[0], y, cx.res);
        return 0;
    }
    if (p->wino) /* 3x3 stride 1 where Winograd pays */
        return rlxb_wino_run(pool, p, in[0], cx.res, y, par);
    if (p->chlane) /* few output pixels: channels on the lanes */
        return rlxb_chlane_run(pool, p, in[0], cx.res, y, par);
    if (rlxb_igemm_fits(p)) /* pointwise and valid: no column matrix */
        return rlxb_igemm_run(pool, p, in[0], cx.res, y, par);
    cx.panels = (p->p + NR - 1) / NR;
    size_t most = COL_BLOCK_FLOATS / (conv_kc(p->k) * NR);
    cx.block = most < 1 ? 1 : most > cx.panels ? cx.panels : most;
    /* enough jobs for every thread, twice over when there are few */
    size_t outer = p->n * p->groups;
    if (par) {
        size_t want = 2 * threads;
        size_t need = (want + outer - 1) / outer;
        size_t per = (cx.panels + need - 1) / need;
        if (per < cx.block)
            cx.block = per < 1 ? 1 : per;
    }
    cx.n_blocks = (cx.panels + cx.block - 1) / cx.block;
    /* one column block per thread that may run a task at once */
    if (rlxb_conv_ensure_scratch(p, par ? (unsigned)threads : 1,
                       cx.block * conv_kc(p->k) * NR) != 0)
        return -1;
    size_t jobs = outer * cx.n_blocks;
    if (par && jobs > 1)
        rlxb_parallel_for(pool, jobs, 1, gemm_jobs, &cx);
    else
        gemm_jobs(&cx, 0, jobs);
    return 0;
}

#else /* no kernels in the portable variant: prepare sends conv away */

int rlxb_conv_run(rlxb_pool *pool, rlxb_conv *p,
                       const float *const *in, float *y)
{
    (void)pool;
    (void)p;
    (void)in;
    (void)y;
    return -1;
}

#endif /* RLX__SGEMM_NR */
