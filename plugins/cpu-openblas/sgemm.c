/*
 * sgemm.c - blocking and threading of the AVX2/AVX-512 sgemm.
 *
 * The product is cut into jobs of (up to MC rows of A) x (a group of
 * NR-wide panels of B). Inside a job: for each KC slice of K, for each
 * panel, for each MR-row tile: the KC x NR panel slice stays in L1
 * across the tiles, the MC x KC block of A in L2 across the panels. With
 * at most MR rows (batch 1..MR) there is one tile per panel and KC is
 * all of K, so each job streams its panels once, front to back: a GEMV
 * at memory bandwidth, split over N between the threads.
 *
 * With more rows, each KC slice of the job's rows of A is first copied
 * into MR-row tiles, column by column (rlx__sgemm_tile's packed form):
 * rows of a wide A are a power of two apart and would fight over the
 * same L1 sets.
 *
 * The epilogue runs per tile at the last KC slice: the bias inside the
 * kernel, the activation and the residual right after it on the tile,
 * still in L1.
 */
#include <stdlib.h>

#include "sgemm.h"

#if RLX__SGEMM_NR

#include "vmath.h"

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#define NR RLX__SGEMM_NR
#define MR RLX__SGEMM_MR
#define KC 256
/* rows of A per job at most (its packed KC slice stays in L2); the
 * rows are split evenly between blocks, in whole tiles */
#define MC 384
/* Fewer multiply-adds than this run on the calling thread: waking the
 * pool costs more than it saves. A B streamed from memory is split from
 * far fewer (two threads draw more bandwidth); one in the caches only
 * from a few million, because a worker that arrives late (woken from
 * sleep, or sharing a CPU) makes the caller wait for it: the batch-8
 * MLP 784-512-512-10 took 0.036 to 0.099 ms on 2 threads from run to
 * run, 0.050 steadily on one. */
#define PAR_MIN_MACS ((size_t)1 << 17)
#define PAR_MIN_MACS_NEAR ((size_t)1 << 22)
/* Packed B bigger than this is streamed from memory, not L3 (at 16 MB
 * the 12.5 MB of 4096 x 784 counted as near: 2 threads split M and each
 * read all of it, 6.2 ms against 4.7 split over N). */
#define B_FAR_BYTES ((size_t)8 << 20)

typedef struct sgemm_ctx {
    size_t m, n, k, lda, ldc, kc, mc;
    const float *a, *bp;
    float *c;
    const rlx__sgemm_epi *epi;
    size_t panels, group, n_groups;
    int b_far;                /* packed B is bigger than the L3 share */
} sgemm_ctx;

/* act, then residual, on a ROWS x COLS tile of C (RES: the same place
 * in the residual, or NULL). */
static void tile_epilogue(const rlx__sgemm_epi *e, float *c, size_t ldc,
                          const float *res, size_t rows, size_t cols)
{
    for (size_t i = 0; i < rows; i++) {
        float *y = c + i * ldc;
        switch (e->act) {
        case RLX_OP_RELU:
            for (size_t j = 0; j < cols; j++)
                y[j] = y[j] > 0.0f || y[j] != y[j] ? y[j] : 0.0f;
            break;
        case RLX_OP_GELU:
            if (e->approx == RLX_GELU_TANH)
                for (size_t j = 0; j < cols; j++)
                    y[j] = rlxb_gelu_tanh(y[j]);
            else
                for (size_t j = 0; j < cols; j++)
                    y[j] = rlxb_gelu_erf(y[j]);
            break;
        default:
            break;
        }
        if (res) {
            const float *r = res + i * ldc;
            for (size_t j = 0; j < cols; j++)
                y[j] += r[j];
        }
    }
}

/* Row I0 + (start of tile T) when ROWS rows are cut into TILES tiles of
 * nearly equal height: a 64-row block is 6 tiles of 10-11 rows, not 5
 * of 12 and a slow one of 4. */
static inline size_t tile_at(size_t i0, size_t rows, size_t tiles,
                             size_t t)
{
    size_t base = rows / tiles, extra = rows % tiles;
    return i0 + t * base + (t < extra ? t : extra);
}

