/*
 * gk_qconv.cu - the fused quantized conv: the requantization chain a
 * quantized ONNX conv lowers to (conv_integer -> add i32 bias -> cast
 * f32 -> mul -> quantize_linear -> max / min on bytes) as one epilogue
 * kernel over the conv's accumulators, and the operand preparation for
 * a vendor int8 conv (cuDNN). Every element is computed as cpu-ref
 * computes the chain, op by op in its order (i32 add wrapping, the cast
 * rounding to nearest, one f32 product, the f32 quotient rounded half to
 * even, the zero point added, saturated, then the bounds), so the bytes
 * are cpu-ref's.
 *
 * The vendor conv runs on x shifted to i8 (x - 128 for u8, x for i8),
 * padded explicitly with the shifted zero point, and w - w_zp as i8,
 * channels last and padded to multiples of 4: then
 *   sum (x - zx)(w - zw) = sum x'w' + (shift - zx) * sum w'
 * over every tap, padding included (a padded tap's x - zx is 0), so the
 * zero points leave one per-channel correction. Its f32 sums are exact
 * below 2^24; an element at or beyond that, or a filter whose w - w_zp
 * does not fit i8, is summed again here exactly from x and w.
 */
#include "gk_value.cuh"
#include "gpu_kernels.h"
#include "gpu_kernels_quant.h"

namespace {

/* cpu-ref's chain on accumulator ACC of output channel M. */
__device__ __forceinline__ long long chain_value(unsigned acc, int64_t m,
                                                 const rlxg_qchain_ptrs &c,
                                                 const rlxg_quant_plan &p)
{
    if (c.bias)
        acc += (unsigned)((const int32_t *)c.bias)[p.bias_per ? m : 0];
    float f = __int2float_rn((int)acc);
    f = __fmul_rn(f, ((const float *)c.mult)[p.mult_per ? m : 0]);
    float q = __fdiv_rn(f, *(const float *)c.scale);
    long long lo = p.y_dtype == RLX_DTYPE_I8 ? -128 : 0;
    long long hi = p.y_dtype == RLX_DTYPE_I8 ? 127 : 255;
    long long z = load_i(p.y_dtype, c.zp, 0), v;
    if (isnan(q)) {
        v = z;
    } else {
        double r = (double)rintf(q) + (double)z; /* half to even */
        v = r <= (double)lo ? lo : r >= (double)hi ? hi : (long long)r;
    }
    if (c.lo) {
        long long b = load_i(p.y_dtype, c.lo, 0);
        v = v < b ? b : v;
    }
    if (c.hi) {
        long long b = load_i(p.y_dtype, c.hi, 0);
        v = v > b ? b : v;
    }
    return v;
}

/* The exact i32 sum of output (b, m, spatial o), as conv_integer's
 * kernel computes it (taps outside x contribute nothing). */
__device__ unsigned exact_sum(const void *x, const void *w, int xz,
                              const void *zw, int64_t b, int64_t m, int64_t o,
                              const rlxg_win_plan &wp,
                              const rlxg_quant_plan &p)
{
    int64_t cg = wp.c / wp.group, mg = wp.m / wp.group, g = m / mg;
    int64_t oc[RLXG_MAX_SPATIAL], r = o;
    for (int d = wp.s; d-- > 0;) {
        oc[d] = r % wp.out[d];
        r /= wp.out[d];
    }
    int wz = (int)load_i(p.w_dtype, zw, p.zb_per ? m : 0);
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
        int64_t xo = (b * wp.c + g * cg) * wp.in_sp + xoff;
        int64_t wo = m * cg * wp.k_sp + kk;
        for (int64_t c = 0; c < cg; c++)
            acc += (unsigned)(((int)load_i(p.x_dtype, x, xo + c * wp.in_sp) -
                               xz) *
                              ((int)load_i(p.w_dtype, w, wo + c * wp.k_sp) -
                               wz));
    }
    return acc;
}

