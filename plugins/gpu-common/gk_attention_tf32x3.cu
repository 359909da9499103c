/*
 * gk_attention_tf32x3.cu - fused attention for f32 on NVIDIA's tensor
 * cores at f32 accuracy: the flash-attention loop of gk_attention_mma.cu
 * with both products (q k^T and p v) done as 3xTF32, like
 * gk_gemm_tf32x3.cu: each operand split into TF32 hi + lo parts, a b
 * summed as a_lo b_hi + a_hi b_lo + a_hi b_hi with mma.sync m16n8k8,
 * the partial sums started from zero and added to f32 accumulators
 * rounded to nearest (the tensor cores truncate what they add). Needs
 * sm_80 or newer; under hipcc (RLXG_HIP) it declines and
 * gk_attention.cu's CUDA-core kernel runs.
 */
#include "gk_common.cuh"
#include "gk_attention_mma.h"

#ifndef RLXG_HIP

#include "gk_ptx.cuh"
#include "gk_attention_flash.cuh"

namespace {

/* x = hi + lo, both TF32 (gk_gemm_tf32x3.cu's split) */
__device__ __forceinline__ void split3(float x, unsigned &hi, unsigned &lo)
{
    hi = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
    lo = __float_as_uint(x - __uint_as_float(hi)) + 0x1000u;
}

/* c = a b (zero = true) or c += a b; m16n8k8, TF32 in, f32 out */
template <bool ZERO>
__device__ __forceinline__ void mma1688(float c[4], const unsigned a[4],
                                        unsigned b0, unsigned b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (ZERO)
        asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};\n"
            : "=f"(c[0]), "=f"(c[1]), "=f"(c[2]), "=f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1),
              "f"(0.f));
    else
        asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

/* c[n] += a_lo b_hi[n] + a_hi b_lo[n] + a_hi b_hi[n] for N 8-column
 * groups: the three summed from zero, small terms first (each pass over
 * all N keeps dependent mma apart), then added to c rounded to nearest */
template <int N>
__device__ __forceinline__ void mma3(float (&c)[N][4], const unsigned ah[4],
                                     const unsigned al[4],
                                     const unsigned bh[N][2],
                                     const unsigned bl[N][2])
{
    float part[N][4];
#pragma unroll
    for (int n = 0; n < N; n++)
        mma1688<true>(part[n], al, bh[n][0], bh[n][1]);
#pragma unroll
    for (int n = 0; n < N; n++)
        mma1688<false>(part[n], ah, bl[n][0], bl[n][1]);
#pragma unroll
    for (int n = 0; n < N; n++)
        mma1688<false>(part[n], ah, bh[n][0], bh[n][1]);
#pragma unroll
    for (int n = 0; n < N; n++)
#pragma unroll
        for (int e = 0; e < 4; e++)
            c[n][e] += part[n][e];
}

/* One query row the plain way, the warp together: FP32 FMAs, the same
 * online softmax as gk_attention.cu's kernels. The split makes NaN where
 * IEEE arithmetic does not (an infinite element's lo part is inf - inf),
 * so a row that came out NaN is computed again here: NaN again where it
 * truly is. Rare; out of line so that the main loop stays as it is. */
template <int D>
__device__ __noinline__ void redo_row(const float *qb, const float *kb,
                                      const float *vb, float *ob,
                                      const rlxg_attn_plan p, int64_t i)
{
    const int lane = threadIdx.x & 31;
    constexpr int CPL = D / 32;
    float qv[CPL], acc[CPL];
#pragma unroll
    for (int c = 0; c < CPL; c++) {
        qv[c] = qb[i * p.q_s[2] + lane + 32 * c];
        acc[c] = 0.f;
    }
    const float sl2 = p.scale * 1.4426950408889634f;
    int64_t last = p.causal ? i + p.sk - p.sq : p.sk - 1;
    float m = -INFINITY, l = 0.f;
    for (int64_t j = 0; j < p.sk && j <= last; j++) {
        float s = 0.f;
#pragma unroll
        for (int c = 0; c < CPL; c++)
            s = fmaf(qv[c], kb[j * p.k_s[2] + lane + 32 * c], s);
        s = warp_sum(s) * sl2;
        float mn = max_nan(m, s);
        float cf = mn == -INFINITY ? 1.f : exp2f(m - mn);
        float e = s == -INFINITY ? 0.f : exp2f(s - mn);
        m = mn;
        l = l * cf + e;
#pragma unroll
        for (int c = 0; c < CPL; c++)
            acc[c] = acc[c] * cf + e * vb[j * p.v_s[2] + lane + 32 * c];
    }
    float inv = l > 0.f ? 1.f / l : (l == 0.f ? 0.f : l);
#pragma unroll
    for (int c = 0; c < CPL; c++)
        ob[i * p.o_s[2] + (lane + 32 * c) * p.o_s[3]] = acc[c] * inv;
}

