/*
 * gk_gemv.cu - matrix-vector products for batch-1 layers (few rows times a
 * Linear-layout weight).
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"

namespace {

/* ---- matrix-vector: few rows times a Linear-layout weight ------------------ */

/* y[r, c] = sum_k x[r, k] w[c, k] (+ bias[c], then relu) for the ROWS
 * (<= R) rows of x: a batch-1 layer, bound by streaming W once. WPC warps
 * (1, 2, 4 or 8) share an output column, each reading every WPC-th
 * stretch of its row of W with eight loads in flight per lane, so a
 * layer of few columns still has enough loads in flight; x's rows are
 * tiny and stay in cache. VEC: K is a multiple of 4 and the bases
 * aligned, so loads are 4 elements wide. EARLY: W is never written by
 * the graph (a param), so its first loads are issued before waiting for
 * the previous kernel (which made x) to finish. */
template <typename T, int R, bool VEC>
__global__ void __launch_bounds__(256)
    gemv_nt_kernel(const T *__restrict__ x, const T *__restrict__ w,
                   const T *__restrict__ bias, T *__restrict__ y,
                   int rows, int64_t n, int64_t k, int wpc, int flags)
{
    __shared__ float part[8][R];
    grid_dep_release(); /* the next layer may start loading its weights */
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int cpb = 8 / wpc, slot = warp / wpc, piece = warp - slot * wpc;
    int64_t c = (int64_t)blockIdx.x * cpb + slot;
    bool live = c < n;
    const T *wr = w + (live ? c : 0) * k;
    float acc[R];
#pragma unroll
    for (int r = 0; r < R; r++)
        acc[r] = 0.f;
    if constexpr (VEC) {
        /* up to U loads of W in flight per lane; predicated, so a short
         * row (K = 784) is one round trip, not several */
        constexpr int U = 8;
        int64_t step = (int64_t)wpc * 128;
        int64_t i0 = (int64_t)piece * 128 + lane * 4;
        float4 wv[U];
        auto load_w = [&](int64_t at) {
#pragma unroll
            for (int u = 0; u < U; u++)
                wv[u] = live && at + u * step < k
                            ? ld4_stream(wr, at + u * step)
                            : make_float4(0.f, 0.f, 0.f, 0.f);
        };
        if (flags & RLXG_GEMV_EARLY)
            load_w(i0);
        grid_dep_wait();
        if (!(flags & RLXG_GEMV_EARLY))
            load_w(i0);
        while (live && i0 < k) {
#pragma unroll
            for (int r = 0; r < R; r++) {
                if (r >= rows)
                    break;
#pragma unroll
                for (int u = 0; u < U; u++) {
                    if (i0 + u * step >= k)
                        break;
                    float4 xv = ld4(x + r * k, i0 + u * step);
                    acc[r] = fmaf(xv.x, wv[u].x, acc[r]);
                    acc[r] = fmaf(xv.y, wv[u].y, acc[r]);
                    acc[r] = fmaf(xv.z, wv[u].z, acc[r]);
                    acc[r] = fmaf(xv.w, wv[u].w, acc[r]);
                }
            }
            i0 += U * step;
            if (i0 < k)
                load_w(i0);
        }
    } else {
        grid_dep_wait();
        for (int64_t i = piece * 32 + lane; live && i < k; i += wpc * 32) {
            float wv = ld(wr, i);
#pragma unroll
            for (int r = 0; r < R; r++)
                if (r < rows)
                    acc[r] = fmaf(ld(x, r * k + i), wv, acc[r]);
        }
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
        float v = warp_sum(acc[r]);
        if (lane == 0)
            part[warp][r] = v;
    }
    __syncthreads();
    if (!live || piece != 0 || lane >= R || lane >= rows)
        return;
    float v = 0.f;
    for (int p = 0; p < wpc; p++) /* fixed order: deterministic */
        v += part[warp + p][lane];
    if (bias)
        v += ld(bias, c);
    st(y, lane * n + c, (flags & RLXG_GEMV_RELU) && v < 0.f ? 0.f : v);
}

/* ---- launch ---- */

template <typename T> struct GemvL {
    static gpuError_t run(gpuStream_t s, const void *x, const void *w,
                           const void *bias, void *y, int64_t rows,
                           int64_t n, int64_t k, int wpc, int flags)
    {
        const uintptr_t a = 4 * sizeof(T);
        bool vec = k % 4 == 0 && (uintptr_t)x % a == 0 &&
                   (uintptr_t)w % a == 0;
        /* 0: enough warps to keep loads in flight, 8 per column when
         * there are few columns, 1 when there are thousands */
        if (wpc == 0)
            wpc = n >= 2048 ? 1 : n >= 1024 ? 2 : n >= 512 ? 4 : 8;
        if (wpc != 1 && wpc != 2 && wpc != 4 && wpc != 8)
            return gpuErrorInvalidValue;
        unsigned grid = (unsigned)((n + 8 / wpc - 1) / (8 / wpc));
        const T *xt = (const T *)x, *wt = (const T *)w;
        const T *bt = (const T *)bias;
        int r = (int)rows;
        if (rows <= 1)
            return launch<1>(vec, grid, s, xt, wt, bt, (T *)y, r, n, k, wpc,
                             flags);
        if (rows <= 2)
            return launch<2>(vec, grid, s, xt, wt, bt, (T *)y, r, n, k, wpc,
                             flags);
        if (rows <= 4)
            return launch<4>(vec, grid, s, xt, wt, bt, (T *)y, r, n, k, wpc,
                             flags);
        if (rows <= 8)
            return launch<8>(vec, grid, s, xt, wt, bt, (T *)y, r, n, k, wpc,
                             flags);
        return gpuErrorInvalidValue;
    }

    template <int R>
    static gpuError_t launch(bool vec, unsigned grid, gpuStream_t s,
                              const T *x, const T *w, const T *bias, T *y,
                              int rows, int64_t n, int64_t k, int wpc,
                              int flags)
    {
        const bool pdl = (flags & RLXG_GEMV_PDL) != 0;
        if (vec)
            return launch_dep(pdl, gemv_nt_kernel<T, R, true>, dim3(grid),
                              dim3(256), s, x, w, bias, y, rows, n, k, wpc,
                              flags);
        return launch_dep(pdl, gemv_nt_kernel<T, R, false>, dim3(grid),
                          dim3(256), s, x, w, bias, y, rows, n, k, wpc, flags);
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_gemv(gpuStream_t s, int dtype, const void *x,
                                 const void *w, const void *bias, void *y,
                                 int64_t rows, int64_t n, int64_t k, int wpc,
                                 int flags)
{
    if (rows * n == 0)
        return gpuSuccess;
    if (n > INT32_MAX)
        return gpuErrorInvalidValue;
    return by_float<GemvL>(dtype, s, x, w, bias, y, rows, n, k, wpc, flags);
}
