/*
 * gk_attention.cu - fused attention: q k^T, scale, (causal) softmax, p v in one kernel.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include <type_traits>

#include "gk_common.cuh"
#include "gk_attention_mma.h"

namespace {

/* ---- fused attention --------------------------------------------------- */

__device__ __forceinline__ float nanmax(float a, float b)
{
    return (b > a || isnan(b)) ? b : a;
}

__device__ __forceinline__ float warp_nanmax(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = nanmax(v, gpu_shfl_xor(v, o));
    return v;
}

__device__ __forceinline__ float f4(const float4 &v, int u)
{
    return u == 0 ? v.x : u == 1 ? v.y : u == 2 ? v.z : v.w;
}

/* Block: 4 warps, each owning 4 query rows of one (batch, head); keys in
 * tiles of KT staged in shared memory (f32), online softmax per row.
 * Lane l scores keys l, l + 32, ... of a tile and owns output columns
 * l, l + 32, ...
 * VEC: head dims are exactly D, contiguous and 4-element aligned, so
 * q, k and v rows are read four elements at a time, every load of a
 * tile issued before the first store to shared memory (the scalar path
 * waits out one memory latency per element). */
template <typename T, int D, bool VEC, int R>
__global__ void __launch_bounds__(128)
    attn_kernel(const T *q, const T *k, const T *v, T *o, rlxg_attn_plan p)
{
    /* R = 8 rows per warp (VEC, D <= 64) halves the shared-memory reads
     * per FMA and the K/V tiles fetched per row; its tiles are 32 keys
     * so everything still fits in 48 KiB */
    constexpr int KT = (D >= 128 || R == 8) ? 32 : 64, JPL = KT / 32, W = 4;
    constexpr int CPL = D / 32;
    __shared__ __align__(16) float Ks[KT][D + 4];
    __shared__ __align__(16) float Vs[KT][D];
    __shared__ __align__(16) float Qs[W][R][D];
    __shared__ __align__(16) float Ps[W][R][KT];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int64_t bh = blockIdx.y, b = bh / p.heads, h = bh - b * p.heads;
    const T *qb = q + p.q_off + b * p.q_s[0] + h * p.q_s[1];
    const T *kb = k + p.k_off + b * p.k_s[0] + h * p.k_s[1];
    const T *vb = v + p.v_off + b * p.v_s[0] + h * p.v_s[1];
    T *ob = o + b * p.o_s[0] + h * p.o_s[1];
    int64_t row0 = (int64_t)blockIdx.x * (W * R) + warp * R;
#pragma unroll
    for (int r = 0; r < R; r++) {
        int64_t i = row0 + r;
        if constexpr (VEC) {
            for (int d = lane * 4; d < D; d += 128)
                *(float4 *)&Qs[warp][r][d] =
                    i < p.sq ? ld4(qb, i * p.q_s[2] + d)
                             : make_float4(0.f, 0.f, 0.f, 0.f);
        } else {
            for (int d = lane; d < D; d += 32)
                Qs[warp][r][d] = (i < p.sq && d < p.dh)
                                     ? ld(qb, i * p.q_s[2] + d * p.q_s[3])
                                     : 0.f;
        }
    }
    float m[R], l[R], acc[R][CPL];
#pragma unroll
    for (int r = 0; r < R; r++) {
        m[r] = -INFINITY;
        l[r] = 0.f;
#pragma unroll
        for (int c = 0; c < CPL; c++)
            acc[r][c] = 0.f;
    }
    /* VEC: the next tile is loaded into registers while this one is
     * computed, so its memory latency hides behind the math */
    constexpr int V4 = D / 4, PER = VEC ? KT * V4 / 128 : 1;
    float4 kr[PER], vr[PER];
    auto fetch = [&](int64_t j0) {
#pragma unroll
        for (int it = 0; it < PER; it++) {
            int t = threadIdx.x + it * 128, jj = t / V4;
            int d = (t - jj * V4) * 4;
            int64_t j = j0 + jj;
            kr[it] = j < p.sk ? ld4(kb, j * p.k_s[2] + d)
                              : make_float4(0.f, 0.f, 0.f, 0.f);
            vr[it] = j < p.sk ? ld4(vb, j * p.v_s[2] + d)
                              : make_float4(0.f, 0.f, 0.f, 0.f);
        }
    };
    if constexpr (VEC)
        fetch(0);
    for (int64_t j0 = 0; j0 < p.sk; j0 += KT) {
        if constexpr (VEC) {
            __syncthreads(); /* the last tile is consumed */
#pragma unroll
            for (int it = 0; it < PER; it++) {
                int t = threadIdx.x + it * 128, jj = t / V4;
                int d = (t - jj * V4) * 4;
                *(float4 *)&Ks[jj][d] = kr[it];
                *(float4 *)&Vs[jj][d] = vr[it];
            }
            if (j0 + KT < p.sk)
                fetch(j0 + KT);
        } else {
            __syncthreads(); /* the last tile is consumed */
            for (int t = threadIdx.x; t < KT * D; t += blockDim.x) {
                int jj = t / D, d = t - jj * D;
                int64_t j = j0 + jj;
                int okj = j < p.sk;
                Ks[jj][d] = (okj && d < p.dh)
                                ? ld(kb, j * p.k_s[2] + d * p.k_s[3]) : 0.f;
                Vs[jj][d] = (okj && d < p.dv)
                                ? ld(vb, j * p.v_s[2] + d * p.v_s[3]) : 0.f;
            }
        }
        __syncthreads();
        float s[R][JPL];
#pragma unroll
        for (int r = 0; r < R; r++)
#pragma unroll
            for (int u = 0; u < JPL; u++)
                s[r][u] = 0.f;
#pragma unroll 4
        for (int d = 0; d < D; d += 4) {
            float4 kv[JPL];
#pragma unroll
            for (int u = 0; u < JPL; u++)
                kv[u] = *(const float4 *)&Ks[lane + 32 * u][d];
#pragma unroll
            for (int r = 0; r < R; r++) {
                float4 qv = *(const float4 *)&Qs[warp][r][d];
#pragma unroll
                for (int u = 0; u < JPL; u++) {
                    s[r][u] = fmaf(qv.x, kv[u].x, s[r][u]);
                    s[r][u] = fmaf(qv.y, kv[u].y, s[r][u]);
                    s[r][u] = fmaf(qv.z, kv[u].z, s[r][u]);
                    s[r][u] = fmaf(qv.w, kv[u].w, s[r][u]);
                }
            }
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
            int64_t last = p.causal ? row0 + r + p.sk - p.sq : p.sk - 1;
            float tm = -INFINITY;
#pragma unroll
            for (int u = 0; u < JPL; u++) {
                int64_t j = j0 + lane + 32 * u;
                s[r][u] = (j < p.sk && j <= last) ? s[r][u] * p.scale
                                                  : -INFINITY;
                tm = nanmax(tm, s[r][u]);
            }
            tm = warp_nanmax(tm);
            float mn = nanmax(m[r], tm);
            float corr = mn == -INFINITY ? 1.f : expf(m[r] - mn);
            float ps = 0.f;
#pragma unroll
            for (int u = 0; u < JPL; u++) {
                float pv = s[r][u] == -INFINITY ? 0.f : expf(s[r][u] - mn);
                Ps[warp][r][lane + 32 * u] = pv;
                ps += pv;
            }
            l[r] = l[r] * corr + warp_sum(ps);
            m[r] = mn;
#pragma unroll
            for (int c = 0; c < CPL; c++)
                acc[r][c] *= corr;
        }
        gpu_syncwarp();
#pragma unroll 2
        for (int jj = 0; jj < KT; jj += 4) {
            float4 pv[R];
#pragma unroll
            for (int r = 0; r < R; r++)
                pv[r] = *(const float4 *)&Ps[warp][r][jj];
#pragma unroll
            for (int u = 0; u < 4; u++) {
#pragma unroll
                for (int c = 0; c < CPL; c++) {
                    float vv = Vs[jj + u][lane + 32 * c];
#pragma unroll
                    for (int r = 0; r < R; r++)
                        acc[r][c] = fmaf(f4(pv[r], u), vv, acc[r][c]);
                }
            }
        }
        gpu_syncwarp();
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
        int64_t i = row0 + r;
        if (i >= p.sq)
            continue;
        float inv = l[r] > 0.f ? 1.f / l[r] : (l[r] == 0.f ? 0.f : l[r]);
#pragma unroll
        for (int c = 0; c < CPL; c++) {
            int d = lane + 32 * c;
            if (d < p.dv)
                st(ob, i * p.o_s[2] + d * p.o_s[3], acc[r][c] * inv);
        }
    }
}