/* One tile of KT keys (K and V rows at Kb, Vb, P floats apart) for a
 * warp's 16 query rows: s = q k^T, masked and scaled, the online
 * softmax's running max M and sum L updated, acc = acc c + p v. */
template <int D, int KT>
__device__ __forceinline__ void tile_step(
    const float *Kb, const float *Vb, const unsigned (&qh)[D / 8][4],
    const unsigned (&ql)[D / 8][4], float (&acc)[D / 8][4], attn_rows &r,
    int64_t j0, int64_t sk, int g, int t)
{
    constexpr int P = D + 4, NT = KT / 8, KC = D / 8, DT = D / 8;
    /* s = q k^T over this tile, each k step summed from zero and
     * added rounded to nearest */
    float s[NT][4];
#pragma unroll
    for (int n = 0; n < NT; n++)
        s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.f;
#pragma unroll
    for (int kc = 0; kc < KC; kc++) {
        unsigned bh[NT][2], bl[NT][2];
#pragma unroll
        for (int n = 0; n < NT; n++) {
            const float *kr = Kb + (n * 8 + g) * P + kc * 8 + t;
            split3(kr[0], bh[n][0], bl[n][0]);
            split3(kr[4], bh[n][1], bl[n][1]);
        }
        mma3<NT>(s, qh[kc], ql[kc], bh, bl);
    }

    /* mask, scale, online softmax (rows g and g + 8) */
    float c0, c1;
    attn_softmax_tile<NT>(s, j0, sk, t, r, c0, c1);
    /* p as split A fragments: a0 (row g, key 2t), a1 (row g + 8, key
     * 2t), a2 (row g, key 2t + 1), a3 (row g + 8, key 2t + 1) */
    unsigned ph[NT][4], pl[NT][4];
#pragma unroll
    for (int n = 0; n < NT; n++) {
        split3(s[n][0], ph[n][0], pl[n][0]);
        split3(s[n][2], ph[n][1], pl[n][1]);
        split3(s[n][1], ph[n][2], pl[n][2]);
        split3(s[n][3], ph[n][3], pl[n][3]);
    }

    /* acc = acc c + p v, each k step of p v summed from zero */
    attn_scale_acc<DT>(acc, c0, c1);
#pragma unroll
    for (int kk = 0; kk < NT; kk++) {
        unsigned bh[DT][2], bl[DT][2];
#pragma unroll
        for (int n = 0; n < DT; n++) {
            const float *vr = Vb + (kk * 8 + 2 * t) * P + n * 8 + g;
            split3(vr[0], bh[n][0], bl[n][0]);
            split3(vr[P], bh[n][1], bl[n][1]);
        }
        mma3<DT>(acc, ph[kk], pl[kk], bh, bl);
    }
}

/* Block: W warps, each owning 16 query rows of one (batch, head); keys
 * in tiles of KT, K and V rows staged in shared memory by cp.async, two
 * tiles deep. Scores are mma accumulators (lane: rows g and g + 8, keys
 * 2t and 2t + 1 of each 8-key group, g = lane / 4, t = lane % 4). In
 * p v the keys of a group are taken in the order 0 2 4 6 1 3 5 7, so
 * those accumulators are the A operand as they stand (k t is key 2t,
 * k t + 4 key 2t + 1) and V's B operand reads rows 2t and 2t + 1; the
 * sum over keys does not depend on their order. Pads: K rows D + 4
 * floats apart and V rows D + 4 as well, so a fragment's 32 reads hit
 * 32 banks (rows g, columns t for K; rows 2t, 2t + 1, columns g for V). */
