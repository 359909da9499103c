/*
 * gk_gemm_tf32x3.cu - f32 GEMM on NVIDIA's tensor cores at f32 accuracy
 * ("3xTF32" split precision): every operand element is split into a
 * TF32 head and a TF32 tail, x = hi + lo, and a b is accumulated in f32
 * as a_lo b_hi + a_hi b_lo + a_hi b_hi with mma.sync m16n8k8 tf32. The
 * dropped a_lo b_lo term is below 2^-22 of the product, so the result
 * is as accurate as an FP32 SGEMM (bench/cuda/bench_gemm_tf32x3.cu
 * measures both against float64), which is why strict precision may use
 * it; plain TF32 (one product of heads) is not.
 *
 * Tiles of A and B go to shared memory by cp.async, STAGES deep; each
 * warp computes a WM x WN tile, splitting its fragments once per load.
 * The cuda plugin times it against cuBLASLt's FP32 kernels for f32
 * matmuls and keeps it only where it is faster (cuda_matmul.c). Needs
 * sm_80 or newer; under hipcc (RLXG_HIP) it reports itself unavailable.
 */
#include "gk_common.cuh"

#ifndef RLXG_HIP

#include "gk_ptx.cuh"

namespace {

/* x = hi + lo as two TF32 operands, each rounded to nearest (ties
 * away): half a TF32 ulp added to the bits, then hi's low 13 bits
 * cleared so that lo = x - hi is exact. lo's are left for the tensor
 * core, which ignores an operand's low 13 bits. Integer ops, cheaper
 * than cvt.rna.tf32.f32. */
__device__ __forceinline__ void split_tf32(float x, unsigned &hi,
                                           unsigned &lo)
{
    hi = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
    lo = __float_as_uint(x - __uint_as_float(hi)) + 0x1000u;
}

/* c = a (16x8, row) * b (8x8, col), TF32 inputs, f32 result */
__device__ __forceinline__ void mma_tf32_0(float c[4], const unsigned a[4],
                                           const unsigned b[2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};\n"
        : "=f"(c[0]), "=f"(c[1]), "=f"(c[2]), "=f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
          "r"(b[1]), "f"(0.f));
#endif
}

/* c += a (16x8, row) * b (8x8, col), TF32 inputs, f32 accumulators */
__device__ __forceinline__ void mma_tf32(float c[4], const unsigned a[4],
                                         const unsigned b[2])
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
          "r"(b[1]));
#endif
}

/* Block tile BM x BN, K step BK, warp tile WM x WN. Shared layouts, per
 * stage: an operand whose K runs contiguously in memory is kept
 * [rows][BK + 4], else [BK][rows + 8]. Either pad puts the eight rows
 * (g) and four K (t) a fragment load touches on 32 distinct banks. */
template <int BM, int BN, int BK, int WM, int WN, int STAGES, int FLUSH,
          bool TA, bool TB>
struct Tf32x3 {
    static constexpr int WARPS_N = BN / WN;
    static constexpr int THREADS = 32 * (BM / WM) * WARPS_N;
    static constexpr int MT = WM / 16, NT = WN / 8;
    static constexpr int A_LD = TA ? BM + 8 : BK + 4;
    static constexpr int A_SIZE = (TA ? BK : BM) * A_LD;
    static constexpr int B_LD = TB ? BK + 4 : BN + 8;
    static constexpr int B_SIZE = (TB ? BN : BK) * B_LD;
    static constexpr int STAGE = A_SIZE + B_SIZE; /* floats */
    static constexpr int SMEM = STAGES * STAGE * 4;
    static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 &&
                      WN % 8 == 0 && STAGES >= 2 &&
                      BK % (8 * (FLUSH > 1 ? FLUSH : 1)) == 0,
                  "tile shape");
};

