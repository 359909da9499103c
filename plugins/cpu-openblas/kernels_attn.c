/*
 * kernels_attn.c - the fused attention step (fuse.c): for each (batch,
 * head) pair, softmax(q k^T * scale) v with the pair's block in cache.
 * Pairs are split over the pool; each task takes a scratch slot for
 * k^T (dh x sk, padded to whole tiles) and the probabilities of one
 * block of query rows.
 *
 * Per block of RB query rows: scores against 32 keys at a time (2 x
 * 16-lane accumulators per row, k^T rows loaded once for all the rows
 * of the block), scale, softmax (max, exp, sum over 16 lanes), then
 * probabilities times v, 32 output columns at a time. The 16-lane
 * vectors are GCC vector extensions: one zmm register in the avx512
 * variant, two ymm in avx2, four xmm in the portable one. Causal rows
 * stop at their last visible key (the same rule as softmax's).
 */
#include <math.h>
#include <string.h>

#include "blas_internal.h"
#include "vmath.h"

/* Query rows per block (ATTN_RB in fuse.c is the largest): 8 rows x 2
 * accumulators fill 16 of AVX-512's 32 registers; AVX2's 16 registers
 * (two per 16-lane vector) hold 4 rows. */
#if defined(__AVX512F__)
#define RB 8
#else
#define RB 4
#endif
#define CT 32   /* key columns per tile: ATTN_CT in fuse.c */

typedef float v16 __attribute__((vector_size(64)));
/* v16 passed between static inline functions only: no ABI is crossed */
#pragma GCC diagnostic ignored "-Wpsabi"

