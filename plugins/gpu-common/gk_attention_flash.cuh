/*
 * gk_attention_flash.cuh - what the flash-attention kernels on tensor
 * cores share (gk_attention_mma.cu for f16/bf16, gk_attention_tf32x3.cu
 * for f32): a block's (batch, head), the key tiles its rows need, the
 * copy of a K/V tile pair to shared memory, the double-buffered key
 * loop, the online softmax over one tile's score accumulators, and for
 * f16/bf16 a warp's q fragments and its whole step over one key tile.
 * Included by those files (and bench/cuda/bench_attn_proj.cuh) only,
 * after gk_common.cuh and gk_ptx.cuh; CUDA only.
 */
#ifndef RLX_GK_ATTENTION_FLASH_CUH
#define RLX_GK_ATTENTION_FLASH_CUH

namespace {

/* max that lets a NaN through, as IEEE's max does not: one
 * max.NaN instruction from sm_80 on */
__device__ __forceinline__ float max_nan(float a, float b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    float d;
    asm("max.NaN.f32 %0, %1, %2;\n" : "=f"(d) : "f"(a), "f"(b));
    return d;
#else
    return (b > a || isnan(b)) ? b : a;
#endif
}

/* 2^x as one MUFU.EX2: exp2f's accuracy (2 ulp), with results below
 * 2^-126 flushed to 0, which a softmax weight that small is anyway
 * next to the row's largest (2^0) */
__device__ __forceinline__ float attn_exp2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}

/* q, k, v and o of the (batch, head) of this block's grid row */
template <typename T> struct attn_head {
    const T *q, *k, *v;
    T *o;
};

template <typename T>
__device__ __forceinline__ attn_head<T> attn_head_of(const T *q, const T *k,
                                                     const T *v, T *o,
                                                     const rlxg_attn_plan &p)
{
    const int64_t bh = blockIdx.y, b = bh / p.heads, h = bh - b * p.heads;
    return { q + p.q_off + b * p.q_s[0] + h * p.q_s[1],
             k + p.k_off + b * p.k_s[0] + h * p.k_s[1],
             v + p.v_off + b * p.v_s[0] + h * p.v_s[1],
             o + b * p.o_s[0] + h * p.o_s[1] };
}

/* key tiles of KT that ROWS query rows from ROWB need: causal rows i
 * see keys <= i + sk - sq */
__device__ __forceinline__ int attn_tiles(const rlxg_attn_plan &p,
                                          int64_t rowb, int rows, int kt)
{
    int64_t kend = p.sk;
    if (p.causal) {
        int64_t lim = rowb + rows + p.sk - p.sq;
        kend = lim < kend ? lim : kend;
    }
    return kend > 0 ? (int)((kend + kt - 1) / kt) : 0;
}

/* Key tile TILE's K and V rows (KT rows of D elements) into KS and VS,
 * rows P elements apart, 16 bytes per cp.async by THREADS threads; rows
 * past sk read as 0. */
template <typename T, int D, int KT, int P, int THREADS>
__device__ __forceinline__ void attn_copy_tile(T *ks, T *vs,
                                               const attn_head<T> &a,
                                               const rlxg_attn_plan &p,
                                               int tile)
{
    constexpr int EL = 16 / sizeof(T), CH = D / EL, RS = THREADS / CH;
    static_assert(THREADS % CH == 0, "a thread's chunk column is fixed");
    /* this thread: chunk column d of rows jj, jj + RS, ... */
    const int jj0 = threadIdx.x / CH, d = (threadIdx.x % CH) * EL;
    const int64_t j0 = (int64_t)tile * KT + jj0;
    const T *kp = a.k + j0 * p.k_s[2] + d, *vp = a.v + j0 * p.v_s[2] + d;
    const int64_t kstep = RS * p.k_s[2], vstep = RS * p.v_s[2];
    const int64_t left = p.sk - j0; /* rows from this thread's first */
#pragma unroll
    for (int i = 0; i * RS < KT; i++) {
        const int jj = jj0 + i * RS;
        if (jj < KT) {
            const bool ok = i * RS < left;
            cp_async16(ks + jj * P + d, ok ? kp : a.k, ok ? 16 : 0);
            cp_async16(vs + jj * P + d, ok ? vp : a.v, ok ? 16 : 0);
        }
        kp += kstep;
        vp += vstep;
    }
}

