/*
 * bench_gemv_chain.cuh - the variants bench_gemv_chain.cu times beside
 * the plugin's chain (gk_gemv_chain.cu: layers 1 and 2 as one weight
 * stream, then their sum): kernels that finish layer 2 and fold layer 3
 * in (chain_finish, one cluster: chain_finish_cluster), and layer 2's
 * GEMV with layer 3 folded in (gemv_fold). Included by
 * bench_gemv_chain.cu only, after the plugin's gk_gemv.cu,
 * gk_gemv_chain.cu and gk_ptx.cuh.
 */
#ifndef RLX_BENCH_GEMV_CHAIN_CUH
#define RLX_BENCH_GEMV_CHAIN_CUH

namespace {

/* Whether this block is the last of the grid to get here (LAST, for
 * every thread): the block's writes are made visible by one thread's
 * fence after the barrier (fences are cumulative), which then takes a
 * ticket; the last block's fence orders its reads of the others'
 * writes after theirs. (A fence in every thread measured the same.) */
__device__ __forceinline__ void block_done(unsigned *count, bool *last)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        *last = atomicAdd(count, 1u) == gridDim.x - 1;
        if (*last)
            __threadfence();
    }
    __syncthreads();
}

/* Layer 3's bias where fold_last wants it, loaded before waiting:
 * B3V[i] for output warp + 8 i (R * n3 <= 32 outputs here) */
template <int R>
__device__ __forceinline__ void fold_bias(const float *b3, int64_t n3,
                                          float (&b3v)[4])
{
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int64_t t = (threadIdx.x >> 5) + 8 * i;
        b3v[i] = b3 && t < R * n3 ? b3[t % n3] : 0.f;
    }
}

/* The last block's sum of the blocks' shares Q [nblk, R, n3] of layer
 * 3: a warp per output, its lanes over the blocks, added in a fixed
 * order; every load of a round issued before the first is used. */
template <int R>
__device__ void fold_last(const float *Q, unsigned nblk,
                          const float (&b3v)[4], int relu3, int64_t n3,
                          float *y, int rows, bool weak = false)
{
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    float v[4] = {0.f, 0.f, 0.f, 0.f};
    for (unsigned b0 = lane; b0 < nblk; b0 += 8 * 32) {
        float q[4][8];
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int u = 0; u < 8; u++) {
                int64_t t = warp + 8 * i;
                unsigned b = b0 + 32 * u;
                const float *a = Q + (int64_t)b * R * n3 + t;
                q[i][u] = !(t < R * n3 && t / n3 < rows && b < nblk) ? 0.f
                          : weak ? *a
                                 : __ldcg(a);
            }
#pragma unroll
        for (int i = 0; i < 4; i++)
#pragma unroll
            for (int u = 0; u < 8; u++)
                v[i] += q[i][u];
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int64_t t = warp + 8 * i;
        float sum = warp_sum(v[i]) + b3v[i];
        if (lane == 0 && t < R * n3 && t / n3 < rows)
            y[t] = relu3 && sum < 0.f ? 0.f : sum;
    }
}

/*
 * Layer 2's sums and, when W3 is given, layer 3. Block b owns CB columns
 * of layer 2: y2 = act2(sum_jb P[jb] + b2). Without W3 it writes them to
 * Y. With W3 [n3, n] it writes its share of layer 3, Q[b, r, o] =
 * sum_c y2[r, c] w3[o, c], and the last block to finish adds the shares
 * up in block order (the same result every run) with b3 and act3.
 * PROBE (timing only, wrong results): 1 stops after writing the share,
 * 2 also takes the tickets but the last block adds nothing up; 3 (a
 * right result) reads the shares with plain loads instead of L2 loads.
 */