/* f32 with head size 64 (the encoder's): the two products as register
 * tiles, like a GEMM. A block of 128 threads takes 32 query rows against
 * tiles of 32 keys; thread t owns rows 4 (t / 16) .. + 3 and, for
 * q k^T, keys t % 16 and t % 16 + 16, for p v, output columns
 * 4 (t % 16) .. + 3. A float4 read from shared memory feeds 5.3 FMAs in
 * q k^T and 8 in p v (attn_kernel's rows-per-warp layout: 3.6 and 1.8),
 * and a row's 16 threads sit in one half-warp, so its max and sum are
 * 4 shuffles. Only K and P are padded: the other reads are broadcasts
 * or contiguous. */
template <typename T>
__global__ void __launch_bounds__(128)
    attn_tile64_kernel(const T *q, const T *k, const T *v, T *o,
                       rlxg_attn_plan p)
{
    constexpr int D = 64, BR = 32, BC = 32, KU = BC / 16, LD = D + 4;
    constexpr int LP = BC + 4;
    __shared__ __align__(16) float Qs[BR][D];
    __shared__ __align__(16) float Ks[BC][LD];
    __shared__ __align__(16) float Vs[BC][D];
    __shared__ __align__(16) float Ps[BR][LP];
    const int t = threadIdx.x, rg = t >> 4, cg = t & 15;
    int64_t bh = blockIdx.y, b = bh / p.heads, h = bh - b * p.heads;
    const T *qb = q + p.q_off + b * p.q_s[0] + h * p.q_s[1];
    const T *kb = k + p.k_off + b * p.k_s[0] + h * p.k_s[1];
    const T *vb = v + p.v_off + b * p.v_s[0] + h * p.v_s[1];
    T *ob = o + b * p.o_s[0] + h * p.o_s[1];
    const int64_t row0 = (int64_t)blockIdx.x * BR;
    /* 32 x 64 of q: four float4 per thread */
#pragma unroll
    for (int it = 0; it < 4; it++) {
        int e = t + it * 128, r = e >> 4, d = (e & 15) * 4;
        int64_t i = row0 + r;
        *(float4 *)&Qs[r][d] = i < p.sq ? ld4(qb, i * p.q_s[2] + d)
                                        : make_float4(0.f, 0.f, 0.f, 0.f);
    }
    float m[4], l[4], acc[4][4];
#pragma unroll
    for (int r = 0; r < 4; r++) {
        m[r] = -INFINITY;
        l[r] = 0.f;
#pragma unroll
        for (int c = 0; c < 4; c++)
            acc[r][c] = 0.f;
    }
    /* the next tile's 32 x 64 of k and of v: four float4 each per
     * thread, loaded while this tile is computed */
    float4 kr[4], vr[4];
    auto fetch = [&](int64_t j0) {
#pragma unroll
        for (int it = 0; it < 4; it++) {
            int e = t + it * 128, jj = e >> 4, d = (e & 15) * 4;
            int64_t j = j0 + jj;
            kr[it] = j < p.sk ? ld4(kb, j * p.k_s[2] + d)
                              : make_float4(0.f, 0.f, 0.f, 0.f);
            vr[it] = j < p.sk ? ld4(vb, j * p.v_s[2] + d)
                              : make_float4(0.f, 0.f, 0.f, 0.f);
        }
    };
    fetch(0);
    for (int64_t j0 = 0; j0 < p.sk; j0 += BC) {
        __syncthreads(); /* the last tile is consumed */
#pragma unroll
        for (int it = 0; it < 4; it++) {
            int e = t + it * 128, jj = e >> 4, d = (e & 15) * 4;
            *(float4 *)&Ks[jj][d] = kr[it];
            *(float4 *)&Vs[jj][d] = vr[it];
        }
        if (j0 + BC < p.sk)
            fetch(j0 + BC);
        __syncthreads();
        float s[4][KU];
#pragma unroll
        for (int r = 0; r < 4; r++)
#pragma unroll
            for (int u = 0; u < KU; u++)
                s[r][u] = 0.f;
#pragma unroll 4
        for (int d = 0; d < D; d += 4) {
            float4 qv[4], kv[KU];
#pragma unroll
            for (int r = 0; r < 4; r++)
                qv[r] = *(const float4 *)&Qs[rg * 4 + r][d];
#pragma unroll
            for (int u = 0; u < KU; u++)
                kv[u] = *(const float4 *)&Ks[cg + 16 * u][d];
#pragma unroll
            for (int r = 0; r < 4; r++)
#pragma unroll
                for (int u = 0; u < KU; u++) {
                    s[r][u] = fmaf(qv[r].x, kv[u].x, s[r][u]);
                    s[r][u] = fmaf(qv[r].y, kv[u].y, s[r][u]);
                    s[r][u] = fmaf(qv[r].z, kv[u].z, s[r][u]);
                    s[r][u] = fmaf(qv[r].w, kv[u].w, s[r][u]);
                }
        }
#pragma unroll
        for (int r = 0; r < 4; r++) {
            int64_t i = row0 + rg * 4 + r;
            int64_t last = p.causal ? i + p.sk - p.sq : p.sk - 1;
            float tm = -INFINITY;
#pragma unroll
            for (int u = 0; u < KU; u++) {
                int64_t j = j0 + cg + 16 * u;
                s[r][u] = (j < p.sk && j <= last) ? s[r][u] * p.scale
                                                  : -INFINITY;
                tm = nanmax(tm, s[r][u]);
            }
            /* the row's 16 threads: lanes differing in their low 4 bits */
#pragma unroll
            for (int x = 8; x > 0; x >>= 1)
                tm = nanmax(tm, gpu_shfl_xor(tm, x));
            float mn = nanmax(m[r], tm);
            float corr = mn == -INFINITY ? 1.f : expf(m[r] - mn);
            float ps = 0.f;
#pragma unroll
            for (int u = 0; u < KU; u++) {
                float pv = s[r][u] == -INFINITY ? 0.f : expf(s[r][u] - mn);
                Ps[rg * 4 + r][cg + 16 * u] = pv;
                ps += pv;
            }
#pragma unroll
            for (int x = 8; x > 0; x >>= 1)
                ps += gpu_shfl_xor(ps, x);
            l[r] = l[r] * corr + ps;
            m[r] = mn;
#pragma unroll
            for (int c = 0; c < 4; c++)
                acc[r][c] *= corr;
        }
        gpu_syncwarp(); /* a row's p is written and read by one half-warp */
#pragma unroll 4
        for (int jj = 0; jj < BC; jj += 4) {
            float4 pv[4];
#pragma unroll
            for (int r = 0; r < 4; r++)
                pv[r] = *(const float4 *)&Ps[rg * 4 + r][jj];
#pragma unroll
            for (int u = 0; u < 4; u++) {
                float4 vv = *(const float4 *)&Vs[jj + u][cg * 4];
#pragma unroll
                for (int r = 0; r < 4; r++) {
                    float pu = f4(pv[r], u);
                    acc[r][0] = fmaf(pu, vv.x, acc[r][0]);
                    acc[r][1] = fmaf(pu, vv.y, acc[r][1]);
                    acc[r][2] = fmaf(pu, vv.z, acc[r][2]);
                    acc[r][3] = fmaf(pu, vv.w, acc[r][3]);
                }
            }
        }
        gpu_syncwarp();
    }
#pragma unroll
    for (int r = 0; r < 4; r++) {
        int64_t i = row0 + rg * 4 + r;
        if (i >= p.sq)
            continue;
        float inv = l[r] > 0.f ? 1.f / l[r] : (l[r] == 0.f ? 0.f : l[r]);
#pragma unroll
        for (int c = 0; c < 4; c++)
            st(ob, i * p.o_s[2] + (cg * 4 + c) * p.o_s[3], acc[r][c] * inv);
    }
}

