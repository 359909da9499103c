/*
 * gk_reduce.cu - sum, mean and max reductions over any set of axes.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"

namespace {

/* ---- reductions ---------------------------------------------------------- */

__device__ __forceinline__ int64_t plan_offset(int rank, const int64_t *dims,
                                               const int64_t *stride,
                                               int64_t i)
{
    int64_t off = 0;
    for (int d = rank - 1; d >= 0; d--) {
        int64_t q = i / dims[d];
        off += (i - q * dims[d]) * stride[d];
        i = q;
    }
    return off;
}

__device__ __forceinline__ double reduce_join(int is_max, double a, double b)
{
    if (!is_max)
        return a + b;
    return (b > a || isnan(b)) ? b : a;
}

template <typename T>
__device__ __forceinline__ void reduce_store(int op, T *y, int64_t o,
                                             double acc, int64_t n_red)
{
    if (op == RLX_OP_REDUCE_MEAN)
        acc = acc / (double)n_red; /* 0 / 0 is NaN, as ops.h says */
    st(y, o, (float)acc);
}

/* One block per output element. */
template <typename T>
__global__ void reduce_block_kernel(int op, const T *x, T *y,
                                    rlxg_reduce_plan p)
{
    __shared__ double part[32];
    int is_max = op == RLX_OP_REDUCE_MAX;
    for (int64_t o = blockIdx.x; o < p.n_out; o += gridDim.x) {
        int64_t base = plan_offset((int)p.out_rank, p.out_dims, p.out_stride, o);
        double acc = is_max ? -INFINITY : 0.0;
        for (int64_t r = threadIdx.x; r < p.n_red; r += blockDim.x)
            acc = reduce_join(is_max, acc,
                              (double)ld(x, base + plan_offset((int)p.red_rank,
                                                               p.red_dims,
                                                               p.red_stride,
                                                               r)));
        for (int off = 16; off > 0; off >>= 1)
            acc = reduce_join(is_max, acc,
                              gpu_shfl_xor(acc, off));
        if ((threadIdx.x & 31) == 0)
            part[threadIdx.x / 32] = acc;
        __syncthreads();
        if (threadIdx.x == 0) {
            double a = part[0];
            for (unsigned w = 1; w < blockDim.x / 32; w++)
                a = reduce_join(is_max, a, part[w]);
            reduce_store(op, y, o, a, p.n_red);
        }
        __syncthreads();
    }
}

/* One thread per output element: short reductions. */
template <typename T>
__global__ void reduce_thread_kernel(int op, const T *x, T *y,
                                     rlxg_reduce_plan p)
{
    int is_max = op == RLX_OP_REDUCE_MAX;
    GRID_LOOP(o, p.n_out)
    {
        int64_t base = plan_offset((int)p.out_rank, p.out_dims, p.out_stride, o);
        double acc = is_max ? -INFINITY : 0.0;
        for (int64_t r = 0; r < p.n_red; r++)
            acc = reduce_join(is_max, acc,
                              (double)ld(x, base + plan_offset((int)p.red_rank,
                                                               p.red_dims,
                                                               p.red_stride,
                                                               r)));
        reduce_store(op, y, o, acc, p.n_red);
    }
}

/* ---- launch ---- */

template <typename T> struct ReduceL {
    static gpuError_t run(gpuStream_t s, int op, const void *x, void *y,
                           const rlxg_reduce_plan *p)
    {
        if (p->n_red >= 512 && p->n_out < 65536LL * 16)
            reduce_block_kernel<T><<<(unsigned)(p->n_out ? p->n_out : 1), 256,
                                     0, s>>>(op, (const T *)x, (T *)y, *p);
        else
            reduce_thread_kernel<T><<<grid_for(p->n_out), kThreads, 0, s>>>(
                op, (const T *)x, (T *)y, *p);
        return gpuGetLastError();
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_reduce(gpuStream_t s, int dtype, int op,
                                   const void *x, void *y,
                                   const rlxg_reduce_plan *plan)
{
    if (plan->n_out == 0)
        return gpuSuccess;
    return by_float<ReduceL>(dtype, s, op, x, y, plan);
}
