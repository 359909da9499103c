/*
 * cuda_kernels.cu - every CUDA kernel of the rlx CUDA backend except
 * matmul (cuBLASLt), with extern "C" launchers declared in
 * cuda_kernels.h. Float kernels are templated over f32, f16 and bf16:
 * they load to f32, compute, and round once on store, as ops.h asks.
 * Data movement kernels work on raw element sizes, so they take any
 * dtype.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include <rlx/ops.h>
#include <rlx/types.h>

#include "cuda_kernels.h"

namespace {

/* ---- element access ---------------------------------------------------- */

__device__ __forceinline__ float ld(const float *p, int64_t i) { return p[i]; }
__device__ __forceinline__ float ld(const __half *p, int64_t i)
{
    return __half2float(p[i]);
}
__device__ __forceinline__ float ld(const __nv_bfloat16 *p, int64_t i)
{
    return __bfloat162float(p[i]);
}
__device__ __forceinline__ void st(float *p, int64_t i, float v) { p[i] = v; }
__device__ __forceinline__ void st(__half *p, int64_t i, float v)
{
    p[i] = __float2half_rn(v);
}
__device__ __forceinline__ void st(__nv_bfloat16 *p, int64_t i, float v)
{
    p[i] = __float2bfloat16_rn(v);
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
__device__ __forceinline__ float4 ld4(const __nv_bfloat16 *p, int64_t i)
{
    uint2 u = *(const uint2 *)(p + i);
    float2 a = __bfloat1622float2(*(const __nv_bfloat162 *)&u.x);
    float2 b = __bfloat1622float2(*(const __nv_bfloat162 *)&u.y);
    return make_float4(a.x, a.y, b.x, b.y);
}

/* ld4 for data read once (a weight streamed by a GEMV): through the
 * non-coherent path without allocating in L1, which keeps the small
 * operands that are reread there. */
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

__device__ __forceinline__ int64_t side_index(const rlxc_bside &s,
                                              const rlxc_bcast &p, int64_t i)
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
                              rlxc_bcast p)
{
    GRID_LOOP(i, n)
    {
        st(y, i, binary_f(op, ld(a, side_index(p.a, p, i)),
                          ld(b, side_index(p.b, p, i))));
    }
}

/* ---- strided copy (transpose, slice, concat) --------------------------- */

template <typename E>
__global__ void copy_kernel(const E *src, E *dst, rlxc_copy_plan p)
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

/* ---- softmax ----------------------------------------------------------- */

__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o >>= 1) {
        float w = __shfl_xor_sync(0xffffffffu, v, o);
        v = (w > v || isnan(w)) ? w : v;
    }
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* One warp per row (inner == 1). */
template <typename T>
__global__ void softmax_rows_kernel(const T *x, T *y, int64_t rows,
                                    int64_t len, int64_t causal_rows)
{
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const T *xr = x + row * len;
    T *yr = y + row * len;
    int64_t keep = len;
    if (causal_rows > 0) {
        int64_t i = row % causal_rows;
        keep = i + len + 1 - causal_rows;
        keep = keep < 0 ? 0 : (keep > len ? len : keep);
    }
    float m = -INFINITY;
    for (int64_t j = lane; j < keep; j += 32) {
        float v = ld(xr, j);
        m = (v > m || isnan(v)) ? v : m;
    }
    m = warp_max(m);
    float s = 0.f;
    for (int64_t j = lane; j < keep; j += 32)
        s += expf(ld(xr, j) - m);
    s = warp_sum(s);
    float inv = 1.f / s;
    for (int64_t j = lane; j < len; j += 32)
        st(yr, j, j < keep ? expf(ld(xr, j) - m) * inv : 0.f);
}

/* One thread per (outer, inner) column: the axis is not the last. */
template <typename T>
__global__ void softmax_cols_kernel(const T *x, T *y, int64_t outer,
                                    int64_t len, int64_t inner)
{
    GRID_LOOP(c, outer * inner)
    {
        int64_t o = c / inner, in = c - o * inner;
        const T *xs = x + o * len * inner + in;
        T *ys = y + o * len * inner + in;
        float m = -INFINITY, s = 0.f;
        for (int64_t j = 0; j < len; j++) {
            float v = ld(xs, j * inner);
            m = (v > m || isnan(v)) ? v : m;
        }
        for (int64_t j = 0; j < len; j++)
            s += expf(ld(xs, j * inner) - m);
        float inv = 1.f / s;
        for (int64_t j = 0; j < len; j++)
            st(ys, j * inner, expf(ld(xs, j * inner) - m) * inv);
    }
}

/* ---- layer_norm / rms_norm: one warp per row ----------------------------- */

template <typename T> __device__ __forceinline__ float rnd(float v);
template <> __device__ __forceinline__ float rnd<float>(float v) { return v; }
template <> __device__ __forceinline__ float rnd<__half>(float v)
{
    return __half2float(__float2half_rn(v));
}
template <> __device__ __forceinline__ float rnd<__nv_bfloat16>(float v)
{
    return __bfloat162float(__float2bfloat16_rn(v));
}

