/*
 * sgemm_kern.c - the micro-kernels of sgemm.c and the packing of B.
 *
 * A tile is up to MR rows of A times one packed panel of B (kc x NR):
 * MR x NR accumulators stay in registers for the whole kc loop, each
 * step loads one row of the panel and broadcasts one element of A per
 * row. AVX-512: 12 x 32 (24 zmm accumulators; Zen 5 has two 512-bit
 * FMA pipes), column edges by masks. AVX2: 6 x 16 (12 ymm), edges
 * through a small buffer. With few rows (batch 1..4) the kernel streams
 * the panel from memory: two accumulator sets hide the FMA latency and
 * the panel is prefetched ahead.
 */
#include <string.h>

#include "sgemm.h"

#if RLX__SGEMM_NR

#include <immintrin.h>

#define NR RLX__SGEMM_NR
#define MR RLX__SGEMM_MR
/* floats ahead of the current panel row to prefetch (16 rows) */
#define PF_AHEAD (16 * NR)

#define ALWAYS_INLINE static inline __attribute__((always_inline))

size_t rlx__sgemm_packed_floats(size_t k, size_t n)
{
    return (n + NR - 1) / NR * NR * (k ? k : 1);
}

void rlx__sgemm_pack_b(const float *b, size_t ldb, int trans_b, size_t k,
                       size_t n, float *dst)
{
    for (size_t j0 = 0; j0 < n; j0 += NR) {
        size_t w = n - j0 < NR ? n - j0 : NR;
        float *p = dst + j0 * k;
        if (!trans_b) {
            for (size_t q = 0; q < k; q++) {
                memcpy(p + q * NR, b + q * ldb + j0, w * sizeof *p);
                memset(p + q * NR + w, 0, (NR - w) * sizeof *p);
            }
        } else {
            /* B's columns are rows of b: read each once, write strided */
            if (w < NR)
                memset(p, 0, k * NR * sizeof *p);
            for (size_t j = 0; j < w; j++) {
                const float *src = b + (j0 + j) * ldb;
                for (size_t q = 0; q < k; q++)
                    p[q * NR + j] = src[q];
            }
        }
    }
}

#if defined(__AVX512F__)

