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

namespace {

/* ---- PTX wrappers (sm_80+; empty in the host pass) -------------------- */

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

__device__ __forceinline__ float act_of(int act, float v)
{
    if (act == RLXG_GEMM_RELU)
        return v > 0.f || isnan(v) ? v : 0.f;
    if (act == RLXG_GEMM_GELU_TANH) {
        const float c = 0.7978845608028654f;
        return 0.5f * v * (1.f + tanhf(c * (v + 0.044715f * v * v * v)));
    }
    return v;
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
                    v0 = act_of(act, v0);
                    v1 = act_of(act, v1);
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

/* ---- Hopper (sm_90a): the same 3xTF32 with wgmma ---------------------
 * One or two warpgroups per block tile of 64 or 128 columns, a = x
 * [m, k] and b = a Linear weight [n, k] (wgmma takes TF32 only
 * K-major). a's fragments come from registers, split as above; b's tiles
 * are split once in shared memory (hi in place, lo beside it), laid out
 * as wgmma's core matrices (8 rows of 16 bytes, no swizzle). The sums
 * again start from zero (scale-d 0) and are added to the f32 accumulator
 * rounded to nearest. Built only where nvcc targets sm_90a and
 * RLXG_SM90A is defined (the bench does both).
 * Not among the plugin's tiles yet: correct (bench_gemm_tf32x3.cu checks
 * it like the others), but on an H200 1.5 to 3x slower than the
 * mma.sync kernel above, itself held near 45 TFLOPS by mma.sync's TF32
 * rate there. What remains to make it pay: deeper wgmma pipelining (a
 * producer warp, TMA, swizzled layouts, several groups in flight). */
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define RLXG_WGMMA_DEVICE 1
#endif

constexpr int WG_BK = 32, WG_STAGES = 3;
constexpr int WG_A_LD = WG_BK + 4;

/* WGS warpgroups, each 64 rows of the block tile, share b's tiles of
 * BN columns */
template <int WGS, int BN> struct Wg {
    static constexpr int BM = 64 * WGS, THREADS = 128 * WGS;
    static constexpr int A_SIZE = BM * WG_A_LD;    /* floats */
    static constexpr int B_SIZE = BN * WG_BK;      /* floats, hi or lo */
    static constexpr int STAGE = A_SIZE + 2 * B_SIZE;
    static constexpr int SMEM = WG_STAGES * STAGE * 4;
    static_assert((A_SIZE * 4) % 128 == 0 && (STAGE * 4) % 128 == 0,
                  "wgmma tiles 128-byte aligned");
};

/* device helpers: in sm_90a code only, the kernel's only user */
#ifdef RLXG_WGMMA_DEVICE
/* Shared memory matrix descriptor, no swizzle: core matrices 128 bytes
 * apart along K (leading), 8-row groups WG_BK / 4 * 128 bytes apart
 * (stride). */
__device__ __forceinline__ uint64_t wg_desc(const float *p)
{
    const uint64_t lbo = 128, sbo = (WG_BK / 4) * 128;
    uint64_t a = smem_addr(p);
    return ((a & 0x3ffff) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
}

/* d (64 x N per warpgroup: N / 2 per thread) = a b + (acc ? d : 0) */
template <int N>
__device__ __forceinline__ void wgmma_tf32(float *d, const unsigned a[4],
                                           uint64_t desc, int acc);
template <>
__device__ __forceinline__ void wgmma_tf32<64>(float *d, const unsigned a[4],
                                               uint64_t desc, int acc)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]),
          "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]),
          "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
          "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
          "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
          "+f"(d[30]), "+f"(d[31])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(acc));
}
template <>
__device__ __forceinline__ void wgmma_tf32<128>(float *d, const unsigned a[4],
                                                uint64_t desc, int acc)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]),
          "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]),
          "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
          "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
          "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
          "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
          "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]),
          "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
          "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]),
          "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
          "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]),
          "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
          "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(acc));
}

