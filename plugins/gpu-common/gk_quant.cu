/*
 * gk_quant.cu - the quantization kernels: quantize_linear and
 * dequantize_linear (per tensor, per axis, blocked), matmul_integer and
 * conv_integer. Each result element is computed as cpu-ref computes it
 * (kernels_quant.c), so results are bit-exact: the quotient x / scale in
 * f32 rounded half to even (rintf) before the zero point is added, then
 * saturated; dequantize in f32; integer sums in 32 bits, which wrap as
 * cpu-ref's int64 sums truncated to i32 do. The integer products use
 * DP4A (four byte products per instruction) where the arch has it.
 * Kernels and launchers together; written against gpu_vendor.h, so nvcc
 * and hipcc compile this same file.
 */
#include "gk_value.cuh"
#include "gpu_kernels.h"
#include "gpu_kernels_quant.h"

namespace {

/* The scale (and zero point) element of x element E (cpu-ref's
 * scale_index). */
__device__ __forceinline__ int64_t scale_index(const rlxg_quant_plan &p,
                                               int64_t e)
{
    switch (p.mode) {
    case RLXG_QUANT_AXIS: return (e / p.inner) % p.len;
    case RLXG_QUANT_BLOCKED: {
        int64_t i = e % p.inner, k = (e / p.inner) % p.len;
        int64_t o = e / (p.inner * p.len);
        return (o * p.n_blocks + k / p.block) * p.inner + i;
    }
    default: return 0;
    }
}

__global__ void quantize_kernel(const void *x, const void *scale,
                                const void *zp, void *y, rlxg_quant_plan p)
{
    long long lo = p.y_dtype == RLX_DTYPE_I8 ? -128 : 0;
    long long hi = p.y_dtype == RLX_DTYPE_I8 ? 127 : 255;
    GRID_LOOP(e, p.count) {
        int64_t k = scale_index(p, e);
        long long z = load_i(p.y_dtype, zp, k);
        /* f32 operands (f16 and bf16 widen exactly), an f32 quotient */
        float q = (float)load_f(p.x_dtype, x, e) /
                  (float)load_f(p.x_dtype, scale, k);
        long long v;
        if (isnan(q)) {
            v = z;
        } else {
            double r = (double)rintf(q) + (double)z; /* half to even */
            v = r <= (double)lo ? lo : r >= (double)hi ? hi : (long long)r;
        }
        store_i(p.y_dtype, y, e, v);
    }
}

__global__ void dequantize_kernel(const void *x, const void *scale,
                                  const void *zp, void *y, rlxg_quant_plan p)
{
    GRID_LOOP(e, p.count) {
        int64_t k = scale_index(p, e);
        /* in f32: (float(x) - float(zp)) * scale, then the result's
         * rounding (an i32 beyond 2^24 rounds to f32 first) */
        float d = (float)load_i(p.x_dtype, x, e) -
                  (float)load_i(p.x_dtype, zp, k);
        float v = d * (float)load_f(p.y_dtype, scale, k);
        store_f(p.y_dtype, y, e, (double)v);
    }
}

/* Four signed byte products summed into ACC: DP4A where the arch has it
 * (sm_61 on), a loop elsewhere (and on AMD). */
__device__ __forceinline__ int dot4(int a, int b, int acc)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 610
    return __dp4a(a, b, acc);
#else
    for (int s = 0; s < 32; s += 8)
        acc += (int)(signed char)(a >> s) * (int)(signed char)(b >> s);
    return acc;
#endif
}

/* y[t, i, j] = sum_q (a - za) (b - zb), one thread per element; the
 * sums wrap in unsigned 32 bits (no signed overflow). */
template <typename A, typename B>
__global__ void matmul_integer_kernel(const A *a, const B *b, const A *za,
                                      const B *zb, int32_t *y,
                                      rlxg_quant_plan p)
{
    GRID_LOOP(e, p.count) {
        int64_t j = e % p.n, i = (e / p.n) % p.m, t = e / (p.n * p.m);
        int64_t ao = 0, bo = 0;
        for (uint32_t d = p.brank; d-- > 0;) {
            int64_t c = t % p.bdims[d];
            t /= p.bdims[d];
            ao += c * p.a_bstride[d];
            bo += c * p.b_bstride[d];
        }
        int zi = (int)za[p.za_per ? i : 0], zj = (int)zb[p.zb_per ? j : 0];
        const A *ar = a + ao + i * p.a_row;
        const B *bc = b + bo + j * p.b_col;
        unsigned acc = 0;
        for (int64_t q = 0; q < p.k; q++)
            acc += (unsigned)(((int)ar[q * p.a_col] - zi) *
                              ((int)bc[q * p.b_row] - zj));
        y[e] = (int32_t)acc;
    }
}

