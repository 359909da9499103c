/*
 * gk_det.cu - det: the determinant of each m x m matrix of a stack, by
 * Gaussian elimination with partial pivoting in double, as cpu-ref's
 * kernels_det.c does it (the same pivot choice, the same operations in
 * the same order), so the two agree to rounding. One block per matrix,
 * the matrix in shared memory (m at most RLXG_DET_MAX_M); the threads
 * eliminate the rows below the pivot together.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"
#include "gk_value.cuh"
#include "gpu_kernels_more.h"

namespace {

const int kDetThreads = 64;

__global__ void det_kernel(int dtype, const void *x, void *y, int64_t batch,
                           int m)
{
    extern __shared__ double a[];
    __shared__ double d;
    __shared__ int piv, done;
    const int64_t mm = (int64_t)m * m;
    for (int64_t b = blockIdx.x; b < batch; b += gridDim.x) {
        for (int64_t i = threadIdx.x; i < mm; i += blockDim.x)
            a[i] = load_f(dtype, x, b * mm + i);
        if (threadIdx.x == 0) {
            d = 1.0;
            done = 0;
        }
        __syncthreads();
        for (int c = 0; c < m && !done; c++) {
            if (threadIdx.x == 0) {
                int p = c;
                for (int r = c + 1; r < m; r++)
                    if (fabs(a[r * m + c]) > fabs(a[p * m + c]) ||
                        isnan(a[r * m + c]))
                        p = r;
                piv = p;
                if (a[p * m + c] == 0) {
                    d = 0 * d; /* singular: 0 (NaN stays NaN) */
                    done = 1;
                } else if (p != c) {
                    d = -d;
                }
            }
            __syncthreads();
            if (done)
                break;
            if (piv != c)
                for (int k = threadIdx.x; k < m; k += blockDim.x) {
                    double t = a[c * m + k];
                    a[c * m + k] = a[piv * m + k];
                    a[piv * m + k] = t;
                }
            __syncthreads();
            const double pv = a[c * m + c];
            if (threadIdx.x == 0)
                d *= pv;
            for (int r = c + 1 + threadIdx.x; r < m; r += blockDim.x) {
                double f = a[r * m + c] / pv;
                for (int k = c; k < m; k++)
                    a[r * m + k] -= f * a[c * m + k];
            }
            __syncthreads();
        }
        if (threadIdx.x == 0)
            store_f(dtype, y, b, d);
        __syncthreads();
    }
}

} /* namespace */

extern "C" gpuError_t rlxg_det(gpuStream_t s, int dtype, const void *x,
                               void *y, int64_t batch, int64_t m)
{
    if (batch == 0)
        return gpuSuccess;
    if (m < 0 || m > RLXG_DET_MAX_M)
        return gpuErrorInvalidValue;
    size_t shared = (size_t)(m * m) * sizeof(double);
    det_kernel<<<grid_for(batch, 1), kDetThreads, shared, s>>>(
        dtype, x, y, batch, (int)m);
    return gpuGetLastError();
}