__device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N> __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N)
                 : "memory");
}
/* generic-proxy writes to shared memory made visible to wgmma */
__device__ __forceinline__ void fence_proxy_async()
{
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* b's chunk (row r, 16 bytes kc of K) in core matrix (r / 8, kc), row
 * r % 8 */
__device__ __forceinline__ int wg_b_off(int r, int kc)
{
    return ((r >> 3) * (WG_BK / 4) + kc) * 32 + (r & 7) * 4;
}
#endif

/* TILE: the whole K tile (4 k steps: all small terms, then the large
 * ones, 12 wgmma) summed from zero as one group, then added; else each k
 * step is, its group running while the previous one's sum is added. */
template <int WGS, bool TILE, int BN>
__global__ void __launch_bounds__(128 * WGS, BN == 64 ? 2 : 1)
    tf32x3_wgmma_kernel(const float *__restrict__ a,
                        const float *__restrict__ b,
                        const float *__restrict__ bias,
                        float *__restrict__ y, int64_t m, int64_t n,
                        int64_t k, int64_t batch, int64_t sa, int64_t sb,
                        int64_t sy, int act, int vec)
{
#ifdef RLXG_WGMMA_DEVICE
    using W = Wg<WGS, BN>;
    constexpr int WG_BN = BN, WG_B_SIZE = W::B_SIZE, ND = BN / 2;
    extern __shared__ __align__(128) float4 wsmem4[];
    float *smem = (float *)wsmem4;
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    int g = lane >> 2, t = lane & 3;
    int row0 = (warp >> 2) * 64 + (warp & 3) * 16; /* this warp's rows */
    int64_t m0 = (int64_t)blockIdx.y * W::BM, n0 = (int64_t)blockIdx.x * WG_BN;
    int ktiles = (int)((k + WG_BK - 1) / WG_BK);
    constexpr int CPR = WG_BK / 4;                   /* chunks per row */
    constexpr int PER_A = W::BM * CPR / W::THREADS;
    constexpr int PER_B = WG_BN * CPR / W::THREADS;
    constexpr int KS = WG_BK / 8;

    for (int64_t bt = blockIdx.z; bt < batch; bt += gridDim.z) {
        const float *at = a + bt * sa, *btp = b + bt * sb;
        float *yt = y + bt * sy;
        auto load = [&](int stage, int kt) {
            float *as = smem + stage * W::STAGE, *bs = as + W::A_SIZE;
            int64_t k0 = (int64_t)kt * WG_BK;
#pragma unroll
            for (int e = 0; e < PER_A; e++) {
                int c = tid + e * W::THREADS, r = c / CPR, kc = c % CPR;
                int64_t gk = k0 + kc * 4, ga = m0 + r;
                bool ok = ga < m && gk < k;
                cp_async16(as + r * WG_A_LD + kc * 4,
                           ok ? at + ga * k + gk : at, ok ? 16 : 0);
            }
#pragma unroll
            for (int e = 0; e < PER_B; e++) {
                int c = tid + e * W::THREADS, r = c / CPR, kc = c % CPR;
                int64_t gk = k0 + kc * 4, gb = n0 + r;
                bool ok = gb < n && gk < k;
                cp_async16(bs + wg_b_off(r, kc),
                           ok ? btp + gb * k + gk : btp, ok ? 16 : 0);
            }
        };
        float acc[ND], part[TILE ? 1 : 2][ND];
#pragma unroll
        for (int q = 0; q < ND; q++) {
            acc[q] = part[0][q] = 0.f;
            if (!TILE)
                part[TILE ? 0 : 1][q] = 0.f;
        }
#pragma unroll
        for (int s = 0; s < WG_STAGES - 1; s++) {
            if (s < ktiles)
                load(s, s);
            cp_async_commit();
        }
        for (int kt = 0; kt < ktiles; kt++) {
            cp_async_wait<WG_STAGES - 2>();
            float *as = smem + (kt % WG_STAGES) * W::STAGE;
            float *bh = as + W::A_SIZE, *bl = bh + WG_B_SIZE;
            /* split this thread's own chunks of b (its copies landed) */
#pragma unroll
            for (int e = 0; e < PER_B; e++) {
                int c = tid + e * W::THREADS, o = wg_b_off(c / CPR, c % CPR);
                float4 v = *(float4 *)(bh + o);
                uint4 h, l;
                split_tf32(v.x, h.x, l.x);
                split_tf32(v.y, h.y, l.y);
                split_tf32(v.z, h.z, l.z);
                split_tf32(v.w, h.w, l.w);
                *(uint4 *)(bh + o) = h;
                *(uint4 *)(bl + o) = l;
            }
            fence_proxy_async();
            __syncthreads(); /* tile kt split; stage kt-1 free */
            int nk = kt + WG_STAGES - 1;
            if (nk < ktiles)
                load(nk % WG_STAGES, nk);
            cp_async_commit();
            if constexpr (TILE) {
                unsigned ah[KS][4], al[KS][4];
#pragma unroll
                for (int s = 0; s < KS; s++)
#pragma unroll
                    for (int q = 0; q < 4; q++) {
                        int r = row0 + g + (q & 1) * 8;
                        int kk = s * 8 + t + (q >> 1) * 4;
                        split_tf32(as[r * WG_A_LD + kk], ah[s][q], al[s][q]);
                    }
                wgmma_fence();
#pragma unroll
                for (int s = 0; s < KS; s++)
                    wgmma_tf32<BN>(part[0], al[s], wg_desc(bh + 2 * s * 32),
                               s > 0);
#pragma unroll
                for (int s = 0; s < KS; s++)
                    wgmma_tf32<BN>(part[0], ah[s], wg_desc(bl + 2 * s * 32), 1);
#pragma unroll
                for (int s = 0; s < KS; s++)
                    wgmma_tf32<BN>(part[0], ah[s], wg_desc(bh + 2 * s * 32), 1);
                wgmma_commit();
                wgmma_wait<0>();
#pragma unroll
                for (int q = 0; q < ND; q++)
                    acc[q] += part[0][q];
            } else {
                unsigned ah[2][4], al[2][4];
#pragma unroll
                for (int s = 0; s < KS; s++) {
                    int u = s & 1;
#pragma unroll
                    for (int q = 0; q < 4; q++) {
                        int r = row0 + g + (q & 1) * 8;
                        int kk = s * 8 + t + (q >> 1) * 4;
                        split_tf32(as[r * WG_A_LD + kk], ah[u][q], al[u][q]);
                    }
                    /* k step s: core matrices 2s, 2s + 1 along K */
                    uint64_t dh = wg_desc(bh + 2 * s * 32);
                    uint64_t dl = wg_desc(bl + 2 * s * 32);
                    wgmma_fence();
                    float *pu = part[TILE ? 0 : u];
                    wgmma_tf32<BN>(pu, al[u], dh, 0);
                    wgmma_tf32<BN>(pu, ah[u], dl, 1);
                    wgmma_tf32<BN>(pu, ah[u], dh, 1);
                    wgmma_commit();
                    if (s > 0) {
                        wgmma_wait<1>(); /* step s - 1 done */
#pragma unroll
                        for (int q = 0; q < ND; q++)
                            acc[q] += part[TILE ? 0 : u ^ 1][q];
                    }
                }
                wgmma_wait<0>();
#pragma unroll
                for (int q = 0; q < ND; q++)
                    acc[q] += part[TILE ? 0 : (KS - 1) & 1][q];
            }
        }
        cp_async_wait<0>();
        __syncthreads();

        /* d q of n8 block j: row g + 8 (q >> 1), column 8 j + 2t + (q & 1) */
#pragma unroll
        for (int j = 0; j < WG_BN / 8; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
                int64_t r = m0 + row0 + g + h * 8;
                int64_t c = n0 + j * 8 + 2 * t;
                if (r >= m || c >= n)
                    continue;
                float v0 = acc[j * 4 + 2 * h], v1 = acc[j * 4 + 2 * h + 1];
                bool two = c + 1 < n;
                if (bias) {
                    v0 += bias[c];
                    if (two)
                        v1 += bias[c + 1];
                }
                v0 = act_of(act, v0);
                v1 = act_of(act, v1);
                float *p = yt + r * n + c;
                if (two && vec)
                    *(float2 *)p = make_float2(v0, v1);
                else {
                    p[0] = v0;
                    if (two)
                        p[1] = v1;
                }
            }
    }
#endif
}

template <int WGS, bool TILE, int BN = 64>
gpuError_t launch_wgmma(gpuStream_t s, const Args &x, int ta, int tb)
{
#ifdef RLXG_SM90A
    using W = Wg<WGS, BN>;
    constexpr int WG_BN = BN;
    /* sm_90a code runs on compute capability 9.0 only */
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
                               dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
                               dev) != cudaSuccess)
        return cudaGetLastError();
    if (ta || !tb || x.splits > 1 || major != 9 || minor != 0)
        return gpuErrorInvalidValue;
    auto kern = tf32x3_wgmma_kernel<WGS, TILE, BN>;
    static unsigned char ready[64];
    if (dev < 0 || dev >= 64 || !ready[dev]) {
        cudaError_t e = cudaFuncSetAttribute(
            kern, cudaFuncAttributeMaxDynamicSharedMemorySize, W::SMEM);
        if (e != cudaSuccess)
            return e;
        if (dev >= 0 && dev < 64)
            ready[dev] = 1;
    }
    int64_t gx = (x.n + WG_BN - 1) / WG_BN, gy = (x.m + W::BM - 1) / W::BM;
    if (gx > INT32_MAX || gy > 65535)
        return gpuErrorInvalidValue;
    int vec = x.n % 2 == 0 && (uintptr_t)x.y % 8 == 0 &&
              (x.batch == 1 || x.sy % 2 == 0);
    dim3 grid((unsigned)gx, (unsigned)gy,
              (unsigned)(x.batch < 65535 ? x.batch : 65535));
    kern<<<grid, W::THREADS, W::SMEM, s>>>(x.a, x.b, x.bias, x.y, x.m, x.n,
                                           x.k, x.batch, x.sa, x.sb, x.sy,
                                           x.act, vec);
    return gpuGetLastError();