/* The key loop over NTILES tiles, two buffers deep: tile i + 1 is
 * copied in (LOAD_TILE(tile, buf), cp.async) while STEP(tile, buf) uses
 * tile i. Tile 0's copy was issued and committed before. */
template <typename L, typename S>
__device__ __forceinline__ void attn_key_loop(int ntiles, L &&load_tile,
                                              S &&step)
{
    for (int tile = 0; tile < ntiles; tile++) {
        const int buf = tile & 1;
        if (tile + 1 < ntiles)
            load_tile(tile + 1, buf ^ 1);
        cp_async_commit();
        cp_async_wait<1>();
        __syncthreads();
        step(tile, buf);
        __syncthreads(); /* this buffer is refilled next iteration */
    }
    cp_async_wait<0>();
}

/* A warp's online-softmax state for its query rows ROW0 (g) and ROW1
 * (g + 8): running maxima M and sums L, the scale with log2 e folded in
 * (exp(x) = 2^(x log2 e)), and each row's last visible key (causal). */
struct attn_rows {
    float m0, m1, l0, l1, sl2;
    int64_t last0, last1;
};

__device__ __forceinline__ attn_rows attn_rows_start(const rlxg_attn_plan &p,
                                                     int64_t row0,
                                                     int64_t row1)
{
    attn_rows r;
    r.m0 = r.m1 = -INFINITY;
    r.l0 = r.l1 = 0.f;
    r.sl2 = p.scale * 1.4426950408889634f;
    r.last0 = p.causal ? row0 + p.sk - p.sq : p.sk - 1;
    r.last1 = p.causal ? row1 + p.sk - p.sq : p.sk - 1;
    return r;
}

/* The output accumulators (rows g and g + 8 in [0, 1] and [2, 3]) at 0,
 * and times a tile's rescale factors C0 and C1. */
template <int DT>
__device__ __forceinline__ void attn_zero_acc(float (&acc)[DT][4])
{
#pragma unroll
    for (int n = 0; n < DT; n++)
        acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.f;
}
template <int DT>
__device__ __forceinline__ void attn_scale_acc(float (&acc)[DT][4], float c0,
                                               float c1)
{
#pragma unroll
    for (int n = 0; n < DT; n++) {
        acc[n][0] *= c0;
        acc[n][1] *= c0;
        acc[n][2] *= c1;
        acc[n][3] *= c1;
    }
}

/* X[0] = OP(X[0], ..., X[N - 1]) as a tree, so that the chain of
 * dependent instructions is log2 N long, not N */
template <int N, typename Op>
__device__ __forceinline__ float attn_tree(float (&x)[N], Op op)
{
#pragma unroll
    for (int w = 1; w < N; w *= 2)
#pragma unroll
        for (int n = 0; n + w < N; n += 2 * w)
            x[n] = op(x[n], x[n + w]);
    return x[0];
}

/* One tile's scores S (mma accumulators of keys J0 + 8 n + 2t + e, rows
 * g and g + 8; t = lane % 4) masked and scaled, the running maxima and
 * sums in R updated; S becomes the tile's exponentials p and C0, C1 the
 * factors the rows' accumulated outputs are to be scaled by. A tile
 * every row of the warp sees whole (all but the last tile of a ragged
 * sequence and the diagonal ones of a causal one) is not masked. The
 * maxima and sums are trees: the softmax sits between a tile's two
 * products on every warp's critical path. */