/* i8 by i8 with a's rows contiguous along k: four products per DP4A.
 * The zero points come out of the sum afterwards, exactly in wrapping
 * 32-bit arithmetic: sum (a - zi)(b - zj) = sum ab - zj sum a - zi sum b
 * + k zi zj. */
__global__ void matmul_s8_dp4a_kernel(const int8_t *a, const int8_t *b,
                                      const int8_t *za, const int8_t *zb,
                                      int32_t *y, rlxg_quant_plan p)
{
    const int ones = 0x01010101;
    GRID_LOOP(e, p.count) {
        int64_t j = e % p.n, i = (e / p.n) % p.m, t = e / (p.n * p.m);
        int64_t ao = 0, bo = 0;
        for (uint32_t d = p.brank; d-- > 0;) {
            int64_t c = t % p.bdims[d];
            t /= p.bdims[d];
            ao += c * p.a_bstride[d];
            bo += c * p.b_bstride[d];
        }
        const int8_t *ar = a + ao + i * p.a_row;
        const int8_t *bc = b + bo + j * p.b_col;
        int ab = 0, sa = 0, sb = 0;
        int64_t q = 0;
        for (; q + 4 <= p.k; q += 4) {
            unsigned av = (unsigned)(uint8_t)ar[q] |
                          (unsigned)(uint8_t)ar[q + 1] << 8 |
                          (unsigned)(uint8_t)ar[q + 2] << 16 |
                          (unsigned)(uint8_t)ar[q + 3] << 24;
            unsigned bv = (unsigned)(uint8_t)bc[q * p.b_row] |
                          (unsigned)(uint8_t)bc[(q + 1) * p.b_row] << 8 |
                          (unsigned)(uint8_t)bc[(q + 2) * p.b_row] << 16 |
                          (unsigned)(uint8_t)bc[(q + 3) * p.b_row] << 24;
            /* each partial sum fits i32 below 2^17 steps; k beyond that
             * takes the plain kernel (the launcher checks) */
            ab = dot4((int)av, (int)bv, ab);
            sa = dot4((int)av, ones, sa);
            sb = dot4((int)bv, ones, sb);
        }
        for (; q < p.k; q++) {
            ab += (int)ar[q] * (int)bc[q * p.b_row];
            sa += ar[q];
            sb += bc[q * p.b_row];
        }
        unsigned zi = (unsigned)(int)za[p.za_per ? i : 0];
        unsigned zj = (unsigned)(int)zb[p.zb_per ? j : 0];
        unsigned u = (unsigned)ab - zj * (unsigned)sa - zi * (unsigned)sb +
                     (unsigned)p.k * zi * zj;
        y[e] = (int32_t)u;
    }
}

/* conv_integer, one thread per output element (cpu-ref's loop): taps
 * outside x are padding, x's zero point, 0 after the shift. */
template <typename X, typename W>
__global__ void conv_integer_kernel(const X *x, const W *w, const X *zx,
                                    const W *zw, int32_t *y,
                                    rlxg_win_plan wp, rlxg_quant_plan p)
{
    int64_t cg = wp.c / wp.group, mg = wp.m / wp.group;
    int xz = (int)zx[0];
    GRID_LOOP(e, p.count) {
        int64_t o = e % wp.out_sp, m = (e / wp.out_sp) % wp.m;
        int64_t b = e / (wp.out_sp * wp.m), g = m / mg;
        int64_t oc[RLXG_MAX_SPATIAL];
        int64_t r = o;
        for (int d = wp.s; d-- > 0;) {
            oc[d] = r % wp.out[d];
            r /= wp.out[d];
        }
        int wz = (int)zw[p.zb_per ? m : 0];
        unsigned acc = 0;
        for (int64_t kk = 0; kk < wp.k_sp; kk++) {
            int64_t kr = kk, xoff = 0, at[RLXG_MAX_SPATIAL];
            bool inside = true;
            for (int d = wp.s; d-- > 0;) {
                int64_t kc = kr % wp.k[d];
                kr /= wp.k[d];
                at[d] = oc[d] * wp.stride[d] + kc * wp.dil[d] - wp.pad[d];
                inside = inside && at[d] >= 0 && at[d] < wp.in[d];
            }
            if (!inside)
                continue;
            for (int d = 0; d < wp.s; d++)
                xoff = xoff * wp.in[d] + at[d];
            const X *xp = x + (b * wp.c + g * cg) * wp.in_sp + xoff;
            const W *wq = w + m * cg * wp.k_sp + kk;
            for (int64_t c = 0; c < cg; c++)
                acc += (unsigned)(((int)xp[c * wp.in_sp] - xz) *
                                  ((int)wq[c * wp.k_sp] - wz));
        }
        y[e] = (int32_t)acc;
    }
}

