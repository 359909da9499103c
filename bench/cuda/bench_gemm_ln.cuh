/*
 * bench_gemm_ln.cuh - the kernel bench_gemm_ln.cu times: a Linear layer,
 * the residual add and layer_norm over its output's rows as one kernel,
 * bf16, on sm_90a (wgmma, thread-block clusters):
 *
 *     v = rnd(rnd(x w^T + bias) + res)      (rounded as the unfused steps
 *     y = (v - mean) * rstd * gamma + beta   store them)
 *
 * x [m, k] and w [n, k] (a Linear weight) are both K-major. A block
 * computes 64 rows x BN columns with WGS warpgroups (BN / WGS columns
 * each): cp.async copies the tiles into shared memory in wgmma's
 * 128-byte swizzled layout, 64 of K at a time, STAGES deep, and
 * m64nNk16 wgmmas consume them; bias, gamma and beta are staged in
 * shared memory before the wait for the kernel before, the residual's
 * tile with the first tiles of x. The blocks that share rows (n / BN of
 * them, times CK slices of K) form a thread-block cluster: the slices'
 * partial products and the rows' sums go between them through
 * distributed shared memory, so a row's mean and variance are known
 * without a second kernel; the output goes out through shared memory in
 * 16-byte stores.
 *
 * It computes the right result (rel.err equal to the unfused path's) but
 * lost to cuBLASLt + the norm kernel on every shape (bench/cuda/
 * RESULTS.md, ninth session), so the plugin does not have it.
 */
#include <cooperative_groups.h>

#include "../../plugins/gpu-common/gk_common.cuh"
#include "../../plugins/gpu-common/gk_ptx.cuh"
#include "bench_wgmma.cuh"

namespace cg = cooperative_groups;

