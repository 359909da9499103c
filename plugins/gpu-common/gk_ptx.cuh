/*
 * gk_ptx.cuh - PTX wrappers shared by the tensor-core kernels
 * (gk_attention_mma.cu, gk_attention_tf32x3.cu, gk_gemm_tf32x3.cu):
 * copies from global to shared memory that bypass the registers (sm_80+;
 * empty in the host pass and on older targets), and whether the device
 * has them. CUDA only: included where RLXG_HIP is not defined.
 */
#ifndef RLX_GK_PTX_CUH
#define RLX_GK_PTX_CUH

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

template <int N> __device__ __forceinline__ void cp_async_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
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
