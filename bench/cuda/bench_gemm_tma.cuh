/*
 * bench_gemm_tma.cuh - bench_gemm_wg.cuh's Linear layer y = act(x w^T +
 * bias) fed the way cuBLASLt's Hopper kernels are: one producer thread
 * copies whole tiles with the tensor memory accelerator (TMA) into
 * STAGES stages of shared memory, each with a "full" mbarrier the copy
 * completes and an "empty" one the consumer warps arrive on once their
 * wgmmas are done with it. The eleventh session measured that with
 * cp.async from every thread, the copies' address arithmetic, not the
 * tensor cores, set the pace; here the consumers only wait and issue
 * wgmmas.
 *
 * Starting early: the weight is a param no kernel of the graph writes,
 * so the producer copies the first stages' weight tiles before
 * griddepcontrol.wait and x's only after it; the consumers wait too
 * before they store y. TRIG as in bench_gemm_wg.cuh.
 *
 * Block: WGS consumer warpgroups (rows 64 i .. + 64 each, m64nBNk16
 * wgmmas) and one producer warp. x [m, k], w [n, k], both K-major,
 * tiles of 64 along K in the 128-byte swizzle (TMA's
 * CU_TENSOR_MAP_SWIZZLE_128B is the layout bw_desc describes).
 *
 * Also here, gemm_tma_ln_kernel: the Linear with the residual add and
 * layer_norm in its epilogue, a cluster of blocks per row block.
 *
 * On an H200 (bench/cuda/RESULTS.md, thirteenth session): the plain
 * kernel matches cuBLASLt on the encoder's out-projection (64 x 64 tiles,
 * 3.57-3.83 µs as a dependent against 3.63-3.81) and is 1.2x to 1.5x
 * slower on its other three GEMMs; the block does not gain from the
 * out-projection started early. The fused kernel is 1.2x to 1.5x slower
 * than cuBLASLt + the norm kernel: launched as clusters of 8, its 128
 * blocks cost 1.5 µs more than unclustered, and 8 stages (one block per
 * SM) fit only 15 of its 16 clusters at once. Neither is in the plugin.
 * After bench_gemm_wg.cuh; links -lcuda (cuTensorMapEncodeTiled).
 */
#include <cuda.h>

namespace {

#ifdef RLXG_SM90A_DEVICE
__device__ __forceinline__ void gt_mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar),
                 "r"(count));
}
/* the producer's arrival, announcing BYTES the copies will complete */
__device__ __forceinline__ void gt_mbar_expect(unsigned bar, unsigned bytes)
{
    asm volatile(
        "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar),
        "r"(bytes)
        : "memory");
}
__device__ __forceinline__ void gt_mbar_arrive(unsigned bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar)
                 : "memory");
}
/* until the phase of parity PARITY has completed */
__device__ __forceinline__ void gt_mbar_wait(unsigned bar, unsigned parity)
{
    asm volatile("{\n.reg .pred p;\nGT_WAIT:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra GT_WAIT;\n}\n" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}
/* the box at (C0 along K, C1 along rows) of MAP into DST, completing
 * its bytes on BAR */
__device__ __forceinline__ void gt_tma_2d(unsigned dst, const CUtensorMap *map,
                                          unsigned bar, int c0, int c1)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(dst),
                 "l"((uint64_t)map), "r"(bar), "r"(c0), "r"(c1)
                 : "memory");
}
#endif

#ifdef RLXG_SM90A_DEVICE
/* The pipeline a block's kernel runs: S (gw_shape) sizes its stages.
 * Shared memory from SBASE (1024-aligned), barriers FULL and EMPTY. */