namespace {

using T = gpu_bf16;
constexpr int GLN_BM = 64, GLN_BK = 64;
constexpr int GLN_CONFIGS = 5;

template <int BN, int STAGES> struct gln_shape {
    static constexpr int A_BYTES = GLN_BM * GLN_BK * 2;
    static constexpr int B_BYTES = BN * GLN_BK * 2;
    static constexpr int STAGE = A_BYTES + B_BYTES;
    /* the residual's tile, then the output's, in rows padded by 16
     * bytes (a quad's 8 rows fall in distinct banks) */
    static constexpr int ROW = BN + 8, TILE = GLN_BM * ROW * 2;
    /* + bias, gamma and beta as floats; + slack to align the stages to
     * the swizzle's 1024 bytes */
    static constexpr int SMEM = STAGES * STAGE + TILE + 3 * BN * 4 + 1024;
    static_assert(A_BYTES % 1024 == 0 && B_BYTES % 1024 == 0, "swizzle atoms");
    static_assert(GLN_BM * BN * 4 <= STAGES * STAGE, "K-slice sums fit");
    /* + at most 2 KB of static rows' sums (four warpgroups) */
    static_assert(SMEM + 2048 <= 227 * 1024, "shared memory of an SM");
};


/* Grid: x = the cluster (n / BN column blocks times CK slices of K),
 * y = 64-row blocks; WGS warpgroups, warpgroup wg computing columns
 * wg * NW .. + NW of the block's (NW = BN / WGS). Thread (warp q of its
 * warpgroup, g = lane / 4, t = lane % 4) holds rows q * 16 + g + 8 h
 * (h = 0, 1), columns wg * NW + 8 j + 2 t + e: d[4 j + 2 h + e]. */
template <int BN, int CK, int STAGES, int WGS>
__global__ void __launch_bounds__(128 * WGS)
    gemm_ln_kernel(const T *__restrict__ a, const T *__restrict__ w,
                   const T *bias, const T *res, const T *gamma,
                   const T *beta, T *y, int m, int n, int k, float eps,
                   int dep)
{
#ifdef RLXG_SM90A_DEVICE
    using S = gln_shape<BN, STAGES>;
    /* tiles copied ahead of the one the wgmmas read: the stage two
     * behind is the first one every thread knows is free (below) */
    constexpr int AHEAD = STAGES - 2, THREADS = 128 * WGS;
    constexpr int NW = BN / WGS, NJ = NW / 8, R = NJ * 4;
    extern __shared__ unsigned char gln_raw[];
    __shared__ float part[WGS][GLN_BM];
    __shared__ float sum_blk[GLN_BM], sq_blk[GLN_BM]; /* read by the cluster */
    __shared__ float mean_s[GLN_BM], rstd_s[GLN_BM];
    cg::cluster_group cl = cg::this_cluster();
    unsigned char *sm =
        gln_raw + ((1024 - (smem_addr(gln_raw) & 1023)) & 1023);
    const unsigned sbase = smem_addr(sm);
    const int cn = n / BN, rank = (int)blockIdx.x;
    const int nblk = rank % cn, kblk = rank / cn;
    const bool lead = kblk == 0; /* holds the finished sums */
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int wg = warp >> 2, wq = warp & 3, g = lane >> 2, t = lane & 3;
    const int row0 = (int)blockIdx.y * GLN_BM, col0 = nblk * BN;
    const int kper = k / CK, ktiles = kper / GLN_BK;
    const T *ab = a + (int64_t)kblk * kper;
    const T *wb = w + (int64_t)col0 * k + (int64_t)kblk * kper;
    T *tile = (T *)(sm + STAGES * S::STAGE);
    float *bias_s = (float *)(sm + STAGES * S::STAGE + S::TILE);
    float *gamma_s = bias_s + BN, *beta_s = gamma_s + BN;

    /* 16-byte chunk q of a tile's row r lands at chunk q ^ (r % 8) */
    auto load_a = [&](int kt, int st) {
        unsigned char *as = sm + st * S::STAGE;
        const int k0 = kt * GLN_BK;
#pragma unroll
        for (int c = threadIdx.x; c < GLN_BM * 8; c += THREADS) {
            const int r = c >> 3, q = c & 7;
            const bool ok = row0 + r < m;
            cp_async16(as + r * 128 + ((q ^ (r & 7)) << 4),
                       ab + (int64_t)(ok ? row0 + r : 0) * k + k0 + q * 8,
                       ok ? 16 : 0);
        }
    };
    auto load_b = [&](int kt, int st) {
        unsigned char *bs = sm + st * S::STAGE + S::A_BYTES;
        const int k0 = kt * GLN_BK;
#pragma unroll
        for (int c = threadIdx.x; c < BN * 8; c += THREADS) {
            const int r = c >> 3, q = c & 7;
            cp_async16(bs + r * 128 + ((q ^ (r & 7)) << 4),
                       wb + (int64_t)r * k + k0 + q * 8, 16);
        }
    };

    float d[R];
#pragma unroll
    for (int i = 0; i < R; i++)
        d[i] = 0.f;
    /* the weight, bias, gamma and beta are params, which no run writes:
     * they are read before waiting for the kernel before (programmatic
     * dependent launch), x and the residual after */
    for (int s = 0; s < AHEAD; s++)
        if (s < ktiles)
            load_b(s, s);
    if (lead)
        for (int c = threadIdx.x; c < BN; c += THREADS) {
            bias_s[c] = ld(bias, col0 + c);
            gamma_s[c] = ld(gamma, col0 + c);
            beta_s[c] = ld(beta, col0 + c);
        }
    if (dep)
        grid_dep_wait();
    for (int s = 0; s < AHEAD; s++) {
        if (s < ktiles)
            load_a(s, s);
        /* the residual's tile with the first tiles, landed long before
         * the epilogue reads it */
        if (s == AHEAD - 1 && lead)
            for (int c = threadIdx.x; c < GLN_BM * (BN / 8); c += THREADS) {
                const int r = c / (BN / 8), q = c % (BN / 8);
                const bool ok = row0 + r < m;
                cp_async16(tile + r * S::ROW + q * 8,
                           res + (int64_t)(ok ? row0 + r : 0) * n + col0 +
                               q * 8,
                           ok ? 16 : 0);
            }
        cp_async_commit();
    }
    bw_mainloop<NW, R, STAGES>(d, ktiles, sbase, S::STAGE, 0u,
                               (unsigned)(S::A_BYTES + wg * NW * 128),
                               [&](int nt, int st) {
                                   load_a(nt, st);
                                   load_b(nt, st);
                               });
    cp_async_wait<0>();
    if (dep)
        grid_dep_release();
    __syncthreads(); /* the stages are free */

    /* K slices: the others' partial products into the lead block's, in
     * slice order (the stages' memory holds them) */
    float *red = (float *)sm;
    auto at = [&](int j, int h) {
        return (wq * 16 + g + 8 * h) * BN + wg * NW + j * 8 + 2 * t;
    };
    if constexpr (CK > 1) {
        if (!lead)
#pragma unroll
            for (int j = 0; j < NJ; j++)
#pragma unroll
                for (int h = 0; h < 2; h++)
                    *(float2 *)(red + at(j, h)) =
                        make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
        cl.sync();
        if (lead)
            for (int p = 1; p < CK; p++) {
                const float *pr = cl.map_shared_rank(red, rank + p * cn);
                float2 v[NJ][2];
#pragma unroll
                for (int j = 0; j < NJ; j++)
#pragma unroll
                    for (int h = 0; h < 2; h++)
                        v[j][h] = *(const float2 *)(pr + at(j, h));
#pragma unroll
                for (int j = 0; j < NJ; j++)
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        d[4 * j + 2 * h] += v[j][h].x;
                        d[4 * j + 2 * h + 1] += v[j][h].y;
                    }
            }
    }

