/*
 * gk_attention_mma.cu - fused attention for f16 and bf16 on NVIDIA's
 * tensor cores (flash-attention style): q k^T and p v with mma.sync
 * m16n8k16 (f32 accumulation), K/V tiles staged in shared memory by
 * cp.async two deep, online softmax on the accumulator fragments.
 * Needs sm_80 or newer (the plugin builds sm_90 code and compute_80
 * PTX). Under hipcc (RLXG_HIP) and for layouts it does not take,
 * rlxg_attention_mma declines and gk_attention.cu's kernel runs.
 */
#include "gk_common.cuh"
#include "gk_attention_mma.h"

#ifndef RLXG_HIP

#include "gk_ptx.cuh"
#include "gk_attention_flash.cuh"

namespace {

/* Block: W warps, each owning 16 query rows of one (batch, head). Keys
 * in tiles of KT, K and V rows staged in shared memory (T, rows padded
 * by 16 bytes: ldmatrix's eight row reads then hit distinct banks), the
 * next tile copied in while this one is computed. (Splitting the keys
 * of 16 rows across warps instead, with a merge at the end, measured
 * slower on an H200 even for 128-key sequences, and so did a 128-key
 * sequence as one tile of 128: docs/performance-notes.md.)
 * Each key tile is gk_attention_flash.cuh's attn_mma_tile. */
template <typename T, int D, int W, int KT>
__global__ void __launch_bounds__(W * 32)
    attn_mma_kernel(const T *q, const T *k, const T *v, T *o,
                    rlxg_attn_plan p)
{
    grid_dep_wait(); /* a programmatic dependent: reads nothing before */
    constexpr int P = D + 8, KC = D / 16, DT = D / 8;
    constexpr int TILE = KT * P; /* elements of one K or V tile */
    __shared__ __align__(16) T Kg[2 * TILE]; /* two tiles, double buffer */
    __shared__ __align__(16) T Vg[2 * TILE];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int g = lane >> 2, t = lane & 3;
    const attn_head<T> a = attn_head_of(q, k, v, o, p);
    const T *qb = a.q;
    T *ob = a.o;
    const int64_t rowb = (int64_t)blockIdx.x * (16 * W);
    const int64_t row0 = rowb + warp * 16 + g, row1 = row0 + 8;
    const int ntiles = attn_tiles(p, rowb, 16 * W, KT);
    auto load_tile = [&](int tile, int buf) {
        attn_copy_tile<T, D, KT, P, W * 32>(Kg + buf * TILE, Vg + buf * TILE,
                                           a, p, tile);
    };
    if (ntiles > 0)
        load_tile(0, 0);
    cp_async_commit();

    unsigned qa[KC][4];
    attn_q_frags<T, KC>(qa, qb, p, row0, row1, t);
    float acc[DT][4];
    attn_zero_acc<DT>(acc);
    attn_rows rs = attn_rows_start(p, row0, row1);
    attn_key_loop(ntiles, load_tile, [&](int tile, int buf) {
        attn_mma_tile<T, D, KT, P>(acc, rs, qa, Kg + buf * TILE,
                                   Vg + buf * TILE, tile, p.sk, lane);
    });

    float i0, i1;
    attn_finish(rs, i0, i1);
    /* Rows contiguous and 16-byte aligned: the warp's 16 rows staged in
     * shared memory (K's buffers, which the key loop's last barrier
     * freed), then stored 16 bytes a lane, whole 128-byte lines a
     * quarter-warp. Fewer, wider stores drain sooner as the kernel
     * ends: on an H200 a plainly launched kernel after it started 0.55
     * us later than a programmatic dependent with 32-bit stores, 0.35
     * with these (bench_pdl_start.cu), and the encoder's attention took
     * 4.47 us instead of 5.11. */
    const bool rows16 = p.o_s[3] == 1 && ((uintptr_t)ob & 15) == 0 &&
                        ((p.o_s[2] | p.o_s[1] | p.o_s[0]) & 7) == 0;
    static_assert(16 * W <= 2 * KT, "a block's rows fit in K's buffers");
    if (rows16) {
        T *sr = Kg + warp * 16 * P; /* this warp's rows, P apart */
#pragma unroll
        for (int n = 0; n < DT; n++) {
            const int d = n * 8 + 2 * t;
            *(unsigned *)(sr + g * P + d) =
                pack2<T>(acc[n][0] * i0, acc[n][1] * i0);
            *(unsigned *)(sr + (g + 8) * P + d) =
                pack2<T>(acc[n][2] * i1, acc[n][3] * i1);
        }
        __syncwarp();
        constexpr int EL = 16 / sizeof(T), CH = D / EL, RPI = 32 / CH;
        static_assert(32 % CH == 0, "a row is a whole number of lanes");
#pragma unroll
        for (int i = 0; i < 16 / RPI; i++) {
            const int r = i * RPI + lane / CH, c = (lane % CH) * EL;
            const int64_t row = rowb + warp * 16 + r;
            if (row < p.sq)
                *(uint4 *)(ob + row * p.o_s[2] + c) =
                    *(const uint4 *)(sr + r * P + c);
        }
        return;
    }
    /* columns d, d + 1 as one 32-bit store where the layout allows */
    const bool pair = p.o_s[3] == 1 && ((uintptr_t)ob & 3) == 0 &&
                      ((p.o_s[2] | p.o_s[1] | p.o_s[0]) & 1) == 0;
#pragma unroll
    for (int n = 0; n < DT; n++) {
        int d = n * 8 + 2 * t;
        if (pair) {
            if (row0 < p.sq)
                *(unsigned *)(ob + row0 * p.o_s[2] + d) =
                    pack2<T>(acc[n][0] * i0, acc[n][1] * i0);
            if (row1 < p.sq)
                *(unsigned *)(ob + row1 * p.o_s[2] + d) =
                    pack2<T>(acc[n][2] * i1, acc[n][3] * i1);
            continue;
        }
        if (row0 < p.sq) {
            st(ob, row0 * p.o_s[2] + d * p.o_s[3], acc[n][0] * i0);
            st(ob, row0 * p.o_s[2] + (d + 1) * p.o_s[3], acc[n][1] * i0);
        }
        if (row1 < p.sq) {
            st(ob, row1 * p.o_s[2] + d * p.o_s[3], acc[n][2] * i1);
            st(ob, row1 * p.o_s[2] + (d + 1) * p.o_s[3], acc[n][3] * i1);
        }
    }
}

template <typename T, int D>
gpuError_t launch_mma(gpuStream_t s, const void *q, const void *k,
                      const void *v, void *o, const rlxg_attn_plan *p,
                      bool pdl)
{
    const T *qt = (const T *)q, *kt = (const T *)k, *vt = (const T *)v;
    T *ot = (T *)o;
    unsigned bh = (unsigned)(p->batch * p->heads);
    constexpr int KT = D >= 128 ? 32 : 64; /* two K/V tiles in 48 KiB */
    /* 64 query rows per block (fastest on an H200 from 128-key sequences
     * up, bench_attention.cu), fewer only when there are fewer rows */
    if (p->sq > 32)
        return launch_dep(pdl, attn_mma_kernel<T, D, 4, KT>,
                          dim3((unsigned)((p->sq + 63) / 64), bh), dim3(128),
                          s, qt, kt, vt, ot, *p);
    if (p->sq > 16)
        return launch_dep(pdl, attn_mma_kernel<T, D, 2, KT>, dim3(1, bh),
                          dim3(64), s, qt, kt, vt, ot, *p);
    return launch_dep(pdl, attn_mma_kernel<T, D, 1, KT>, dim3(1, bh),
                      dim3(32), s, qt, kt, vt, ot, *p);
}

template <typename T>
bool mma_run(gpuStream_t s, const void *q, const void *k, const void *v,
             void *o, const rlxg_attn_plan *p, bool pdl, gpuError_t *err)
{
    /* rows contiguous, 16-byte aligned and a multiple of 8 elements
     * apart: K/V rows go to shared memory as 16-byte copies */
    if (p->dh != p->dv || p->q_s[3] != 1 || p->k_s[3] != 1 || p->v_s[3] != 1)
        return false;
    if ((uintptr_t)q % 16 || (uintptr_t)k % 16 || (uintptr_t)v % 16)
        return false;
    int64_t m = p->q_off | p->k_off | p->v_off;
    for (int d = 0; d < 3; d++)
        m |= p->q_s[d] | p->k_s[d] | p->v_s[d];
    if (m & 7)
        return false;
    switch (p->dh) {
    case 32: *err = launch_mma<T, 32>(s, q, k, v, o, p, pdl); return true;
    case 64: *err = launch_mma<T, 64>(s, q, k, v, o, p, pdl); return true;
    case 128: *err = launch_mma<T, 128>(s, q, k, v, o, p, pdl); return true;
    default: return false;
    }
}

} /* namespace */

bool rlxg_attention_mma(gpuStream_t s, int dtype, const void *q,
                        const void *k, const void *v, void *o,
                        const rlxg_attn_plan *p, int pdl, gpuError_t *err)
{
    if (!device_is_sm80())
        return false;
    if (dtype == RLX_DTYPE_F16)
        return mma_run<__half>(s, q, k, v, o, p, pdl != 0, err);
    if (dtype == RLX_DTYPE_BF16)
        return mma_run<gpu_bf16>(s, q, k, v, o, p, pdl != 0, err);
    return false;
}

#else /* RLXG_HIP: no mma.sync; the portable kernel runs */

bool rlxg_attention_mma(gpuStream_t, int, const void *, const void *,
                        const void *, void *, const rlxg_attn_plan *, int,
                        gpuError_t *)
{
    return false;
}

#endif
