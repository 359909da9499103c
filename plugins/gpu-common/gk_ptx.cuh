/*
 * gk_ptx.cuh - PTX wrappers shared by the tensor-core kernels
 * (gk_attention_mma.cu, gk_attention_tf32x3.cu, gk_gemm_tf32x3.cu; and
 * bench/cuda/bench_gemm_ln.cuh): copies from global to shared memory
 * that bypass the registers, the 16-bit mma.sync and its ldmatrix loads
 * (sm_80+; empty in the host pass and on older targets), wgmma's
 * ordering instructions (sm_90a code only, RLXG_SM90A_DEVICE) and its
 * accumulators as asm operands, and whether the device has them.
 * CUDA only: included where RLXG_HIP is not defined, after gk_common.cuh.
 */
#ifndef RLX_GK_PTX_CUH
#define RLX_GK_PTX_CUH

#include <type_traits>

namespace {

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* 16 bytes global -> shared; SRC_BYTES 0 fills the 16 bytes with zeros */
__device__ __forceinline__ void cp_async16(void *dst, const void *src,
                                           int src_bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(
                     smem_addr(dst)),
                 "l"(src), "r"(src_bytes));
#endif
}

__device__ __forceinline__ void cp_async_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

/* all but the N most recent groups of this thread's copies landed; a
 * compiler barrier too, so that reads of them (the wgmma GEMM reads its
 * own copies with no __syncthreads between) stay after it */
template <int N> __device__ __forceinline__ void cp_async_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

__device__ __forceinline__ void ldsm_x4(unsigned r[4], const void *p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_addr(p)));
#endif
}

__device__ __forceinline__ void ldsm_x4_t(unsigned r[4], const void *p)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile(
        "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
        : "r"(smem_addr(p)));
#endif
}

/* c += a (16x16, row) * b (16x8, col), f32 accumulators */
template <typename T>
__device__ __forceinline__ void mma16816(float c[4], const unsigned a[4],
                                         unsigned b0, unsigned b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (std::is_same<T, __half>::value)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    else
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

/* wgmma's ordering (sm_90a code only; empty elsewhere): the fence
 * before a warpgroup's first wgmma on registers it touched, the commit
 * of the issued wgmmas as a group, the wait until at most N groups are
 * pending; and the fence that makes generic-proxy writes to shared
 * memory (stores, cp.async) visible to wgmma's reads */
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define RLXG_SM90A_DEVICE 1
#endif
__device__ __forceinline__ void wgmma_fence()
{
#ifdef RLXG_SM90A_DEVICE
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void wgmma_commit()
{
#ifdef RLXG_SM90A_DEVICE
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
template <int N> __device__ __forceinline__ void wgmma_wait()
{
#ifdef RLXG_SM90A_DEVICE
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
__device__ __forceinline__ void fence_proxy_async()
{
#ifdef RLXG_SM90A_DEVICE
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/* A wgmma's f32 accumulators D[I .. I + N) as "+f" asm operands, in
 * order (operand numbers 0 .. N - 1 when first in the list) */
#define RLXG_WG_D4(d, i)                                                  \
    "+f"(d[(i)]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]), "+f"(d[(i) + 3])
#define RLXG_WG_D16(d, i)                                                 \
    RLXG_WG_D4(d, i), RLXG_WG_D4(d, (i) + 4), RLXG_WG_D4(d, (i) + 8),       \
        RLXG_WG_D4(d, (i) + 12)
#define RLXG_WG_D32(d) RLXG_WG_D16(d, 0), RLXG_WG_D16(d, 16)
#define RLXG_WG_D64(d)                                                    \
    RLXG_WG_D16(d, 0), RLXG_WG_D16(d, 16), RLXG_WG_D16(d, 32),              \
        RLXG_WG_D16(d, 48)

/* two f32 to a packed pair of T (low half first) */
template <typename T> __device__ __forceinline__ unsigned pack2(float a, float b);
template <> __device__ __forceinline__ unsigned pack2<__half>(float a, float b)
{
    __half2 h = __floats2half2_rn(a, b);
    return *(const unsigned *)&h;
}
template <>
__device__ __forceinline__ unsigned pack2<gpu_bf16>(float a, float b)
{
    return gpu_float2_to_bf16x2(a, b);
}

/* sm_80 or newer (mma.sync with TF32, BF16; cp.async) on the current
 * device; the runtime caches both answers, so asking at every launch
 * costs little and follows a change of device */
inline bool device_is_sm80()
{
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                               dev) != cudaSuccess) {
        cudaGetLastError(); /* not a launch's error */
        return false;
    }
    return major >= 8;
}

} /* namespace */

#endif /* RLX_GK_PTX_CUH */