/* Row element j: x, or x + res rounded as a stored add. */
template <typename T>
__device__ __forceinline__ float norm_in(const T *xr, const T *rr, int64_t j)
{
    return rr ? rnd<T>(ld(xr, j) + ld(rr, j)) : ld(xr, j);
}

/* General: any COLS, the row read three times (L1 keeps it). */
template <typename T>
__global__ void norm_kernel(int is_rms, const T *x, const T *res,
                            const T *gamma, const T *beta, T *y,
                            int64_t rows, int64_t cols, float eps)
{
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const T *xr = x + row * cols;
    const T *rr = res ? res + row * cols : nullptr;
    T *yr = y + row * cols;
    float mean = 0.f;
    if (!is_rms) {
        float s = 0.f;
        for (int64_t j = lane; j < cols; j += 32)
            s += norm_in(xr, rr, j);
        mean = warp_sum(s) / (float)cols;
    }
    float q = 0.f;
    for (int64_t j = lane; j < cols; j += 32) {
        float d = norm_in(xr, rr, j) - mean;
        q += d * d;
    }
    float inv = rsqrtf(warp_sum(q) / (float)cols + eps);
    for (int64_t j = lane; j < cols; j += 32) {
        float v = (norm_in(xr, rr, j) - mean) * inv * ld(gamma, j);
        if (!is_rms)
            v += ld(beta, j);
        st(yr, j, v);
    }
}

/* COLS <= 32 * NV: the row is held in registers, read once. */
template <typename T, int NV>
__global__ void norm_reg_kernel(int is_rms, const T *x, const T *res,
                                const T *gamma, const T *beta, T *y,
                                int64_t rows, int cols, float eps)
{
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const T *xr = x + row * cols;
    const T *rr = res ? res + row * cols : nullptr;
    T *yr = y + row * cols;
    float v[NV];
    float s = 0.f;
#pragma unroll
    for (int t = 0; t < NV; t++) {
        int j = lane + 32 * t;
        v[t] = j < cols ? norm_in(xr, rr, j) : 0.f;
        s += v[t];
    }
    float mean = is_rms ? 0.f : warp_sum(s) / (float)cols;
    float q = 0.f;
#pragma unroll
    for (int t = 0; t < NV; t++) {
        int j = lane + 32 * t;
        float d = j < cols ? v[t] - mean : 0.f;
        q += d * d;
    }
    float inv = rsqrtf(warp_sum(q) / (float)cols + eps);
#pragma unroll
    for (int t = 0; t < NV; t++) {
        int j = lane + 32 * t;
        if (j < cols) {
            float o = (v[t] - mean) * inv * ld(gamma, j);
            if (!is_rms)
                o += ld(beta, j);
            st(yr, j, o);
        }
    }
}

__device__ __forceinline__ void st4(float *p, int64_t i, float4 v)
{
    *(float4 *)(p + i) = v;
}
__device__ __forceinline__ void st4(__half *p, int64_t i, float4 v)
{
    __half2 a = __floats2half2_rn(v.x, v.y), b = __floats2half2_rn(v.z, v.w);
    uint2 u;
    u.x = *(const unsigned *)&a;
    u.y = *(const unsigned *)&b;
    *(uint2 *)(p + i) = u;
}
__device__ __forceinline__ void st4(__nv_bfloat16 *p, int64_t i, float4 v)
{
    __nv_bfloat162 a = __floats2bfloat162_rn(v.x, v.y);
    __nv_bfloat162 b = __floats2bfloat162_rn(v.z, v.w);
    uint2 u;
    u.x = *(const unsigned *)&a;
    u.y = *(const unsigned *)&b;
    *(uint2 *)(p + i) = u;
}

/* COLS <= 128 * NV4, a multiple of 4, every row 4-element aligned: like
 * norm_reg_kernel, four elements per load, and gamma and beta fetched
 * with the row rather than after the reductions, so a row costs one
 * memory round trip. */
template <typename T, int NV4>
__global__ void norm_vec_kernel(int is_rms, const T *x, const T *res,
                                const T *gamma, const T *beta, T *y,
                                int64_t rows, int cols, float eps)
{
    int64_t row = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const T *xr = x + row * cols;
    const T *rr = res ? res + row * cols : nullptr;
    T *yr = y + row * cols;
    const float4 zero = make_float4(0.f, 0.f, 0.f, 0.f);
    float4 v[NV4], g[NV4], b[NV4];
    float s = 0.f;
#pragma unroll
    for (int t = 0; t < NV4; t++) {
        int j = (lane + 32 * t) * 4;
        bool in = j < cols;
        v[t] = in ? ld4(xr, j) : zero;
        g[t] = in ? ld4(gamma, j) : zero;
        b[t] = in && !is_rms ? ld4(beta, j) : zero;
        if (rr && in) {
            float4 r = ld4(rr, j);
            v[t] = make_float4(rnd<T>(v[t].x + r.x), rnd<T>(v[t].y + r.y),
                               rnd<T>(v[t].z + r.z), rnd<T>(v[t].w + r.w));
        }
        s += (v[t].x + v[t].y) + (v[t].z + v[t].w);
    }
    float mean = is_rms ? 0.f : warp_sum(s) / (float)cols;
    float q = 0.f;
#pragma unroll
    for (int t = 0; t < NV4; t++) {
        if ((lane + 32 * t) * 4 >= cols)
            continue;
        float a = v[t].x - mean, c = v[t].y - mean;
        float d = v[t].z - mean, e = v[t].w - mean;
        q += (a * a + c * c) + (d * d + e * e);
    }
    float inv = rsqrtf(warp_sum(q) / (float)cols + eps);
#pragma unroll
    for (int t = 0; t < NV4; t++) {
        int j = (lane + 32 * t) * 4;
        if (j >= cols)
            continue;
        st4(yr, j, make_float4((v[t].x - mean) * inv * g[t].x + b[t].x,
                               (v[t].y - mean) * inv * g[t].y + b[t].y,
                               (v[t].z - mean) * inv * g[t].z + b[t].z,
                               (v[t].w - mean) * inv * g[t].w + b[t].w));
    }
}