/* A ROWS x COLS tile whose COLS are contiguous in global memory (leading
 * dimension LD_G), from (r0, c0) of an nr x nc matrix, into shared
 * memory rows LD_S apart; outside the matrix reads as 0. nc and LD_G are
 * multiples of 4, so a 16-byte chunk is wholly inside or outside. */
template <int ROWS, int COLS, int LD_S, int THREADS>
__device__ __forceinline__ void load_tile(float *dst, const float *src,
                                          int64_t ld_g, int64_t r0,
                                          int64_t c0, int64_t nr,
                                          int64_t nc, int tid)
{
    constexpr int CPR = COLS / 4, CHUNKS = ROWS * CPR;
    static_assert(CHUNKS % THREADS == 0, "tile copy");
#pragma unroll
    for (int e = 0; e < CHUNKS / THREADS; e++) {
        int c = tid + e * THREADS;
        int r = c / CPR, cc = (c % CPR) * 4;
        int64_t gr = r0 + r, gc = c0 + cc;
        bool ok = gr < nr && gc < nc;
        cp_async16(dst + r * LD_S + cc, ok ? src + gr * ld_g + gc : src,
                   ok ? 16 : 0);
    }
}

/* The split makes NaN where IEEE arithmetic does not: an infinite
 * element's lo part is NaN (inf - inf), and its hi part times the other
 * operand's zero lo part is too (inf x 0). So a thread whose
 * accumulators hold a NaN computes its outputs again here, the plain
 * way: FP32 FMAs over [KB, KE), NaN again where the result truly is,
 * else what SGEMM gives. Rare, and only the threads concerned pay. The
 * check is a loop of its own over the accumulators, and this a call, so
 * the unrolled epilogue stays as it was: a recomputation inside the
 * epilogue changed how ptxas laid out the main loop and cost the kernel
 * 10-15% (qkv 43 against 38 µs on an H200, bench_gemm_tf32x3.cu). The
 * thread's outputs: rows R0 + 16 i + 8 h, columns C0 + 8 j + e. */
template <bool TA, bool TB, int MT, int NT>
__device__ __noinline__ void redo_tile(const float *a, const float *b,
                                       const float *bias, float *y,
                                       int64_t r0, int64_t c0, int64_t kb,
                                       int64_t ke, int64_t m, int64_t n,
                                       int64_t k, int act, int split,
                                       int splits)
{
    for (int e = 0; e < MT * NT * 4; e++) {
        int64_t r = r0 + (e / (NT * 4)) * 16 + ((e >> 1) & 1) * 8;
        int64_t c = c0 + ((e >> 2) % NT) * 8 + (e & 1);
        if (r >= m || c >= n)
            continue;
        float v = 0.f;
        for (int64_t q = kb; q < ke; q++)
            v = fmaf(TA ? a[q * m + r] : a[r * k + q],
                     TB ? b[c * k + q] : b[q * n + c], v);
        if (bias && split == 0)
            v += bias[c];
        if (splits > 1)
            atomicAdd(y + r * n + c, v);
        else
            y[r * n + c] = gemm_act(act, v);
    }
}

/* y[t] = act(op(a[t]) op(b[t]) + bias) for t < batch (grid z, strided).
 * VEC: n even and y 8-byte aligned, so column pairs store as float2.
 * SPLITS > 1 (batch 1, no act): grid z splits K in KPER-long parts
 * whose sums are added into y, zeroed beforehand; split 0 adds the
 * bias. With two parts the result does not depend on their order
 * (0 + x + y == 0 + y + x), so it stays deterministic. */
template <int BM, int BN, int BK, int WM, int WN, int STAGES, int FLUSH,
          bool TA, bool TB>