/* One tile, ROWS and PACKED constants after inlining. */
ALWAYS_INLINE void tile(const size_t rows, const int packed,
                        const int wide, size_t kc,
                        const float *a, size_t lda, const float *bp,
                        float *c, size_t ldc, __mmask16 m0, __mmask16 m1,
                        int accumulate, const float *bias, const char *pf,
                        size_t pf_lines)
{
    __m512 x0[MR], x1[MR];
    const float *ar[MR];
#pragma GCC unroll 12
    for (size_t i = 0; i < rows; i++) {
        x0[i] = x1[i] = _mm512_setzero_ps();
        ar[i] = a + i * lda;
    }
    if (packed) { /* A(i, q) at a[q * MR + i] */
        /* C's tile is read and written at the end: start its misses now */
#pragma GCC unroll 12
        for (size_t i = 0; i < rows; i++) {
            _mm_prefetch((const char *)(c + i * ldc), _MM_HINT_T0);
            _mm_prefetch((const char *)(c + i * ldc + 31), _MM_HINT_T0);
        }
        /* the first PF_LINES steps each fetch one line for later tiles,
         * spread between the FMAs (a burst would stall on the miss
         * buffers) */
        size_t q = 0, q1 = pf_lines < kc ? pf_lines : kc;
        for (; q < q1; q++) {
            _mm_prefetch(pf + q * 64, _MM_HINT_T0);
            const float *b = bp + q * NR, *aq = a + q * MR;
            __m512 b0 = _mm512_load_ps(b);
            __m512 b1 = wide ? _mm512_load_ps(b + 16) : _mm512_setzero_ps();
#pragma GCC unroll 12
            for (size_t i = 0; i < rows; i++) {
                __m512 u = _mm512_set1_ps(aq[i]);
                x0[i] = _mm512_fmadd_ps(u, b0, x0[i]);
                if (wide)
                    x1[i] = _mm512_fmadd_ps(u, b1, x1[i]);
            }
        }
        for (; q < kc; q++) {
            const float *b = bp + q * NR, *aq = a + q * MR;
            __m512 b0 = _mm512_load_ps(b);
            __m512 b1 = wide ? _mm512_load_ps(b + 16) : _mm512_setzero_ps();
#pragma GCC unroll 12
            for (size_t i = 0; i < rows; i++) {
                __m512 u = _mm512_set1_ps(aq[i]);
                x0[i] = _mm512_fmadd_ps(u, b0, x0[i]);
                if (wide)
                    x1[i] = _mm512_fmadd_ps(u, b1, x1[i]);
            }
        }
        kc = 0;
    }
    size_t q = 0;
    if (rows <= 4) {
        /* streaming: a second set of accumulators for odd steps */
        __m512 y0[4], y1[4];
#pragma GCC unroll 4
        for (size_t i = 0; i < rows; i++)
            y0[i] = y1[i] = _mm512_setzero_ps();
        for (; q + 2 <= kc; q += 2) {
            const float *b = bp + q * NR;
            _mm_prefetch((const char *)(b + PF_AHEAD), _MM_HINT_T0);
            _mm_prefetch((const char *)(b + PF_AHEAD + 16), _MM_HINT_T0);
            _mm_prefetch((const char *)(b + PF_AHEAD + 32), _MM_HINT_T0);
            _mm_prefetch((const char *)(b + PF_AHEAD + 48), _MM_HINT_T0);
            __m512 b0 = _mm512_load_ps(b);
            __m512 b1 = wide ? _mm512_load_ps(b + 16) : _mm512_setzero_ps();
            __m512 b2 = _mm512_load_ps(b + 32);
            __m512 b3 = wide ? _mm512_load_ps(b + 48) : _mm512_setzero_ps();
#pragma GCC unroll 4
            for (size_t i = 0; i < rows; i++) {
                __m512 u = _mm512_set1_ps(ar[i][q]);
                __m512 v = _mm512_set1_ps(ar[i][q + 1]);
                x0[i] = _mm512_fmadd_ps(u, b0, x0[i]);
                if (wide)
                    x1[i] = _mm512_fmadd_ps(u, b1, x1[i]);
                y0[i] = _mm512_fmadd_ps(v, b2, y0[i]);
                if (wide)
                    y1[i] = _mm512_fmadd_ps(v, b3, y1[i]);
            }
        }
#pragma GCC unroll 4
        for (size_t i = 0; i < rows; i++) {
            x0[i] = _mm512_add_ps(x0[i], y0[i]);
            x1[i] = _mm512_add_ps(x1[i], y1[i]);
        }
    }
    for (; q < kc; q++) {
        const float *b = bp + q * NR;
        __m512 b0 = _mm512_load_ps(b);
            __m512 b1 = wide ? _mm512_load_ps(b + 16) : _mm512_setzero_ps();
#pragma GCC unroll 12
        for (size_t i = 0; i < rows; i++) {
            __m512 u = _mm512_set1_ps(ar[i][q]);
            x0[i] = _mm512_fmadd_ps(u, b0, x0[i]);
            if (wide)
                x1[i] = _mm512_fmadd_ps(u, b1, x1[i]);
        }
    }
    __m512 bias0 = _mm512_setzero_ps(), bias1 = _mm512_setzero_ps();
    if (bias) {
        bias0 = _mm512_maskz_loadu_ps(m0, bias);
        bias1 = _mm512_maskz_loadu_ps(m1, bias + 16);
    }
#pragma GCC unroll 12
    for (size_t i = 0; i < rows; i++) {
        float *ci = c + i * ldc;
        __m512 v0 = _mm512_add_ps(x0[i], bias0);
        __m512 v1 = _mm512_add_ps(x1[i], bias1);
        if (accumulate) {
            v0 = _mm512_add_ps(v0, _mm512_maskz_loadu_ps(m0, ci));
            v1 = _mm512_add_ps(v1, _mm512_maskz_loadu_ps(m1, ci + 16));
        }
        _mm512_mask_storeu_ps(ci, m0, v0);
        _mm512_mask_storeu_ps(ci + 16, m1, v1);
    }
}