/* ---- fused attention --------------------------------------------------- */

__device__ __forceinline__ float nanmax(float a, float b)
{
    return (b > a || isnan(b)) ? b : a;
}

__device__ __forceinline__ float warp_nanmax(float v)
{
    for (int o = 16; o > 0; o >>= 1)
        v = nanmax(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float f4(const float4 &v, int u)
{
    return u == 0 ? v.x : u == 1 ? v.y : u == 2 ? v.z : v.w;
}

/* Block: 4 warps, each owning 4 query rows of one (batch, head); keys in
 * tiles of KT staged in shared memory (f32), online softmax per row.
 * Lane l scores keys l, l + 32, ... of a tile and owns output columns
 * l, l + 32, ...
 * VEC: head dims are exactly D, contiguous and 4-element aligned, so
 * q, k and v rows are read four elements at a time, every load of a
 * tile issued before the first store to shared memory (the scalar path
 * waits out one memory latency per element). */
template <typename T, int D, bool VEC, int R>
__global__ void __launch_bounds__(128)
    attn_kernel(const T *q, const T *k, const T *v, T *o, rlxc_attn_plan p)
{
    /* R = 8 rows per warp (VEC, D <= 64) halves the shared-memory reads
     * per FMA and the K/V tiles fetched per row; its tiles are 32 keys
     * so everything still fits in 48 KiB */
    constexpr int KT = (D >= 128 || R == 8) ? 32 : 64, JPL = KT / 32, W = 4;
    constexpr int CPL = D / 32;
    __shared__ __align__(16) float Ks[KT][D + 4];
    __shared__ __align__(16) float Vs[KT][D];
    __shared__ __align__(16) float Qs[W][R][D];
    __shared__ __align__(16) float Ps[W][R][KT];
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int64_t bh = blockIdx.y, b = bh / p.heads, h = bh - b * p.heads;
    const T *qb = q + p.q_off + b * p.q_s[0] + h * p.q_s[1];
    const T *kb = k + p.k_off + b * p.k_s[0] + h * p.k_s[1];
    const T *vb = v + p.v_off + b * p.v_s[0] + h * p.v_s[1];
    T *ob = o + b * p.o_s[0] + h * p.o_s[1];
    int64_t row0 = (int64_t)blockIdx.x * (W * R) + warp * R;
#pragma unroll
    for (int r = 0; r < R; r++) {
        int64_t i = row0 + r;
        if constexpr (VEC) {
            for (int d = lane * 4; d < D; d += 128)
                *(float4 *)&Qs[warp][r][d] =
                    i < p.sq ? ld4(qb, i * p.q_s[2] + d)
                             : make_float4(0.f, 0.f, 0.f, 0.f);
        } else {
            for (int d = lane; d < D; d += 32)
                Qs[warp][r][d] = (i < p.sq && d < p.dh)
                                     ? ld(qb, i * p.q_s[2] + d * p.q_s[3])
                                     : 0.f;
        }
    }
    float m[R], l[R], acc[R][CPL];
#pragma unroll
    for (int r = 0; r < R; r++) {
        m[r] = -INFINITY;
        l[r] = 0.f;
#pragma unroll
        for (int c = 0; c < CPL; c++)
            acc[r][c] = 0.f;
    }
    /* VEC: the next tile is loaded into registers while this one is
     * computed, so its memory latency hides behind the math */
    constexpr int V4 = D / 4, PER = VEC ? KT * V4 / 128 : 1;
    float4 kr[PER], vr[PER];
    auto fetch = [&](int64_t j0) {
#pragma unroll
        for (int it = 0; it < PER; it++) {
            int t = threadIdx.x + it * 128, jj = t / V4;
            int d = (t - jj * V4) * 4;
            int64_t j = j0 + jj;
            kr[it] = j < p.sk ? ld4(kb, j * p.k_s[2] + d)
                              : make_float4(0.f, 0.f, 0.f, 0.f);
            vr[it] = j < p.sk ? ld4(vb, j * p.v_s[2] + d)
                              : make_float4(0.f, 0.f, 0.f, 0.f);
        }
    };
    if constexpr (VEC)
        fetch(0);
    for (int64_t j0 = 0; j0 < p.sk; j0 += KT) {
        if constexpr (VEC) {
            __syncthreads(); /* the last tile is consumed */
#pragma unroll
            for (int it = 0; it < PER; it++) {
                int t = threadIdx.x + it * 128, jj = t / V4;
                int d = (t - jj * V4) * 4;
                *(float4 *)&Ks[jj][d] = kr[it];
                *(float4 *)&Vs[jj][d] = vr[it];
            }
            if (j0 + KT < p.sk)
                fetch(j0 + KT);
        } else {
            __syncthreads(); /* the last tile is consumed */
            for (int t = threadIdx.x; t < KT * D; t += blockDim.x) {
                int jj = t / D, d = t - jj * D;
                int64_t j = j0 + jj;
                int okj = j < p.sk;
                Ks[jj][d] = (okj && d < p.dh)
                                ? ld(kb, j * p.k_s[2] + d * p.k_s[3]) : 0.f;
                Vs[jj][d] = (okj && d < p.dv)
                                ? ld(vb, j * p.v_s[2] + d * p.v_s[3]) : 0.f;
            }
        }
        __syncthreads();
        float s[R][JPL];
#pragma unroll
        for (int r = 0; r < R; r++)
#pragma unroll
            for (int u = 0; u < JPL; u++)
                s[r][u] = 0.f;
#pragma unroll 4
        for (int d = 0; d < D; d += 4) {
            float4 kv[JPL];
#pragma unroll
            for (int u = 0; u < JPL; u++)
                kv[u] = *(const float4 *)&Ks[lane + 32 * u][d];
#pragma unroll
            for (int r = 0; r < R; r++) {
                float4 qv = *(const float4 *)&Qs[warp][r][d];
#pragma unroll
                for (int u = 0; u < JPL; u++) {
                    s[r][u] = fmaf(qv.x, kv[u].x, s[r][u]);
                    s[r][u] = fmaf(qv.y, kv[u].y, s[r][u]);
                    s[r][u] = fmaf(qv.z, kv[u].z, s[r][u]);
                    s[r][u] = fmaf(qv.w, kv[u].w, s[r][u]);
                }
            }
        }
#pragma unroll
        for (int r = 0; r < R; r++) {
            int64_t last = p.causal ? row0 + r + p.sk - p.sq : p.sk - 1;
            float tm = -INFINITY;
#pragma unroll
            for (int u = 0; u < JPL; u++) {
                int64_t j = j0 + lane + 32 * u;
                s[r][u] = (j < p.sk && j <= last) ? s[r][u] * p.scale
                                                  : -INFINITY;
                tm = nanmax(tm, s[r][u]);
            }
            tm = warp_nanmax(tm);
            float mn = nanmax(m[r], tm);
            float corr = mn == -INFINITY ? 1.f : expf(m[r] - mn);
            float ps = 0.f;
#pragma unroll
            for (int u = 0; u < JPL; u++) {
                float pv = s[r][u] == -INFINITY ? 0.f : expf(s[r][u] - mn);
                Ps[warp][r][lane + 32 * u] = pv;
                ps += pv;
            }
            l[r] = l[r] * corr + warp_sum(ps);
            m[r] = mn;
#pragma unroll
            for (int c = 0; c < CPL; c++)
                acc[r][c] *= corr;
        }
        __syncwarp();
#pragma unroll 2
        for (int jj = 0; jj < KT; jj += 4) {
            float4 pv[R];
#pragma unroll
            for (int r = 0; r < R; r++)
                pv[r] = *(const float4 *)&Ps[warp][r][jj];
#pragma unroll
            for (int u = 0; u < 4; u++) {
#pragma unroll
                for (int c = 0; c < CPL; c++) {
                    float vv = Vs[jj + u][lane + 32 * c];
#pragma unroll
                    for (int r = 0; r < R; r++)
                        acc[r][c] = fmaf(f4(pv[r], u), vv, acc[r][c]);
                }
            }
        }
        __syncwarp();
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
        int64_t i = row0 + r;
        if (i >= p.sq)
            continue;
        float inv = l[r] > 0.f ? 1.f / l[r] : (l[r] == 0.f ? 0.f : l[r]);
#pragma unroll
        for (int c = 0; c < CPL; c++) {
            int d = lane + 32 * c;
            if (d < p.dv)
                st(ob, i * p.o_s[2] + d * p.o_s[3], acc[r][c] * inv);
        }
    }
}

/* ---- matrix-vector: few rows times a Linear-layout weight ------------------ */

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

/* y[r, c] = sum_k x[r, k] w[c, k] (+ bias[c], then relu) for the ROWS
 * (<= R) rows of x: a batch-1 layer, bound by streaming W once. WPC warps
 * (1, 2, 4 or 8) share an output column, each reading every WPC-th
 * stretch of its row of W with eight loads in flight per lane, so a
 * layer of few columns still has enough loads in flight; x's rows are
 * tiny and stay in cache. VEC: K is a multiple of 4 and the bases
 * aligned, so loads are 4 elements wide. EARLY: W is never written by
 * the graph (a param), so its first loads are issued before waiting for
 * the previous kernel (which made x) to finish. */
template <typename T, int R, bool VEC>
__global__ void __launch_bounds__(256)
    gemv_nt_kernel(const T *__restrict__ x, const T *__restrict__ w,
                   const T *__restrict__ bias, T *__restrict__ y,
                   int rows, int64_t n, int64_t k, int wpc, int flags)
{
    __shared__ float part[8][R];
    grid_dep_release(); /* the next layer may start loading its weights */
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int cpb = 8 / wpc, slot = warp / wpc, piece = warp - slot * wpc;
    int64_t c = (int64_t)blockIdx.x * cpb + slot;
    bool live = c < n;
    const T *wr = w + (live ? c : 0) * k;
    float acc[R];
#pragma unroll
    for (int r = 0; r < R; r++)
        acc[r] = 0.f;
    if constexpr (VEC) {
        /* up to U loads of W in flight per lane; predicated, so a short
         * row (K = 784) is one round trip, not several */
        constexpr int U = 8;
        int64_t step = (int64_t)wpc * 128;
        int64_t i0 = (int64_t)piece * 128 + lane * 4;
        float4 wv[U];
        auto load_w = [&](int64_t at) {
#pragma unroll
            for (int u = 0; u < U; u++)
                wv[u] = live && at + u * step < k
                            ? ld4_stream(wr, at + u * step)
                            : make_float4(0.f, 0.f, 0.f, 0.f);
        };
        if (flags & RLXC_GEMV_EARLY)
            load_w(i0);
        grid_dep_wait();
        if (!(flags & RLXC_GEMV_EARLY))
            load_w(i0);
        while (live && i0 < k) {
#pragma unroll
            for (int r = 0; r < R; r++) {
                if (r >= rows)
                    break;
#pragma unroll
                for (int u = 0; u < U; u++) {
                    if (i0 + u * step >= k)
                        break;
                    float4 xv = ld4(x + r * k, i0 + u * step);
                    acc[r] = fmaf(xv.x, wv[u].x, acc[r]);
                    acc[r] = fmaf(xv.y, wv[u].y, acc[r]);
                    acc[r] = fmaf(xv.z, wv[u].z, acc[r]);
                    acc[r] = fmaf(xv.w, wv[u].w, acc[r]);
                }
            }
            i0 += U * step;
            if (i0 < k)
                load_w(i0);
        }
    } else {
        grid_dep_wait();
        for (int64_t i = piece * 32 + lane; live && i < k; i += wpc * 32) {
            float wv = ld(wr, i);
#pragma unroll
            for (int r = 0; r < R; r++)
                if (r < rows)
                    acc[r] = fmaf(ld(x, r * k + i), wv, acc[r]);
        }
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
        float v = warp_sum(acc[r]);
        if (lane == 0)
            part[warp][r] = v;
    }
    __syncthreads();
    if (!live || piece != 0 || lane >= R || lane >= rows)
        return;
    float v = 0.f;
    for (int p = 0; p < wpc; p++) /* fixed order: deterministic */
        v += part[warp + p][lane];
    if (bias)
        v += ld(bias, c);
    st(y, lane * n + c, (flags & RLXC_GEMV_RELU) && v < 0.f ? 0.f : v);
}

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
                                    rlxc_reduce_plan p)
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
                              __shfl_xor_sync(0xffffffffu, acc, off));
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
                                     rlxc_reduce_plan p)
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
    case RLX_DTYPE_F16:
        v.is_float = 1; v.f = __half2float(((const __half *)p)[k]); break;
    case RLX_DTYPE_BF16:
        v.is_float = 1;
        v.f = __bfloat162float(((const __nv_bfloat16 *)p)[k]);
        break;
    case RLX_DTYPE_I32: v.i = ((const int32_t *)p)[k]; break;
    case RLX_DTYPE_I64: v.i = ((const long long *)p)[k]; break;
    case RLX_DTYPE_I8: v.i = ((const int8_t *)p)[k]; break;
    case RLX_DTYPE_U8: v.i = ((const uint8_t *)p)[k]; break;
    case RLX_DTYPE_BOOL: v.i = ((const uint8_t *)p)[k] != 0; break;
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
        ((__half *)p)[k] = v.is_float ? __double2half(v.f)
                                      : __ll2half_rn(v.i);
        break;
    case RLX_DTYPE_BF16:
        ((__nv_bfloat16 *)p)[k] = v.is_float ? __double2bfloat16(v.f)
                                             : __ll2bfloat16_rn(v.i);
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

