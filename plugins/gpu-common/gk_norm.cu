/*
 * gk_norm.cu - layer_norm and rms_norm, optionally with a fused residual add.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"

namespace {

/* ---- layer_norm / rms_norm: one warp per row ----------------------------- */

/* Row element j: x, or x + res rounded as a stored add. */
template <typename T>
__device__ __forceinline__ float norm_in(const T *xr, const T *rr, int64_t j)
{
    return rr ? rnd<T>(ld(xr, j) + ld(rr, j)) : ld(xr, j);
}

/* General: any COLS, the row read three times (L1 keeps it). */
template <typename T>
__global__ void norm_kernel(int is_rms, const T *x, const T *res,
                            const T *gamma, const T *beta, T *y,
                            int64_t rows, int64_t cols, float eps)
{
    grid_dep_wait(); /* a programmatic dependent: reads nothing before */
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const T *xr = x + row * cols;
    const T *rr = res ? res + row * cols : nullptr;
    T *yr = y + row * cols;
    float mean = 0.f;
    if (!is_rms) {
        float s = 0.f;
        for (int64_t j = lane; j < cols; j += 32)
            s += norm_in(xr, rr, j);
        mean = warp_sum(s) / (float)cols;
    }
    float q = 0.f;
    for (int64_t j = lane; j < cols; j += 32) {
        float d = norm_in(xr, rr, j) - mean;
        q += d * d;
    }
    float inv = rsqrtf(warp_sum(q) / (float)cols + eps);
    for (int64_t j = lane; j < cols; j += 32) {
        float v = (norm_in(xr, rr, j) - mean) * inv * ld(gamma, j);
        if (!is_rms)
            v += ld(beta, j);
        st(yr, j, v);
    }
}

/* COLS <= 32 * NV: the row is held in registers, read once. */
template <typename T, int NV>
__global__ void norm_reg_kernel(int is_rms, const T *x, const T *res,
                                const T *gamma, const T *beta, T *y,
                                int64_t rows, int cols, float eps)
{
    grid_dep_wait(); /* a programmatic dependent: reads nothing before */
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const T *xr = x + row * cols;
    const T *rr = res ? res + row * cols : nullptr;
    T *yr = y + row * cols;
    float v[NV];
    float s = 0.f;
#pragma unroll
    for (int t = 0; t < NV; t++) {
        int j = lane + 32 * t;
        v[t] = j < cols ? norm_in(xr, rr, j) : 0.f;
        s += v[t];
    }
    float mean = is_rms ? 0.f : warp_sum(s) / (float)cols;
    float q = 0.f;
#pragma unroll
    for (int t = 0; t < NV; t++) {
        int j = lane + 32 * t;
        float d = j < cols ? v[t] - mean : 0.f;
        q += d * d;
    }
    float inv = rsqrtf(warp_sum(q) / (float)cols + eps);
#pragma unroll
    for (int t = 0; t < NV; t++) {
        int j = lane + 32 * t;
        if (j < cols) {
            float o = (v[t] - mean) * inv * ld(gamma, j);
            if (!is_rms)
                o += ld(beta, j);
            st(yr, j, o);
        }
    }
}

__device__ __forceinline__ void st4(float *p, int64_t i, float4 v)
{
    *(float4 *)(p + i) = v;
}
__device__ __forceinline__ void st4(__half *p, int64_t i, float4 v)
{
    __half2 a = __floats2half2_rn(v.x, v.y), b = __floats2half2_rn(v.z, v.w);
    uint2 u;
    u.x = *(const unsigned *)&a;
    u.y = *(const unsigned *)&b;
    *(uint2 *)(p + i) = u;
}
__device__ __forceinline__ void st4(gpu_bf16 *p, int64_t i, float4 v)
{
    uint2 u;
    u.x = gpu_float2_to_bf16x2(v.x, v.y);
    u.y = gpu_float2_to_bf16x2(v.z, v.w);
    *(uint2 *)(p + i) = u;
}

/* COLS <= 128 * NV4, a multiple of 4, every row 4-element aligned: like
 * norm_reg_kernel, four elements per load, and gamma and beta fetched
 * with the row rather than after the reductions, so a row costs one
 * memory round trip. */