/* WIDE: columns beyond the first 16 (a panel of at most 16 live
 * columns skips half the FMAs) */
#define CALL(R, W)                                                        \
    if (a_packed)                                                         \
        tile(R, 1, W, kc, a, 0, bp, c, ldc, m0, m1, accumulate, bias, pf, \
             pf_lines);                                                   \
    else                                                                  \
        tile(R, 0, W, kc, a, lda, bp, c, ldc, m0, m1, accumulate, bias,   \
             pf, pf_lines);
#define CASE(R)                                                           \
    case R:                                                               \
        if (m1) {                                                         \
            CALL(R, 1)                                                    \
        } else {                                                          \
            CALL(R, 0)                                                    \
        }                                                                 \
        return;

void rlx__sgemm_tile(size_t mr, size_t nr, size_t kc, const float *a,
                     size_t lda, int a_packed, const float *bp, float *c,
                     size_t ldc, int accumulate, const float *bias,
                     const char *pf, size_t pf_lines)
{
    __mmask16 m0 = nr >= 16 ? 0xffff : (__mmask16)((1u << nr) - 1);
    __mmask16 m1 = nr >= 32   ? 0xffff
                   : nr <= 16 ? 0
                              : (__mmask16)((1u << (nr - 16)) - 1);
    switch (mr) {
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
        CASE(7) CASE(8) CASE(9) CASE(10) CASE(11) CASE(12)
    default:
        return;
    }
}

#else /* AVX2 + FMA */

