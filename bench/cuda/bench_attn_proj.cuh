/*
 * bench_attn_proj.cuh - the kernel bench_attn_proj.cu times: a
 * transformer's attention sub-layer as one kernel, bf16, on sm_90
 * (thread-block clusters):
 *
 *     o = attention(q, k, v) as [rows, heads 64]   (rounded as stored)
 *     v = rnd(rnd(o w^T + bias) + res)
 *     y = (v - mean) * rstd * gamma + beta
 *
 * with w the out-projection in Linear layout [n, n], n = heads * 64.
 * Unfused, the cuda plugin runs this as three kernels: the tensor-core
 * attention, a cuBLASLt GEMM and the add + norm kernel.
 *
 * A cluster holds one block per head for the same 64 query rows. Each
 * block runs the plugin's flash attention steps for its head
 * (gk_attention_flash.cuh) and writes the head's output to o. After a cluster barrier, block h
 * computes output columns [64 h, 64 h + 64): every head's output tile
 * and the matching 64 x 64 chunk of its rows of w are copied from L2
 * four steps deep, step c taking head (h + c) % heads. Bias and the
 * residual's tile are added (each rounded as the unfused steps store
 * them); the blocks exchange their rows' sums and sums of squared
 * deviations over their 64 columns once, through distributed shared
 * memory, merge them in rank order (Chan et al.) and normalize.
 *
 * SKIP leaves parts out, for measuring what each costs (the output is
 * then wrong): APN_SKIP_ATTENTION, _PROJECTION, _EXCHANGE (local stats
 * only, no cluster barrier), _O_SYNC (a block barrier instead of the
 * cluster's).
 *
 * It is right (the unfused path's results to rel. 2.5e-5) but slower
 * than the three kernels at the encoder's shape (bench/cuda/RESULTS.md,
 * tenth session), so the plugin does not have it.
 */
#include <cooperative_groups.h>

#include "../../plugins/gpu-common/gk_common.cuh"
#include "../../plugins/gpu-common/gk_ptx.cuh"
#include "../../plugins/gpu-common/gk_attention_flash.cuh"

namespace cg = cooperative_groups;

#define APN_SKIP_ATTENTION 1
#define APN_SKIP_PROJECTION 2
#define APN_SKIP_EXCHANGE 4
#define APN_SKIP_O_SYNC 8

namespace {

constexpr int kD = 64;          /* head size, and columns per block */
constexpr int kRows = 64;       /* query rows per block: 4 warps x 16 */
constexpr int kP = kD + 8;      /* shared rows padded by 16 bytes */
constexpr int kTile = kRows * kP;
constexpr int kStages = 4;      /* projection steps in flight */

template <typename T> constexpr size_t smem_bytes()
{
    /* the attention's K/V tiles (4) and later the projection's ring of
     * (output, w) chunk pairs; the residual's tile; bias, gamma, beta
     * and the row stats in f32 */
    return (size_t)(2 * kStages + 1) * kTile * sizeof(T) +
           (3 * kD + 2 * kRows) * sizeof(float);
}

template <typename T>
__global__ void __launch_bounds__(128)
    attn_proj_norm_kernel(const T *q, const T *k, const T *v, T *o,
                          const T *w, const T *bias, const T *res,
                          const T *gamma, const T *beta, T *y,
                          rlxg_attn_plan p, int n, float eps, int pdl,
                          int skip)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int NT = kD / 8, KC = kD / 16;
    extern __shared__ __align__(16) unsigned char smem[];
    T *Kg = (T *)smem, *Vg = Kg + 2 * kTile; /* the attention's */
    T *ring = (T *)smem;                     /* the projection's */
    T *Rs = ring + 2 * kStages * kTile;
    float *bias_s = (float *)(Rs + kTile), *gamma_s = bias_s + kD;
    float *beta_s = gamma_s + kD;
    float2 *stats = (float2 *)(beta_s + kD);
    cg::cluster_group cl = cg::this_cluster();
    const int heads = (int)gridDim.x, h = (int)blockIdx.x;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int g = lane >> 2, t = lane & 3;
    const int64_t b = blockIdx.z, rowb = (int64_t)blockIdx.y * kRows;
    const int64_t row_y = b * p.sq + rowb; /* first row of o, res and y */
    const int col0 = h * kD;