template <typename T, int NV4>
__global__ void norm_vec_kernel(int is_rms, const T *x, const T *res,
                                const T *gamma, const T *beta, T *y,
                                int64_t rows, int cols, float eps)
{
    grid_dep_wait(); /* a programmatic dependent: reads nothing before */
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const T *xr = x + row * cols;
    const T *rr = res ? res + row * cols : nullptr;
    T *yr = y + row * cols;
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 v[NV4], g[NV4], b[NV4];
    float s = 0.f;
#pragma unroll
    for (int t = 0; t < NV4; t++) {
        int j = (lane + 32 * t) * 4;
        bool in = j < cols;
        v[t] = in ? ld4(xr, j) : zero;
        g[t] = in ? ld4(gamma, j) : zero;
        b[t] = in && !is_rms ? ld4(beta, j) : zero;
        if (rr && in) {
            float4 r = ld4(rr, j);
            v[t] = make_float4(rnd<T>(v[t].x + r.x), rnd<T>(v[t].y + r.y),
                               rnd<T>(v[t].z + r.z), rnd<T>(v[t].w + r.w));
        }
        s += (v[t].x + v[t].y) + (v[t].z + v[t].w);
    }
    float mean = is_rms ? 0.f : warp_sum(s) / (float)cols;
    float q = 0.f;
#pragma unroll
    for (int t = 0; t < NV4; t++) {
        if ((lane + 32 * t) * 4 >= cols)
            continue;
        float a = v[t].x - mean, c = v[t].y - mean;
        float d = v[t].z - mean, e = v[t].w - mean;
        q += (a * a + c * c) + (d * d + e * e);
    }
    float inv = rsqrtf(warp_sum(q) / (float)cols + eps);
#pragma unroll
    for (int t = 0; t < NV4; t++) {
        int j = (lane + 32 * t) * 4;
        if (j >= cols)
            continue;
        st4(yr, j, make_float4((v[t].x - mean) * inv * g[t].x + b[t].x,
                               (v[t].y - mean) * inv * g[t].y + b[t].y,
                               (v[t].z - mean) * inv * g[t].z + b[t].z,
                               (v[t].w - mean) * inv * g[t].w + b[t].w));
    }
}

/* ---- launch ---- */

template <typename T> struct NormL {
    static gpuError_t run(gpuStream_t s, int is_rms, const void *x,
                           const void *r, const void *g, const void *b,
                           void *y, int64_t rows, int64_t cols, float eps,
                           int pdl)
    {
        const int rows_per_block = 4;
        int64_t blocks = (rows + rows_per_block - 1) / rows_per_block;
        const T *xt = (const T *)x, *rt = (const T *)r;
        const T *gt = (const T *)g, *bt = (const T *)b;
        T *yt = (T *)y;
        dim3 grid((unsigned)blocks), block(32 * rows_per_block);
        const uintptr_t a = 4 * sizeof(T);
        bool vec = cols % 4 == 0 && (uintptr_t)x % a == 0 &&
                   (uintptr_t)r % a == 0 && (uintptr_t)g % a == 0 &&
                   (uintptr_t)b % a == 0 && (uintptr_t)y % a == 0;
        const bool d = pdl != 0;
        const int c = (int)cols;
        if (vec && cols <= 128)
            return launch_dep(d, norm_vec_kernel<T, 1>, grid, block, s,
                              is_rms, xt, rt, gt, bt, yt, rows, c, eps);
        if (vec && cols <= 512)
            return launch_dep(d, norm_vec_kernel<T, 4>, grid, block, s,
                              is_rms, xt, rt, gt, bt, yt, rows, c, eps);
        if (vec && cols <= 1024)
            return launch_dep(d, norm_vec_kernel<T, 8>, grid, block, s,
                              is_rms, xt, rt, gt, bt, yt, rows, c, eps);
        if (cols <= 128)
            return launch_dep(d, norm_reg_kernel<T, 4>, grid, block, s,
                              is_rms, xt, rt, gt, bt, yt, rows, c, eps);
        if (cols <= 512)
            return launch_dep(d, norm_reg_kernel<T, 16>, grid, block, s,
                              is_rms, xt, rt, gt, bt, yt, rows, c, eps);
        if (cols <= 1024)
            return launch_dep(d, norm_reg_kernel<T, 32>, grid, block, s,
                              is_rms, xt, rt, gt, bt, yt, rows, c, eps);
        return launch_dep(d, norm_kernel<T>, grid, block, s, is_rms, xt, rt,
                          gt, bt, yt, rows, cols, eps);
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_norm(gpuStream_t s, int dtype, int is_rms,
                                 const void *x, const void *res,
                                 const void *gamma, const void *beta,
                                 void *y, int64_t rows, int64_t cols,
                                 float eps, int pdl)
{
    if (rows == 0 || cols == 0)
        return gpuSuccess;
    return by_float<NormL>(dtype, s, is_rms, x, res, gamma, beta, y, rows,
                           cols, eps, pdl);
}