/* ---- dispatch helpers -------------------------------------------------- */

template <template <typename> class F, typename... Args>
cudaError_t by_float(int dtype, Args... args)
{
    switch (dtype) {
    case RLX_DTYPE_F32: return F<float>::run(args...);
    case RLX_DTYPE_F16: return F<__half>::run(args...);
    case RLX_DTYPE_BF16: return F<__nv_bfloat16>::run(args...);
    default: return cudaErrorInvalidValue;
    }
}

template <typename T> struct UnaryL {
    static cudaError_t run(cudaStream_t s, int op, int approx, const void *x,
                           void *y, int64_t n)
    {
        unary_kernel<T><<<grid_for(n), kThreads, 0, s>>>(
            op, approx, (const T *)x, (T *)y, n);
        return cudaGetLastError();
    }
};

template <typename T> struct BinaryL {
    static cudaError_t run(cudaStream_t s, int op, const void *a,
                           const void *b, void *y, int64_t n,
                           const rlxc_bcast *p)
    {
        if (!p || (p->a.mode == 0 && p->b.mode == 0))
            binary_same_kernel<T><<<grid_for(n), kThreads, 0, s>>>(
                op, (const T *)a, (const T *)b, (T *)y, n);
        else
            binary_kernel<T><<<grid_for(n), kThreads, 0, s>>>(
                op, (const T *)a, (const T *)b, (T *)y, n, *p);
        return cudaGetLastError();
    }
};

