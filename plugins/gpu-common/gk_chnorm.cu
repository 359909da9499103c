/*
 * gk_chnorm.cu - the per-channel norms of [n, c, inner] tensors:
 * batch_norm (inference, the given mean and variance; elementwise) and
 * instance_norm / group_norm (one block per image and group: two-pass
 * statistics in f64, the mean and then the mean of squared deviations,
 * as cpu-ref computes them).
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"
#include "gpu_kernels_vision.h"

namespace {

template <typename T>
__global__ void batch_norm_kernel(const T *x, const T *scale, const T *bias,
                                  const T *mean, const T *var, T *y,
                                  int64_t n, int64_t c, int64_t inner,
                                  float eps)
{
    GRID_LOOP(i, n * c * inner)
    {
        int64_t ch = (i / inner) % c;
        double mul = (double)ld(scale, ch) /
                     sqrt((double)ld(var, ch) + (double)eps);
        double add = (double)ld(bias, ch) - (double)ld(mean, ch) * mul;
        st(y, i, (float)((double)ld(x, i) * mul + add));
    }
}

__device__ double block_sum(double v, double *part)
{
    for (int o = 16; o > 0; o >>= 1)
        v += gpu_shfl_xor(v, o);
    __syncthreads(); /* part may still be read from the last call */
    if ((threadIdx.x & 31) == 0)
        part[threadIdx.x / 32] = v;
    __syncthreads();
    double s = 0.0;
    for (unsigned w = 0; w < blockDim.x / 32; w++)
        s += part[w];
    return s;
}

template <typename T>
__global__ void group_norm_kernel(const T *x, const T *scale, const T *bias,
                                  T *y, int64_t c, int64_t inner,
                                  int64_t groups, int per_group, float eps)
{
    __shared__ double part[32];
    int64_t ng = blockIdx.x, gi = ng % groups, cg = c / groups;
    int64_t len = cg * inner, base = ng * len; /* groups are contiguous */
    double s = 0.0;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x)
        s += ld(x, base + i);
    double mean = block_sum(s, part) / (double)len;
    s = 0.0;
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
        double d = ld(x, base + i) - mean;
        s += d * d;
    }
    double var = block_sum(s, part) / (double)len;
    double inv = 1.0 / sqrt(var + (double)eps);
    for (int64_t i = threadIdx.x; i < len; i += blockDim.x) {
        int64_t pc = per_group ? gi : gi * cg + i / inner;
        st(y, base + i, (float)(((double)ld(x, base + i) - mean) * inv *
                                    (double)ld(scale, pc) +
                                (double)ld(bias, pc)));
    }
}

template <typename T> struct BatchNormL {
    static gpuError_t run(gpuStream_t s, const void *x, const void *scale,
                          const void *bias, const void *mean, const void *var,
                          void *y, int64_t n, int64_t c, int64_t inner,
                          float eps)
    {
        batch_norm_kernel<T><<<grid_for(n * c * inner), kThreads, 0, s>>>(
            (const T *)x, (const T *)scale, (const T *)bias,
            (const T *)mean, (const T *)var, (T *)y, n, c, inner, eps);
        return gpuGetLastError();
    }
};

template <typename T> struct GroupNormL {
    static gpuError_t run(gpuStream_t s, const void *x, const void *scale,
                          const void *bias, void *y, int64_t n, int64_t c,
                          int64_t inner, int64_t groups, int per_group,
                          float eps)
    {
        group_norm_kernel<T><<<(unsigned)(n * groups), 256, 0, s>>>(
            (const T *)x, (const T *)scale, (const T *)bias, (T *)y, c,
            inner, groups, per_group, eps);
        return gpuGetLastError();
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_batch_norm(gpuStream_t s, int dtype,
                                      const void *x, const void *scale,
                                      const void *bias, const void *mean,
                                      const void *var, void *y, int64_t n,
                                      int64_t c, int64_t inner, float eps)
{
    if (n * c * inner == 0)
        return gpuSuccess;
    return by_float<BatchNormL>(dtype, s, x, scale, bias, mean, var, y, n, c,
                                inner, eps);
}

extern "C" gpuError_t rlxg_group_norm(gpuStream_t s, int dtype,
                                      const void *x, const void *scale,
                                      const void *bias, void *y, int64_t n,
                                      int64_t c, int64_t inner,
                                      int64_t groups, int per_group,
                                      float eps)
{
    if (n * c * inner == 0 || groups < 1)
        return gpuSuccess;
    if (n * groups > 0x7fffffffLL)
        return gpuErrorInvalidValue;
    return by_float<GroupNormL>(dtype, s, x, scale, bias, y, n, c, inner,
                                groups, per_group, eps);
}