/* The chain over i32 accumulators [n, m, spatial] (conv_integer's). */
__global__ void chain_i32_kernel(const int32_t *acc, rlxg_qchain_ptrs c,
                                 void *y, rlxg_win_plan wp,
                                 rlxg_quant_plan p)
{
    GRID_LOOP(e, p.count) {
        int64_t m = (e / wp.out_sp) % wp.m;
        store_i(p.y_dtype, y, e, chain_value((unsigned)acc[e], m, c, p));
    }
}

enum { TILE = 32, ROWS = 8 };

/* The chain over the vendor conv's f32 sums [n, spatial, m4] (channels
 * last), written [n, m, spatial]: a 32 x 32 tile of (position, channel)
 * per block, transposed through shared memory so both sides coalesce. */
__global__ void chain_f32_kernel(const float *acc, int64_t m4,
                                 const int32_t *wsum, const int *wbad,
                                 int shift, const void *x, const void *w,
                                 const void *zx, const void *zw,
                                 rlxg_qchain_ptrs c, void *y,
                                 rlxg_win_plan wp, rlxg_quant_plan p)
{
    __shared__ unsigned char tile[TILE][TILE + 1];
    int64_t sp = wp.out_sp, p0 = (int64_t)blockIdx.x * TILE;
    int64_t c0 = (int64_t)blockIdx.y * TILE, b = blockIdx.z;
    int xz = (int)load_i(p.x_dtype, zx, 0);
    bool bad = *wbad != 0;
    unsigned corr = (unsigned)(shift - xz);
    for (int r = threadIdx.y; r < TILE; r += ROWS) {
        int64_t pos = p0 + r, ch = c0 + threadIdx.x;
        if (pos >= sp || ch >= wp.m)
            continue;
        float f = acc[(b * sp + pos) * m4 + ch];
        unsigned a = bad || !(fabsf(f) < 16777216.f)
                         ? exact_sum(x, w, xz, zw, b, ch, pos, wp, p)
                         : (unsigned)(int)f + corr * (unsigned)wsum[ch];
        tile[threadIdx.x][r] = (unsigned char)chain_value(a, ch, c, p);
    }
    __syncthreads();
    for (int r = threadIdx.y; r < TILE; r += ROWS) {
        int64_t ch = c0 + r, pos = p0 + threadIdx.x;
        if (pos < sp && ch < wp.m)
            ((unsigned char *)y)[(b * wp.m + ch) * sp + pos] =
                tile[r][threadIdx.x];
    }
}

/* x [n, c, h, w] -> xp [n, h + pads, w + pads, c4], i8: x - shift
 * inside, zx - shift in the padding, 0 in the padded channels; a tile
 * of (padded position, channel) per block. */
__global__ void prep_x_kernel(const void *x, const void *zx, int8_t *xp,
                              int64_t c4, int64_t hp, int64_t wq, int shift,
                              rlxg_win_plan wp, rlxg_quant_plan p)
{
    __shared__ signed char tile[TILE][TILE + 1];
    int64_t np = hp * wq, p0 = (int64_t)blockIdx.x * TILE;
    int64_t c0 = (int64_t)blockIdx.y * TILE, b = blockIdx.z;
    int pad = (int)load_i(p.x_dtype, zx, 0) - shift;
    for (int r = threadIdx.y; r < TILE; r += ROWS) {
        int64_t ch = c0 + r, pos = p0 + threadIdx.x;
        if (pos >= np || ch >= c4)
            continue;
        int v = 0;
        if (ch < wp.c) {
            int64_t h = pos / wq - wp.pad[0], ww = pos % wq - wp.pad[1];
            v = h >= 0 && h < wp.in[0] && ww >= 0 && ww < wp.in[1]
                    ? (int)load_i(p.x_dtype, x,
                                  ((b * wp.c + ch) * wp.in[0] + h) *
                                          wp.in[1] + ww) - shift
                    : pad;
        }
        tile[r][threadIdx.x] = (signed char)v;
    }
    __syncthreads();
    for (int r = threadIdx.y; r < TILE; r += ROWS) {
        int64_t pos = p0 + r, ch = c0 + threadIdx.x;
        if (pos < np && ch < c4)
            xp[(b * np + pos) * c4 + ch] = tile[threadIdx.x][r];
    }
}

