/*
 * gk_softmax.cu - softmax over one axis, optionally causal.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"

namespace {


/* One warp per row (inner == 1). */
template <typename T>
__global__ void softmax_rows_kernel(const T *x, T *y, int64_t rows,
                                    int64_t len, int64_t causal_rows)
{
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const T *xr = x + row * len;
    T *yr = y + row * len;
    int64_t keep = len;
    if (causal_rows > 0) {
        int64_t i = row % causal_rows;
        keep = i + len + 1 - causal_rows;
        keep = keep < 0 ? 0 : (keep > len ? len : keep);
    }
    float m = -INFINITY;
    for (int64_t j = lane; j < keep; j += 32) {
        float v = ld(xr, j);
        m = (v > m || isnan(v)) ? v : m;
    }
    m = warp_max(m);
    float s = 0.f;
    for (int64_t j = lane; j < keep; j += 32)
        s += expf(ld(xr, j) - m);
    s = warp_sum(s);
    float inv = 1.f / s;
    for (int64_t j = lane; j < len; j += 32)
        st(yr, j, j < keep ? expf(ld(xr, j) - m) * inv : 0.f);
}

/* One thread per (outer, inner) column: the axis is not the last. */
template <typename T>
__global__ void softmax_cols_kernel(const T *x, T *y, int64_t outer,
                                    int64_t len, int64_t inner)
{
    GRID_LOOP(c, outer * inner)
    {
        int64_t o = c / inner, in = c - o * inner;
        const T *xs = x + o * len * inner + in;
        T *ys = y + o * len * inner + in;
        float m = -INFINITY, s = 0.f;
        for (int64_t j = 0; j < len; j++) {
            float v = ld(xs, j * inner);
            m = (v > m || isnan(v)) ? v : m;
        }
        for (int64_t j = 0; j < len; j++)
            s += expf(ld(xs, j * inner) - m);
        float inv = 1.f / s;
        for (int64_t j = 0; j < len; j++)
            st(ys, j * inner, expf(ld(xs, j * inner) - m) * inv);
    }
}

/* ---- launch ---- */

template <typename T> struct SoftmaxL {
    static gpuError_t run(gpuStream_t s, const void *x, void *y,
                           int64_t outer, int64_t len, int64_t inner,
                           int64_t causal_rows)
    {
        if (inner == 1) {
            const int rows_per_block = 4;
            int64_t blocks = (outer + rows_per_block - 1) / rows_per_block;
            softmax_rows_kernel<T><<<(unsigned)blocks, 32 * rows_per_block, 0,
                                     s>>>((const T *)x, (T *)y, outer, len,
                                          causal_rows);
        } else {
            softmax_cols_kernel<T><<<grid_for(outer * inner), kThreads, 0,
                                     s>>>((const T *)x, (T *)y, outer, len,
                                          inner);
        }
        return gpuGetLastError();
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_softmax(gpuStream_t s, int dtype, const void *x,
                                    void *y, int64_t outer, int64_t len,
                                    int64_t inner, int64_t causal_rows)
{
    if (outer == 0 || len == 0 || inner == 0)
        return gpuSuccess;
    return by_float<SoftmaxL>(dtype, s, x, y, outer, len, inner, causal_rows);
}