template <typename S, int STAGES> struct gt_pipe {
    unsigned sbase;
    uint64_t *full, *empty;

    __device__ unsigned bar(uint64_t *b, int i) const
    {
        return smem_addr(b + i);
    }
    __device__ unsigned stage(int st) const
    {
        return sbase + (unsigned)(st * S::STAGE);
    }

    /* thread 0, then the block: every stage's barriers ready */
    __device__ void init(int consumer_warps) const
    {
        if (threadIdx.x == 0) {
            for (int s = 0; s < STAGES; s++) {
                gt_mbar_init(bar(full, s), 1);
                gt_mbar_init(bar(empty, s), consumer_warps);
            }
            asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        }
        __syncthreads();
    }

    /* the producer thread: KTILES tiles of x's rows from ROW0 and w's
     * from COL0; the first stages' weight tiles before the wait for the
     * kernel before, x's after it */
    __device__ void produce(const CUtensorMap *tx, const CUtensorMap *tw,
                            int ktiles, int row0, int col0) const
    {
        const int pre = ktiles < STAGES ? ktiles : STAGES;
        for (int s = 0; s < pre; s++) {
            gt_mbar_expect(bar(full, s), S::STAGE);
            gt_tma_2d(stage(s) + S::A_BYTES, tw, bar(full, s), s * GW_BK,
                      col0);
        }
        grid_dep_wait(); /* x may be the kernel before's output */
        for (int s = 0; s < pre; s++)
            gt_tma_2d(stage(s), tx, bar(full, s), s * GW_BK, row0);
        for (int kt = STAGES; kt < ktiles; kt++) {
            const int st = kt % STAGES;
            gt_mbar_wait(bar(empty, st), ((kt / STAGES) + 1) & 1);
            gt_mbar_expect(bar(full, st), S::STAGE);
            gt_tma_2d(stage(st) + S::A_BYTES, tw, bar(full, st), kt * GW_BK,
                      col0);
            gt_tma_2d(stage(st), tx, bar(full, st), kt * GW_BK, row0);
        }
    }

    /* in the producer warp (IS): its lane 0 copies, and the warp is to
     * leave the kernel (true) */
    __device__ bool producer(bool is, int lane, const CUtensorMap *tx,
                             const CUtensorMap *tw, int ktiles, int row0,
                             int col0) const
    {
        if (is && lane == 0)
            produce(tx, tw, ktiles, row0, col0);
        return is;
    }

    /* warpgroup WG's products over KTILES tiles into D (R accumulators
     * of m64nBNk16); each warp frees a stage once its wgmmas are done */
    template <int BN, int R>
    __device__ void consume(float *d, int ktiles, int wg, int lane) const
    {
#pragma unroll 1
        for (int kt = 0; kt < ktiles; kt++) {
            const int st = kt % STAGES;
            gt_mbar_wait(bar(full, st), (kt / STAGES) & 1);
            bw_ktile<BN, R>(d, stage(st) + (unsigned)(wg * 64 * 128),
                            stage(st) + (unsigned)S::A_BYTES, kt == 0);
            wgmma_wait<1>(); /* tile kt - 1's wgmmas are done */
            bw_hold<R>(d);
            if (kt > 0 && lane == 0)
                gt_mbar_arrive(bar(empty, (kt - 1) % STAGES));
        }
        wgmma_wait<0>();
        bw_hold<R>(d);
    }
};
#endif

template <int BN, int WGS, int STAGES>
__global__ void __launch_bounds__(128 * WGS + 32)
    gemm_tma_kernel(const __grid_constant__ CUtensorMap tx,
                    const __grid_constant__ CUtensorMap tw,
                    const gpu_bf16 *__restrict__ bias,
                    gpu_bf16 *__restrict__ y, int m, int n, int k, int act,
                    int trig)
{
#ifdef RLXG_SM90A_DEVICE
    using S = gw_shape<BN, WGS, STAGES>;
    constexpr int NJ = BN / 8, R = NJ * 4;
    extern __shared__ unsigned char gt_raw[];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    unsigned char *sm = gt_raw + ((1024 - (smem_addr(gt_raw) & 1023)) & 1023);
    const gt_pipe<S, STAGES> pipe = { smem_addr(sm), full, empty };
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int row0 = (int)blockIdx.y * S::BM, col0 = (int)blockIdx.x * BN;
    const int ktiles = k / GW_BK;
    pipe.init(4 * WGS);
    if (pipe.producer(warp == 4 * WGS, lane, &tx, &tw, ktiles, row0, col0))
        return;

    const int wg = warp >> 2, wq = warp & 3, g = lane >> 2, t = lane & 3;
    float d[R];
    bw_zero<R>(d);
    float2 bv[NJ];
    gw_pairs<NJ>(bv, bias, col0 + 2 * t);
    pipe.template consume<BN, R>(d, ktiles, wg, lane);
    grid_dep_wait(); /* y may be what the kernel before read */
    if (trig)
        grid_dep_release();
    gw_store<NJ>(y, d, bv, act, m, n, row0 + wg * 64 + wq * 16 + g,
                 col0 + 2 * t);
#endif
}

