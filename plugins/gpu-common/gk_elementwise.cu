/*
 * gk_elementwise.cu - unary and binary elementwise ops, same-shape and broadcast.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"

namespace {

/* ---- unary ------------------------------------------------------------- */

__device__ __forceinline__ float sigmoidf_(float x)
{
    if (x >= 0.f)
        return 1.f / (1.f + expf(-x));
    float e = expf(x);
    return e / (1.f + e);
}

__device__ __forceinline__ float unary_f(int op, int approx, float x)
{
    switch (op) {
    case RLX_OP_RELU: return x > 0.f || isnan(x) ? x : 0.f;
    case RLX_OP_GELU:
        if (isinf(x)) /* gelu(-inf) = 0, not -inf * 0 (docs/ops.md) */
            return x > 0.f ? x : 0.f;
        if (approx == RLX_GELU_TANH) {
            const float c = 0.7978845608028654f;
            return 0.5f * x * (1.f + tanhf(c * (x + 0.044715f * x * x * x)));
        }
        return 0.5f * x * erfcf(-x * 0.7071067811865476f);
    case RLX_OP_SIGMOID: return sigmoidf_(x);
    case RLX_OP_TANH: return tanhf(x);
    case RLX_OP_EXP: return expf(x);
    case RLX_OP_SIN: return sinf(x);
    case RLX_OP_COS: return cosf(x);
    case RLX_OP_NEG: return -x;
    case RLX_OP_ABS: return fabsf(x);
    case RLX_OP_LOG: return logf(x);
    case RLX_OP_SQRT: return sqrtf(x);
    case RLX_OP_RSQRT: return 1.f / sqrtf(x);
    case RLX_OP_SILU: return x * sigmoidf_(x);
    case RLX_OP_TAN: return tanf(x);
    case RLX_OP_ATAN: return atanf(x);
    default: return __int_as_float(0x7fc00000);
    }
}

template <typename T>
__global__ void unary_kernel(int op, int approx, const T *x, T *y, int64_t n)
{
    GRID_LOOP(i, n) st(y, i, unary_f(op, approx, ld(x, i)));
}

/* ---- binary ------------------------------------------------------------ */

__device__ __forceinline__ float binary_f(int op, float a, float b)
{
    switch (op) {
    case RLX_OP_ADD: return a + b;
    case RLX_OP_SUB: return a - b;
    case RLX_OP_MUL: return a * b;
    case RLX_OP_DIV: return a / b;
    case RLX_OP_MAX: return isnan(a) || isnan(b) ? a + b : (a > b ? a : b);
    case RLX_OP_MIN: return isnan(a) || isnan(b) ? a + b : (a < b ? a : b);
    case RLX_OP_POW: return powf(a, b);
    default: return __int_as_float(0x7fc00000);
    }
}

__device__ __forceinline__ int64_t side_index(const rlxg_bside &s,
                                              const rlxg_bcast &p, int64_t i)
{
    if (s.mode == 0)
        return i;
    if (s.mode == 1)
        return (i / s.div) % s.mod;
    int64_t off = 0, rest = i;
    for (int d = (int)p.rank - 1; d >= 0; d--) {
        int64_t q = rest / p.dims[d];
        off += (rest - q * p.dims[d]) * s.stride[d];
        rest = q;
    }
    return off;
}

template <typename T>
__global__ void binary_same_kernel(int op, const T *a, const T *b, T *y,
                                   int64_t n)
{
    GRID_LOOP(i, n) st(y, i, binary_f(op, ld(a, i), ld(b, i)));
}

template <typename T>
__global__ void binary_kernel(int op, const T *a, const T *b, T *y, int64_t n,
                              rlxg_bcast p)
{
    GRID_LOOP(i, n)
    {
        st(y, i, binary_f(op, ld(a, side_index(p.a, p, i)),
                          ld(b, side_index(p.b, p, i))));
    }
}

/* ---- launch ---- */

template <typename T> struct UnaryL {
    static gpuError_t run(gpuStream_t s, int op, int approx, const void *x,
                           void *y, int64_t n)
    {
        unary_kernel<T><<<grid_for(n), kThreads, 0, s>>>(
            op, approx, (const T *)x, (T *)y, n);
        return gpuGetLastError();
    }
};

template <typename T> struct BinaryL {
    static gpuError_t run(gpuStream_t s, int op, const void *a,
                           const void *b, void *y, int64_t n,
                           const rlxg_bcast *p)
    {
        if (!p || (p->a.mode == 0 && p->b.mode == 0))
            binary_same_kernel<T><<<grid_for(n), kThreads, 0, s>>>(
                op, (const T *)a, (const T *)b, (T *)y, n);
        else
            binary_kernel<T><<<grid_for(n), kThreads, 0, s>>>(
                op, (const T *)a, (const T *)b, (T *)y, n, *p);
        return gpuGetLastError();
    }
};

} /* namespace */

extern "C" gpuError_t rlxg_unary(gpuStream_t s, int dtype, int op,
                                  int approx, const void *x, void *y,
                                  int64_t n)
{
    return n ? by_float<UnaryL>(dtype, s, op, approx, x, y, n) : gpuSuccess;
}

extern "C" gpuError_t rlxg_binary(gpuStream_t s, int dtype, int op,
                                   const void *a, const void *b, void *y,
                                   int64_t n, const rlxg_bcast *plan)
{
    return n ? by_float<BinaryL>(dtype, s, op, a, b, y, n, plan)
             : gpuSuccess;
}
