/*
 * qgemm.c - the micro-kernels of the 8-bit integer GEMM (qgemm.h) and
 * the packing of its B panels.
 *
 * Each path is compiled with its own target attribute, whatever the
 * variant's flags, and picked at run time from what CPUID says (GCC's
 * __builtin_cpu_supports also checks that the OS saves the registers):
 * the avx512 variant of a Zen 4 or 5 or Ice Lake runs VNNI, an Alder
 * Lake's avx2 variant AVX-VNNI. The AVX2 path is exact: bytes are
 * widened to i16 and multiplied by vpmaddwd, never by vpmaddubsw (which
 * saturates its pair sums). Every sum wraps to i32, as the ops define.
 */
#include <string.h>

#include "qgemm.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define QX86 1
#else
#define QX86 0
#endif

#define MR RLXB_QMR
#define NR RLXB_QNR

/* ---- path choice ------------------------------------------------------ */

/* The widest path of this variant (its ISA flags say which) the CPU
 * has: the portable variant stays scalar, as its name promises; the
 * avx2 variant takes AVX-VNNI where there is one (Alder Lake and later,
 * Zen 5). */
static int cpu_best(void)
{
#if QX86 && defined(__AVX2__)
    __builtin_cpu_init();
#if defined(__AVX512F__)
    if (__builtin_cpu_supports("avx512f") &&
        __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vnni"))
        return RLXB_QPATH_VNNI512;
#endif
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("avxvnni"))
        return RLXB_QPATH_AVXVNNI;
    if (__builtin_cpu_supports("avx2"))
        return RLXB_QPATH_AVX2;
#endif
    return RLXB_QPATH_SCALAR;
}

static _Atomic int forced = -1;
static _Atomic int best = -1;

int rlxb_qgemm_path(void)
{
    int f = atomic_load(&forced);
    if (f >= 0)
        return f;
    int b = atomic_load(&best);
    if (b < 0) {
        b = cpu_best();
        atomic_store(&best, b);
    }
    return b;
}

int rlxb_qgemm_force(int path)
{
    if (path < 0) {
        atomic_store(&forced, -1);
        return 0;
    }
    int b = cpu_best();
    /* AVX-VNNI is not implied by AVX-512 VNNI: check it alone */
#if QX86
    if (path == RLXB_QPATH_AVXVNNI && b >= path)
        b = __builtin_cpu_supports("avx2") &&
                    __builtin_cpu_supports("avxvnni")
                ? path : -1;
#endif
    if (path > RLXB_QPATH_VNNI512 || path > b)
        return -1;
    atomic_store(&forced, path);
    return 0;
}

/* ---- scalar ----------------------------------------------------------- */

static void tile_scalar(const uint8_t *a, const uint8_t *b, size_t kp,
                        int a_u8, int32_t *c)
{
    uint32_t acc[MR * NR];
    memset(acc, 0, sizeof acc);
    for (size_t g = 0; g < kp / 4; g++) {
        const uint8_t *bg = b + g * 4 * NR;
        for (size_t r = 0; r < MR; r++) {
            const uint8_t *ar = a + r * kp + 4 * g;
            for (size_t j = 0; j < NR; j++) {
                int32_t s = 0;
                for (size_t q = 0; q < 4; q++) {
                    int32_t av = a_u8 ? (int32_t)ar[q] : (int8_t)ar[q];
                    int32_t bv = a_u8 ? (int8_t)bg[j * 4 + q]
                                      : (int32_t)bg[j * 4 + q];
                    s += av * bv; /* at most 4 * 255 * 128: no overflow */
                }
                acc[r * NR + j] += (uint32_t)s;
            }
        }
    }
    for (size_t i = 0; i < MR * NR; i++)
        c[i] = (int32_t)acc[i];
}

#if QX86

/* ---- AVX-512 VNNI: 8 rows by 2 zmm ---------------------------------- */

#define T512 __attribute__((target("avx512f,avx512bw,avx512vnni")))

/* Accumulators as named variables, not an array: GCC 12 copies an
 * array of __m512i through other registers every iteration. */
#define DP512(U8, acc, bv, av)                                              \
    acc = (U8) ? _mm512_dpbusd_epi32(acc, av, bv)                          \
               : _mm512_dpbusd_epi32(acc, bv, av)