template <typename A, typename B>
gpuError_t matmul_launch(gpuStream_t s, const void *a, const void *b,
                         const void *za, const void *zb, int32_t *y,
                         const rlxg_quant_plan *p)
{
    matmul_integer_kernel<A, B><<<grid_for(p->count), kThreads, 0, s>>>(
        (const A *)a, (const B *)b, (const A *)za, (const B *)zb, y, *p);
    return gpuGetLastError();
}

template <typename X, typename W>
gpuError_t conv_launch(gpuStream_t s, const void *x, const void *w,
                       const void *zx, const void *zw, int32_t *y,
                       const rlxg_win_plan *wp, const rlxg_quant_plan *p)
{
    conv_integer_kernel<X, W><<<grid_for(p->count), kThreads, 0, s>>>(
        (const X *)x, (const W *)w, (const X *)zx, (const W *)zw, y, *wp,
        *p);
    return gpuGetLastError();
}

} // namespace

extern "C" gpuError_t rlxg_quantize(gpuStream_t s, const void *x,
                                    const void *scale, const void *zp,
                                    void *y, const rlxg_quant_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    if (p->op == RLX_OP_QUANTIZE_LINEAR)
        quantize_kernel<<<grid_for(p->count), kThreads, 0, s>>>(x, scale, zp,
                                                                y, *p);
    else
        dequantize_kernel<<<grid_for(p->count), kThreads, 0, s>>>(
            x, scale, zp, y, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_matmul_integer(gpuStream_t s, const void *a,
                                          const void *b, const void *za,
                                          const void *zb, int32_t *y,
                                          const rlxg_quant_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    bool a8 = p->x_dtype == RLX_DTYPE_I8, b8 = p->w_dtype == RLX_DTYPE_I8;
    /* the DP4A path: i8 operands, a's rows contiguous, and k small
     * enough that 128 * 128 * k stays within i32 */
    if (a8 && b8 && p->a_col == 1 && p->k < (1 << 17)) {
        matmul_s8_dp4a_kernel<<<grid_for(p->count), kThreads, 0, s>>>(
            (const int8_t *)a, (const int8_t *)b, (const int8_t *)za,
            (const int8_t *)zb, y, *p);
        return gpuGetLastError();
    }
    if (a8 && b8)
        return matmul_launch<int8_t, int8_t>(s, a, b, za, zb, y, p);
    if (a8)
        return matmul_launch<int8_t, uint8_t>(s, a, b, za, zb, y, p);
    if (b8)
        return matmul_launch<uint8_t, int8_t>(s, a, b, za, zb, y, p);
    return matmul_launch<uint8_t, uint8_t>(s, a, b, za, zb, y, p);
}

extern "C" gpuError_t rlxg_conv_integer(gpuStream_t s, const void *x,
                                        const void *w, const void *zx,
                                        const void *zw, int32_t *y,
                                        const rlxg_win_plan *win,
                                        const rlxg_quant_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    bool x8 = p->x_dtype == RLX_DTYPE_I8, w8 = p->w_dtype == RLX_DTYPE_I8;
    if (x8 && w8)
        return conv_launch<int8_t, int8_t>(s, x, w, zx, zw, y, win, p);
    if (x8)
        return conv_launch<int8_t, uint8_t>(s, x, w, zx, zw, y, win, p);
    if (w8)
        return conv_launch<uint8_t, int8_t>(s, x, w, zx, zw, y, win, p);
    return conv_launch<uint8_t, uint8_t>(s, x, w, zx, zw, y, win, p);
}