template <int D, int W, int KT>
__global__ void __launch_bounds__(W * 32)
    attn_tf32x3_kernel(const float *q, const float *k, const float *v,
                       float *o, rlxg_attn_plan p)
{
    grid_dep_wait(); /* a programmatic dependent: reads nothing before */
    constexpr int P = D + 4, KC = D / 8, DT = D / 8;
    constexpr int TILE = KT * P;
    __shared__ __align__(16) float Kg[2 * TILE];
    __shared__ __align__(16) float Vg[2 * TILE];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int g = lane >> 2, t = lane & 3;
    const attn_head<float> a = attn_head_of(q, k, v, o, p);
    const float *qb = a.q;
    float *ob = a.o;
    const int64_t rowb = (int64_t)blockIdx.x * (16 * W);
    const int64_t row0 = rowb + warp * 16 + g, row1 = row0 + 8;
    const int ntiles = attn_tiles(p, rowb, 16 * W, KT);
    auto load_tile = [&](int tile, int buf) {
        attn_copy_tile<float, D, KT, P, W * 32>(
            Kg + buf * TILE, Vg + buf * TILE, a, p, tile);
    };
    if (ntiles > 0)
        load_tile(0, 0);
    cp_async_commit();

    /* q rows as split A fragments (row g or g + 8, k t or t + 4) */
    unsigned qh[KC][4], ql[KC][4];
#pragma unroll
    for (int kc = 0; kc < KC; kc++)
#pragma unroll
        for (int e = 0; e < 4; e++) {
            int64_t r = e & 1 ? row1 : row0;
            int d = kc * 8 + t + (e >> 1) * 4;
            split3(r < p.sq ? qb[r * p.q_s[2] + d] : 0.f, qh[kc][e],
                   ql[kc][e]);
        }

    float acc[DT][4];
    attn_zero_acc<DT>(acc);
    attn_rows rs = attn_rows_start(p, row0, row1);

    attn_key_loop(ntiles, load_tile, [&](int tile, int buf) {
        tile_step<D, KT>(Kg + buf * TILE, Vg + buf * TILE, qh, ql, acc, rs,
                         (int64_t)tile * KT, p.sk, g, t);
    });

    float i0, i1;
    attn_finish(rs, i0, i1);
    bool nan0 = isnan(rs.l0), nan1 = isnan(rs.l1);
    const bool pair = p.o_s[3] == 1 && ((uintptr_t)ob & 7) == 0 &&
                      ((p.o_s[2] | p.o_s[1] | p.o_s[0]) & 1) == 0;
#pragma unroll
    for (int n = 0; n < DT; n++) {
        int d = n * 8 + 2 * t;
        float y0 = acc[n][0] * i0, y1 = acc[n][1] * i0;
        float y2 = acc[n][2] * i1, y3 = acc[n][3] * i1;
        nan0 |= isnan(y0) | isnan(y1);
        nan1 |= isnan(y2) | isnan(y3);
        if (pair) {
            if (row0 < p.sq)
                *(float2 *)(ob + row0 * p.o_s[2] + d) = make_float2(y0, y1);
            if (row1 < p.sq)
                *(float2 *)(ob + row1 * p.o_s[2] + d) = make_float2(y2, y3);
            continue;
        }
        if (row0 < p.sq) {
            ob[row0 * p.o_s[2] + d * p.o_s[3]] = y0;
            ob[row0 * p.o_s[2] + (d + 1) * p.o_s[3]] = y1;
        }
        if (row1 < p.sq) {
            ob[row1 * p.o_s[2] + d * p.o_s[3]] = y2;
            ob[row1 * p.o_s[2] + (d + 1) * p.o_s[3]] = y3;
        }
    }
    /* the warp's rows with a NaN in any lane's columns: bit r for row
     * r (lanes 4 r .. 4 r + 3 hold row r and row r + 8) */
    unsigned b0 = __ballot_sync(0xffffffffu, nan0);
    unsigned b1 = __ballot_sync(0xffffffffu, nan1);
    unsigned redo = 0;
#pragma unroll
    for (int r = 0; r < 8; r++) {
        redo |= ((b0 >> (4 * r)) & 15u) ? 1u << r : 0u;
        redo |= ((b1 >> (4 * r)) & 15u) ? 1u << (r + 8) : 0u;
    }
    __syncwarp(); /* this warp's stores ordered before its redo's */
    while (redo) {
        int r = __ffs(redo) - 1;
        redo &= redo - 1;
        int64_t i = rowb + warp * 16 + r;
        if (i < p.sq)
            redo_row<D>(a.q, a.k, a.v, ob, p, i);
    }
}