template <typename T> struct SoftmaxL {
    static cudaError_t run(cudaStream_t s, const void *x, void *y,
                           int64_t outer, int64_t len, int64_t inner,
                           int64_t causal_rows)
    {
        if (inner == 1) {
            const int rows_per_block = 4;
            int64_t blocks = (outer + rows_per_block - 1) / rows_per_block;
            softmax_rows_kernel<T><<<(unsigned)blocks, 32 * rows_per_block, 0,
                                     s>>>((const T *)x, (T *)y, outer, len,
                                          causal_rows);
        } else {
            softmax_cols_kernel<T><<<grid_for(outer * inner), kThreads, 0,
                                     s>>>((const T *)x, (T *)y, outer, len,
                                          inner);
        }
        return cudaGetLastError();
    }
};

template <typename T> struct NormL {
    static cudaError_t run(cudaStream_t s, int is_rms, const void *x,
                           const void *r, const void *g, const void *b,
                           void *y, int64_t rows, int64_t cols, float eps)
    {
        const int rows_per_block = 4;
        int64_t blocks = (rows + rows_per_block - 1) / rows_per_block;
        const T *xt = (const T *)x, *rt = (const T *)r;
        const T *gt = (const T *)g, *bt = (const T *)b;
        dim3 grid((unsigned)blocks), block(32 * rows_per_block);
        const uintptr_t a = 4 * sizeof(T);
        bool vec = cols % 4 == 0 && (uintptr_t)x % a == 0 &&
                   (uintptr_t)r % a == 0 && (uintptr_t)g % a == 0 &&
                   (uintptr_t)b % a == 0 && (uintptr_t)y % a == 0;
        if (vec && cols <= 128)
            norm_vec_kernel<T, 1><<<grid, block, 0, s>>>(
                is_rms, xt, rt, gt, bt, (T *)y, rows, (int)cols, eps);
        else if (vec && cols <= 512)
            norm_vec_kernel<T, 4><<<grid, block, 0, s>>>(
                is_rms, xt, rt, gt, bt, (T *)y, rows, (int)cols, eps);
        else if (vec && cols <= 1024)
            norm_vec_kernel<T, 8><<<grid, block, 0, s>>>(
                is_rms, xt, rt, gt, bt, (T *)y, rows, (int)cols, eps);
        else if (cols <= 128)
            norm_reg_kernel<T, 4><<<grid, block, 0, s>>>(
                is_rms, xt, rt, gt, bt, (T *)y, rows, (int)cols, eps);
        else if (cols <= 512)
            norm_reg_kernel<T, 16><<<grid, block, 0, s>>>(
                is_rms, xt, rt, gt, bt, (T *)y, rows, (int)cols, eps);
        else if (cols <= 1024)
            norm_reg_kernel<T, 32><<<grid, block, 0, s>>>(
                is_rms, xt, rt, gt, bt, (T *)y, rows, (int)cols, eps);
        else
            norm_kernel<T><<<grid, block, 0, s>>>(is_rms, xt, rt, gt, bt,
                                                  (T *)y, rows, cols, eps);
        return cudaGetLastError();
    }
};