    /* parameters before the wait: w's rows towards L2, bias, gamma and
     * beta into shared memory */
    for (int i = threadIdx.x; i < kD * n / 64; i += 128) {
        const T *line = w + (int64_t)col0 * n + (int64_t)i * 64;
        asm volatile("prefetch.global.L2 [%0];\n" ::"l"(line));
    }
    if (threadIdx.x < kD) {
        const int c = col0 + threadIdx.x;
        bias_s[threadIdx.x] = ld(bias, c);
        gamma_s[threadIdx.x] = ld(gamma, c);
        beta_s[threadIdx.x] = ld(beta, c);
    }
    if (pdl)
        grid_dep_wait();

    /* ---- attention for head h (the plugin's attention steps) ---- */
    const attn_head<T> a = {
        q + p.q_off + b * p.q_s[0] + h * p.q_s[1],
        k + p.k_off + b * p.k_s[0] + h * p.k_s[1],
        v + p.v_off + b * p.v_s[0] + h * p.v_s[1], nullptr
    };
    const int64_t row0 = rowb + warp * 16 + g, row1 = row0 + 8;
    const int ntiles = attn_tiles(p, rowb, kRows, kRows);
    auto load_tile = [&](int tile, int buf) {
        attn_copy_tile<T, kD, kRows, kP, 128>(Kg + buf * kTile,
                                              Vg + buf * kTile, a, p, tile);
    };
    const bool attend = !(skip & APN_SKIP_ATTENTION);
    if (ntiles > 0 && attend)
        load_tile(0, 0);
    cp_async_commit();
    unsigned qa[KC][4];
    attn_q_frags<T, KC>(qa, a.q, p, row0, row1, t);
    float acc[NT][4];
    attn_zero_acc<NT>(acc);
    attn_rows rs = attn_rows_start(p, row0, row1);
    attn_key_loop(attend ? ntiles : 0, load_tile, [&](int tile, int buf) {
        attn_mma_tile<T, kD, kRows, kP>(acc, rs, qa, Kg + buf * kTile,
                                        Vg + buf * kTile, tile, p.sk, lane);
    });
    float i0, i1;
    attn_finish(rs, i0, i1);
    /* the head's output, rounded to T as the unfused path stores it, to
     * o (the cluster's blocks read it from L2) */
    const int lr0 = warp * 16 + g, lr1 = lr0 + 8; /* rows in the block */
#pragma unroll
    for (int j = 0; j < NT; j++) {
        const int c = col0 + j * 8 + 2 * t;
        *(unsigned *)(o + (row_y + lr0) * n + c) =
            pack2<T>(acc[j][0] * i0, acc[j][1] * i0);
        *(unsigned *)(o + (row_y + lr1) * n + c) =
            pack2<T>(acc[j][2] * i1, acc[j][3] * i1);
    }
    /* the residual's tile, needed last */
    for (int i = threadIdx.x; i < kRows * (kD / 8); i += 128) {
        const int r = i >> 3, e = (i & 7) * 8;
        cp_async16(Rs + r * kP + e, res + (row_y + r) * n + col0 + e, 16);
    }
    cp_async_commit();
    if (skip & APN_SKIP_O_SYNC)
        __syncthreads();
    else
        cl.sync(); /* every head's output written (cluster-scope release
                      and acquire) and the K/V tiles free for the ring */