#ifdef RLXG_SM90A_DEVICE
/* P's shared address in cluster block RANK's shared memory */
__device__ __forceinline__ unsigned gt_peer(unsigned p, int rank)
{
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n"
                 : "=r"(r)
                 : "r"(p), "r"(rank));
    return r;
}
/* (A, B) into a peer's shared memory at ADDR, completing 8 bytes on its
 * barrier BAR */
__device__ __forceinline__ void gt_st_async(unsigned addr, float a, float b,
                                            unsigned bar)
{
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2."
                 "f32 [%0], {%1, %2}, [%3];\n" ::"r"(addr),
                 "f"(a), "f"(b), "r"(bar)
                 : "memory");
}
#endif

/* gemm_tma_ln_kernel's MODE, for measurements only (the output is then
 * wrong): GT_LN_LOCAL, no exchange (each block's own columns' stats, no
 * cluster barrier); GT_LN_NO_RES, no residual read; GT_LN_NO_CLUSTER
 * (with GT_LN_LOCAL), launched without clusters */
enum { GT_LN_LOCAL = 1, GT_LN_NO_RES = 2, GT_LN_NO_CLUSTER = 4 };
static int gt_ln_mode;

/* y = layer_norm(res + (x w^T + bias)) * gamma + beta over rows of
 * n = CL * BN: the Linear's output, the residual add and the norm, each
 * rounded to bf16 where the unfused steps store them (cuBLASLt's output,
 * the norm kernel's add). A thread-block cluster of CL blocks holds a
 * row block's n columns. Each block reduces its BN columns of each row
 * to (mean, M2) and pushes them to every block of its cluster with
 * st.async on the receiver's mbarrier; no cluster barrier waits for the
 * exchange, and the one that makes the receivers' barriers ready is
 * entered at the start and left just before the first push. Each block
 * merges the CL pairs of a row (Chan et al.; equal counts) in rank
 * order, so all blocks of a row agree. */
template <int BN, int WGS, int STAGES, int CL>
__global__ void __launch_bounds__(128 * WGS + 32)
    gemm_tma_ln_kernel(const __grid_constant__ CUtensorMap tx,
                       const __grid_constant__ CUtensorMap tw,
                       const gpu_bf16 *__restrict__ bias,
                       const gpu_bf16 *__restrict__ res,
                       const gpu_bf16 *__restrict__ gamma,
                       const gpu_bf16 *__restrict__ beta,
                       gpu_bf16 *__restrict__ y, int m, int k, float eps,
                       int trig, int mode)
{
#ifdef RLXG_SM90A_DEVICE
    using S = gw_shape<BN, WGS, STAGES>;
    constexpr int NJ = BN / 8, R = NJ * 4, N = CL * BN;
    extern __shared__ unsigned char gt_raw[];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES], xbar[1];
    __shared__ float2 xs[CL][S::BM]; /* (mean, M2) of rows, per block */
    unsigned char *sm = gt_raw + ((1024 - (smem_addr(gt_raw) & 1023)) & 1023);
    const gt_pipe<S, STAGES> pipe = { smem_addr(sm), full, empty };
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
    const int row0 = (int)blockIdx.y * S::BM, col0 = (int)blockIdx.x * BN;
    const int ktiles = k / GW_BK;
    const bool xchg = !(mode & GT_LN_LOCAL);
    if (tid == 0 && xchg) { /* every block's pairs, 8 bytes each */
        gt_mbar_init(smem_addr(xbar), 1);
        gt_mbar_expect(smem_addr(xbar), CL * S::BM * 8);
    }
    pipe.init(4 * WGS);
    if (xchg)
        asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
    if (pipe.producer(warp == 4 * WGS, lane, &tx, &tw, ktiles, row0, col0))
        return;

    const int wg = warp >> 2, wq = warp & 3, g = lane >> 2, t = lane & 3;
    float d[R];
    bw_zero<R>(d);
    float2 bv[NJ], gv[NJ], ev[NJ];
    gw_pairs<NJ>(bv, bias, col0 + 2 * t);
    gw_pairs<NJ>(gv, gamma, col0 + 2 * t);
    gw_pairs<NJ>(ev, beta, col0 + 2 * t);
    grid_dep_wait(); /* res and y: the kernels before's */
    const int rl[2] = { wg * 64 + wq * 16 + g, wg * 64 + wq * 16 + g + 8 };
    unsigned rv[2][NJ];