template <typename T> struct AttnL {
    static cudaError_t run(cudaStream_t s, const void *q, const void *k,
                           const void *v, void *o, const rlxc_attn_plan *p)
    {
        int64_t dmax = p->dh > p->dv ? p->dh : p->dv;
        dim3 grid((unsigned)((p->sq + 15) / 16),
                  (unsigned)(p->batch * p->heads));
        const T *qt = (const T *)q, *kt = (const T *)k, *vt = (const T *)v;
        T *ot = (T *)o;
        /* 32 query rows per block where there are enough rows, else 16 */
        dim3 grid32((unsigned)((p->sq + 31) / 32), grid.y);
        bool vec = p->dh == p->dv && vec_ok(q, k, v, p), wide = p->sq >= 64;
        if (vec && p->dh == 32 && wide)
            attn_kernel<T, 32, true, 8><<<grid32, 128, 0, s>>>(qt, kt, vt, ot,
                                                               *p);
        else if (vec && p->dh == 64 && wide)
            attn_kernel<T, 64, true, 8><<<grid32, 128, 0, s>>>(qt, kt, vt, ot,
                                                               *p);
        else if (vec && p->dh == 32)
            attn_kernel<T, 32, true, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                             *p);
        else if (vec && p->dh == 64)
            attn_kernel<T, 64, true, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                             *p);
        else if (vec && p->dh == 128)
            attn_kernel<T, 128, true, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                              *p);
        else if (dmax <= 32)
            attn_kernel<T, 32, false, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                              *p);
        else if (dmax <= 64)
            attn_kernel<T, 64, false, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                              *p);
        else if (dmax <= 128)
            attn_kernel<T, 128, false, 4><<<grid, 128, 0, s>>>(qt, kt, vt, ot,
                                                               *p);
        else
            return cudaErrorInvalidValue;
        return cudaGetLastError();
    }

    /* Rows of q, k and v contiguous and every row start 4-element
     * aligned, so the kernel may read them as vectors. */
    static bool vec_ok(const void *q, const void *k, const void *v,
                       const rlxc_attn_plan *p)
    {
        const uintptr_t a = 4 * sizeof(T);
        if ((uintptr_t)q % a || (uintptr_t)k % a || (uintptr_t)v % a ||
            p->q_s[3] != 1 || p->k_s[3] != 1 || p->v_s[3] != 1)
            return false;
        int64_t m = p->q_off | p->k_off | p->v_off;
        for (int d = 0; d < 3; d++)
            m |= p->q_s[d] | p->k_s[d] | p->v_s[d];
        return (m & 3) == 0;
    }
};