    /* Each row's sum of F(its values) over the block's columns, into
     * OUT (fixed order: a thread's columns, its quad, the warpgroups) */
    auto row_sums = [&](auto f, float *out) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            float s = 0.f;
#pragma unroll
            for (int j = 0; j < NJ; j++)
                s += f(d[4 * j + 2 * h], h) + f(d[4 * j + 2 * h + 1], h);
            s += __shfl_xor_sync(0xffffffffu, s, 1);
            s += __shfl_xor_sync(0xffffffffu, s, 2);
            if (t == 0)
                part[wg][wq * 16 + g + 8 * h] = s;
        }
        __syncthreads();
        if ((int)threadIdx.x < GLN_BM) {
            float s = 0.f;
#pragma unroll
            for (int i = 0; i < WGS; i++)
                s += part[i][threadIdx.x];
            out[threadIdx.x] = s;
        }
    };

    /* + bias, rounded as stored; + residual, rounded as stored */
    if (lead) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int rl = wq * 16 + g + 8 * h;
#pragma unroll
            for (int j = 0; j < NJ; j++)
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const int c = wg * NW + j * 8 + 2 * t + e;
                    float v = rnd<T>(d[4 * j + 2 * h + e] + bias_s[c]);
                    v = rnd<T>(v + ld(tile, rl * S::ROW + c));
                    d[4 * j + 2 * h + e] = v;
                }
        }
        row_sums([](float v, int) { return v; }, sum_blk);
    }
    /* mean, then the variance around it, over the cluster's columns;
     * every block adds the blocks' sums in rank order, so all agree */
    cl.sync();
    if (lead && (int)threadIdx.x < GLN_BM) {
        float s = 0.f;
        for (int b = 0; b < cn; b++)
            s += cl.map_shared_rank(sum_blk, b)[threadIdx.x];
        mean_s[threadIdx.x] = s / (float)n;
    }
    __syncthreads();
    if (lead) {
        const float mu[2] = { mean_s[wq * 16 + g], mean_s[wq * 16 + g + 8] };
        row_sums(
            [&](float v, int h) {
                const float x = v - mu[h];
                return x * x;
            },
            sq_blk);
    }
    cl.sync();
    if (lead && (int)threadIdx.x < GLN_BM) {
        float q = 0.f;
        for (int b = 0; b < cn; b++)
            q += cl.map_shared_rank(sq_blk, b)[threadIdx.x];
        rstd_s[threadIdx.x] = rsqrtf(q / (float)n + eps);
    }
    __syncthreads();
    /* the output into the residual's tile (each thread over what it
     * read), then to y in rows of 16-byte stores */
    if (lead) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int rl = wq * 16 + g + 8 * h;
            const float mu = mean_s[rl], rs = rstd_s[rl];
#pragma unroll
            for (int j = 0; j < NJ; j++) {
                const int c = wg * NW + j * 8 + 2 * t;
                float o[2];
#pragma unroll
                for (int e = 0; e < 2; e++)
                    o[e] = (d[4 * j + 2 * h + e] - mu) * rs * gamma_s[c + e] +
                           beta_s[c + e];
                *(unsigned *)(tile + rl * S::ROW + c) = pack2<T>(o[0], o[1]);
            }
        }
        __syncthreads();
        for (int c = threadIdx.x; c < GLN_BM * (BN / 8); c += THREADS) {
            const int r = c / (BN / 8), q = c % (BN / 8);
            if (row0 + r < m)
                *(uint4 *)(y + (int64_t)(row0 + r) * n + col0 + q * 8) =
                    *(const uint4 *)(tile + r * S::ROW + q * 8);
        }
    }
    cl.sync(); /* no block leaves while another reads its shared memory */
