/*
 * gk_pool.cu - max_pool, avg_pool, lp_pool and max_pool_index of any
 * number of spatial axes: one output per thread, reading its window
 * directly (cpu-ref's rules: padding never enters a max and NaN wins it;
 * avg_pool divides by the window's elements inside the input, or with
 * count_include_pad by its positions inside the padded input; lp_pool
 * treats padding as 0; max_pool_index gives where the maximum is).
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"
#include "gpu_kernels_vision.h"

namespace {

/* i8 and u8 (max_pool): exact in f32 */
__device__ __forceinline__ float ld(const int8_t *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float ld(const uint8_t *p, int64_t i) { return p[i]; }
__device__ __forceinline__ void st(int8_t *p, int64_t i, float v)
{
    p[i] = (int8_t)v;
}
__device__ __forceinline__ void st(uint8_t *p, int64_t i, float v)
{
    p[i] = (uint8_t)v;
}

template <typename T>
__global__ void pool_kernel(const T *x, T *y, rlxg_win_plan p)
{
    GRID_LOOP(i, p.n * p.c * p.out_sp)
    {
        int64_t o = i % p.out_sp, nc = i / p.out_sp;
        int64_t base[RLXG_MAX_SPATIAL];
        for (int d = p.s - 1; d >= 0; d--) {
            int64_t q = o / p.out[d];
            base[d] = (o - q * p.out[d]) * p.stride[d] - p.pad[d];
            o = q;
        }
        const T *xc = x + nc * p.in_sp;
        double best = -INFINITY, sum = 0.0;
        int64_t inside_n = 0, padded_n = 0;
        bool nan = false;
        for (int64_t kk = 0; kk < p.k_sp && !nan; kk++) {
            int64_t r = kk, off = 0, mul = 1;
            bool inside = true, padded = true;
            for (int d = p.s - 1; d >= 0; d--) {
                int64_t q = r / p.k[d];
                int64_t pos = base[d] + (r - q * p.k[d]) * p.dil[d];
                r = q;
                inside = inside && pos >= 0 && pos < p.in[d];
                padded = padded && pos < p.in[d] + p.pad_end[d];
                off += pos * mul;
                mul *= p.in[d];
            }
            padded_n += padded;
            if (!inside)
                continue;
            double v = ld(xc, off);
            inside_n++;
            if (p.op == RLX_OP_MAX_POOL) {
                if (v > best || isnan(v))
                    best = v;
                nan = isnan(v);
            } else if (p.op == RLX_OP_AVG_POOL) {
                sum += v;
            } else {
                sum += pow(fabs(v), (double)p.p);
            }
        }
        double r;
        if (p.op == RLX_OP_MAX_POOL)
            r = best;
        else if (p.op == RLX_OP_AVG_POOL)
            r = sum / (double)(p.count_include_pad ? padded_n : inside_n);
        else
            r = pow(sum, 1.0 / (double)p.p);
        st(y, i, (float)r);
    }
}

/* max_pool_index: the flat input position of each window's maximum
 * (cpu-ref's walk: the first largest wins, NaN above every number; -1
 * for a window wholly in the padding); p.p 1 numbers the spatial
 * position column-major (storage_order). */
template <typename T>
__global__ void pool_index_kernel(const T *x, int64_t *y, rlxg_win_plan p)
{
    GRID_LOOP(i, p.n * p.c * p.out_sp)
    {
        int64_t o = i % p.out_sp, nc = i / p.out_sp;
        int64_t base[RLXG_MAX_SPATIAL];
        for (int d = p.s - 1; d >= 0; d--) {
            int64_t q = o / p.out[d];
            base[d] = (o - q * p.out[d]) * p.stride[d] - p.pad[d];
            o = q;
        }
        const T *xc = x + nc * p.in_sp;
        double best = 0;
        int64_t at = -1;
        for (int64_t kk = 0; kk < p.k_sp; kk++) {
            int64_t pos[RLXG_MAX_SPATIAL], r = kk;
            bool inside = true;
            for (int d = p.s - 1; d >= 0; d--) {
                int64_t q = r / p.k[d];
                pos[d] = base[d] + (r - q * p.k[d]) * p.dil[d];
                r = q;
                inside = inside && pos[d] >= 0 && pos[d] < p.in[d];
            }
            if (!inside)
                continue;
            int64_t off = 0, col = 0, step = 1;
            for (int d = 0; d < p.s; d++) {
                off = off * p.in[d] + pos[d];
                col += pos[d] * step;
                step *= p.in[d];
            }
            double v = ld(xc, off);
            if (at < 0 || v > best || (isnan(v) && !isnan(best))) {
                best = v;
                at = p.p == 1 ? col : off;
            }
        }
        y[i] = at < 0 ? -1 : nc * p.in_sp + at;
    }
}

} /* namespace */

extern "C" gpuError_t rlxg_pool(gpuStream_t s, int dtype, const void *x,
                                void *y, const rlxg_win_plan *p)
{
    int64_t n = p->n * p->c * p->out_sp;
    if (n == 0)
        return gpuSuccess;
    unsigned g = grid_for(n);
    switch (dtype) {
    case RLX_DTYPE_F32:
        pool_kernel<<<g, kThreads, 0, s>>>((const float *)x, (float *)y, *p);
        break;
    case RLX_DTYPE_F16:
        pool_kernel<<<g, kThreads, 0, s>>>((const __half *)x, (__half *)y, *p);
        break;
    case RLX_DTYPE_BF16:
        pool_kernel<<<g, kThreads, 0, s>>>((const gpu_bf16 *)x, (gpu_bf16 *)y,
                                           *p);
        break;
    case RLX_DTYPE_I8:
        pool_kernel<<<g, kThreads, 0, s>>>((const int8_t *)x, (int8_t *)y, *p);
        break;
    case RLX_DTYPE_U8:
        pool_kernel<<<g, kThreads, 0, s>>>((const uint8_t *)x, (uint8_t *)y,
                                           *p);
        break;
    default:
        return gpuErrorInvalidValue;
    }
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_pool_index(gpuStream_t s, int dtype, const void *x,
                                      int64_t *y, const rlxg_win_plan *p)
{
    int64_t n = p->n * p->c * p->out_sp;
    if (n == 0)
        return gpuSuccess;
    unsigned g = grid_for(n);
    switch (dtype) {
    case RLX_DTYPE_F32:
        pool_index_kernel<<<g, kThreads, 0, s>>>((const float *)x, y, *p);
        break;
    case RLX_DTYPE_F16:
        pool_index_kernel<<<g, kThreads, 0, s>>>((const __half *)x, y, *p);
        break;
    case RLX_DTYPE_BF16:
        pool_index_kernel<<<g, kThreads, 0, s>>>((const gpu_bf16 *)x, y, *p);
        break;
    default:
        return gpuErrorInvalidValue;
    }
    return gpuGetLastError();
}