#if defined(__AVX512F__)
/* The 16 x 16 floats in R, transposed in place. */
static inline void transpose16(__m512 r[16])
{
    __m512 t[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        __m512d a = _mm512_castps_pd(t[i]), b = _mm512_castps_pd(t[i + 1]);
        __m512d c = _mm512_castps_pd(t[i + 2]), d = _mm512_castps_pd(t[i + 3]);
        r[i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
        r[i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
        r[i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, d));
        r[i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, d));
    }
    /* r[4 g + c] holds columns 4 L + c of rows 4 g..4 g + 3 in lane L */
    for (int c = 0; c < 4; c++) {
        __m512 u0 = _mm512_shuffle_f32x4(r[c], r[4 + c], 0x88);
        __m512 u1 = _mm512_shuffle_f32x4(r[c], r[4 + c], 0xdd);
        __m512 u2 = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], 0x88);
        __m512 u3 = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], 0xdd);
        t[c] = _mm512_shuffle_f32x4(u0, u2, 0x88);
        t[4 + c] = _mm512_shuffle_f32x4(u1, u3, 0x88);
        t[8 + c] = _mm512_shuffle_f32x4(u0, u2, 0xdd);
        t[12 + c] = _mm512_shuffle_f32x4(u1, u3, 0xdd);
    }
    for (int i = 0; i < 16; i++)
        r[i] = t[i];
}
#endif

/* Rows [i0, i1) x columns [k0, k0 + kc) of A as those tiles, each kc x
 * MR (A(i, q) at tile[q * MR + i]). AVX-512 transposes 16 columns at a
 * time (one element a cycle was up to 8% of a batch-256 MLP). */
static void pack_a(const sgemm_ctx *x, size_t i0, size_t i1, size_t tiles,
                   size_t k0, size_t kc, float *ap)
{
    for (size_t t = 0; t < tiles; t++, ap += kc * MR) {
        size_t i = tile_at(i0, i1 - i0, tiles, t);
        size_t mr = tile_at(i0, i1 - i0, tiles, t + 1) - i;
        const float *src = x->a + i * x->lda + k0;
        size_t q0 = 0;
#if defined(__AVX512F__)
        for (; q0 + 16 <= kc; q0 += 16) {
            __m512 r[16];
            for (size_t j = 0; j < 16; j++)
                r[j] = j < mr ? _mm512_loadu_ps(src + j * x->lda + q0)
                              : _mm512_setzero_ps();
            transpose16(r);
            for (size_t q = 0; q < 16; q++) /* the MR = 12 live rows */
                _mm512_mask_storeu_ps(ap + (q0 + q) * MR, 0x0fff, r[q]);
        }
#endif
        for (size_t r = 0; r < mr; r++)
            for (size_t q = q0; q < kc; q++)
                ap[q * MR + r] = src[r * x->lda + q];
    }
}

/* AP: room for mc x KC floats to pack A into, or NULL (A read in
 * place). */
static void run_job(const sgemm_ctx *x, size_t job, float *ap)
{
    const rlx__sgemm_epi *e = x->epi;
    size_t i0 = job / x->n_groups * x->mc;
    size_t i1 = x->m - i0 < x->mc ? x->m : i0 + x->mc;
    size_t p0 = job % x->n_groups * x->group;
    size_t p1 = x->panels - p0 < x->group ? x->panels : p0 + x->group;
    int post = e && (e->act != RLX_OP_INVALID || e->res);
    size_t tiles = (i1 - i0 + MR - 1) / MR;
    /* with one panel each element of A is read once: packing it only
     * adds a copy (256 x 10 x 4096: 0.345 ms against 0.43) */
    if (p1 - p0 == 1)
        ap = NULL;
    for (size_t k0 = 0; k0 < x->k; k0 += x->kc) {
        size_t kc = x->k - k0 < x->kc ? x->k - k0 : x->kc;
        int last = k0 + kc == x->k;
        if (ap)
            pack_a(x, i0, i1, tiles, k0, kc, ap);
        for (size_t p = p0; p < p1; p++) {
            size_t j0 = p * NR, nr = x->n - j0 < NR ? x->n - j0 : NR;
            const float *bp = x->bp + j0 * x->k + k0 * NR;
            const float *bias = last && e && e->bias ? e->bias + j0 : NULL;
            /* a B too big for the caches comes from memory: fetch the
             * next panel's slice a bit per tile while this one's tiles
             * run from L1 (from L3 the hardware keeps up by itself); the
             * kernel spreads a tile's share over its K steps */
            const char *next = (const char *)(bp + NR * x->k);
            size_t lines = x->b_far && ap && p + 1 < p1
                               ? kc * NR * sizeof(float) / 64
                               : 0;
            size_t per_tile = (lines + tiles - 1) / tiles, line = 0;
            for (size_t t = 0; t < tiles; t++) {
                size_t i = tile_at(i0, i1 - i0, tiles, t);
                size_t mr = tile_at(i0, i1 - i0, tiles, t + 1) - i;
                size_t pf_lines = lines - line < per_tile ? lines - line
                                                          : per_tile;
                const char *pf = next + line * 64;
                line += pf_lines;
                float *c = x->c + i * x->ldc + j0;
                const float *a = ap ? ap + t * kc * MR
                                    : x->a + i * x->lda + k0;
                rlx__sgemm_tile(mr, nr, kc, a, x->lda, ap != NULL, bp, c,
                                x->ldc, k0 > 0, bias, pf, pf_lines);
                if (last && post)
                    tile_epilogue(e, c, x->ldc,
                                  e->res ? e->res + i * x->ldc + j0 : NULL,
                                  mr, nr);
            }
        }
    }
}

