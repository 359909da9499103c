/*
 * gk_common.cuh - what every shared kernel file (gk_*.cu) uses: the
 * device side of the vendor mapping (f16/bf16 types and conversions,
 * shuffles, warp sync), element loads and stores that widen to f32 and
 * round once on store, grid-stride loops and the dtype dispatch.
 *
 * Warps are 32 lanes everywhere in these kernels. AMD CDNA (gfx9) runs
 * 64-lane wavefronts and RDNA (gfx10+) 32: a 32-lane warp is then half
 * a wavefront, and every shuffle passes width 32 so it stays inside its
 * own half (lanes l ^ o with o < 32). Lanes of one wavefront execute in
 * lockstep, so warp sync is a wave barrier there.
 */
#ifndef RLX_GK_COMMON_CUH
#define RLX_GK_COMMON_CUH

#ifdef RLXG_HIP
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#else
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#endif
#include <math.h>
#include <stdint.h>

#include <rlx/ops.h>
#include <rlx/types.h>

#include "gpu_kernels.h"

namespace {

/* ---- vendor: f16, bf16, shuffles, warp sync -------------------------- */

#ifdef RLXG_HIP
/* HIP 5.2 has no usable device bf16 type: our own 16-bit storage type,
 * converted with round-to-nearest-even as CUDA's intrinsics do. */
struct gpu_bf16 {
    unsigned short x;
};
__device__ __forceinline__ float gpu_bf16_to_f32(gpu_bf16 h)
{
    return __uint_as_float((unsigned)h.x << 16);
}
__device__ __forceinline__ unsigned short gpu_f32_to_bf16_bits(float f)
{
    unsigned u = __float_as_uint(f);
    if (isnan(f))
        return (unsigned short)((u >> 16) | 0x40); /* quiet, sign kept */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (unsigned short)(u >> 16);
}
__device__ __forceinline__ gpu_bf16 gpu_f32_to_bf16(float f)
{
    gpu_bf16 h;
    h.x = gpu_f32_to_bf16_bits(f);
    return h;
}
/* Two bf16 packed in 32 bits (low half first) to f32 and back. */
__device__ __forceinline__ float2 gpu_bf16x2_to_float2(unsigned u)
{
    return make_float2(__uint_as_float(u << 16),
                       __uint_as_float(u & 0xffff0000u));
}
__device__ __forceinline__ unsigned gpu_float2_to_bf16x2(float a, float b)
{
    return (unsigned)gpu_f32_to_bf16_bits(a) |
           ((unsigned)gpu_f32_to_bf16_bits(b) << 16);
}
/* double -> float rounded to odd: a second rounding to f16 or bf16 (far
 * fewer bits) is then correctly rounded, as CUDA's __double2half is. */
__device__ __forceinline__ float gpu_d2f_odd(double d)
{
    float f = (float)d;
    if (isnan(d) || (double)f == d)
        return f;
    if (fabs((double)f) > fabs(d))
        f = nextafterf(f, 0.f);
    return __uint_as_float(__float_as_uint(f) | 1u);
}
__device__ __forceinline__ __half gpu_d2h(double d)
{
    return __float2half_rn(gpu_d2f_odd(d));
}
__device__ __forceinline__ gpu_bf16 gpu_d2bf16(double d)
{
    return gpu_f32_to_bf16(gpu_d2f_odd(d));
}
__device__ __forceinline__ gpu_bf16 gpu_ll2bf16(long long v)
{
    return gpu_d2bf16((double)v);
}
template <typename V> __device__ __forceinline__ V gpu_shfl_xor(V v, int o)
{
    return __shfl_xor(v, o, 32);
}
__device__ __forceinline__ void gpu_syncwarp()
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#else
typedef __nv_bfloat16 gpu_bf16;
__device__ __forceinline__ float gpu_bf16_to_f32(gpu_bf16 h)
{
    return __bfloat162float(h);
}
__device__ __forceinline__ gpu_bf16 gpu_f32_to_bf16(float f)
{
    return __float2bfloat16_rn(f);
}
__device__ __forceinline__ float2 gpu_bf16x2_to_float2(unsigned u)
{
    return __bfloat1622float2(*(const __nv_bfloat162 *)&u);
}
__device__ __forceinline__ unsigned gpu_float2_to_bf16x2(float a, float b)
{
    __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
    return *(const unsigned *)&h;
}
__device__ __forceinline__ __half gpu_d2h(double d)
{
    return __double2half(d);
}
__device__ __forceinline__ gpu_bf16 gpu_d2bf16(double d)
{
    return __double2bfloat16(d);
}
__device__ __forceinline__ gpu_bf16 gpu_ll2bf16(long long v)
{
    return __ll2bfloat16_rn(v);
}
template <typename V> __device__ __forceinline__ V gpu_shfl_xor(V v, int o)
{
    return __shfl_xor_sync(0xffffffffu, v, o);
}
__device__ __forceinline__ void gpu_syncwarp() { __syncwarp(); }
#endif

/* ---- element access ---------------------------------------------------- */

__device__ __forceinline__ float ld(const float *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float ld(const __half *p, int64_t i)
{
    return __half2float(p[i]);
}
__device__ __forceinline__ float ld(const gpu_bf16 *p, int64_t i)
{
    return gpu_bf16_to_f32(p[i]);
}
__device__ __forceinline__ void st(float *p, int64_t i, float v) { p[i] = v; }
__device__ __forceinline__ void st(__half *p, int64_t i, float v)
{
    p[i] = __float2half_rn(v);
}
__device__ __forceinline__ void st(gpu_bf16 *p, int64_t i, float v)
{
    p[i] = gpu_f32_to_bf16(v);
}

/* Four consecutive elements at P + I as f32; P + I is 4-element aligned. */
__device__ __forceinline__ float4 ld4(const float *p, int64_t i)
{
    return *(const float4 *)(p + i);
}
__device__ __forceinline__ float4 ld4(const __half *p, int64_t i)
{
    uint2 u = *(const uint2 *)(p + i);
    float2 a = __half22float2(*(const __half2 *)&u.x);
    float2 b = __half22float2(*(const __half2 *)&u.y);
    return make_float4(a.x, a.y, b.x, b.y);
}
__device__ __forceinline__ float4 ld4(const gpu_bf16 *p, int64_t i)
{
    uint2 u = *(const uint2 *)(p + i);
    float2 a = gpu_bf16x2_to_float2(u.x);
    float2 b = gpu_bf16x2_to_float2(u.y);
    return make_float4(a.x, a.y, b.x, b.y);
}

/* ld4 for data read once (a weight streamed by a GEMV): through the
 * non-coherent path without allocating in L1, which keeps the small
 * operands that are reread there. */
#ifdef RLXG_HIP
template <typename T>
__device__ __forceinline__ float4 ld4_stream(const T *p, int64_t i)
{
    return ld4(p, i); /* no PTX cache hints on AMD */
}
#else
__device__ __forceinline__ float4 ld4_stream(const float *p, int64_t i)
{
    float4 v;
    asm("ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p + i));
    return v;
}
template <typename H>
__device__ __forceinline__ float4 ld4_stream(const H *p, int64_t i)
{
    uint2 u;
    asm("ld.global.nc.L1::no_allocate.v2.u32 {%0, %1}, [%2];"
                 : "=r"(u.x), "=r"(u.y)
                 : "l"(p + i));
    const H *h = (const H *)&u;
    return make_float4(ld(h, 0), ld(h, 1), ld(h, 2), ld(h, 3));
}
#endif

const int kThreads = 256;

inline unsigned grid_for(int64_t n, int threads = kThreads)
{
    int64_t b = (n + threads - 1) / threads;
    if (b > 65535LL * 16)
        b = 65535LL * 16; /* grid-stride loops cover the rest */
    return (unsigned)(b < 1 ? 1 : b);
}

#define GRID_LOOP(i, n)                                                      \
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (int64_t)gridDim.x * blockDim.x)

/* Programmatic dependent launch (Hopper): a kernel launched with it may
 * start while the previous one finishes; it must wait before reading
 * anything that kernel wrote. Older GPUs never launch that way. */
__device__ __forceinline__ void grid_dep_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void grid_dep_release()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" :::);
#endif
}

/* KERNEL<<<GRID, BLOCK, 0, S>>>(ARGS), launched as the programmatic
 * dependent of the kernel before it on S when PDL (CUDA; the caller
 * knows the device runs the sm_90 code, rlxg_dep_launch_ok, and KERNEL
 * calls grid_dep_wait before reading anything that kernel may have
 * written); a plain launch on AMD. */
template <typename... P, typename... A>
inline gpuError_t launch_dep(bool pdl, void (*kernel)(P...), dim3 grid,
                             dim3 block, gpuStream_t s, A... args)
{
#ifdef RLXG_HIP
    (void)pdl;
    hipLaunchKernelGGL(kernel, grid, block, 0, s, args...);
    return gpuGetLastError();
#else
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid;
    cfg.blockDim = block;
    cfg.stream = s;
    cfg.attrs = &attr;
    cfg.numAttrs = pdl ? 1 : 0;
    return cudaLaunchKernelEx(&cfg, kernel, args...);
#endif
}

/* ---- 32-lane warp reductions ----------------------------------------------------------- */
__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        float w = gpu_shfl_xor(v, o);
        v = (w > v || isnan(w)) ? w : v;
    }
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += gpu_shfl_xor(v, o);
    return v;
}