template <int R, int CB>
__global__ void __launch_bounds__(256)
    chain_finish(const float *__restrict__ P, int njb, const float *b2,
                 int relu2, const float *__restrict__ w3, const float *b3,
                 int relu3, int64_t n3, float *Q, unsigned *count,
                 float *y, int rows, int64_t n, int probe)
{
    __shared__ float red[256 / CB][R][CB];
    static_assert(CB <= 32, "a warp's lanes hold the columns");
    __shared__ float y2[R][CB];
    __shared__ bool last;
    int64_t c0 = (int64_t)blockIdx.x * CB;
    int64_t c = c0 + threadIdx.x % CB;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    /* params first, before waiting: layer 3's slice (outputs warp + 8 i,
     * column lane; n3 <= 32 here) and layer 2's bias */
    float w3v[4];
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int64_t o = warp + 8 * i;
        w3v[i] = w3 && o < n3 && lane < CB && c0 + lane < n
                     ? w3[o * n + c0 + lane]
                     : 0.f;
    }
    float b2v = b2 && c < n ? b2[c] : 0.f; /* column c0 + threadIdx.x % CB */
    float b3v[4];
    fold_bias<R>(b3, n3, b3v);
    grid_dep_wait();
    float v = chain_column_sum<R, CB>(P, njb, rows, n, c0, red);
    if (threadIdx.x < R * CB) {
        int r = threadIdx.x / CB, k = threadIdx.x % CB;
        v += b2v;
        v = c0 + k >= n ? 0.f : relu2 && v < 0.f ? 0.f : v;
        y2[r][k] = v;
        if (!w3 && c0 + k < n && r < rows)
            y[r * n + c0 + k] = v;
    }
    if (!w3)
        return;
    __syncthreads();
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int64_t o = warp + 8 * i;
        if (o >= n3)
            break;
#pragma unroll
        for (int r = 0; r < R; r++) {
            float v = warp_sum(lane < CB ? y2[r][lane] * w3v[i] : 0.f);
            if (lane == 0)
                Q[((int64_t)blockIdx.x * R + r) * n3 + o] = v;
        }
    }
    if (probe == 1)
        return;
    block_done(count, &last);
    if (last && probe == 2 && threadIdx.x == 0)
        *count = 0;
    if (!last || probe == 2)
        return;
    fold_last<R>(Q, gridDim.x, b3v, relu3, n3, y, rows, probe == 3);
    if (threadIdx.x == 0)
        *count = 0;
}

/* Layer 2 as the plugin's GEMV (a warp per column of w [n, k], 8 columns
 * per block, 8 loads in flight per lane) with layer 3 folded in: each
 * block writes its share of layer 3 and the last one adds them up. */
template <int R>
__global__ void __launch_bounds__(256)
    gemv_fold(const float *__restrict__ x, const float *__restrict__ w,
              const float *bias, int relu, const float *__restrict__ w3,
              const float *b3, int64_t n3, float *Q, unsigned *count,
              float *y, int rows, int64_t n, int64_t k)
{
    constexpr int U = 8;
    __shared__ float ys[R][8];
    __shared__ bool last;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int64_t c0 = (int64_t)blockIdx.x * 8, c = c0 + warp;
    bool live = c < n;
    const float *wr = w + (live ? c : 0) * k;
    float4 wv[U];
    int64_t i0 = lane * 4;
    auto load_w = [&](int64_t at) {
#pragma unroll
        for (int u = 0; u < U; u++)
            wv[u] = live && at + u * 128 < k ? ld4_stream(wr, at + u * 128)
                                             : make_float4(0.f, 0.f, 0.f, 0.f);
    };
    load_w(i0);
    /* layer 3's slice, thread o * 8 + i: output o, column c0 + i */
    int64_t o3 = threadIdx.x / 8;
    int i3 = threadIdx.x % 8;
    float w3v = o3 < n3 && c0 + i3 < n ? w3[o3 * n + c0 + i3] : 0.f;
    float b3v[4];
    fold_bias<R>(b3, n3, b3v);
    grid_dep_wait();
    grid_dep_release();
    float acc[R];
#pragma unroll
    for (int r = 0; r < R; r++)
        acc[r] = 0.f;
    while (live && i0 < k) {
#pragma unroll
        for (int r = 0; r < R; r++) {
            if (r >= rows)
                break;
#pragma unroll
            for (int u = 0; u < U; u++) {
                if (i0 + u * 128 >= k)
                    break;
                acc[r] += dot4(ld4(x + r * k, i0 + u * 128), wv[u]);
            }
        }
        i0 += U * 128;
        if (i0 < k)
            load_w(i0);
    }
#pragma unroll
    for (int r = 0; r < R; r++) {
        float v = warp_sum(acc[r]);
        if (lane == 0) {
            v = live ? v + (bias ? bias[c] : 0.f) : 0.f;
            ys[r][warp] = relu && v < 0.f ? 0.f : v;
        }
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < R; r++) { /* n3 <= 32 here */
        float v = ys[r][i3] * w3v;
        v += __shfl_xor_sync(0xffffffffu, v, 4);
        v += __shfl_xor_sync(0xffffffffu, v, 2);
        v += __shfl_xor_sync(0xffffffffu, v, 1);
        if (i3 == 0 && o3 < n3)
            Q[((int64_t)blockIdx.x * R + r) * n3 + o3] = v;
    }
    block_done(count, &last);
    if (!last)
        return;
    fold_last<R>(Q, gridDim.x, b3v, 0, n3, y, rows);
    if (threadIdx.x == 0)
        *count = 0;
}