#pragma unroll
    for (int h = 0; h < 2; h++)
#pragma unroll
        for (int j = 0; j < NJ; j++)
            rv[h][j] = row0 + rl[h] < m && !(mode & GT_LN_NO_RES)
                           ? *(const unsigned *)(res + (int64_t)(row0 + rl[h]) * N +
                                                 col0 + 8 * j + 2 * t)
                           : 0u;
    pipe.template consume<BN, R>(d, ktiles, wg, lane);

    /* v = rnd(rnd(x w^T + bias) + res), in place of d */
    float mean[2], m2[2];
#pragma unroll
    for (int h = 0; h < 2; h++) {
        float s = 0.f;
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            const float2 r = gpu_bf16x2_to_float2(rv[h][j]);
            float &a = d[4 * j + 2 * h], &b = d[4 * j + 2 * h + 1];
            a = rnd<gpu_bf16>(rnd<gpu_bf16>(a + bv[j].x) + r.x);
            b = rnd<gpu_bf16>(rnd<gpu_bf16>(b + bv[j].y) + r.y);
            s += a + b;
        }
        s += __shfl_xor_sync(0xffffffffu, s, 1);
        s += __shfl_xor_sync(0xffffffffu, s, 2);
        mean[h] = s * (1.f / BN);
        float q = 0.f;
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            const float a = d[4 * j + 2 * h] - mean[h];
            const float b = d[4 * j + 2 * h + 1] - mean[h];
            q += a * a + b * b;
        }
        q += __shfl_xor_sync(0xffffffffu, q, 1);
        q += __shfl_xor_sync(0xffffffffu, q, 2);
        m2[h] = q;
    }
    if (xchg) {
        /* the peers' barriers are ready: push this block's pairs */
        asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#pragma unroll
        for (int p = t; p < CL; p += 4)
#pragma unroll
            for (int h = 0; h < 2; h++)
                gt_st_async(gt_peer(smem_addr(&xs[rank][rl[h]]), p), mean[h],
                            m2[h], gt_peer(smem_addr(xbar), p));
        gt_mbar_wait(smem_addr(xbar), 0);
    } else { /* measurement only: this block's own columns' stats */
        __syncwarp();
        if (t == 0)
            for (int c = 0; c < CL; c++)
                for (int h = 0; h < 2; h++)
                    xs[c][rl[h]] = make_float2(mean[h], m2[h]);
        __syncwarp();
    }
    if (trig)
        grid_dep_release();
#pragma unroll
    for (int h = 0; h < 2; h++) {
        float mu = 0.f;
#pragma unroll
        for (int c = 0; c < CL; c++)
            mu += xs[c][rl[h]].x;
        mu *= 1.f / CL;
        float q = 0.f, dq = 0.f;
#pragma unroll
        for (int c = 0; c < CL; c++) {
            const float2 e = xs[c][rl[h]];
            q += e.y;
            dq += (e.x - mu) * (e.x - mu);
        }
        const float inv = rsqrtf((q + dq * BN) * (1.f / N) + eps);
        const int r = row0 + rl[h];
        if (r >= m)
            continue;
        gpu_bf16 *yr = y + (int64_t)r * N + col0 + 2 * t;
#pragma unroll
        for (int j = 0; j < NJ; j++) {
            const float v0 = (d[4 * j + 2 * h] - mu) * inv * gv[j].x + ev[j].x;
            const float v1 =
                (d[4 * j + 2 * h + 1] - mu) * inv * gv[j].y + ev[j].y;
            *(unsigned *)(yr + 8 * j) = pack2<gpu_bf16>(v0, v1);
        }
    }
#endif
}

/* a K-major bf16 matrix [rows, k] as TMA boxes of 64 (K) x BOX rows in
 * the 128-byte swizzle; rows past the end read as 0 */