    /* ---- columns col0 .. + 64 of (heads' outputs) w^T ---- */
    /* Step c takes head (h + c) % heads: chunk c is that head's 64
     * columns of the 64 output rows and of this block's 64 rows of w,
     * both copied from L2 kStages - 1 steps ahead. */
    auto load_step = [&](int c) {
        const int hc = c + h < heads ? c + h : c + h - heads;
        T *A = ring + (c % kStages) * 2 * kTile, *B = A + kTile;
        const T *oa = o + row_y * n + hc * kD;
        const T *wb = w + (int64_t)col0 * n + hc * kD;
        for (int i = threadIdx.x; i < kRows * (kD / 8); i += 128) {
            const int r = i >> 3, e = (i & 7) * 8;
            cp_async16(A + r * kP + e, oa + (int64_t)r * n + e, 16);
            cp_async16(B + r * kP + e, wb + (int64_t)r * n + e, 16);
        }
    };
    const int steps = (skip & APN_SKIP_PROJECTION) ? 0 : heads;
#pragma unroll
    for (int c = 0; c < kStages - 1; c++) {
        if (c < steps)
            load_step(c);
        cp_async_commit();
    }
    float acc2[NT][4];
    attn_zero_acc<NT>(acc2);
    for (int c = 0; c < steps; c++) {
        cp_async_wait<kStages - 2>(); /* step c's chunks, this thread's */
        __syncthreads(); /* ... everyone's; step c - 1's slot is free */
        if (c + kStages - 1 < steps)
            load_step(c + kStages - 1);
        cp_async_commit();
        const T *A = ring + (c % kStages) * 2 * kTile, *B = A + kTile;
#pragma unroll
        for (int kc = 0; kc < KC; kc += 2) {
            unsigned fa[2][4];
            ldsm_x4(fa[0], A + (warp * 16 + (lane & 15)) * kP + kc * 16 +
                               (lane >> 4) * 8);
            ldsm_x4(fa[1], A + (warp * 16 + (lane & 15)) * kP + kc * 16 +
                               16 + (lane >> 4) * 8);
#pragma unroll
            for (int j = 0; j < NT; j++) {
                unsigned r[4];
                ldsm_x4(r, B + (j * 8 + (lane & 7)) * kP + kc * 16 +
                               (lane >> 3) * 8);
                mma16816<T>(acc2[j], fa[0], r[0], r[1]);
                mma16816<T>(acc2[j], fa[1], r[2], r[3]);
            }
        }
    }
    cp_async_wait<0>();
    __syncthreads(); /* the residual's tile, everyone's copies */

    /* ---- bias, residual; this block's row stats ---- */
    float s0 = 0.f, s1 = 0.f;
#pragma unroll
    for (int j = 0; j < NT; j++)
#pragma unroll
        for (int e = 0; e < 2; e++) {
            const int c = j * 8 + 2 * t + e;
            const float bb = bias_s[c];
            acc2[j][e] = rnd<T>(rnd<T>(acc2[j][e] + bb) + ld(Rs, lr0 * kP + c));
            acc2[j][2 + e] =
                rnd<T>(rnd<T>(acc2[j][2 + e] + bb) + ld(Rs, lr1 * kP + c));
            s0 += acc2[j][e];
            s1 += acc2[j][2 + e];
        }
    s0 += __shfl_xor_sync(0xffffffffu, s0, 1);
    s1 += __shfl_xor_sync(0xffffffffu, s1, 1);
    s0 += __shfl_xor_sync(0xffffffffu, s0, 2);
    s1 += __shfl_xor_sync(0xffffffffu, s1, 2);
    const float m0 = s0 / kD, m1 = s1 / kD;
    float q0 = 0.f, q1 = 0.f;
#pragma unroll
    for (int j = 0; j < NT; j++)
#pragma unroll
        for (int e = 0; e < 2; e++) {
            q0 += (acc2[j][e] - m0) * (acc2[j][e] - m0);
            q1 += (acc2[j][2 + e] - m1) * (acc2[j][2 + e] - m1);
        }
    q0 += __shfl_xor_sync(0xffffffffu, q0, 1);
    q1 += __shfl_xor_sync(0xffffffffu, q1, 1);
    q0 += __shfl_xor_sync(0xffffffffu, q0, 2);
    q1 += __shfl_xor_sync(0xffffffffu, q1, 2);
    if (t == 0) {
        stats[lr0] = make_float2(s0, q0);
        stats[lr1] = make_float2(s1, q1);
    }
    const bool exchange = !(skip & APN_SKIP_EXCHANGE);
    if (exchange)
        cl.sync(); /* every block's stats */
    else
        __syncthreads();

    /* the rows' mean and variance over all n columns, merged in rank
     * order so that every block of the cluster gets the same */
    const int ranks = exchange ? heads : 1;
    auto stats_of = [&](int r) {
        return exchange ? cl.map_shared_rank(stats, r) : stats;
    };
    float t0 = 0.f, t1 = 0.f;
    for (int r = 0; r < ranks; r++) {
        const float2 *st = stats_of(r);
        t0 += st[lr0].x;
        t1 += st[lr1].x;
    }
    const float mu0 = t0 / (float)n, mu1 = t1 / (float)n;
    float v0 = 0.f, v1 = 0.f;
    for (int r = 0; r < ranks; r++) {
        const float2 *st = stats_of(r);
        const float2 a0 = st[lr0], a1 = st[lr1];
        const float d0 = a0.x / kD - mu0, d1 = a1.x / kD - mu1;
        v0 += a0.y + kD * d0 * d0;
        v1 += a1.y + kD * d1 * d1;
    }
    const float is0 = rsqrtf(v0 / (float)n + eps);
    const float is1 = rsqrtf(v1 / (float)n + eps);
    /* done reading the others' memory; they may leave once all are */
    if (exchange)
        asm volatile("barrier.cluster.arrive.release.aligned;\n" :::
                         "memory");