#define ROW512(U8, r)                                                       \
    do {                                                                   \
        int32_t w_;                                                        \
        memcpy(&w_, a + (size_t)(r) * kp + 4 * g, 4);                      \
        __m512i av_ = _mm512_set1_epi32(w_);                               \
        DP512(U8, c##r##0, b0, av_);                                       \
        DP512(U8, c##r##1, b1, av_);                                       \
    } while (0)
#define STORE512(r)                                                         \
    do {                                                                   \
        _mm512_storeu_si512(c + (r) * NR, c##r##0);                        \
        _mm512_storeu_si512(c + (r) * NR + 16, c##r##1);                   \
    } while (0)

#define TILE512(NAME, U8)                                                   \
    static T512 void NAME(const uint8_t *a, const uint8_t *b, size_t kp,   \
                          int32_t *c)                                      \
    {                                                                      \
        __m512i c00 = _mm512_setzero_si512(), c01 = c00, c10 = c00,        \
                c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00,     \
                c40 = c00, c41 = c00, c50 = c00, c51 = c00, c60 = c00,     \
                c61 = c00, c70 = c00, c71 = c00;                           \
        for (size_t g = 0; g < kp / 4; g++) {                              \
            __m512i b0 = _mm512_loadu_si512(b + g * 4 * NR);               \
            __m512i b1 = _mm512_loadu_si512(b + g * 4 * NR + 64);          \
            ROW512(U8, 0);                                                 \
            ROW512(U8, 1);                                                 \
            ROW512(U8, 2);                                                 \
            ROW512(U8, 3);                                                 \
            ROW512(U8, 4);                                                 \
            ROW512(U8, 5);                                                 \
            ROW512(U8, 6);                                                 \
            ROW512(U8, 7);                                                 \
        }                                                                  \
        STORE512(0);                                                       \
        STORE512(1);                                                       \
        STORE512(2);                                                       \
        STORE512(3);                                                       \
        STORE512(4);                                                       \
        STORE512(5);                                                       \
        STORE512(6);                                                       \
        STORE512(7);                                                       \
    }

#if RLXB_QMR != 8
#error "the AVX-512 tile is written for 8 rows"
#endif
TILE512(tile512_u8, 1)
TILE512(tile512_s8, 0)

/* ---- AVX-VNNI: 2 rows by 4 ymm at a time (16 registers) -------------- */

#define TVNNI __attribute__((target("avx2,avxvnni")))

static inline TVNNI void tilevnni(const uint8_t *a, const uint8_t *b,
                                  size_t kp, int a_u8, int32_t *c)
{
    for (int r0 = 0; r0 < MR; r0 += 2) {
        __m256i acc[2][4];
        for (int r = 0; r < 2; r++)
            for (int q = 0; q < 4; q++)
                acc[r][q] = _mm256_setzero_si256();
        for (size_t g = 0; g < kp / 4; g++) {
            __m256i bv[4];
            for (int q = 0; q < 4; q++)
                bv[q] = _mm256_loadu_si256(
                    (const __m256i *)(b + g * 4 * NR + 32 * q));
            for (int r = 0; r < 2; r++) {
                int32_t w;
                memcpy(&w, a + (size_t)(r0 + r) * kp + 4 * g, 4);
                __m256i av = _mm256_set1_epi32(w);
                for (int q = 0; q < 4; q++)
                    acc[r][q] = a_u8
                        ? _mm256_dpbusd_avx_epi32(acc[r][q], av, bv[q])
                        : _mm256_dpbusd_avx_epi32(acc[r][q], bv[q], av);
            }
        }
        for (int r = 0; r < 2; r++)
            for (int q = 0; q < 4; q++)
                _mm256_storeu_si256((__m256i *)(c + (r0 + r) * NR + 8 * q),
                                    acc[r][q]);
    }
}

static TVNNI void tilevnni_u8(const uint8_t *a, const uint8_t *b, size_t kp,
                              int32_t *c)
{
    tilevnni(a, b, kp, 1, c);
}

static TVNNI void tilevnni_s8(const uint8_t *a, const uint8_t *b, size_t kp,
                              int32_t *c)
{
    tilevnni(a, b, kp, 0, c);
}

/* ---- AVX2, exact: bytes widened to i16, vpmaddwd ---------------------- */

#define TAVX2 __attribute__((target("avx2")))

/* Four bytes of A as four i16, repeated over the register. */
static inline TAVX2 __m256i bcast4(const uint8_t *p, int is_u8)
{
    int32_t w;
    memcpy(&w, p, 4);
    __m128i v = _mm_cvtsi32_si128(w);
    v = is_u8 ? _mm_cvtepu8_epi16(v) : _mm_cvtepi8_epi16(v);
    return _mm256_broadcastq_epi64(v);
}

/* Lane 2j of a product holds column j's k0 k1 pair, 2j + 1 its k2 k3:
 * the pairs are added when the tile is stored. Named accumulators, as
 * in the AVX-512 tile. */
#define MADD2(q)                                                            \
    do {                                                                   \
        __m128i raw_ = _mm_loadu_si128((const __m128i *)(bg + 16 * (q))); \
        __m256i bw_ = a_u8 ? _mm256_cvtepi8_epi16(raw_)                    \
                           : _mm256_cvtepu8_epi16(raw_);                   \
        x##q = _mm256_add_epi32(x##q, _mm256_madd_epi16(bw_, a0));         \
        y##q = _mm256_add_epi32(y##q, _mm256_madd_epi16(bw_, a1));         \
    } while (0)

static inline TAVX2 void pairs_store(__m256i v, int32_t *o)
{
    int32_t t[8];
    _mm256_storeu_si256((__m256i *)t, v);
    for (int j = 0; j < 4; j++)
        o[j] = (int32_t)((uint32_t)t[2 * j] + (uint32_t)t[2 * j + 1]);
}

static inline TAVX2 void tileavx2(const uint8_t *a, const uint8_t *b,
                                  size_t kp, int a_u8, int32_t *c)
{
    for (int r0 = 0; r0 < MR; r0 += 2)
        for (int h = 0; h < 2; h++) {
            __m256i x0 = _mm256_setzero_si256(), x1 = x0, x2 = x0, x3 = x0;
            __m256i y0 = x0, y1 = x0, y2 = x0, y3 = x0;
            for (size_t g = 0; g < kp / 4; g++) {
                __m256i a0 = bcast4(a + (size_t)r0 * kp + 4 * g, a_u8);
                __m256i a1 = bcast4(a + (size_t)(r0 + 1) * kp + 4 * g, a_u8);
                const uint8_t *bg = b + g * 4 * NR + h * 64;
                MADD2(0);
                MADD2(1);
                MADD2(2);
                MADD2(3);
            }
            int32_t *o0 = c + r0 * NR + h * 16, *o1 = o0 + NR;
            pairs_store(x0, o0);
            pairs_store(x1, o0 + 4);
            pairs_store(x2, o0 + 8);
            pairs_store(x3, o0 + 12);
            pairs_store(y0, o1);
            pairs_store(y1, o1 + 4);
            pairs_store(y2, o1 + 8);
            pairs_store(y3, o1 + 12);
        }
}

static TAVX2 void tileavx2_u8(const uint8_t *a, const uint8_t *b, size_t kp,
                              int32_t *c)
{
    tileavx2(a, b, kp, 1, c);
}

static TAVX2 void tileavx2_s8(const uint8_t *a, const uint8_t *b, size_t kp,
                              int32_t *c)
{
    tileavx2(a, b, kp, 0, c);
}

#endif /* QX86 */

void rlxb_qgemm_tile(int path, const uint8_t *a, const uint8_t *b,
                     size_t kp, int a_u8, int32_t *c)
{
    switch (path) {
#if QX86
    case RLXB_QPATH_VNNI512:
        (a_u8 ? tile512_u8 : tile512_s8)(a, b, kp, c);
        return;
    case RLXB_QPATH_AVXVNNI:
        (a_u8 ? tilevnni_u8 : tilevnni_s8)(a, b, kp, c);
        return;
    case RLXB_QPATH_AVX2:
        (a_u8 ? tileavx2_u8 : tileavx2_s8)(a, b, kp, c);
        return;
#endif
    default:
        tile_scalar(a, b, kp, a_u8, c);
        return;
    }
}

/* ---- B panels ----------------------------------------------------------- */

void rlxb_qpack_b(const uint8_t *src, size_t ld, size_t kp,
                  size_t n_panels, uint8_t xor_byte, uint8_t *dst)
{
    for (size_t pnl = 0; pnl < n_panels; pnl++) {
        uint8_t *d = dst + pnl * kp * NR;
        const uint8_t *s = src + pnl * NR;
        for (size_t g = 0; g < kp / 4; g++, d += 4 * NR) {
            const uint8_t *r0 = s + 4 * g * ld, *r1 = r0 + ld,
                          *r2 = r1 + ld, *r3 = r2 + ld;
#if defined(__SSE2__)
            /* interleave four rows: a0 b0 c0 d0 a1 b1 c1 d1 ... */
            __m128i x = _mm_set1_epi8((char)xor_byte);
            for (int h = 0; h < 2; h++) {
                __m128i a = _mm_xor_si128(x, _mm_loadu_si128(
                                                 (const __m128i *)(r0 + 16 * h)));
                __m128i b = _mm_xor_si128(x, _mm_loadu_si128(
                                                 (const __m128i *)(r1 + 16 * h)));
                __m128i c = _mm_xor_si128(x, _mm_loadu_si128(
                                                 (const __m128i *)(r2 + 16 * h)));
                __m128i e = _mm_xor_si128(x, _mm_loadu_si128(
                                                 (const __m128i *)(r3 + 16 * h)));
                __m128i ab0 = _mm_unpacklo_epi8(a, b);
                __m128i ab1 = _mm_unpackhi_epi8(a, b);
                __m128i ce0 = _mm_unpacklo_epi8(c, e);
                __m128i ce1 = _mm_unpackhi_epi8(c, e);
                __m128i *o = (__m128i *)(d + 64 * h);
                _mm_storeu_si128(o + 0, _mm_unpacklo_epi16(ab0, ce0));
                _mm_storeu_si128(o + 1, _mm_unpackhi_epi16(ab0, ce0));
                _mm_storeu_si128(o + 2, _mm_unpacklo_epi16(ab1, ce1));
                _mm_storeu_si128(o + 3, _mm_unpackhi_epi16(ab1, ce1));
            }
#else
            for (size_t j = 0; j < NR; j++) {
                d[4 * j + 0] = r0[j] ^ xor_byte;
                d[4 * j + 1] = r1[j] ^ xor_byte;
                d[4 * j + 2] = r2[j] ^ xor_byte;
                d[4 * j + 3] = r3[j] ^ xor_byte;
            }
#endif
        }
    }
}