__global__ void __launch_bounds__(
    (Tf32x3<BM, BN, BK, WM, WN, STAGES, FLUSH, TA, TB>::THREADS))
    tf32x3_kernel(const float *__restrict__ a, const float *__restrict__ b,
                  const float *__restrict__ bias, float *__restrict__ y,
                  int64_t m, int64_t n, int64_t k, int64_t batch, int64_t sa,
                  int64_t sb, int64_t sy, int act, int vec, int splits,
                  int64_t kper)
{
    using P = Tf32x3<BM, BN, BK, WM, WN, STAGES, FLUSH, TA, TB>;
    constexpr int MT = P::MT, NT = P::NT;
    extern __shared__ float4 smem4[];
    float *smem = (float *)smem4;
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int g = lane >> 2, t = lane & 3;
    int wm0 = (warp / P::WARPS_N) * WM, wn0 = (warp % P::WARPS_N) * WN;
    int64_t m0 = (int64_t)blockIdx.y * BM, n0 = (int64_t)blockIdx.x * BN;
    int split = splits > 1 ? (int)blockIdx.z : 0;
    int64_t kb = split * kper, ke = kb + kper < k ? kb + kper : k;
    int ktiles = (int)((ke - kb + BK - 1) / BK);
    if (splits > 1)
        batch = 1;

    for (int64_t bt = splits > 1 ? 0 : blockIdx.z; bt < batch;
         bt += splits > 1 ? 1 : gridDim.z) {
        const float *at = a + bt * sa, *btp = b + bt * sb;
        float *yt = y + bt * sy;
        auto load = [&](int stage, int kt) {
            float *as = smem + stage * P::STAGE, *bs = as + P::A_SIZE;
            int64_t k0 = kb + (int64_t)kt * BK;
            if (TA) /* a stored [k, m] */
                load_tile<BK, BM, P::A_LD, P::THREADS>(as, at, m, k0, m0, ke,
                                                       m, tid);
            else
                load_tile<BM, BK, P::A_LD, P::THREADS>(as, at, k, m0, k0, m,
                                                       ke, tid);
            if (TB) /* b stored [n, k] (a Linear weight) */
                load_tile<BN, BK, P::B_LD, P::THREADS>(bs, btp, k, n0, k0,
                                                       n, ke, tid);
            else
                load_tile<BK, BN, P::B_LD, P::THREADS>(bs, btp, n, k0, n0,
                                                       ke, n, tid);
        };

        float acc[MT][NT][4];
#pragma unroll
        for (int i = 0; i < MT; i++)
#pragma unroll
            for (int j = 0; j < NT; j++)
#pragma unroll
                for (int q = 0; q < 4; q++)
                    acc[i][j][q] = 0.f;

#pragma unroll
        for (int s = 0; s < STAGES - 1; s++) {
            if (s < ktiles)
                load(s, s);
            cp_async_commit(); /* empty groups keep the count uniform */
        }
        for (int kt = 0; kt < ktiles; kt++) {
            cp_async_wait<STAGES - 2>();
            __syncthreads(); /* tile kt landed; stage kt-1 is free */
            int nk = kt + STAGES - 1;
            if (nk < ktiles)
                load(nk % STAGES, nk);
            cp_async_commit();
            const float *as = smem + (kt % STAGES) * P::STAGE;
            const float *bs = as + P::A_SIZE;
            /* S k steps at a time (FLUSH of them, or 1) */
            constexpr int S = FLUSH > 1 ? FLUSH : 1;
#pragma unroll
            for (int ks = 0; ks < BK; ks += 8 * S) {
                /* fragments (m16n8k8 tf32): a q = row g + 8 (q & 1), k t
                 * + 4 (q >> 1); b q = k t + 4 q, column g */
                unsigned ah[S][MT][4], al[S][MT][4], bh[S][NT][2],
                    bl[S][NT][2];
#pragma unroll
                for (int u = 0; u < S; u++) {
#pragma unroll
                    for (int i = 0; i < MT; i++)
#pragma unroll
                        for (int q = 0; q < 4; q++) {
                            int r = wm0 + i * 16 + g + (q & 1) * 8;
                            int kk = ks + 8 * u + t + (q >> 1) * 4;
                            float x = TA ? as[kk * P::A_LD + r]
                                         : as[r * P::A_LD + kk];
                            split_tf32(x, ah[u][i][q], al[u][i][q]);
                        }
#pragma unroll
                    for (int j = 0; j < NT; j++)
#pragma unroll
                        for (int q = 0; q < 2; q++) {
                            int c = wn0 + j * 8 + g;
                            int kk = ks + 8 * u + t + q * 4;
                            float x = TB ? bs[c * P::B_LD + kk]
                                         : bs[kk * P::B_LD + c];
                            split_tf32(x, bh[u][j][q], bl[u][j][q]);
                        }
                }
                if constexpr (FLUSH != 0) {
                    /* Hopper's tensor cores truncate the sum an mma adds
                     * to its accumulator: over a long K that error is
                     * biased and grows ~9x past SGEMM's. S k steps are
                     * summed from zero instead, all small terms first
                     * (their truncations are tiny), then the S large
                     * ones, and added to the accumulator rounded to
                     * nearest. */
#pragma unroll
                    for (int i = 0; i < MT; i++) {
                        float part[NT][4];
#pragma unroll
                        for (int j = 0; j < NT; j++)
                            mma_tf32_0(part[j], al[0][i], bh[0][j]);
#pragma unroll
                        for (int u = 0; u < S; u++)
#pragma unroll
                            for (int j = 0; j < NT; j++) {
                                if (u > 0)
                                    mma_tf32(part[j], al[u][i], bh[u][j]);
                                mma_tf32(part[j], ah[u][i], bl[u][j]);
                            }
#pragma unroll
                        for (int u = 0; u < S; u++)
#pragma unroll
                            for (int j = 0; j < NT; j++)
                                mma_tf32(part[j], ah[u][i], bh[u][j]);
#pragma unroll
                        for (int j = 0; j < NT; j++)
#pragma unroll
                            for (int q = 0; q < 4; q++)
                                acc[i][j][q] += part[j][q];
                    }
                } else {
                    /* the small terms first; each pass over all tiles
                     * keeps dependent mma apart */
#pragma unroll
                    for (int i = 0; i < MT; i++)
#pragma unroll
                        for (int j = 0; j < NT; j++)
                            mma_tf32(acc[i][j], al[0][i], bh[0][j]);
#pragma unroll
                    for (int i = 0; i < MT; i++)
#pragma unroll
                        for (int j = 0; j < NT; j++)
                            mma_tf32(acc[i][j], ah[0][i], bl[0][j]);
#pragma unroll
                    for (int i = 0; i < MT; i++)
#pragma unroll
                        for (int j = 0; j < NT; j++)
                            mma_tf32(acc[i][j], ah[0][i], bh[0][j]);
                }
            }
        }
        cp_async_wait<0>();
        __syncthreads(); /* shared memory free for the next batch */

        bool nan = false;
#pragma unroll
        for (int i = 0; i < MT; i++)
#pragma unroll
            for (int j = 0; j < NT; j++)
#pragma unroll
                for (int q = 0; q < 4; q++)
                    nan |= isnan(acc[i][j][q]);
        if (nan) {
            redo_tile<TA, TB, MT, NT>(at, btp, bias, yt, m0 + wm0 + g,
                                      n0 + wn0 + 2 * t, kb, ke, m, n, k, act,
                                      split, splits);
            continue;
        }
        /* accumulator q: row g + 8 (q >> 1), column 2t + (q & 1) */
#pragma unroll
        for (int i = 0; i < MT; i++)
#pragma unroll
            for (int j = 0; j < NT; j++)
#pragma unroll
                for (int h = 0; h < 2; h++) {
                    int64_t r = m0 + wm0 + i * 16 + g + h * 8;
                    int64_t c = n0 + wn0 + j * 8 + 2 * t;
                    if (r >= m || c >= n)
                        continue;
                    float v0 = acc[i][j][2 * h], v1 = acc[i][j][2 * h + 1];
                    bool two = c + 1 < n;
                    float *p = yt + r * n + c;
                    if (splits > 1) {
                        if (bias && split == 0) {
                            v0 += bias[c];
                            if (two)
                                v1 += bias[c + 1];
                        }
                        atomicAdd(p, v0);
                        if (two)
                            atomicAdd(p + 1, v1);
                        continue;
                    }
                    if (bias) {
                        v0 += bias[c];
                        if (two)
                            v1 += bias[c + 1];
                    }
                    v0 = gemm_act(act, v0);
                    v1 = gemm_act(act, v1);
                    if (two && vec)
                        *(float2 *)p = make_float2(v0, v1);
                    else {
                        p[0] = v0;
                        if (two)
                            p[1] = v1;
                    }
                }
    }
}

