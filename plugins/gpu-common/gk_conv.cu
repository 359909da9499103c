/*
 * gk_conv.cu - conv and conv_transpose of any number of spatial axes,
 * our own kernels (the path without cuDNN, and ROCm's).
 *
 * conv is an implicit GEMM per group: Y[m, p] = sum_k W[m, k] X[k, p]
 * with k running over (input channel, kernel position) and p over
 * (image, output position); the X tile is read straight from x (the
 * im2col matrix never exists), padding reads as 0. Where a group has few
 * output channels (depthwise) a 64-row tile would be mostly idle, so a
 * direct kernel computes one output per thread instead. conv_transpose
 * is direct: each output gathers the inputs whose windows reach it.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"
#include "gpu_kernels_vision.h"

namespace {

const int BM = 64, BN = 64, BK = 16;

__device__ __forceinline__ float conv_epilogue(const rlxg_win_plan &p,
                                               float v, float b, float r)
{
    v += b + r;
    return p.act == RLXG_GEMM_RELU ? (v > 0.f || isnan(v) ? v : 0.f) : v;
}

/* Implicit GEMM: block (bx, by, g) computes a BM x BN tile of group g's
 * Y [M/group, N * out_sp]; 256 threads, 4 x 4 outputs each. */
template <typename T>
__global__ void __launch_bounds__(256)
conv_igemm_kernel(const T *x, const T *w, const T *bias, const T *res, T *y,
                  rlxg_win_plan p)
{
    __shared__ float As[BK][BM + 4];
    __shared__ float Bs[BK][BN + 4];
    const int tid = threadIdx.x;
    const int64_t g = blockIdx.z;
    const int64_t mg = p.m / p.group, cg = p.c / p.group;
    const int64_t kg = cg * p.k_sp, np = p.n * p.out_sp;
    const int64_t m0 = (int64_t)blockIdx.y * BM, p0 = (int64_t)blockIdx.x * BN;

    /* this thread's column of the X tile, fixed over the K loop */
    const int bcol = tid % BN;
    const int64_t pc = p0 + bcol;
    const bool col_ok = pc < np;
    int64_t base[RLXG_MAX_SPATIAL];
    int64_t xoff = 0;
    if (col_ok) {
        int64_t img = pc / p.out_sp, o = pc - img * p.out_sp;
        for (int d = p.s - 1; d >= 0; d--) {
            int64_t q = o / p.out[d];
            base[d] = (o - q * p.out[d]) * p.stride[d] - p.pad[d];
            o = q;
        }
        xoff = (img * p.c + g * cg) * p.in_sp;
    }
    const T *wg = w + g * mg * kg;

    float acc[4][4] = {};
    const int ty = tid / 16, tx = tid % 16;
    for (int64_t k0 = 0; k0 < kg; k0 += BK) {
        /* A: W [mg, kg] rows m0.., columns k0.. (coalesced along k) */
        for (int j = 0; j < 4; j++) {
            int e = tid + j * 256, am = e / BK, ak = e % BK;
            int64_t gm = m0 + am, gk = k0 + ak;
            As[ak][am] = gm < mg && gk < kg ? ld(wg, gm * kg + gk) : 0.f;
        }
        /* B: X columns of this block, rows k0.. */
        for (int j = 0; j < 4; j++) {
            int bk = tid / BN + j * 4;
            int64_t gk = k0 + bk;
            float v = 0.f;
            if (col_ok && gk < kg) {
                int64_t ci = gk / p.k_sp, r = gk - ci * p.k_sp;
                int64_t off = 0;
                bool inside = true;
                for (int d = p.s - 1; d >= 0; d--) {
                    int64_t q = r / p.k[d];
                    int64_t pos = base[d] + (r - q * p.k[d]) * p.dil[d];
                    r = q;
                    inside = inside && pos >= 0 && pos < p.in[d];
                }
                if (inside) {
                    r = gk - ci * p.k_sp;
                    int64_t mul = 1;
                    for (int d = p.s - 1; d >= 0; d--) {
                        int64_t q = r / p.k[d];
                        off += (base[d] + (r - q * p.k[d]) * p.dil[d]) * mul;
                        mul *= p.in[d];
                        r = q;
                    }
                    v = ld(x, xoff + ci * p.in_sp + off);
                }
            }
            Bs[bk][bcol] = v;
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk++) {
            float a[4], b[4];
            for (int i = 0; i < 4; i++) {
                a[i] = As[kk][ty * 4 + i];
                b[i] = Bs[kk][tx * 4 + i];
            }
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 4; i++) {
        int64_t gm = m0 + ty * 4 + i;
        if (gm >= mg)
            continue;
        int64_t oc = g * mg + gm;
        float bv = bias ? ld(bias, oc) : 0.f;
        for (int j = 0; j < 4; j++) {
            int64_t gp = p0 + tx * 4 + j;
            if (gp >= np)
                continue;
            int64_t img = gp / p.out_sp, o = gp - img * p.out_sp;
            int64_t yi = (img * p.m + oc) * p.out_sp + o;
            st(y, yi, conv_epilogue(p, acc[i][j], bv, res ? ld(res, yi) : 0.f));
        }
    }
}

/* Direct conv: one output per thread (depthwise and narrow groups). */
template <typename T>
__global__ void conv_direct_kernel(const T *x, const T *w, const T *bias,
                                   const T *res, T *y, rlxg_win_plan p)
{
    const int64_t mg = p.m / p.group, cg = p.c / p.group;
    GRID_LOOP(i, p.n * p.m * p.out_sp)
    {
        int64_t o = i % p.out_sp, t = i / p.out_sp;
        int64_t oc = t % p.m, img = t / p.m, g = oc / mg;
        int64_t base[RLXG_MAX_SPATIAL];
        for (int d = p.s - 1; d >= 0; d--) {
            int64_t q = o / p.out[d];
            base[d] = (o - q * p.out[d]) * p.stride[d] - p.pad[d];
            o = q;
        }
        const T *xg = x + (img * p.c + g * cg) * p.in_sp;
        const T *wo = w + oc * cg * p.k_sp;
        float acc = 0.f;
        for (int64_t kk = 0; kk < p.k_sp; kk++) {
            int64_t r = kk, off = 0, mul = 1;
            bool inside = true;
            for (int d = p.s - 1; d >= 0; d--) {
                int64_t q = r / p.k[d];
                int64_t pos = base[d] + (r - q * p.k[d]) * p.dil[d];
                r = q;
                inside = inside && pos >= 0 && pos < p.in[d];
                off += pos * mul;
                mul *= p.in[d];
            }
            if (!inside)
                continue;
            for (int64_t ci = 0; ci < cg; ci++)
                acc = fmaf(ld(wo, ci * p.k_sp + kk), ld(xg, ci * p.in_sp + off),
                           acc);
        }
        st(y, i, conv_epilogue(p, acc, bias ? ld(bias, oc) : 0.f,
                               res ? ld(res, i) : 0.f));
    }
}

/* conv_transpose, direct: w [c, m/group, k...]; input position i reaches
 * output o on an axis through kernel tap t when o = i*stride - pad +
 * t*dil. */
template <typename T>
__global__ void conv_transpose_kernel(const T *x, const T *w, const T *bias,
                                      T *y, rlxg_win_plan p)
{
    const int64_t mg = p.m / p.group, cg = p.c / p.group;
    GRID_LOOP(i, p.n * p.m * p.out_sp)
    {
        int64_t o = i % p.out_sp, t = i / p.out_sp;
        int64_t oc = t % p.m, img = t / p.m, g = oc / mg, om = oc - g * mg;
        int64_t at[RLXG_MAX_SPATIAL];
        for (int d = p.s - 1; d >= 0; d--) {
            int64_t q = o / p.out[d];
            at[d] = o - q * p.out[d] + p.pad[d];
            o = q;
        }
        float acc = 0.f;
        for (int64_t kk = 0; kk < p.k_sp; kk++) {
            int64_t r = kk, off = 0, mul = 1;
            bool ok = true;
            for (int d = p.s - 1; d >= 0 && ok; d--) {
                int64_t q = r / p.k[d];
                int64_t u = at[d] - (r - q * p.k[d]) * p.dil[d];
                r = q;
                if (u < 0 || u % p.stride[d] != 0 ||
                    u / p.stride[d] >= p.in[d])
                    ok = false;
                else
                    off += u / p.stride[d] * mul;
                mul *= p.in[d];
            }
            if (!ok)
                continue;
            for (int64_t ci = 0; ci < cg; ci++) {
                int64_t c = g * cg + ci;
                acc = fmaf(ld(x, (img * p.c + c) * p.in_sp + off),
                           ld(w, (c * mg + om) * p.k_sp + kk), acc);
            }
        }
        st(y, i, acc + (bias ? ld(bias, oc) : 0.f));
    }
}

/* ---- launch ---- */

template <typename T> struct ConvL {
    static gpuError_t run(gpuStream_t s, const void *x, const void *w,
                          const void *bias, const void *res, void *y,
                          const rlxg_win_plan *p)
    {
        int64_t mg = p->m / p->group, np = p->n * p->out_sp;
        if (mg >= 16 && p->group <= 65535) {
            dim3 grid((unsigned)((np + BN - 1) / BN),
                      (unsigned)((mg + BM - 1) / BM), (unsigned)p->group);
            if (grid.x > 0x7fffffffu || grid.y > 65535)
                return gpuErrorInvalidValue;
            conv_igemm_kernel<T><<<grid, 256, 0, s>>>(
                (const T *)x, (const T *)w, (const T *)bias, (const T *)res,
                (T *)y, *p);
        } else {
            conv_direct_kernel<T><<<grid_for(p->n * p->m * p->out_sp),
                                    kThreads, 0, s>>>(
                (const T *)x, (const T *)w, (const T *)bias, (const T *)res,
                (T *)y, *p);
        }
        return gpuGetLastError();
    }
};

template <typename T> struct ConvTL {
    static gpuError_t run(gpuStream_t s, const void *x, const void *w,
                          const void *bias, void *y, const rlxg_win_plan *p)
    {
        conv_transpose_kernel<T><<<grid_for(p->n * p->m * p->out_sp),
                                   kThreads, 0, s>>>(
            (const T *)x, (const T *)w, (const T *)bias, (T *)y, *p);
        return gpuGetLastError();
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_conv(gpuStream_t s, int dtype, const void *x,
                                const void *w, const void *bias,
                                const void *res, void *y,
                                const rlxg_win_plan *p)
{
    if (p->n * p->m * p->out_sp == 0)
        return gpuSuccess;
    return by_float<ConvL>(dtype, s, x, w, bias, res, y, p);
}

extern "C" gpuError_t rlxg_conv_transpose(gpuStream_t s, int dtype,
                                          const void *x, const void *w,
                                          const void *bias, void *y,
                                          const rlxg_win_plan *p)
{
    if (p->n * p->m * p->out_sp == 0)
        return gpuSuccess;
    return by_float<ConvTL>(dtype, s, x, w, bias, y, p);
}