template <typename T> struct GemvL {
    static cudaError_t run(cudaStream_t s, const void *x, const void *w,
                           const void *bias, void *y, int64_t rows,
                           int64_t n, int64_t k, int wpc, int flags)
    {
        const uintptr_t a = 4 * sizeof(T);
        bool vec = k % 4 == 0 && (uintptr_t)x % a == 0 &&
                   (uintptr_t)w % a == 0;
        /* 0: enough warps to keep loads in flight, 8 per column when
         * there are few columns, 1 when there are thousands */
        if (wpc == 0)
            wpc = n >= 2048 ? 1 : n >= 1024 ? 2 : n >= 512 ? 4 : 8;
        if (wpc != 1 && wpc != 2 && wpc != 4 && wpc != 8)
            return cudaErrorInvalidValue;
        unsigned grid = (unsigned)((n + 8 / wpc - 1) / (8 / wpc));
        const T *xt = (const T *)x, *wt = (const T *)w;
        const T *bt = (const T *)bias;
        int r = (int)rows;
        if (rows <= 1)
            return launch<1>(vec, grid, s, xt, wt, bt, (T *)y, r, n, k, wpc,
                             flags);
        if (rows <= 2)
            return launch<2>(vec, grid, s, xt, wt, bt, (T *)y, r, n, k, wpc,
                             flags);
        if (rows <= 4)
            return launch<4>(vec, grid, s, xt, wt, bt, (T *)y, r, n, k, wpc,
                             flags);
        if (rows <= 8)
            return launch<8>(vec, grid, s, xt, wt, bt, (T *)y, r, n, k, wpc,
                             flags);
        return cudaErrorInvalidValue;
    }

    template <int R>
    static cudaError_t launch(bool vec, unsigned grid, cudaStream_t s,
                              const T *x, const T *w, const T *bias, T *y,
                              int rows, int64_t n, int64_t k, int wpc,
                              int flags)
    {
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[0].val.programmaticStreamSerializationAllowed = 1;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3(grid);
        cfg.blockDim = dim3(256);
        cfg.stream = s;
        cfg.attrs = attr;
        cfg.numAttrs = (flags & RLXC_GEMV_PDL) ? 1 : 0;
        if (vec)
            return cudaLaunchKernelEx(&cfg, gemv_nt_kernel<T, R, true>, x, w,
                                      bias, y, rows, n, k, wpc, flags);
        return cudaLaunchKernelEx(&cfg, gemv_nt_kernel<T, R, false>, x, w,
                                  bias, y, rows, n, k, wpc, flags);
    }
};

template <typename T> struct ReduceL {
    static cudaError_t run(cudaStream_t s, int op, const void *x, void *y,
                           const rlxc_reduce_plan *p)
    {
        if (p->n_red >= 512 && p->n_out < 65536LL * 16)
            reduce_block_kernel<T><<<(unsigned)(p->n_out ? p->n_out : 1), 256,
                                     0, s>>>(op, (const T *)x, (T *)y, *p);
        else
            reduce_thread_kernel<T><<<grid_for(p->n_out), kThreads, 0, s>>>(
                op, (const T *)x, (T *)y, *p);
        return cudaGetLastError();
    }
};

template <typename E>
cudaError_t copy_as(cudaStream_t s, const void *src, void *dst,
                    const rlxc_copy_plan *p)
{
    copy_kernel<E><<<grid_for(p->count), kThreads, 0, s>>>(
        (const E *)src, (E *)dst, *p);
    return cudaGetLastError();
}