struct Args {
    const float *a, *b, *bias;
    float *y;
    int64_t m, n, k, batch, sa, sb, sy;
    int act;
    int splits; /* of K; 1, or 2 with batch 1 and no act */
};

/* Once per device: the opt-in to more than 48 KiB of dynamic shared
 * memory (set again harmlessly if two threads race). */
template <int BM, int BN, int BK, int WM, int WN, int STAGES, int FLUSH,
          bool TA, bool TB>
gpuError_t launch_t(gpuStream_t s, const Args &x)
{
    using P = Tf32x3<BM, BN, BK, WM, WN, STAGES, FLUSH, TA, TB>;
    auto kern = tf32x3_kernel<BM, BN, BK, WM, WN, STAGES, FLUSH, TA, TB>;
    static unsigned char ready[64];
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess)
        return cudaGetLastError();
    if (dev < 0 || dev >= 64 || !ready[dev]) {
        cudaError_t e = cudaFuncSetAttribute(
            kern, cudaFuncAttributeMaxDynamicSharedMemorySize, P::SMEM);
        if (e != cudaSuccess)
            return e;
        if (dev >= 0 && dev < 64)
            ready[dev] = 1;
    }
    int64_t gx = (x.n + BN - 1) / BN, gy = (x.m + BM - 1) / BM;
    if (gx > INT32_MAX || gy > 65535)
        return gpuErrorInvalidValue;
    int vec = x.n % 2 == 0 && (uintptr_t)x.y % 8 == 0 &&
              (x.batch == 1 || x.sy % 2 == 0);
    int splits = x.splits > 1 ? x.splits : 1;
    if (splits > 1 && (x.batch != 1 || x.act != RLXG_GEMM_NONE))
        return gpuErrorInvalidValue;
    int64_t kper = ((x.k + splits - 1) / splits + BK - 1) / BK * BK;
    if (splits > 1) {
        cudaError_t e = cudaMemsetAsync(x.y, 0, (size_t)(x.m * x.n) * 4, s);
        if (e != cudaSuccess)
            return e;
    }
    dim3 grid((unsigned)gx, (unsigned)gy,
              (unsigned)(splits > 1 ? splits
                                    : x.batch < 65535 ? x.batch : 65535));
    kern<<<grid, P::THREADS, P::SMEM, s>>>(x.a, x.b, x.bias, x.y, x.m, x.n,
                                          x.k, x.batch, x.sa, x.sb, x.sy,
                                          x.act, vec, splits, kper);
    return gpuGetLastError();
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int F>
gpuError_t launch(gpuStream_t s, const Args &x, int ta, int tb)
{
    if (ta)
        return tb ? launch_t<BM, BN, BK, WM, WN, STAGES, F, true, true>(s, x)
                  : launch_t<BM, BN, BK, WM, WN, STAGES, F, true, false>(s,
                                                                       x);
    return tb ? launch_t<BM, BN, BK, WM, WN, STAGES, F, false, true>(s, x)
              : launch_t<BM, BN, BK, WM, WN, STAGES, F, false, false>(s, x);
}