template <int NT>
__device__ __forceinline__ void attn_softmax_tile(float (&s)[NT][4],
                                                  int64_t j0, int64_t sk,
                                                  int t, attn_rows &r,
                                                  float &c0, float &c1)
{
    constexpr int KT = NT * 8;
    /* With a positive scale, the maxima are taken unscaled and the
     * scale goes into the exponent's FFMA: max(s) sl2 = max(s sl2) */
    const bool pos = r.sl2 > 0.f;
    const float sc = pos ? r.sl2 : 1.f;
    if (!pos) /* any other scale: scaled first (then sc = 1) */
#pragma unroll
        for (int n = 0; n < NT; n++)
#pragma unroll
            for (int e = 0; e < 4; e++)
                s[n][e] *= r.sl2;
    /* the last key of the tile each row sees, from j0 */
    const int64_t e0 = (sk - 1 < r.last0 ? sk - 1 : r.last0) - j0;
    const int64_t e1 = (sk - 1 < r.last1 ? sk - 1 : r.last1) - j0;
    if (!__all_sync(0xffffffffu, e0 >= KT - 1 && e1 >= KT - 1)) {
        const int l0 = e0 < 0 ? -1 : (int)(e0 < KT ? e0 : KT);
        const int l1 = e1 < 0 ? -1 : (int)(e1 < KT ? e1 : KT);
#pragma unroll
        for (int n = 0; n < NT; n++)
#pragma unroll
            for (int e = 0; e < 2; e++) {
                const int j = n * 8 + 2 * t + e;
                if (j > l0)
                    s[n][e] = -INFINITY;
                if (j > l1)
                    s[n][2 + e] = -INFINITY;
            }
    }
    float a0[NT], a1[NT];
#pragma unroll
    for (int n = 0; n < NT; n++) {
        a0[n] = max_nan(s[n][0], s[n][1]);
        a1[n] = max_nan(s[n][2], s[n][3]);
    }
    auto mx = [](float x, float y) { return max_nan(x, y); };
    float tm0 = attn_tree<NT>(a0, mx), tm1 = attn_tree<NT>(a1, mx);
#pragma unroll
    for (int o2 = 1; o2 <= 2; o2 <<= 1) {
        tm0 = max_nan(tm0, __shfl_xor_sync(0xffffffffu, tm0, o2));
        tm1 = max_nan(tm1, __shfl_xor_sync(0xffffffffu, tm1, o2));
    }
    float mn0 = max_nan(r.m0, tm0 * sc), mn1 = max_nan(r.m1, tm1 * sc);
    c0 = mn0 == -INFINITY ? 1.f : attn_exp2(r.m0 - mn0);
    c1 = mn1 == -INFINITY ? 1.f : attn_exp2(r.m1 - mn1);
    r.m0 = mn0;
    r.m1 = mn1;
    /* a row that has seen no key yet subtracts 0, so that its masked
     * scores (-inf) give 0 rather than -inf - -inf */
    const float b0 = mn0 == -INFINITY ? 0.f : mn0;
    const float b1 = mn1 == -INFINITY ? 0.f : mn1;
#pragma unroll
    for (int n = 0; n < NT; n++) {
#pragma unroll
        for (int e = 0; e < 2; e++) {
            s[n][e] = attn_exp2(fmaf(s[n][e], sc, -b0));
            s[n][2 + e] = attn_exp2(fmaf(s[n][2 + e], sc, -b1));
        }
        a0[n] = s[n][0] + s[n][1];
        a1[n] = s[n][2] + s[n][3];
    }
    auto add = [](float x, float y) { return x + y; };
    r.l0 = r.l0 * c0 + attn_tree<NT>(a0, add);
    r.l1 = r.l1 * c1 + attn_tree<NT>(a1, add);
}

/* the rows' sums over their four lanes into R, then 1 / l (a row that
 * saw no key gives zeros; NaN stays NaN) */
__device__ __forceinline__ void attn_finish(attn_rows &r, float &i0,
                                            float &i1)
{
#pragma unroll
    for (int o2 = 1; o2 <= 2; o2 <<= 1) {
        r.l0 += __shfl_xor_sync(0xffffffffu, r.l0, o2);
        r.l1 += __shfl_xor_sync(0xffffffffu, r.l1, o2);
    }
    i0 = r.l0 > 0.f ? 1.f / r.l0 : (r.l0 == 0.f ? 0.f : r.l0);
    i1 = r.l1 > 0.f ? 1.f / r.l1 : (r.l1 == 0.f ? 0.f : r.l1);
}

