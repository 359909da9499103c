/*
 * gk_value.cuh - element loads and stores by runtime dtype, for the
 * kernels of ops that take integers and bool as well as floats
 * (gk_ew_more.cu, gk_index.cu): floats widen to f64, integers to int64;
 * stores round floats as cpu-ref does and truncate integers to their
 * width (two's-complement wrapping).
 */
#ifndef RLX_GK_VALUE_CUH
#define RLX_GK_VALUE_CUH

#include "gk_common.cuh"

namespace {

__device__ __forceinline__ bool is_int_dtype(int t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8 || t == RLX_DTYPE_I32 ||
           t == RLX_DTYPE_I64 || t == RLX_DTYPE_BOOL;
}

__device__ __forceinline__ double load_f(int t, const void *p, int64_t k)
{
    switch (t) {
    case RLX_DTYPE_F32: return ((const float *)p)[k];
    case RLX_DTYPE_F16: return __half2float(((const __half *)p)[k]);
    case RLX_DTYPE_BF16: return gpu_bf16_to_f32(((const gpu_bf16 *)p)[k]);
    case RLX_DTYPE_F64: return ((const double *)p)[k];
    default: return 0.0;
    }
}

__device__ __forceinline__ long long load_i(int t, const void *p, int64_t k)
{
    switch (t) {
    case RLX_DTYPE_I8: return ((const int8_t *)p)[k];
    case RLX_DTYPE_U8: case RLX_DTYPE_BOOL: return ((const uint8_t *)p)[k];
    case RLX_DTYPE_I32: return ((const int32_t *)p)[k];
    case RLX_DTYPE_I64: return ((const long long *)p)[k];
    default: return 0;
    }
}

/* f64 to a float dtype: through f32 first, as cpu-ref's elementwise
 * ops round. */
__device__ __forceinline__ void store_f(int t, void *p, int64_t k, double v)
{
    float f = (float)v;
    switch (t) {
    case RLX_DTYPE_F32: ((float *)p)[k] = f; break;
    case RLX_DTYPE_F16: ((__half *)p)[k] = __float2half_rn(f); break;
    case RLX_DTYPE_BF16: ((gpu_bf16 *)p)[k] = gpu_f32_to_bf16(f); break;
    case RLX_DTYPE_F64: ((double *)p)[k] = v; break;
    default: break;
    }
}

/* int64 to an integer dtype, truncating (wrapping) to its width. */
__device__ __forceinline__ void store_i(int t, void *p, int64_t k,
                                        long long v)
{
    switch (t) {
    case RLX_DTYPE_I8: ((int8_t *)p)[k] = (int8_t)(uint8_t)v; break;
    case RLX_DTYPE_U8: ((uint8_t *)p)[k] = (uint8_t)v; break;
    case RLX_DTYPE_BOOL: ((uint8_t *)p)[k] = v != 0; break;
    case RLX_DTYPE_I32: ((int32_t *)p)[k] = (int32_t)(uint32_t)v; break;
    case RLX_DTYPE_I64: ((long long *)p)[k] = v; break;
    default: break;
    }
}

/* f64 to a float dtype in one rounding, as cpu-ref's indexing ops
 * (cumsum, range, scatter) store. */
__device__ __forceinline__ void store_f1(int t, void *p, int64_t k, double v)
{
    switch (t) {
    case RLX_DTYPE_F16: ((__half *)p)[k] = gpu_d2h(v); break;
    case RLX_DTYPE_BF16: ((gpu_bf16 *)p)[k] = gpu_d2bf16(v); break;
    default: store_f(t, p, k, v); break;
    }
}

} /* namespace */

#endif /* RLX_GK_VALUE_CUH */