#else
    (void)a, (void)w, (void)bias, (void)res, (void)gamma, (void)beta;
    (void)y, (void)m, (void)n, (void)k, (void)eps, (void)dep;
#endif
}

/* The tiles: columns per block, K slices per cluster (the stages and
 * warpgroups of each are gln_run's) */
struct gln_cfg {
    int bn, ck;
};
constexpr gln_cfg kGlnCfg[GLN_CONFIGS] = {
    { 128, 1 }, { 128, 1 }, { 128, 1 }, { 128, 2 }, { 64, 1 },
};
static const char *const kGlnNames[GLN_CONFIGS] = {
    "fused, 128 cols, 1 warpgroup", "fused, 128 cols, 2 warpgroups",
    "fused, 128 cols, 4 warpgroups", "fused, 128 cols, K/2, 4 wgs",
    "fused, 64 cols, 2 warpgroups",
};

template <int BN, int CK, int STAGES, int WGS>
gpuError_t gln_launch(gpuStream_t s, const void *a, const void *w,
                      const void *bias, const void *res, const void *gamma,
                      const void *beta, void *y, int m, int n, int k,
                      float eps, int dep)
{
    auto kern = gemm_ln_kernel<BN, CK, STAGES, WGS>;
    constexpr int smem = gln_shape<BN, STAGES>::SMEM;
    gpuError_t e = cudaFuncSetAttribute(
        kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (e != cudaSuccess)
        return e;
    cudaLaunchAttribute attr[2];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)(n / BN * CK);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    attr[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[1].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)(n / BN * CK),
                       (unsigned)((m + GLN_BM - 1) / GLN_BM));
    cfg.blockDim = dim3(128 * WGS);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = dep ? 2 : 1;
    return cudaLaunchKernelEx(&cfg, kern, (const T *)a, (const T *)w,
                              (const T *)bias, (const T *)res,
                              (const T *)gamma, (const T *)beta, (T *)y, m,
                              n, k, eps, dep);
}

gpuError_t gln_run(gpuStream_t s, int cfg, const void *a, const void *w,
                   const void *bias, const void *res, const void *gamma,
                   const void *beta, void *y, int m, int n, int k, float eps,
                   int dep)
{
#define GLN_ARGS s, a, w, bias, res, gamma, beta, y, m, n, k, eps, dep
    switch (cfg) {
    case 0: return gln_launch<128, 1, 8, 1>(GLN_ARGS);
    case 1: return gln_launch<128, 1, 8, 2>(GLN_ARGS);
    case 2: return gln_launch<128, 1, 8, 4>(GLN_ARGS);
    case 3: return gln_launch<128, 2, 8, 4>(GLN_ARGS);
    case 4: return gln_launch<64, 1, 12, 2>(GLN_ARGS);
    default: return gpuErrorInvalidValue;
    }
#undef GLN_ARGS
}

} /* namespace */

/* the tile shape CFG fits the shape, and the device runs the sm_90a
 * code (not the compute_80 PTX a newer GPU would compile, in which the
 * kernel is empty) */
static int gemm_ln_ok(int64_t m, int64_t n, int64_t k, int cfg)
{
    if (cfg < 0 || cfg >= GLN_CONFIGS || m < 1 || m > INT32_MAX ||
        n < 1 || k < 1 || k > INT32_MAX || n * k > INT32_MAX)
        return 0;
    const gln_cfg c = kGlnCfg[cfg];
    if (n % c.bn || n / c.bn * c.ck > 8 || k % (GLN_BK * c.ck))
        return 0; /* a cluster of at most 8 blocks; whole K tiles */
    return rlxg_dep_launch_ok();
}

/* y = layer_norm(rnd(rnd(x w^T + bias) + res)) * gamma + beta, bf16;
 * every pointer given, x, w, res and y 16-byte aligned */
static gpuError_t gemm_ln(gpuStream_t s, const void *x, const void *w,
                          const void *bias, const void *res,
                          const void *gamma, const void *beta, void *y,
                          int64_t m, int64_t n, int64_t k, float eps,
                          int cfg, int dep)
{
    if (!gemm_ln_ok(m, n, k, cfg) || !bias || !res || !gamma || !beta ||
        ((uintptr_t)x | (uintptr_t)w | (uintptr_t)res | (uintptr_t)y) % 16)
        return gpuErrorInvalidValue;
    return gln_run(s, cfg, x, w, bias, res, gamma, beta, y, (int)m, (int)n,
                   (int)k, eps, dep);
}