template <typename E>
cudaError_t gather_as(cudaStream_t s, const void *data, const void *idx,
                      int is64, void *y, int64_t outer, int64_t dim,
                      int64_t n_idx, int64_t inner, int *err)
{
    gather_kernel<E><<<grid_for(outer * n_idx * inner), kThreads, 0, s>>>(
        (const E *)data, idx, is64, (E *)y, outer, dim, n_idx, inner, err);
    return cudaGetLastError();
}

} /* namespace */

/* ---- launchers ------------------------------------------------------------ */

extern "C" cudaError_t rlxc_unary(cudaStream_t s, int dtype, int op,
                                  int approx, const void *x, void *y,
                                  int64_t n)
{
    return n ? by_float<UnaryL>(dtype, s, op, approx, x, y, n) : cudaSuccess;
}

extern "C" cudaError_t rlxc_binary(cudaStream_t s, int dtype, int op,
                                   const void *a, const void *b, void *y,
                                   int64_t n, const rlxc_bcast *plan)
{
    return n ? by_float<BinaryL>(dtype, s, op, a, b, y, n, plan)
             : cudaSuccess;
}

extern "C" cudaError_t rlxc_copy(cudaStream_t s, size_t elem_size,
                                 const void *src, void *dst,
                                 const rlxc_copy_plan *plan)
{
    if (plan->count == 0)
        return cudaSuccess;
    switch (elem_size) {
    case 1: return copy_as<uint8_t>(s, src, dst, plan);
    case 2: return copy_as<uint16_t>(s, src, dst, plan);
    case 4: return copy_as<uint32_t>(s, src, dst, plan);
    case 8: return copy_as<unsigned long long>(s, src, dst, plan);
    default: return cudaErrorInvalidValue;
    }
}

extern "C" cudaError_t rlxc_softmax(cudaStream_t s, int dtype, const void *x,
                                    void *y, int64_t outer, int64_t len,
                                    int64_t inner, int64_t causal_rows)
{
    if (outer == 0 || len == 0 || inner == 0)
        return cudaSuccess;
    return by_float<SoftmaxL>(dtype, s, x, y, outer, len, inner, causal_rows);
}

extern "C" cudaError_t rlxc_norm(cudaStream_t s, int dtype, int is_rms,
                                 const void *x, const void *res,
                                 const void *gamma, const void *beta,
                                 void *y, int64_t rows, int64_t cols,
                                 float eps)
{
    if (rows == 0 || cols == 0)
        return cudaSuccess;
    return by_float<NormL>(dtype, s, is_rms, x, res, gamma, beta, y, rows,
                           cols, eps);
}

extern "C" cudaError_t rlxc_attention(cudaStream_t s, int dtype,
                                      const void *q, const void *k,
                                      const void *v, void *o,
                                      const rlxc_attn_plan *plan)
{
    if (plan->batch * plan->heads * plan->sq * plan->dv == 0)
        return cudaSuccess;
    if (plan->batch * plan->heads > 65535)
        return cudaErrorInvalidValue;
    return by_float<AttnL>(dtype, s, q, k, v, o, plan);
}

extern "C" cudaError_t rlxc_gemv(cudaStream_t s, int dtype, const void *x,
                                 const void *w, const void *bias, void *y,
                                 int64_t rows, int64_t n, int64_t k, int wpc,
                                 int flags)
{
    if (rows * n == 0)
        return cudaSuccess;
    if (n > INT32_MAX)
        return cudaErrorInvalidValue;
    return by_float<GemvL>(dtype, s, x, w, bias, y, rows, n, k, wpc, flags);
}

extern "C" cudaError_t rlxc_reduce(cudaStream_t s, int dtype, int op,
                                   const void *x, void *y,
                                   const rlxc_reduce_plan *plan)
{
    if (plan->n_out == 0)
        return cudaSuccess;
    return by_float<ReduceL>(dtype, s, op, x, y, plan);
}

extern "C" cudaError_t rlxc_gather(cudaStream_t s, size_t elem_size,
                                   const void *data, const void *idx,
                                   int idx_is_i64, void *y, int64_t outer,
                                   int64_t dim, int64_t n_idx, int64_t inner,
                                   int *err)
{
    if (outer * n_idx * inner == 0)
        return cudaSuccess;
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
    default: return cudaErrorInvalidValue;
    }
}

extern "C" cudaError_t rlxc_cast(cudaStream_t s, int src_dtype,
                                 int dst_dtype, const void *x, void *y,
                                 int64_t n)
{
    if (n == 0)
        return cudaSuccess;
    cast_kernel<<<grid_for(n), kThreads, 0, s>>>(src_dtype, dst_dtype, x, y,
                                                 n);
    return cudaGetLastError();
}

extern "C" cudaError_t rlxc_fill(cudaStream_t s, int dtype, void *y,
                                 int64_t n, double value)
{
    if (n == 0)
        return cudaSuccess;
    fill_kernel<<<grid_for(n), kThreads, 0, s>>>(dtype, y, n, value);
    return cudaGetLastError();
}