/* One full-width tile, ROWS and PACKED constants after inlining. */
ALWAYS_INLINE void tile(const size_t rows, const int packed, size_t kc,
                        const float *a, size_t lda, const float *bp,
                        float *c, size_t ldc, int accumulate,
                        const float *bias)
{
    __m256 x0[MR], x1[MR];
    const float *ar[MR];
#pragma GCC unroll 6
    for (size_t i = 0; i < rows; i++) {
        x0[i] = x1[i] = _mm256_setzero_ps();
        ar[i] = a + i * lda;
    }
    if (packed) { /* A(i, q) at a[q * MR + i] */
        /* C's tile is read and written at the end: start its misses now */
#pragma GCC unroll 6
        for (size_t i = 0; i < rows; i++) {
            _mm_prefetch((const char *)(c + i * ldc), _MM_HINT_T0);
            _mm_prefetch((const char *)(c + i * ldc + 15), _MM_HINT_T0);
        }
        for (size_t q = 0; q < kc; q++) {
            const float *b = bp + q * NR, *aq = a + q * MR;
            __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
#pragma GCC unroll 6
            for (size_t i = 0; i < rows; i++) {
                __m256 u = _mm256_broadcast_ss(aq + i);
                x0[i] = _mm256_fmadd_ps(u, b0, x0[i]);
                x1[i] = _mm256_fmadd_ps(u, b1, x1[i]);
            }
        }
        kc = 0;
    }
    size_t q = 0;
    if (rows <= 2) {
        __m256 y0[2], y1[2];
#pragma GCC unroll 2
        for (size_t i = 0; i < rows; i++)
            y0[i] = y1[i] = _mm256_setzero_ps();
        for (; q + 2 <= kc; q += 2) {
            const float *b = bp + q * NR;
            _mm_prefetch((const char *)(b + PF_AHEAD), _MM_HINT_T0);
            _mm_prefetch((const char *)(b + PF_AHEAD + 16), _MM_HINT_T0);
            __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
            __m256 b2 = _mm256_load_ps(b + 16), b3 = _mm256_load_ps(b + 24);
#pragma GCC unroll 2
            for (size_t i = 0; i < rows; i++) {
                __m256 u = _mm256_broadcast_ss(ar[i] + q);
                __m256 v = _mm256_broadcast_ss(ar[i] + q + 1);
                x0[i] = _mm256_fmadd_ps(u, b0, x0[i]);
                x1[i] = _mm256_fmadd_ps(u, b1, x1[i]);
                y0[i] = _mm256_fmadd_ps(v, b2, y0[i]);
                y1[i] = _mm256_fmadd_ps(v, b3, y1[i]);
            }
        }
#pragma GCC unroll 2
        for (size_t i = 0; i < rows; i++) {
            x0[i] = _mm256_add_ps(x0[i], y0[i]);
            x1[i] = _mm256_add_ps(x1[i], y1[i]);
        }
    }
    for (; q < kc; q++) {
        const float *b = bp + q * NR;
        __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
#pragma GCC unroll 6
        for (size_t i = 0; i < rows; i++) {
            __m256 u = _mm256_broadcast_ss(ar[i] + q);
            x0[i] = _mm256_fmadd_ps(u, b0, x0[i]);
            x1[i] = _mm256_fmadd_ps(u, b1, x1[i]);
        }
    }
    __m256 bias0 = _mm256_setzero_ps(), bias1 = _mm256_setzero_ps();
    if (bias) {
        bias0 = _mm256_loadu_ps(bias);
        bias1 = _mm256_loadu_ps(bias + 8);
    }
#pragma GCC unroll 6
    for (size_t i = 0; i < rows; i++) {
        float *ci = c + i * ldc;
        __m256 v0 = _mm256_add_ps(x0[i], bias0);
        __m256 v1 = _mm256_add_ps(x1[i], bias1);
        if (accumulate) {
            v0 = _mm256_add_ps(v0, _mm256_loadu_ps(ci));
            v1 = _mm256_add_ps(v1, _mm256_loadu_ps(ci + 8));
        }
        _mm256_storeu_ps(ci, v0);
        _mm256_storeu_ps(ci + 8, v1);
    }
}

#define CASE(R)                                                           \
    case R:                                                               \
        if (a_packed)                                                     \
            tile(R, 1, kc, a, 0, bp, c, ldc, accumulate, bias);           \
        else                                                              \
            tile(R, 0, kc, a, lda, bp, c, ldc, accumulate, bias);         \
        return;

static void tile_full(size_t mr, size_t kc, const float *a, size_t lda,
                      int a_packed, const float *bp, float *c, size_t ldc,
                      int accumulate, const float *bias)
{
    switch (mr) {
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6)
    default:
        return;
    }
}

void rlx__sgemm_tile(size_t mr, size_t nr, size_t kc, const float *a,
                     size_t lda, int a_packed, const float *bp, float *c,
                     size_t ldc, int accumulate, const float *bias,
                     const char *pf, size_t pf_lines)
{
    /* (the AVX2 kernel leaves the prefetch to the hardware) */
    (void)pf;
    (void)pf_lines;
    if (nr >= NR) {
        tile_full(mr, kc, a, lda, a_packed, bp, c, ldc, accumulate, bias);
        return;
    }
    /* a column edge: the full tile into a buffer, then the live part */
    float t[MR * NR];
    tile_full(mr, kc, a, lda, a_packed, bp, t, NR, 0, NULL);
    for (size_t i = 0; i < mr; i++)
        for (size_t j = 0; j < nr; j++) {
            float v = t[i * NR + j];
            if (bias)
                v += bias[j];
            if (accumulate)
                v += c[i * ldc + j];
            c[i * ldc + j] = v;
        }
}

#endif /* AVX-512 / AVX2 */

#endif /* RLX__SGEMM_NR */