template <int D>
gpuError_t launch_tf32x3(gpuStream_t s, const float *q, const float *k,
                         const float *v, float *o, const rlxg_attn_plan *p,
                         bool pdl)
{
    unsigned bh = (unsigned)(p->batch * p->heads);
    constexpr int KT = 32; /* two K/V tiles: 35 KiB at D 64 */
    /* One warp per block below 2048 keys, four sharing their K/V tiles
     * from there: the fastest on an H200 (bench_attention.cu: at b8 h8
     * s128 15.7 µs against 18.0 for four, at b1 h8 s1024 95.6 against
     * 120.7; at b1 h8 s2048 287 against 365) */
    if (p->sq > 32 && p->sk >= 2048)
        return launch_dep(pdl, attn_tf32x3_kernel<D, 4, KT>,
                          dim3((unsigned)((p->sq + 63) / 64), bh), dim3(128),
                          s, q, k, v, o, *p);
    if (p->sq > 16 && p->sk >= 2048)
        return launch_dep(pdl, attn_tf32x3_kernel<D, 2, KT>, dim3(1, bh),
                          dim3(64), s, q, k, v, o, *p);
    return launch_dep(pdl, attn_tf32x3_kernel<D, 1, KT>,
                      dim3((unsigned)((p->sq + 15) / 16), bh), dim3(32), s, q,
                      k, v, o, *p);
}

} /* namespace */

bool rlxg_attention_tf32x3(gpuStream_t s, const void *q, const void *k,
                           const void *v, void *o, const rlxg_attn_plan *p,
                           int pdl, gpuError_t *err)
{
    /* From 128 keys: on an H200 (bench_attention.cu) this kernel took
     * 15.7 µs against the CUDA-core kernel's 16.6 at b8 h8 s128, 49.4
     * against 58.9 at b2 h8 s512, 287 against 451 at b1 h8 s2048; fewer
     * keys were not measured. (Splitting a block's key tiles over more
     * warps, merged at the end, was slower at s128: 23.6 µs.) */
    if (p->sk < 128)
        return false;
    /* rows contiguous and 16-byte aligned: K/V rows go to shared memory
     * as 16-byte copies */
    if (p->dh != p->dv || p->q_s[3] != 1 || p->k_s[3] != 1 ||
        p->v_s[3] != 1 || !device_is_sm80())
        return false;
    if ((uintptr_t)q % 16 || (uintptr_t)k % 16 || (uintptr_t)v % 16)
        return false;
    int64_t m = p->q_off | p->k_off | p->v_off;
    for (int d = 0; d < 3; d++)
        m |= p->q_s[d] | p->k_s[d] | p->v_s[d];
    if (m & 3)
        return false;
    const float *qf = (const float *)q, *kf = (const float *)k,
                *vf = (const float *)v;
    switch (p->dh) {
    case 32: *err = launch_tf32x3<32>(s, qf, kf, vf, (float *)o, p, pdl != 0); return true;
    case 64: *err = launch_tf32x3<64>(s, qf, kf, vf, (float *)o, p, pdl != 0); return true;
    default: return false; /* 128: q's fragments alone take 128 registers */
    }
}

#else /* RLXG_HIP: no mma.sync; the portable kernel runs */

bool rlxg_attention_tf32x3(gpuStream_t, const void *, const void *,
                           const void *, void *, const rlxg_attn_plan *, int,
                           gpuError_t *)
{
    return false;
}

#endif