static inline v16 ld16(const float *p)
{
    v16 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void st16(float *p, v16 v)
{
    memcpy(p, &v, sizeof v);
}

/* Keys row I of SQ may see (softmax's causal rule), of SK. */
static inline size_t keep_of(const rlxb_attn *p, size_t i)
{
    if (!p->causal)
        return p->sk;
    size_t keep = i + p->sk + 1 > p->sq ? i + p->sk + 1 - p->sq : 0;
    return keep > p->sk ? p->sk : keep;
}

/* S[r][0, kpad) = q_r . k^T for NR (<= RB) rows; KT is dh x skp. */
static inline __attribute__((always_inline)) void scores_block(const float *restrict q, size_t q_row,
                                size_t nr, const float *restrict kt,
                                size_t dh, size_t skp, size_t kpad,
                                float *restrict s)
{
    for (size_t j = 0; j < kpad; j += CT) {
        v16 acc[RB][2];
        memset(acc, 0, sizeof acc);
        for (size_t d = 0; d < dh; d++) {
            v16 k0 = ld16(kt + d * skp + j), k1 = ld16(kt + d * skp + j + 16);
            for (size_t r = 0; r < RB; r++) {
                if (r < nr) {
                    float qv = q[r * q_row + d];
                    acc[r][0] += qv * k0;
                    acc[r][1] += qv * k1;
                }
            }
        }
        for (size_t r = 0; r < nr; r++) {
            st16(s + r * skp + j, acc[r][0]);
            st16(s + r * skp + j + 16, acc[r][1]);
        }
    }
}

/* Scale, then softmax over the first KEEP columns; zeros up to KPAD.
 * Max and sum over 16 lanes (no -ffast-math: the compiler may not
 * reorder a plain running sum); NaN wins the max as in kernels_row.c. */
static void softmax_keep(float *restrict s, size_t keep, size_t kpad,
                         float scale, int div)
{
    if (div)
        for (size_t j = 0; j < keep; j++)
            s[j] = s[j] / scale;
    else
        for (size_t j = 0; j < keep; j++)
            s[j] = s[j] * scale;
    /* A plain max (a NaN loses it): a NaN or +inf score still makes the
     * whole row NaN below, through s - m and the sum, as the NaN-wins
     * max of kernels_row.c does; and this one vectorises. */
    float lane[16];
    for (int l = 0; l < 16; l++)
        lane[l] = -INFINITY;
    size_t j = 0;
    for (; j + 16 <= keep; j += 16)
        for (int l = 0; l < 16; l++)
            lane[l] = s[j + l] > lane[l] ? s[j + l] : lane[l];
    float m = -INFINITY;
    for (; j < keep; j++)
        m = s[j] > m ? s[j] : m;
    for (int l = 0; l < 16; l++)
        m = lane[l] > m ? lane[l] : m;
    for (j = 0; j < keep; j++)
        s[j] = rlxb_exp(s[j] - m);
    for (int l = 0; l < 16; l++)
        lane[l] = 0.0f;
    for (j = 0; j + 16 <= keep; j += 16)
        for (int l = 0; l < 16; l++)
            lane[l] += s[j + l];
    float sum = 0.0f;
    for (; j < keep; j++)
        sum += s[j];
    for (int l = 0; l < 16; l++)
        sum += lane[l];
    float inv = 1.0f / sum;
    for (j = 0; j < keep; j++)
        s[j] *= inv;
    for (j = keep; j < kpad; j++)
        s[j] = 0.0f;
}

/* O[r][0, dv) = sum over j < KMAX of P[r][j] v_j. */
static inline __attribute__((always_inline)) void pv_block(const float *restrict pr, size_t skp, size_t nr,
                            const float *restrict v, size_t v_row,
                            size_t kmax, size_t dv, float *restrict o,
                            size_t o_row)
{
    size_t c = 0;
    for (; c + 32 <= dv; c += 32) {
        v16 acc[RB][2];
        memset(acc, 0, sizeof acc);
        for (size_t j = 0; j < kmax; j++) {
            v16 v0 = ld16(v + j * v_row + c), v1 = ld16(v + j * v_row + c + 16);
            for (size_t r = 0; r < RB; r++) {
                if (r < nr) {
                    float pj = pr[r * skp + j];
                    acc[r][0] += pj * v0;
                    acc[r][1] += pj * v1;
                }
            }
        }
        for (size_t r = 0; r < nr; r++) {
            st16(o + r * o_row + c, acc[r][0]);
            st16(o + r * o_row + c + 16, acc[r][1]);
        }
    }
    for (; c < dv; c++) /* the columns left over, one at a time */
        for (size_t r = 0; r < nr; r++) {
            float a = 0.0f;
            for (size_t j = 0; j < kmax; j++)
                a += pr[r * skp + j] * v[j * v_row + c];
            o[r * o_row + c] = a;
        }
}

typedef struct attn_job {
    rlxb_attn *p;
    const float *q, *k, *v;
    float scale;
    float *y;
} attn_job;

static float *slot_take(rlxb_attn *p, unsigned *slot)
{
    for (;;)
        for (unsigned s = 0; s < p->n_slots; s++)
            if (!atomic_flag_test_and_set_explicit(&p->busy[s],
                                                   memory_order_acquire)) {
                *slot = s;
                return p->scratch + s * p->slot_floats;
            }
}

static void attn_task(void *ctx, size_t begin, size_t end)
{
    const attn_job *jb = ctx;
    rlxb_attn *p = jb->p;
    unsigned slot;
    float *kt = slot_take(p, &slot);
    size_t skp = (p->sk + CT - 1) / CT * CT;
    float *pr = kt + p->dh * skp;
    const size_t n = p->n_pairs;
    for (size_t t = begin; t < end; t++) {
        const float *q = jb->q + p->off[t], *k = jb->k + p->off[n + t];
        const float *v = jb->v + p->off[2 * n + t];
        float *o = jb->y + p->off[3 * n + t];
        /* k^T, zero-padded to whole tiles, in 16 x 16 blocks: a column
         * of k steps by k_row, often a power of two, which a plain
         * column-at-a-time copy turns into cache-set conflicts */
        for (size_t j0 = 0; j0 < skp; j0 += 16)
            for (size_t d0 = 0; d0 < p->dh; d0 += 16) {
                size_t dn = p->dh - d0 < 16 ? p->dh - d0 : 16;
                for (size_t j = j0; j < j0 + 16; j++) {
                    const float *kr = k + j * p->k_row + d0;
                    float *col = kt + d0 * skp + j;
                    if (j < p->sk)
                        for (size_t d = 0; d < dn; d++)
                            col[d * skp] = kr[d];
                    else
                        for (size_t d = 0; d < dn; d++)
                            col[d * skp] = 0.0f;
                }
            }
        for (size_t i = 0; i < p->sq; i += RB) {
            size_t nr = p->sq - i < RB ? p->sq - i : RB;
            size_t kmax = keep_of(p, i + nr - 1);
            size_t kpad = (kmax + CT - 1) / CT * CT;
            /* constant row counts, so the accumulators stay in registers */
            if (nr == RB)
                scores_block(q + i * p->q_row, p->q_row, RB, kt, p->dh, skp,
                             kpad, pr);
            else
                scores_block(q + i * p->q_row, p->q_row, nr, kt, p->dh, skp,
                             kpad, pr);
            for (size_t r = 0; r < nr; r++)
                softmax_keep(pr + r * skp, keep_of(p, i + r), kpad,
                             jb->scale, p->scale_div);
            if (nr == RB)
                pv_block(pr, skp, RB, v, p->v_row, kmax, p->dv,
                         o + i * p->o_row, p->o_row);
            else
                pv_block(pr, skp, nr, v, p->v_row, kmax, p->dv,
                         o + i * p->o_row, p->o_row);
        }
    }
    atomic_flag_clear_explicit(&p->busy[slot], memory_order_release);
}

void rlxb_attn_run(rlxb_pool *pool, rlxb_attn *p,
                        const float *const *in, float *y)
{
    attn_job j = { p, in[0], in[1], in[2],
                   p->scale_in >= 0 ? in[p->scale_in][0] : 1.0f, y };
    /* a pair is sq * sk * (dh + dv) multiply-adds: one task each unless
     * tiny */
    size_t work = p->sq * p->sk * (p->dh + p->dv);
    size_t grain = work >= 65536 ? 1 : 65536 / (work ? work : 1);
    rlxb_parallel_for(pool, p->n_pairs, grain, attn_task, &j);
}