/*
 * Layer 2's sums and layer 3 in ONE cluster of CL blocks of 1024 threads
 * (R = 1): block b adds up the partial sums of columns [b nc, (b+1) nc)
 * (four threads a column), applies b2 and relu, and multiplies them into
 * layer 3 [n3 <= 32, n]; block 0 adds the blocks' shares of layer 3 over
 * distributed shared memory in block order. No global counters.
 */
template <int CL>
__global__ void __launch_bounds__(1024)
    chain_finish_cluster(const float *__restrict__ P, int njb,
                         const float *__restrict__ b2,
                         const float *__restrict__ w3,
                         const float *__restrict__ b3, int64_t n3, float *y,
                         int64_t n)
{
    constexpr int NCB = 4096 / CL; /* columns a block (n = 4096 here) */
    constexpr int GQ = 1024 / NCB; /* threads a column */
    constexpr int LPL = NCB / 32;  /* layer-3 weights a lane */
    __shared__ float red[GQ][NCB];
    __shared__ float q3[32];
    cg::cluster_group cl = cg::this_cluster();
    int b = (int)cl.block_rank();
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int64_t c0 = (int64_t)b * NCB;
    int cc = threadIdx.x % NCB, grp = threadIdx.x / NCB;
    /* params before waiting */
    float w3v[LPL];
#pragma unroll
    for (int i = 0; i < LPL; i++)
        w3v[i] = warp < n3 ? w3[warp * n + c0 + lane + 32 * i] : 0.f;
    float b2v = b2[c0 + cc];
    float b3v = threadIdx.x < n3 ? b3[threadIdx.x] : 0.f;
    grid_dep_wait();
    float acc = 0.f;
    for (int jb0 = grp; jb0 < njb; jb0 += 16 * GQ) {
        float v[16];
#pragma unroll
        for (int i = 0; i < 16; i++) {
            int jb = jb0 + i * GQ;
            v[i] = jb < njb ? __ldcg(P + (int64_t)jb * n + c0 + cc) : 0.f;
        }
#pragma unroll
        for (int i = 0; i < 16; i++)
            acc += v[i];
    }
    red[grp][cc] = acc;
    __syncthreads();
    if (threadIdx.x < NCB) {
        float v = b2v;
#pragma unroll
        for (int i = 0; i < GQ; i++)
            v += red[i][threadIdx.x];
        red[0][threadIdx.x] = v < 0.f ? 0.f : v;
    }
    __syncthreads();
    if (warp < n3) {
        float v = 0.f;
#pragma unroll
        for (int i = 0; i < LPL; i++)
            v += red[0][lane + 32 * i] * w3v[i];
        v = warp_sum(v);
        if (lane == 0)
            q3[warp] = v;
    }
    cl.sync();
    if (b == 0 && threadIdx.x < n3) {
        float v = b3v;
        for (int r = 0; r < CL; r++)
            v += cl.map_shared_rank(q3, r)[threadIdx.x];
        y[threadIdx.x] = v;
    }
    cl.sync(); /* no block leaves while block 0 reads its share */
}

} /* namespace */

#endif
