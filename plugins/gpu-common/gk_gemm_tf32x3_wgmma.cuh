/*
 * gk_gemm_tf32x3_wgmma.cuh - the Hopper (sm_90a) form of the 3xTF32 GEMM
 * of gk_gemm_tf32x3.cu, with wgmma: included by that file, inside its
 * namespace, only where RLXG_SM90A is defined (bench_gemm_tf32x3.cu
 * builds it so; the plugin does not, see below).
 */
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
#ifdef RLXG_SM90A_DEVICE
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
        : RLXG_WG_D32(d)
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
        : RLXG_WG_D64(d)
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(acc));
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
#ifdef RLXG_SM90A_DEVICE
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
                v0 = gemm_act(act, v0);
                v1 = gemm_act(act, v1);
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