    /* normalized, through the residual's tile (each thread overwrites
     * what it read) into 16-byte stores */
#pragma unroll
    for (int j = 0; j < NT; j++) {
        const int c = j * 8 + 2 * t;
        const float g0 = gamma_s[c], g1 = gamma_s[c + 1];
        const float b0 = beta_s[c], b1 = beta_s[c + 1];
        *(unsigned *)(Rs + lr0 * kP + c) =
            pack2<T>((acc2[j][0] - mu0) * is0 * g0 + b0,
                     (acc2[j][1] - mu0) * is0 * g1 + b1);
        *(unsigned *)(Rs + lr1 * kP + c) =
            pack2<T>((acc2[j][2] - mu1) * is1 * g0 + b0,
                     (acc2[j][3] - mu1) * is1 * g1 + b1);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < kRows * (kD / 8); i += 128) {
        const int r = i >> 3, e = (i & 7) * 8;
        *(uint4 *)(y + (row_y + r) * n + col0 + e) =
            *(const uint4 *)(Rs + r * kP + e);
    }
    if (exchange)
        asm volatile("barrier.cluster.wait.acquire.aligned;\n" :::
                         "memory");
#else
    (void)q, (void)k, (void)v, (void)o, (void)w, (void)bias, (void)res;
    (void)gamma, (void)beta, (void)y, (void)p, (void)n, (void)eps, (void)pdl;
    (void)skip;
    __trap(); /* clusters: launched only where the sm_90 code runs */
#endif
}

/* the shapes it takes: head size 64, 2 to 8 heads (one cluster), whole
 * 64-row query tiles, q/k/v rows 16-byte aligned; and the device runs
 * the sm_90 code (not the compute_80 PTX, where the kernel traps) */
static bool apn_ok(const rlxg_attn_plan &p)
{
    int64_t m = p.q_off | p.k_off | p.v_off;
    for (int d = 0; d < 3; d++)
        m |= p.q_s[d] | p.k_s[d] | p.v_s[d];
    return p.dh == kD && p.dv == kD && p.heads >= 2 && p.heads <= 8 &&
           p.sq > 0 && p.sq % kRows == 0 && p.sk > 0 && !(m & 7) &&
           p.q_s[3] == 1 && p.k_s[3] == 1 && p.v_s[3] == 1 &&
           rlxg_dep_launch_ok();
}

/* y [batch * sq, n] from q, k, v (PLAN), w [n, n], bias, res [batch *
 * sq, n], gamma, beta; O [batch * sq, n] takes the attention's output.
 * PDL: launched as a programmatic dependent (w, bias, gamma and beta are
 * read before the wait). */
static gpuError_t apn_run(gpuStream_t s, const gpu_bf16 *q,
                          const gpu_bf16 *k, const gpu_bf16 *v, gpu_bf16 *o,
                          const gpu_bf16 *w, const gpu_bf16 *bias,
                          const gpu_bf16 *res, const gpu_bf16 *gamma,
                          const gpu_bf16 *beta, gpu_bf16 *y,
                          const rlxg_attn_plan &p, float eps, int pdl,
                          int skip)
{
    auto kern = attn_proj_norm_kernel<gpu_bf16>;
    constexpr size_t smem = smem_bytes<gpu_bf16>();
    gpuError_t e = cudaFuncSetAttribute(
        kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
        return e;
    cudaLaunchAttribute attr[2];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = (unsigned)p.heads;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    attr[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[1].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)p.heads, (unsigned)(p.sq / kRows),
                       (unsigned)p.batch);
    cfg.blockDim = dim3(128);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = s;
    cfg.attrs = attr;
    cfg.numAttrs = pdl ? 2 : 1;
    return cudaLaunchKernelEx(&cfg, kern, q, k, v, o, w, bias, res, gamma,
                              beta, y, p, (int)(p.heads * kD), eps, pdl,
                              skip);
}

} /* namespace */