static void run_jobs(void *ctx, size_t begin, size_t end)
{
    const sgemm_ctx *x = ctx;
    /* more than one tile of rows: pack A (unpacked if out of memory),
     * whole tiles of it */
    size_t mc_tiles = (x->mc + MR - 1) / MR * MR;
    float *ap = x->m > MR ? aligned_alloc(64, mc_tiles * KC * sizeof *ap)
                          : NULL;
    for (size_t j = begin; j < end; j++)
        run_job(x, j, ap);
    free(ap);
}

void rlx__sgemm_run(rlxb_pool *pool, size_t m, size_t n, size_t k,
                    const float *a, size_t lda, const float *packed_b,
                    float *c, size_t ldc, const rlx__sgemm_epi *epi)
{
    if (m == 0 || n == 0 || k == 0)
        return; /* the caller handles the empty sum */
    sgemm_ctx x = {
        .m = m, .n = n, .k = k, .lda = lda, .ldc = ldc,
        .kc = m <= MR ? k : KC, .a = a, .bp = packed_b, .c = c,
        .epi = epi, .panels = (n + NR - 1) / NR,
        .b_far = (n + NR - 1) / NR * NR * k * sizeof(float) > B_FAR_BYTES,
    };
    size_t threads = rlxb_pool_threads(pool);
    int par = threads > 1 &&
              m * n * k >= (x.b_far ? PAR_MIN_MACS : PAR_MIN_MACS_NEAR);
    size_t m_blocks = (m + MC - 1) / MC;
    x.group = x.panels;
    if (par) {
        /* one job per thread (two each, for a worker arriving late,
         * cost the batch-64 MLP 784-512-512-10 on 2 threads 0.274 ms
         * against 0.248: each job re-reads its B panels from L3 for fewer
         * rows). Splitting M into B blocks makes
         * B - 1 more reads of B (K x N, streamed: ~16 floats a cycle, half
         * that from memory), splitting N into G groups makes G - 1 more
         * packings of A (M x K, ~1 float a cycle); against M N K / 64
         * cycles of FMAs, the costs are 4 B / M (8 B / M) and 64 G / N.
         * Split the cheaper way (M down to blocks of four tiles), then
         * the other if jobs are still missing. A GEMV (A not packed) is
         * split over N; one streaming B from memory into one run of
         * panels per thread: with four each, every job starting a new
         * stream, batch-1 4096 x 4096 took 0.81 ms on 2 threads against
         * 0.69. */
        size_t want = m > MR || x.b_far ? threads : 4 * threads;
        size_t most = m > MR ? (m + 4 * MR - 1) / (4 * MR) : 1;
        size_t target = want < most ? want : most;
        double cost_m = (x.b_far ? 8.0 : 4.0) * (double)target / (double)m;
        double cost_n = 64.0 * (double)want / (double)n;
        if (cost_n < cost_m)
            target = 1;
        if (m_blocks < target)
            m_blocks = target;
        /* more blocks than threads (rows beyond MC): as many per thread */
        if (m_blocks > want)
            m_blocks = (m_blocks + want - 1) / want * want;
        if (m_blocks < want) {
            size_t groups = (want + m_blocks - 1) / m_blocks;
            if (groups > x.panels)
                groups = x.panels;
            x.group = (x.panels + groups - 1) / groups;
        }
    }
    /* equal blocks, not whole tiles: each block's rows are cut into
     * tiles of nearly equal height anyway (tile_at), and 256 rows in
     * blocks of 72 made 72 + 72 + 72 + 40, 144 rows on one of 2
     * threads against 112 on the other */
    x.mc = (m + m_blocks - 1) / m_blocks;
    m_blocks = (m + x.mc - 1) / x.mc;
    x.n_groups = (x.panels + x.group - 1) / x.group;
    size_t jobs = m_blocks * x.n_groups;
    if (jobs > 1 && par)
        rlxb_parallel_for(pool, jobs, 1, run_jobs, &x);
    else
        run_jobs(&x, 0, jobs);
}

#endif /* RLX__SGEMM_NR */