static inline CUresult gt_map(CUtensorMap *map, const gpu_bf16 *p, int rows,
                              int k, int box)
{
    cuuint64_t dims[2] = { (cuuint64_t)k, (cuuint64_t)rows };
    cuuint64_t strides[1] = { (cuuint64_t)k * 2 };
    cuuint32_t boxd[2] = { (cuuint32_t)GW_BK, (cuuint32_t)box };
    cuuint32_t es[2] = { 1, 1 };
    return cuTensorMapEncodeTiled(
        map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)p, dims, strides,
        boxd, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

/* What both launchers do first: KERN's shared memory allowed once
 * (READY), the shape checked (N_OK, k % 64), x's tensor map in boxes of
 * BM rows and w's in boxes of BN */
template <typename K>
static cudaError_t gt_prepare(K kern, bool &ready, int smem, bool n_ok,
                              const gpu_bf16 *a, const gpu_bf16 *w, int m,
                              int n, int k, int bm, int bn, CUtensorMap *tx,
                              CUtensorMap *tw)
{
    cudaError_t e = gw_allow_smem(kern, ready, smem);
    if (e != cudaSuccess)
        return e;
    if (k % GW_BK || !n_ok)
        return cudaErrorInvalidValue;
    if (gt_map(tx, a, m, k, bm) != CUDA_SUCCESS ||
        gt_map(tw, w, n, k, bn) != CUDA_SUCCESS)
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

/* x [m, k] @ w[n, k]^T + bias, act; k % 64 == 0 and n % BN == 0; the
 * tensor maps are made on every call (host time only: the benchmark
 * replays captured graphs) */
template <int BN, int WGS, int STAGES>
cudaError_t gemm_tma_run(cudaStream_t s, const gpu_bf16 *a, const gpu_bf16 *w,
                         const gpu_bf16 *bias, gpu_bf16 *y, int m, int n,
                         int k, int act, int pdl, int trig)
{
    using S = gw_shape<BN, WGS, STAGES>;
    auto kern = gemm_tma_kernel<BN, WGS, STAGES>;
    static bool ready;
    CUtensorMap tx, tw;
    cudaError_t e = gt_prepare(kern, ready, S::SMEM, n % BN == 0, a, w, m,
                               n, k, S::BM, BN, &tx, &tw);
    if (e != cudaSuccess)
        return e;
    return gw_launch<S>(kern, n / BN, m, S::THREADS + 32, s, pdl, tx, tw,
                        bias, y, m, n, k, act, trig);
}

/* the fused Linear + add + layer_norm; n = CL * BN (the cluster's
 * blocks cover a row), k % 64 == 0 */
template <int BN, int WGS, int STAGES, int CL>
cudaError_t gemm_tma_ln_run(cudaStream_t s, const gpu_bf16 *a,
                            const gpu_bf16 *w, const gpu_bf16 *bias,
                            const gpu_bf16 *res, const gpu_bf16 *gamma,
                            const gpu_bf16 *beta, gpu_bf16 *y, int m, int n,
                            int k, float eps, int pdl, int trig)
{
    using S = gw_shape<BN, WGS, STAGES>;
    auto kern = gemm_tma_ln_kernel<BN, WGS, STAGES, CL>;
    static bool ready;
    CUtensorMap tx, tw;
    cudaError_t e = gt_prepare(kern, ready, S::SMEM, n == CL * BN, a, w, m,
                               n, k, S::BM, BN, &tx, &tw);
    if (e != cudaSuccess)
        return e;
    cudaLaunchAttribute attr[2];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = CL;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    attr[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[1].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)CL, (unsigned)((m + S::BM - 1) / S::BM));
    cfg.blockDim = dim3(S::THREADS + 32);
    cfg.dynamicSmemBytes = S::SMEM;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.attrs = gt_ln_mode & GT_LN_NO_CLUSTER ? attr + 1 : attr;
    cfg.numAttrs = (pdl ? 1 : 0) + (gt_ln_mode & GT_LN_NO_CLUSTER ? 0 : 1);
    return cudaLaunchKernelEx(&cfg, kern, tx, tw, bias, res, gamma, beta, y,
                              m, k, eps, trig, gt_ln_mode);
}

/* how many clusters of the fused kernel fit on the GPU at once */
template <int BN, int WGS, int STAGES, int CL>
int gemm_tma_ln_clusters(int m)
{
    using S = gw_shape<BN, WGS, STAGES>;
    auto kern = gemm_tma_ln_kernel<BN, WGS, STAGES, CL>;
    cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         S::SMEM);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = CL;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)CL, (unsigned)((m + S::BM - 1) / S::BM));
    cfg.blockDim = dim3(S::THREADS + 32);
    cfg.dynamicSmemBytes = S::SMEM;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    int n = 0;
    return cudaOccupancyMaxActiveClusters(&n, kern, &cfg) == cudaSuccess ? n
                                                                         : -1;
}

} /* namespace */
