/*
 * gk_data.cu - data movement: strided copy, gather, cast and fill; these work on
 * raw element sizes (copy, gather) or any dtype (cast, fill).
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"

namespace {

/* ---- strided copy (transpose, slice, concat) --------------------------- */

template <typename E>
__global__ void copy_kernel(const E *src, E *dst, rlxg_copy_plan p)
{
    GRID_LOOP(i, p.count)
    {
        int64_t so = 0, dof = 0, rest = i;
        for (int d = (int)p.rank - 1; d >= 0; d--) {
            int64_t q = rest / p.dims[d];
            int64_t r = rest - q * p.dims[d];
            so += r * p.src_stride[d];
            dof += r * p.dst_stride[d];
            rest = q;
        }
        dst[dof] = src[so];
    }
}

/* ---- gather -------------------------------------------------------------- */

template <typename E>
__global__ void gather_kernel(const E *data, const void *idx, int idx_is_i64,
                              E *y, int64_t outer, int64_t dim, int64_t n_idx,
                              int64_t inner, int *err)
{
    GRID_LOOP(i, outer * n_idx * inner)
    {
        int64_t in = i % inner;
        int64_t t = i / inner;
        int64_t j = t % n_idx;
        int64_t o = t / n_idx;
        int64_t k = idx_is_i64 ? ((const int64_t *)idx)[j]
                               : (int64_t)((const int32_t *)idx)[j];
        if (k < 0 || k >= dim) {
            *err = 1;
            y[i] = E();
        } else {
            y[i] = data[(o * dim + k) * inner + in];
        }
    }
}

/* ---- cast and fill --------------------------------------------------------- */

struct value {
    int is_float;
    double f;
    long long i;
};

__device__ __forceinline__ value load_any(int t, const void *p, int64_t k)
{
    value v = { 0, 0.0, 0 };
    switch (t) {
    case RLX_DTYPE_F32: v.is_float = 1; v.f = ((const float *)p)[k]; break;
    case RLX_DTYPE_F64: v.is_float = 1; v.f = ((const double *)p)[k]; break;
    case RLX_DTYPE_F16: {
        /* a NaN keeps its payload, as cpu-ref's cast (the hardware's
         * conversion gives the canonical NaN) */
        unsigned short b = ((const unsigned short *)p)[k];
        v.is_float = 1;
        v.f = (b & 0x7c00u) == 0x7c00u && (b & 0x3ffu)
                  ? __uint_as_float(((unsigned)(b & 0x8000u) << 16) |
                                    0x7f800000u |
                                    ((unsigned)(b & 0x3ffu) << 13))
                  : __half2float(((const __half *)p)[k]);
        break;
    }
    case RLX_DTYPE_BF16:
        v.is_float = 1;
        v.f = gpu_bf16_to_f32(((const gpu_bf16 *)p)[k]);
        break;
    case RLX_DTYPE_I32: v.i = ((const int32_t *)p)[k]; break;
    case RLX_DTYPE_I64: v.i = ((const long long *)p)[k]; break;
    case RLX_DTYPE_I8: v.i = ((const int8_t *)p)[k]; break;
    case RLX_DTYPE_U8: v.i = ((const uint8_t *)p)[k]; break;
    case RLX_DTYPE_BOOL: v.i = ((const uint8_t *)p)[k] != 0; break;
    case RLX_DTYPE_I16: v.i = ((const int16_t *)p)[k]; break;
    case RLX_DTYPE_U16: v.i = ((const uint16_t *)p)[k]; break;
    case RLX_DTYPE_U32: v.i = ((const uint32_t *)p)[k]; break;
    case RLX_DTYPE_U64: {
        unsigned long long u = ((const unsigned long long *)p)[k];
        if (u <= (unsigned long long)INT64_MAX) {
            v.i = (long long)u;
        } else { /* past int64: as a double, which saturates the same */
            v.is_float = 1;
            v.f = (double)u;
        }
        break;
    }
    default: break;
    }
    return v;
}

__device__ __forceinline__ long long to_int(value v, long long lo,
                                            long long hi)
{
    if (!v.is_float)
        return v.i < lo ? lo : (v.i > hi ? hi : v.i);
    if (isnan(v.f))
        return 0;
    double t = trunc(v.f);
    if (t <= (double)lo)
        return lo;
    if (t >= (double)hi)
        return hi;
    return (long long)t;
}

/* V as a u64: truncated, negative and NaN to 0, saturated at 2^64 - 1. */
__device__ __forceinline__ unsigned long long to_u64(value v)
{
    if (!v.is_float)
        return v.i < 0 ? 0ull : (unsigned long long)v.i;
    double t = trunc(v.f);
    if (isnan(t) || t <= 0)
        return 0ull;
    if (t >= 18446744073709551616.0)
        return ~0ull;
    return (unsigned long long)t;
}

