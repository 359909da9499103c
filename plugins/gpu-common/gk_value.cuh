/*
 * gk_value.cuh - element loads and stores by runtime dtype, for the
 * kernels of ops that take integers and bool as well as floats
 * (gk_ew_more.cu, gk_index.cu, gk_det.cu, gk_sample.cu): floats widen to
 * f64, integers to int64 (u64 as its bit pattern, which only ordering,
 * division and conversion to a float must read as unsigned: is_u64,
 * int_order, int_to_f); stores round floats as cpu-ref does and
 * truncate integers to their width (two's-complement wrapping).
 */
#ifndef RLX_GK_VALUE_CUH
#define RLX_GK_VALUE_CUH

#include "gk_common.cuh"

namespace {

__device__ __forceinline__ bool is_int_dtype(int t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8 || t == RLX_DTYPE_I32 ||
           t == RLX_DTYPE_I64 || t == RLX_DTYPE_BOOL ||
           (t >= RLX_DTYPE_I16 && t <= RLX_DTYPE_U64);
}

/* The bytes of one element of dtype T. */
__device__ __forceinline__ int elem_bytes(int t)
{
    switch (t) {
    case RLX_DTYPE_F64: case RLX_DTYPE_I64: case RLX_DTYPE_U64: return 8;
    case RLX_DTYPE_F32: case RLX_DTYPE_I32: case RLX_DTYPE_U32: return 4;
    case RLX_DTYPE_F16: case RLX_DTYPE_BF16: case RLX_DTYPE_I16:
    case RLX_DTYPE_U16:
        return 2;
    default: return 1;
    }
}

/* u64 values of 2^63 and more load as negative int64: the ops that
 * order or divide read its bits as unsigned. The narrower unsigned
 * dtypes load zero-extended and need nothing. */
__device__ __forceinline__ bool is_u64(int t) { return t == RLX_DTYPE_U64; }

/* -1, 0 or 1 as A is less than, equal to or greater than B. */
__device__ __forceinline__ int int_order(int t, long long a, long long b)
{
    if (is_u64(t))
        return ((unsigned long long)a > (unsigned long long)b) -
               ((unsigned long long)a < (unsigned long long)b);
    return (a > b) - (a < b);
}

/* An integer loaded by load_i as a double (u64: the unsigned value). */
__device__ __forceinline__ double int_to_f(int t, long long v)
{
    return is_u64(t) ? (double)(unsigned long long)v : (double)v;
}

/* The least and greatest value of integer dtype T, as stored by store_i
 * (u64's greatest: all ones, -1). */
__device__ __forceinline__ long long int_least(int t)
{
    switch (t) {
    case RLX_DTYPE_I8: return INT8_MIN;
    case RLX_DTYPE_I16: return INT16_MIN;
    case RLX_DTYPE_I32: return INT32_MIN;
    case RLX_DTYPE_I64: return INT64_MIN;
    default: return 0; /* unsigned, bool */
    }
}
__device__ __forceinline__ long long int_greatest(int t)
{
    switch (t) {
    case RLX_DTYPE_I8: return INT8_MAX;
    case RLX_DTYPE_U8: return UINT8_MAX;
    case RLX_DTYPE_I16: return INT16_MAX;
    case RLX_DTYPE_U16: return UINT16_MAX;
    case RLX_DTYPE_I32: return INT32_MAX;
    case RLX_DTYPE_U32: return UINT32_MAX;
    case RLX_DTYPE_BOOL: return 1;
    case RLX_DTYPE_U64: return -1;
    default: return INT64_MAX;
    }
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
    case RLX_DTYPE_I64: case RLX_DTYPE_U64:
        return ((const long long *)p)[k];
    case RLX_DTYPE_I16: return ((const int16_t *)p)[k];
    case RLX_DTYPE_U16: return ((const uint16_t *)p)[k];
    case RLX_DTYPE_U32: return ((const uint32_t *)p)[k];
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
    case RLX_DTYPE_I64: case RLX_DTYPE_U64: ((long long *)p)[k] = v; break;
    case RLX_DTYPE_I16: case RLX_DTYPE_U16:
        ((uint16_t *)p)[k] = (uint16_t)v;
        break;
    case RLX_DTYPE_U32: ((uint32_t *)p)[k] = (uint32_t)v; break;
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