#else
    (void)s;
    (void)x;
    (void)ta;
    (void)tb;
    return gpuErrorInvalidValue; /* no sm_90a code in this build */
#endif
}

/* sm_80 or newer on the current device */
bool device_has_tf32()
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
    return device_has_tf32();
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
     * (bench_gemm_tf32x3.cu); 3 and 4 split K in two, for few output
     * tiles and a long K. */
    Args x = { (const float *)a, (const float *)b, (const float *)bias,
               (float *)y, m, n, k, batch, sa, sb, sy, act,
               cfg == 3 || cfg == 4 ? 2 : 1 };
    switch (cfg) {
    case 0: return launch<128, 128, 32, 64, 32, 3, 1>(s, x, ta, tb);
    case 1: case 3: return launch<64, 64, 16, 32, 32, 4, 1>(s, x, ta, tb);
    case 2: case 4: return launch<64, 64, 16, 32, 32, 4, 2>(s, x, ta, tb);
    case 5: return launch<64, 64, 32, 32, 16, 3, 1>(s, x, ta, tb);
    case 6: return launch<64, 64, 32, 32, 32, 3, 2>(s, x, ta, tb);
    default: return gpuErrorInvalidValue;
    }
}

#else /* RLXG_HIP: no mma.sync; matmuls stay on the vendor BLAS */

extern "C" int rlxg_gemm_tf32x3_ok(int64_t, int64_t, int64_t, int, int,
                                   int64_t, int64_t, int64_t)
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