#ifdef RLXG_SM90A /* bench-only, not among the plugin's tiles */
#include "gk_gemm_tf32x3_wgmma.cuh"
#endif

} /* namespace */

extern "C" int rlxg_gemm_tf32x3_ok(int64_t m, int64_t n, int64_t k, int ta,
                                   int tb, int64_t batch, int64_t sa,
                                   int64_t sb)
{
    /* rows of every operand in whole 16-byte chunks */
    if ((ta ? m : k) % 4 || (tb ? k : n) % 4 || m < 1 || n < 1 || k < 1)
        return 0;
    if (batch > 1 && (sa % 4 || sb % 4))
        return 0;
    if ((m + 63) / 64 > 65535)
        return 0;
    return device_is_sm80();
}

extern "C" gpuError_t rlxg_gemm_tf32x3(gpuStream_t s, const void *a,
                                       const void *b, const void *bias,
                                       void *y, int64_t m, int64_t n,
                                       int64_t k, int ta, int tb,
                                       int64_t batch, int64_t sa, int64_t sb,
                                       int64_t sy, int act, int cfg)
{
    if (m * n * batch == 0)
        return gpuSuccess;
    if (!rlxg_gemm_tf32x3_ok(m, n, k, ta, tb, batch, sa, sb) ||
        (uintptr_t)a % 16 || (uintptr_t)b % 16 || (uintptr_t)y % 4)
        return gpuErrorInvalidValue;
    /* The tiles that were fastest for some shape on an H200
     * (bench_gemm_tf32x3.cu); the split-K ones are for few output tiles
     * and a long K (the encoder's ff2 and out-proj). */
    int splits = rlxg_gemm_tf32x3_splits(cfg);
    if (!splits)
        return gpuErrorInvalidValue;
    Args x = { (const float *)a, (const float *)b, (const float *)bias,
               (float *)y, m, n, k, batch, sa, sb, sy, act, splits };
    switch (cfg) {
    case 0: return launch<128, 128, 32, 64, 32, 3, 1>(s, x, ta, tb);
    case 1: case 3: case 8:
        return launch<64, 64, 16, 32, 32, 4, 1>(s, x, ta, tb);
    case 2: case 4: case 7:
        return launch<64, 64, 16, 32, 32, 4, 2>(s, x, ta, tb);
    case 5: return launch<64, 64, 32, 32, 16, 3, 1>(s, x, ta, tb);
    case 6: return launch<64, 64, 32, 32, 32, 3, 2>(s, x, ta, tb);
    case 9: return launch<64, 64, 32, 32, 32, 3, 1>(s, x, ta, tb);
    case 10: return launch<64, 32, 32, 32, 16, 4, 1>(s, x, ta, tb);
    default: return gpuErrorInvalidValue;
    }
}

extern "C" int rlxg_gemm_tf32x3_splits(int cfg)
{
    static const int splits[RLXG_TF32X3_CONFIGS] = { 1, 1, 1, 2, 2, 1,
                                                     1, 3, 3, 2, 1 };
    return cfg >= 0 && cfg < RLXG_TF32X3_CONFIGS ? splits[cfg] : 0;
}

#else /* RLXG_HIP: no mma.sync; matmuls stay on the vendor BLAS */

extern "C" int rlxg_gemm_tf32x3_ok(int64_t, int64_t, int64_t, int, int,
                                   int64_t, int64_t, int64_t)
{
    return 0;
}

extern "C" int rlxg_gemm_tf32x3_splits(int)
{
    return 0;
}

extern "C" gpuError_t rlxg_gemm_tf32x3(gpuStream_t, const void *,
                                       const void *, const void *, void *,
                                       int64_t, int64_t, int64_t, int, int,
                                       int64_t, int64_t, int64_t, int64_t,
                                       int, int)
{
    return gpuErrorInvalidValue;
}

#endif