/* w [m, c, kh, kw] -> wp [m4, kh, kw, c4] = w - zw as i8 (0 in the
 * padded channels and filters), wsum[m] = its sum; *wbad set where some
 * w - zw does not fit i8. One block per filter. */
__global__ void prep_w_kernel(const void *w, const void *zw, int8_t *wpk,
                              int32_t *wsum, int *wbad, int64_t c4,
                              rlxg_win_plan wp, rlxg_quant_plan p)
{
    __shared__ int total;
    int64_t m = blockIdx.x, n = c4 * wp.k_sp;
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    int sum = 0, bad = 0;
    int z = m < wp.m ? (int)load_i(p.w_dtype, zw, p.zb_per ? m : 0) : 0;
    for (int64_t t = threadIdx.x; t < n; t += blockDim.x) {
        int64_t ch = t % c4, kk = t / c4;
        int v = 0;
        if (m < wp.m && ch < wp.c)
            v = (int)load_i(p.w_dtype, w, (m * wp.c + ch) * wp.k_sp + kk) - z;
        bad |= v < -128 || v > 127;
        sum += v;
        wpk[m * n + t] = (int8_t)v;
    }
    atomicAdd(&total, sum);
    if (bad)
        atomicOr(wbad, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        wsum[m] = total;
}

} // namespace

extern "C" gpuError_t rlxg_qchain_i32(gpuStream_t s, const int32_t *acc,
                                      const rlxg_qchain_ptrs *c, void *y,
                                      const rlxg_win_plan *win,
                                      const rlxg_quant_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    chain_i32_kernel<<<grid_for(p->count), kThreads, 0, s>>>(acc, *c, y,
                                                             *win, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_qchain_f32(gpuStream_t s, const rlxg_qconv_ops *o,
                                      const rlxg_qchain_ptrs *c, void *y,
                                      const rlxg_win_plan *win,
                                      const rlxg_quant_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    dim3 grid((unsigned)((win->out_sp + TILE - 1) / TILE),
              (unsigned)((win->m + TILE - 1) / TILE), (unsigned)win->n);
    chain_f32_kernel<<<grid, dim3(TILE, ROWS), 0, s>>>(
        o->acc, o->m4, o->wsum, o->wbad, o->shift, o->x, o->w, o->zx, o->zw,
        *c, y, *win, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_qconv_prep_x(gpuStream_t s, const void *x,
                                        const void *zx, int8_t *xp,
                                        int64_t c4, int shift,
                                        const rlxg_win_plan *win,
                                        const rlxg_quant_plan *p)
{
    int64_t hp = win->in[0] + win->pad[0] + win->pad_end[0];
    int64_t wq = win->in[1] + win->pad[1] + win->pad_end[1];
    if (win->n == 0 || hp * wq == 0)
        return gpuSuccess;
    dim3 grid((unsigned)((hp * wq + TILE - 1) / TILE),
              (unsigned)((c4 + TILE - 1) / TILE), (unsigned)win->n);
    prep_x_kernel<<<grid, dim3(TILE, ROWS), 0, s>>>(x, zx, xp, c4, hp, wq,
                                                    shift, *win, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_qconv_prep_w(gpuStream_t s, const void *w,
                                        const void *zw, int8_t *wp,
                                        int32_t *wsum, int *wbad, int64_t c4,
                                        int64_t m4, const rlxg_win_plan *win,
                                        const rlxg_quant_plan *p)
{
    if (m4 == 0)
        return gpuSuccess;
    gpuError_t err = gpuMemsetAsync(wbad, 0, sizeof(int), s);
    if (err != gpuSuccess)
        return err;
    prep_w_kernel<<<(unsigned)m4, kThreads, 0, s>>>(w, zw, wp, wsum, wbad,
                                                    c4, *win, *p);
    return gpuGetLastError();
}