__device__ __forceinline__ void store_any(int t, void *p, int64_t k, value v)
{
    switch (t) {
    case RLX_DTYPE_F32:
        ((float *)p)[k] = v.is_float ? __double2float_rn(v.f)
                                     : __ll2float_rn(v.i);
        break;
    case RLX_DTYPE_F64:
        ((double *)p)[k] = v.is_float ? v.f : (double)v.i;
        break;
    case RLX_DTYPE_F16:
        ((__half *)p)[k] = v.is_float ? gpu_d2h(v.f)
                                      : __ll2half_rn(v.i);
        break;
    case RLX_DTYPE_BF16:
        ((gpu_bf16 *)p)[k] = v.is_float ? gpu_d2bf16(v.f)
                                             : gpu_ll2bf16(v.i);
        break;
    case RLX_DTYPE_I32:
        ((int32_t *)p)[k] = (int32_t)to_int(v, INT32_MIN, INT32_MAX);
        break;
    case RLX_DTYPE_I64:
        ((long long *)p)[k] = to_int(v, INT64_MIN, INT64_MAX);
        break;
    case RLX_DTYPE_I8:
        ((int8_t *)p)[k] = (int8_t)to_int(v, INT8_MIN, INT8_MAX);
        break;
    case RLX_DTYPE_U8:
        ((uint8_t *)p)[k] = (uint8_t)to_int(v, 0, UINT8_MAX);
        break;
    case RLX_DTYPE_BOOL:
        ((uint8_t *)p)[k] = v.is_float ? v.f != 0.0 : v.i != 0;
        break;
    case RLX_DTYPE_I16:
        ((int16_t *)p)[k] = (int16_t)to_int(v, INT16_MIN, INT16_MAX);
        break;
    case RLX_DTYPE_U16:
        ((uint16_t *)p)[k] = (uint16_t)to_int(v, 0, UINT16_MAX);
        break;
    case RLX_DTYPE_U32:
        ((uint32_t *)p)[k] = (uint32_t)to_int(v, 0, UINT32_MAX);
        break;
    case RLX_DTYPE_U64:
        ((unsigned long long *)p)[k] = to_u64(v);
        break;
    default: break;
    }
}

__global__ void cast_kernel(int from, int to, const void *x, void *y,
                            int64_t n)
{
    GRID_LOOP(i, n) store_any(to, y, i, load_any(from, x, i));
}

__global__ void fill_kernel(int to, void *y, int64_t n, double value_)
{
    value v = { 1, value_, 0 };
    GRID_LOOP(i, n) store_any(to, y, i, v);
}

/* ---- launch ---- */

template <typename E>
gpuError_t copy_as(gpuStream_t s, const void *src, void *dst,
                    const rlxg_copy_plan *p)
{
    copy_kernel<E><<<grid_for(p->count), kThreads, 0, s>>>(
        (const E *)src, (E *)dst, *p);
    return gpuGetLastError();
}

template <typename E>
gpuError_t gather_as(gpuStream_t s, const void *data, const void *idx,
                      int is64, void *y, int64_t outer, int64_t dim,
                      int64_t n_idx, int64_t inner, int *err)
{
    gather_kernel<E><<<grid_for(outer * n_idx * inner), kThreads, 0, s>>>(
        (const E *)data, idx, is64, (E *)y, outer, dim, n_idx, inner, err);
    return gpuGetLastError();
}

} /* namespace */

extern "C" gpuError_t rlxg_copy(gpuStream_t s, size_t elem_size,
                                 const void *src, void *dst,
                                 const rlxg_copy_plan *plan)
{
    if (plan->count == 0)
        return gpuSuccess;
    switch (elem_size) {
    case 1: return copy_as<uint8_t>(s, src, dst, plan);
    case 2: return copy_as<uint16_t>(s, src, dst, plan);
    case 4: return copy_as<uint32_t>(s, src, dst, plan);
    case 8: return copy_as<unsigned long long>(s, src, dst, plan);
    default: return gpuErrorInvalidValue;
    }
}

extern "C" gpuError_t rlxg_gather(gpuStream_t s, size_t elem_size,
                                   const void *data, const void *idx,
                                   int idx_is_i64, void *y, int64_t outer,
                                   int64_t dim, int64_t n_idx, int64_t inner,
                                   int *err)
{
    if (outer * n_idx * inner == 0)
        return gpuSuccess;
    switch (elem_size) {
    case 1: return gather_as<uint8_t>(s, data, idx, idx_is_i64, y, outer, dim,
                                      n_idx, inner, err);
    case 2: return gather_as<uint16_t>(s, data, idx, idx_is_i64, y, outer, dim,
                                       n_idx, inner, err);
    case 4: return gather_as<uint32_t>(s, data, idx, idx_is_i64, y, outer, dim,
                                       n_idx, inner, err);
    case 8: return gather_as<unsigned long long>(s, data, idx, idx_is_i64, y,
                                                 outer, dim, n_idx, inner,
                                                 err);
    default: return gpuErrorInvalidValue;
    }
}

extern "C" gpuError_t rlxg_cast(gpuStream_t s, int src_dtype,
                                 int dst_dtype, const void *x, void *y,
                                 int64_t n)
{
    if (n == 0)
        return gpuSuccess;
    cast_kernel<<<grid_for(n), kThreads, 0, s>>>(src_dtype, dst_dtype, x, y,
                                                 n);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_fill(gpuStream_t s, int dtype, void *y,
                                 int64_t n, double value)
{
    if (n == 0)
        return gpuSuccess;
    fill_kernel<<<grid_for(n), kThreads, 0, s>>>(dtype, y, n, value);
    return gpuGetLastError();
}