/* ---- launch ---- */

template <typename T> struct AttnL {
    static gpuError_t run(gpuStream_t s, const void *q, const void *k,
                           const void *v, void *o, const rlxg_attn_plan *p)
    {
        int64_t dmax = p->dh > p->dv ? p->dh : p->dv;
        dim3 grid((unsigned)((p->sq + 15) / 16),
                  (unsigned)(p->batch * p->heads));
        const T *qt = (const T *)q, *kt = (const T *)k, *vt = (const T *)v;
        T *ot = (T *)o;
        /* 32 query rows per block where there are enough rows, else 16 */
        dim3 grid32((unsigned)((p->sq + 31) / 32), grid.y);
        bool vec = p->dh == p->dv && vec_ok(q, k, v, p), wide = p->sq >= 64;
        /* the register tiles are f32's, instantiated for f32 only: f16 and
         * bf16 go to the tensor-core kernel first (rlxg_attention_mma),
         * and to attn_kernel where it declines */
        if constexpr (std::is_same<T, float>::value)
            if (vec && p->dh == 64 && wide) {
                attn_tile64_kernel<T><<<grid32, 128, 0, s>>>(qt, kt, vt, ot,
                                                             *p);
                return gpuGetLastError();
            }
        if (vec && p->dh == 32 && wide)
            attn_kernel<T, 32, true, 8><<<grid32, 128, 0, s>>>(qt, kt, vt, ot,
                                                               *p);
        else if (vec && p->dh == 64 && wide)
            attn_kernel<T, 64, true, 8><<<grid32, 128, 0, s>>>(qt, kt, vt, ot,
                                                               *p);
        else if (vec && p->dh == 32)
            attn_kernel<T, 32, true, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                             *p);
        else if (vec && p->dh == 64)
            attn_kernel<T, 64, true, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                             *p);
        else if (vec && p->dh == 128)
            attn_kernel<T, 128, true, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                              *p);
        else if (dmax <= 32)
            attn_kernel<T, 32, false, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                              *p);
        else if (dmax <= 64)
            attn_kernel<T, 64, false, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                              *p);
        else if (dmax <= 128)
            attn_kernel<T, 128, false, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                               *p);
        else
            return gpuErrorInvalidValue;
        return gpuGetLastError();
    }

    /* Rows of q, k and v contiguous and every row start 4-element
     * aligned, so the kernel may read them as vectors. */
    static bool vec_ok(const void *q, const void *k, const void *v,
                       const rlxg_attn_plan *p)
    {
        const uintptr_t a = 4 * sizeof(T);
        if ((uintptr_t)q % a || (uintptr_t)k % a || (uintptr_t)v % a ||
            p->q_s[3] != 1 || p->k_s[3] != 1 || p->v_s[3] != 1)
            return false;
        int64_t m = p->q_off | p->k_off | p->v_off;
        for (int d = 0; d < 3; d++)
            m |= p->q_s[d] | p->k_s[d] | p->v_s[d];
        return (m & 3) == 0;
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_attention(gpuStream_t s, int dtype,
                                      const void *q, const void *k,
                                      const void *v, void *o,
                                      const rlxg_attn_plan *plan, int pdl)
{
    if (plan->batch * plan->heads * plan->sq * plan->dv == 0)
        return gpuSuccess;
    if (plan->batch * plan->heads > 65535)
        return gpuErrorInvalidValue;
    gpuError_t err = gpuSuccess;
    if (rlxg_attention_mma(s, dtype, q, k, v, o, plan, pdl, &err))
        return err;
    if (dtype == RLX_DTYPE_F32 &&
        rlxg_attention_tf32x3(s, q, k, v, o, plan, pdl, &err))
        return err;
    /* the CUDA-core kernels do not wait: launched plainly */
    return by_float<AttnL>(dtype, s, q, k, v, o, plan);
}