/* f16/bf16: a warp's query rows ROW0 and ROW1 (its rows g and g + 8)
 * of QB as mma A fragments over the head's KC 16-column steps, kept for
 * the whole key loop; rows past sq read as 0 */
template <typename T, int KC>
__device__ __forceinline__ void attn_q_frags(unsigned (&qa)[KC][4],
                                             const T *qb,
                                             const rlxg_attn_plan &p,
                                             int64_t row0, int64_t row1,
                                             int t)
{
#pragma unroll
    for (int kc = 0; kc < KC; kc++) {
        int d = kc * 16 + 2 * t;
        unsigned z = 0;
        qa[kc][0] = row0 < p.sq ? *(const unsigned *)(qb + row0 * p.q_s[2] + d) : z;
        qa[kc][1] = row1 < p.sq ? *(const unsigned *)(qb + row1 * p.q_s[2] + d) : z;
        qa[kc][2] = row0 < p.sq ? *(const unsigned *)(qb + row0 * p.q_s[2] + d + 8) : z;
        qa[kc][3] = row1 < p.sq ? *(const unsigned *)(qb + row1 * p.q_s[2] + d + 8) : z;
    }
}

/* f16/bf16: a warp's step over key tile TILE of KT keys, K and V rows
 * of D elements P apart in shared memory (KB, VB): s = q k^T, masked
 * and scaled online softmax (RS), the output accumulators ACC rescaled,
 * then ACC += p v. Scores live in registers as mma accumulators (lane:
 * rows g and g + 8, columns 2t, 2t + 1 of each 8-key group) and become
 * the A operand of p v without leaving them. */
template <typename T, int D, int KT, int P>
__device__ __forceinline__ void attn_mma_tile(float (&acc)[D / 8][4],
                                              attn_rows &rs,
                                              const unsigned (&qa)[D / 16][4],
                                              const T *Kb, const T *Vb,
                                              int tile, int64_t sk, int lane)
{
    constexpr int NT = KT / 8, KC = D / 16, DT = D / 8;
    const int t = lane & 3;
    /* s = q k^T over this tile */
    float s[NT][4];
#pragma unroll
    for (int n = 0; n < NT; n++) {
        s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.f;
#pragma unroll
        for (int kc = 0; kc < KC; kc += 2) {
            unsigned r[4];
            ldsm_x4(r, Kb + (n * 8 + (lane & 7)) * P + kc * 16 +
                           (lane >> 3) * 8);
            mma16816<T>(s[n], qa[kc], r[0], r[1]);
            if (kc + 1 < KC)
                mma16816<T>(s[n], qa[kc + 1], r[2], r[3]);
        }
    }

    /* mask, scale, online softmax (rows g and g + 8) */
    float c0, c1;
    attn_softmax_tile<NT>(s, (int64_t)tile * KT, sk, t, rs, c0, c1);
    unsigned pa[NT / 2][4];
#pragma unroll
    for (int n = 0; n < NT; n++) {
        pa[n / 2][(n & 1) * 2 + 0] = pack2<T>(s[n][0], s[n][1]);
        pa[n / 2][(n & 1) * 2 + 1] = pack2<T>(s[n][2], s[n][3]);
    }
    attn_scale_acc<DT>(acc, c0, c1);

    /* acc += p v: k = keys (16 per step), n = output columns */
#pragma unroll
    for (int kk = 0; kk < NT / 2; kk++) {
#pragma unroll
        for (int n = 0; n < DT; n += 2) {
            unsigned r[4];
            ldsm_x4_t(r, Vb + (kk * 16 + (lane & 7) +
                               ((lane >> 3) & 1) * 8) * P +
                             n * 8 + (lane >> 4) * 8);
            mma16816<T>(acc[n], pa[kk], r[0], r[1]);
            mma16816<T>(acc[n + 1], pa[kk], r[2], r[3]);
        }
    }
}

} /* namespace */

#endif