/* v rounded to T and back: what storing v as a T keeps */
template <typename T> __device__ __forceinline__ float rnd(float v);
template <> __device__ __forceinline__ float rnd<float>(float v) { return v; }
template <> __device__ __forceinline__ float rnd<__half>(float v)
{
    return __half2float(__float2half_rn(v));
}
template <> __device__ __forceinline__ float rnd<gpu_bf16>(float v)
{
    return gpu_bf16_to_f32(gpu_f32_to_bf16(v));
}

/* ---- GEMM epilogue ------------------------------------------------------ */

/* The activation a GEMM applies after its bias (RLXG_GEMM_*): relu keeps
 * NaN, gelu is the tanh approximation. */
__device__ __forceinline__ float gemm_act(int act, float v)
{
    if (act == RLXG_GEMM_RELU)
        return v > 0.f || isnan(v) ? v : 0.f;
    if (act == RLXG_GEMM_GELU_TANH) {
        const float c = 0.7978845608028654f;
        return 0.5f * v * (1.f + tanhf(c * (v + 0.044715f * v * v * v)));
    }
    return v;
}

/* ---- dispatch helpers -------------------------------------------------- */

template <template <typename> class F, typename... Args>
gpuError_t by_float(int dtype, Args... args)
{
    switch (dtype) {
    case RLX_DTYPE_F32: return F<float>::run(args...);
    case RLX_DTYPE_F16: return F<__half>::run(args...);
    case RLX_DTYPE_BF16: return F<gpu_bf16>::run(args...);
    default: return gpuErrorInvalidValue;
    }
}

} /* namespace */

#endif /* RLX_GK_COMMON_CUH */
