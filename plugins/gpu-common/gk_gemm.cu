/*
 * gk_gemm.cu - our own tiled GEMM: the matmul of the rocm plugin where
 * no vendor BLAS is loaded, and of the cuda plugin with
 * RLX_CUDA_MATMUL=kernel (which is how it is tested on real hardware).
 * Correct for any shape, transposes, batch strides and dtype; tuned
 * only to be reasonable (64x64 tiles, 4x4 outputs per thread).
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"

namespace {

constexpr int TM = 64, TN = 64, TK = 16;

/* 256 threads as 16 x 16; thread (tx, ty) computes rows ty + 16 i and
 * columns tx + 16 j of the block's 64 x 64 tile, i, j < 4. Tiles of A
 * and B are staged in shared memory as f32, TK deep. Grid-stride over
 * row tiles (y) and batches (z) so any size fits the grid limits. */
template <typename T>
__global__ void __launch_bounds__(256)
    gemm_kernel(const T *a, const T *b, const T *bias, T *y, int64_t m,
                int64_t n, int64_t k, int ta, int tb, int64_t batch,
                int64_t sa, int64_t sb, int64_t sy, int act)
{
    __shared__ float As[TK][TM + 1];
    __shared__ float Bs[TK][TN + 1];
    int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    int64_t n0 = (int64_t)blockIdx.x * TN;
    for (int64_t t = blockIdx.z; t < batch; t += gridDim.z) {
        const T *at = a + t * sa, *bt = b + t * sb;
        T *yt = y + t * sy;
        for (int64_t m0 = (int64_t)blockIdx.y * TM; m0 < m;
             m0 += (int64_t)gridDim.y * TM) {
            float acc[4][4];
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] = 0.f;
            for (int64_t k0 = 0; k0 < k; k0 += TK) {
                /* 64 x 16 elements of each operand, 4 per thread */
#pragma unroll
                for (int e = 0; e < 4; e++) {
                    int idx = tid + e * 256;
                    /* A: consecutive threads walk k when a is [m, k],
                     * m when it is [k, m]: loads stay coalesced */
                    int r = ta ? idx & 63 : idx >> 4;
                    int kk = ta ? idx >> 6 : idx & 15;
                    int64_t gr = m0 + r, gk = k0 + kk;
                    As[kk][r] = gr < m && gk < k
                                    ? ld(at, ta ? gk * m + gr : gr * k + gk)
                                    : 0.f;
                    int c = tb ? idx >> 4 : idx & 63;
                    int kb = tb ? idx & 15 : idx >> 6;
                    int64_t gc = n0 + c, gkb = k0 + kb;
                    Bs[kb][c] = gc < n && gkb < k
                                    ? ld(bt, tb ? gc * k + gkb : gkb * n + gc)
                                    : 0.f;
                }
                __syncthreads();
#pragma unroll
                for (int kk = 0; kk < TK; kk++) {
                    float av[4], bv[4];
#pragma unroll
                    for (int i = 0; i < 4; i++)
                        av[i] = As[kk][ty + 16 * i];
#pragma unroll
                    for (int j = 0; j < 4; j++)
                        bv[j] = Bs[kk][tx + 16 * j];
#pragma unroll
                    for (int i = 0; i < 4; i++)
#pragma unroll
                        for (int j = 0; j < 4; j++)
                            acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
                }
                __syncthreads();
            }
#pragma unroll
            for (int i = 0; i < 4; i++) {
                int64_t r = m0 + ty + 16 * i;
                if (r >= m)
                    continue;
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    int64_t c = n0 + tx + 16 * j;
                    if (c >= n)
                        continue;
                    float v = acc[i][j];
                    if (bias)
                        v += ld(bias, c);
                    st(yt, r * n + c, gemm_act(act, v));
                }
            }
        }
    }
}

/* ---- launch ---- */

template <typename T> struct GemmL {
    static gpuError_t run(gpuStream_t s, const void *a, const void *b,
                          const void *bias, void *y, int64_t m, int64_t n,
                          int64_t k, int ta, int tb, int64_t batch,
                          int64_t sa, int64_t sb, int64_t sy, int act)
    {
        int64_t gx = (n + TN - 1) / TN, gy = (m + TM - 1) / TM;
        if (gx > INT32_MAX)
            return gpuErrorInvalidValue;
        dim3 grid((unsigned)gx, (unsigned)(gy < 65535 ? gy : 65535),
                  (unsigned)(batch < 65535 ? batch : 65535));
        gemm_kernel<T><<<grid, 256, 0, s>>>(
            (const T *)a, (const T *)b, (const T *)bias, (T *)y, m, n, k, ta,
            tb, batch, sa, sb, sy, act);
        return gpuGetLastError();
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_gemm(gpuStream_t s, int dtype, const void *a,
                                const void *b, const void *bias, void *y,
                                int64_t m, int64_t n, int64_t k, int ta,
                                int tb, int64_t batch, int64_t sa,
                                int64_t sb, int64_t sy, int act)
{
    if (m * n * batch == 0)
        return gpuSuccess;
    return by_float<GemmL>(dtype, s, a, b, bias, y, m, n, k, ta, tb, batch,
                           sa, sb, sy, act);
}
