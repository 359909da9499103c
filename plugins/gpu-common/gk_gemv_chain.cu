/*
 * gk_gemv_chain.cu - two batch-1 Linear layers as one stream of both
 * weights (CUDA, sm_90: thread-block clusters): h = act1(x w1^T + b1),
 * y = act2(h w2^T + b2). Layer 2 is split over its input (the hidden
 * units), not its output, so no block waits for the whole of layer 1:
 * the blocks that compute a slice of h multiply it straight into every
 * column of layer 2, and a second kernel adds the slices' partial sums.
 * On an H200 the 784-4096-4096 pair reads its 76 MiB in 18.4 µs, less
 * than layer 2's GEMV alone takes (docs/performance-notes.md).
 * CUDA only; the cuda plugin takes it where the
 * autotuner finds it faster than two GEMVs (cuda_gemv_chain.c).
 */
#include <cooperative_groups.h>

#include "gk_common.cuh"
#include "gk_ptx.cuh"

namespace cg = cooperative_groups;

namespace {

__device__ __forceinline__ float dot4(float4 a, float4 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

/* Reduce-scatter of U values over groups of G lanes (powers of two,
 * U <= G): afterwards d[0] of lane g (g = lane % G) holds the full sum
 * of value u = g / (G / U) over its group. */
template <int U, int G> __device__ __forceinline__ float reduce_scatter(float *d)
{
    int g = threadIdx.x & (G - 1);
    int o = G / 2;
#pragma unroll
    for (int n = U; n > 1; n /= 2, o /= 2) {
        bool up = g & o;
#pragma unroll
        for (int i = 0; i < n / 2; i++) {
            float keep = up ? d[i + n / 2] : d[i];
            float send = up ? d[i] : d[i + n / 2];
            d[i] = keep + __shfl_xor_sync(0xffffffffu, send, o);
        }
    }
#pragma unroll
    for (; o > 0; o /= 2)
        d[0] += __shfl_xor_sync(0xffffffffu, d[0], o);
    return d[0];
}

/*
 * Layers 1 and 2, one pass over both weights. A cluster of NS blocks owns
 * J hidden units [j0, j0 + J): each block computes J / NS of them
 * (h = act1(x w1^T + b1), RW rows of w1 per warp, all loads in flight),
 * the cluster exchanges them through distributed shared memory, and
 * block s multiplies them into columns j0.. of rows [s*nc, (s+1)*nc) of
 * w2 [n, h]: P[jb, r, c] = sum_j h[r, j] w2[c, j]. A row's J values are
 * read by G = J / 4 lanes, U rows in flight per lane. Before layer 1,
 * the first SB rounds of w2 are copied into shared memory (cp.async) and
 * one more into registers, so memory stays busy while layer 1 waits.
 * AF: layer 1's loads are issued before those (its data arrives first).
 */
template <int R, int J, int NS, int U, int SB, bool AF = true>
__global__ void __launch_bounds__(256)
    gemv_chain_part(const float *__restrict__ x, const float *__restrict__ w1,
               const float *__restrict__ b1, const float *__restrict__ w2,
               float *__restrict__ P, int rows, int64_t k0, int64_t nh,
               int64_t n, int relu1)
{
    constexpr int JA = J / NS, RW = JA / 8, G = J / 4, RPI = 256 / G;
    constexpr int UA = 8; /* float4 per row and lane in flight */
    extern __shared__ float4 wsm[]; /* [SB][U][256] */
    __shared__ float hs[R][J];
    __shared__ float ha[R][JA];
    int s = (int)(blockIdx.x % NS);
    int64_t jb = blockIdx.x / NS;
    int64_t j0 = jb * J, ja = j0 + s * JA;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int64_t k4 = k0 / 4;
    int64_t nc = (n + NS - 1) / NS;
    nc = (nc + RPI - 1) / RPI * RPI;
    int64_t c0 = s * nc, c1 = c0 + nc < n ? c0 + nc : n;
    int g = threadIdx.x & (G - 1), sub = threadIdx.x / G;
    const float *w2p = w2 + j0 + 4 * g;
    bool gok = j0 + 4 * g < nh;
    auto row_of = [&](int it, int u) {
        return c0 + ((int64_t)it * U + u) * RPI + sub;
    };

    /* layer 1: this block's JA hidden units */
    float4 wa[RW][UA];
    auto load_a = [&](int64_t q0) {
#pragma unroll
        for (int i = 0; i < RW; i++) {
            int64_t j = ja + warp + 8 * i;
#pragma unroll
            for (int u = 0; u < UA; u++) {
                int64_t q = q0 + lane + 32 * u;
                wa[i][u] = j < nh && q < k4
                               ? ld4_stream(w1 + j * k0, 4 * q)
                               : make_float4(0.f, 0.f, 0.f, 0.f);
            }
        }
    };
    if constexpr (AF)
        load_a(0);

    /* w2's first rounds: SB into shared memory, one into registers */
#pragma unroll
    for (int it = 0; it < SB; it++)
#pragma unroll
        for (int u = 0; u < U; u++) {
            int64_t c = row_of(it, u);
            if (gok && c < c1)
                cp_async16(&wsm[(it * U + u) * 256 + threadIdx.x],
                           w2p + c * nh, 16);
        }
    cp_async_commit();
    float4 wb[U];
    auto load_b = [&](int it) {
#pragma unroll
        for (int u = 0; u < U; u++) {
            int64_t c = row_of(it, u);
            wb[u] = gok && c < c1 ? ld4_stream(w2p, c * nh)
                                  : make_float4(0.f, 0.f, 0.f, 0.f);
        }
    };
    load_b(SB);

    if constexpr (!AF)
        load_a(0);
    grid_dep_wait();
    grid_dep_release();
    float acc[RW][R];
#pragma unroll
    for (int i = 0; i < RW; i++)
#pragma unroll
        for (int r = 0; r < R; r++)
            acc[i][r] = 0.f;
    for (int64_t q0 = 0;;) {
#pragma unroll
        for (int r = 0; r < R; r++) {
            if (r >= rows)
                break;
#pragma unroll
            for (int u = 0; u < UA; u++) {
                int64_t q = q0 + lane + 32 * u;
                if (q >= k4)
                    break;
                float4 xv = ld4(x + r * k0, 4 * q);
#pragma unroll
                for (int i = 0; i < RW; i++)
                    acc[i][r] += dot4(wa[i][u], xv);
            }
        }
        q0 += 32 * UA;
        if (q0 >= k4)
            break;
        load_a(q0);
    }
#pragma unroll
    for (int i = 0; i < RW; i++)
#pragma unroll
        for (int r = 0; r < R; r++) {
            float v = warp_sum(acc[i][r]);
            int64_t j = ja + warp + 8 * i;
            if (lane == 0) {
                v = j < nh ? v + (b1 ? b1[j] : 0.f) : 0.f;
                ha[r][warp + 8 * i] = relu1 && v < 0.f ? 0.f : v;
            }
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cg::cluster_group cl = cg::this_cluster();
    cl.sync();
    for (int t = threadIdx.x; t < R * J; t += 256) {
        int r = t / J, j = t % J;
        const float *src = cl.map_shared_rank(&ha[0][0], j / JA);
        hs[r][j] = src[r * JA + j % JA];
    }
    cl.sync(); /* no block leaves while another reads its part */
#else
    __trap(); /* clusters: launched only where the sm_90 code runs */
#endif

    /* layer 2: this block's rows of w2, times the cluster's J units */
    float4 hv[R];
#pragma unroll
    for (int r = 0; r < R; r++)
        hv[r] = *(const float4 *)&hs[r][4 * g];
    auto emit = [&](int it, const float4 *w) {
        float d[R][U];
#pragma unroll
        for (int u = 0; u < U; u++)
#pragma unroll
            for (int r = 0; r < R; r++)
                d[r][u] = dot4(w[u], hv[r]);
        int u = g / (G / U);
        int64_t c = row_of(it, u);
#pragma unroll
        for (int r = 0; r < R; r++) {
            float v = reduce_scatter<U, G>(d[r]);
            if (g % (G / U) == 0 && c < c1 && r < rows)
                P[(jb * R + r) * n + c] = v;
        }
    };
    cp_async_wait<0>(); /* this thread's own copies: no barrier needed */
#pragma unroll
    for (int it = 0; it < SB; it++) {
        float4 w[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            w[u] = gok && row_of(it, u) < c1
                       ? wsm[(it * U + u) * 256 + threadIdx.x]
                       : make_float4(0.f, 0.f, 0.f, 0.f);
        emit(it, w);
    }
    for (int it = SB; c0 + (int64_t)it * U * RPI < c1; it++) {
        float4 w[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            w[u] = wb[u];
        if (c0 + (int64_t)(it + 1) * U * RPI < c1)
            load_b(it + 1);
        emit(it, w);
    }
}

/* The block's CB columns from C0 on, summed over the NJB slices of P
 * [njb, R, n] (the chain's partial sums) in a fixed order (the same
 * result every run): every thread takes part (RED is the block's
 * scratch); thread t < R * CB gets row t / CB of column C0 + t % CB,
 * bias not added. Eight loads in flight per thread. */
template <int R, int CB>
__device__ __forceinline__ float
    chain_column_sum(const float *__restrict__ P, int njb, int rows,
                     int64_t n, int64_t c0, float (&red)[256 / CB][R][CB])
{
    constexpr int GR = 256 / CB;
    int cc = threadIdx.x % CB, grp = threadIdx.x / CB;
    int64_t c = c0 + cc;
    float acc[R];
#pragma unroll
    for (int r = 0; r < R; r++)
        acc[r] = 0.f;
    for (int jb0 = grp; jb0 < njb; jb0 += 8 * GR) {
        float v[8][R];
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int r = 0; r < R; r++) {
                int jb = jb0 + i * GR;
                v[i][r] = c < n && jb < njb && r < rows
                              ? __ldcg(P + ((int64_t)jb * R + r) * n + c)
                              : 0.f;
            }
#pragma unroll
        for (int i = 0; i < 8; i++)
#pragma unroll
            for (int r = 0; r < R; r++)
                acc[r] += v[i][r];
    }
#pragma unroll
    for (int r = 0; r < R; r++)
        red[grp][r][cc] = acc[r];
    __syncthreads();
    float v = 0.f;
    if (threadIdx.x < R * CB)
        for (int i = 0; i < GR; i++)
            v += red[i][threadIdx.x / CB][threadIdx.x % CB];
    return v;
}

/* Layer 2's sums: block b owns CB columns, y = act2(sum_jb P[jb] + b2),
 * the NJB partial sums of a column added in a fixed order (the same
 * result every run), eight loads in flight per thread. */
template <int R, int CB>
__global__ void __launch_bounds__(256)
    gemv_chain_sum(const float *__restrict__ P, int njb,
                   const float *__restrict__ b2, int relu2,
                   float *__restrict__ y, int rows, int64_t n)
{
    __shared__ float red[256 / CB][R][CB];
    int64_t c0 = (int64_t)blockIdx.x * CB;
    int r = threadIdx.x / CB, k = threadIdx.x % CB;
    /* a param, so before waiting: the bias of the column this thread
     * finishes (thread t's column is c0 + t % CB) */
    float b2v = b2 && c0 + k < n ? b2[c0 + k] : 0.f;
    grid_dep_wait();
    float v = chain_column_sum<R, CB>(P, njb, rows, n, c0, red) + b2v;
    if (threadIdx.x < R * CB && r < rows && c0 + k < n)
        y[r * n + c0 + k] = relu2 && v < 0.f ? 0.f : v;
}

/* The plugin's shape: a cluster of 2 blocks owns 32 hidden units, 8
 * rows of w2 in flight per lane, 3 rounds of w2 (96 KB) prefetched
 * into shared memory; 16 columns per block in the sum. */
constexpr int kJ = 32, kNS = 2, kU = 8, kSB = 3, kCB = 16;
constexpr size_t kSmem = (size_t)kSB * kU * 256 * sizeof(float4);
/* Shared memory the sum reserves and never uses: launched early (a
 * programmatic dependent), its blocks would otherwise sit waiting on
 * the SMs beside the part's two blocks, which slowed the pair by 1.2 µs
 * on an H200; with 64 KB they fit only where a part block has left
 * (docs/performance-notes.md). */
constexpr size_t kSumSmem = 64 << 10;

} /* namespace */

extern "C" size_t rlxg_gemv_chain_scratch(int64_t nh, int64_t n2)
{
    return (size_t)((nh + kJ - 1) / kJ) * (size_t)n2 * sizeof(float);
}

extern "C" gpuError_t rlxg_gemv_chain_init(void)
{
    cudaError_t err = cudaFuncSetAttribute(
        gemv_chain_part<1, kJ, kNS, kU, kSB>,
        cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmem);
    if (err == cudaSuccess)
        err = cudaFuncSetAttribute(
            gemv_chain_sum<1, kCB>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSumSmem);
    return err;
}

extern "C" gpuError_t rlxg_gemv_chain(gpuStream_t s, const float *x,
                                      const float *w1, const float *b1,
                                      int relu1, const float *w2,
                                      const float *b2, float *scratch,
                                      int relu2, float *y, int64_t k0,
                                      int64_t nh, int64_t n2, int pdl,
                                      int pdl_sum)
{
    if (k0 % 4 || nh % 4 || ((uintptr_t)x | (uintptr_t)w1 |
                              (uintptr_t)w2) % 16 ||
        (nh + kJ - 1) / kJ * kNS > INT32_MAX || n2 > INT32_MAX)
        return cudaErrorInvalidValue;
    cudaLaunchAttribute attr[2];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    attr[1].id = cudaLaunchAttributeClusterDimension;
    attr[1].val.clusterDim.x = kNS;
    attr[1].val.clusterDim.y = 1;
    attr[1].val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)((nh + kJ - 1) / kJ * kNS));
    cfg.blockDim = dim3(256);
    cfg.dynamicSmemBytes = kSmem;
    cfg.stream = s;
    pdl = pdl != 0;
    cfg.attrs = attr + !pdl;
    cfg.numAttrs = 1 + pdl;
    cudaError_t err = cudaLaunchKernelEx(
        &cfg, gemv_chain_part<1, kJ, kNS, kU, kSB>, x, w1, b1, w2,
        scratch, 1, k0, nh, n2, relu1);
    if (err != cudaSuccess)
        return err;
    cfg.gridDim = dim3((unsigned)((n2 + kCB - 1) / kCB));
    cfg.dynamicSmemBytes = kSumSmem;
    cfg.attrs = attr;
    cfg.numAttrs = pdl_sum != 0;
    return cudaLaunchKernelEx(&cfg, gemv_chain_sum<1, kCB>,
                              (const float *)scratch,
                              (int)((nh + kJ - 1) / kJ), b2, relu2, y, 1,
                              n2);
}
