/*
 * bench_wgmma.cuh - the bf16 wgmma wrappers the GEMM experiments of
 * bench/cuda share (bench_gemm_ln.cuh, bench_gemm_wg.cuh): the
 * shared-memory descriptor of a K-major tile in the 128-byte swizzle,
 * m64nNk16 with f32 accumulators for N = 32, 64, 128, the
 * accumulators held in place across wgmma's asynchronous writes, and
 * the cp.async-fed main loop over K. sm_90a
 * code only (RLXG_SM90A_DEVICE); after gk_ptx.cuh.
 */
#ifndef RLX_BENCH_WGMMA_CUH
#define RLX_BENCH_WGMMA_CUH

namespace {

#ifdef RLXG_SM90A_DEVICE
/* wgmma's shared-memory descriptor of a K-major tile in the 128-byte
 * swizzle: rows of 64 elements (128 bytes), 8-row atoms 1024 bytes
 * apart; a step of 16 along K is 32 bytes on the start address */
__device__ __forceinline__ uint64_t bw_desc(unsigned addr)
{
    return (uint64_t)((addr & 0x3ffff) >> 4) | ((uint64_t)1 << 16) |
           ((uint64_t)(1024 >> 4) << 32) | ((uint64_t)1 << 62);
}

/* d (64 x N per warpgroup, N / 2 per thread) = a b^T + (acc ? d : 0) */
template <int N>
__device__ __forceinline__ void bw_wgmma(float *d, uint64_t da, uint64_t db,
                                          int acc);
template <>
__device__ __forceinline__ void bw_wgmma<128>(float *d, uint64_t da,
                                                   uint64_t db, int acc)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
        "%64, %65, p, 1, 1, 0, 0;\n}\n"
        : RLXG_WG_D64(d)
        : "l"(da), "l"(db), "r"(acc));
}
template <>
__device__ __forceinline__ void bw_wgmma<64>(float *d, uint64_t da,
                                                   uint64_t db, int acc)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "%32, %33, p, 1, 1, 0, 0;\n}\n"
        : RLXG_WG_D32(d)
        : "l"(da), "l"(db), "r"(acc));
}
template <>
__device__ __forceinline__ void bw_wgmma<32>(float *d, uint64_t da,
                                                  uint64_t db, int acc)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, "
        "%16, %17, p, 1, 1, 0, 0;\n}\n"
        : RLXG_WG_D16(d, 0)
        : "l"(da), "l"(db), "r"(acc));
}
/* accumulators at 0 */
template <int R> __device__ __forceinline__ void bw_zero(float *d)
{
#pragma unroll
    for (int i = 0; i < R; i++)
        d[i] = 0.f;
}
/* The accumulators held in place across wgmma's asynchronous writes:
 * no instruction the compiler schedules may read or move them between
 * the issue and the wait. */
template <int R> __device__ __forceinline__ void bw_hold(float *d)
{
#pragma unroll
    for (int i = 0; i < R; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* The four m64nNk16 wgmmas of one 64-wide tile of K (a tile at AS, b
 * tile at BS), committed as a group; FIRST: d = a b^T, else d += */
template <int N, int R>
__device__ __forceinline__ void bw_ktile(float *d, unsigned as, unsigned bs,
                                         bool first)
{
    bw_hold<R>(d);
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < 4; kk++)
        bw_wgmma<N>(d, bw_desc(as + kk * 32), bw_desc(bs + kk * 32),
                    !first || kk > 0);
    wgmma_commit();
}

/* The main loop the experiments share, over KTILES tiles of 64 of K in
 * STAGES stages of STAGE bytes from SBASE: once tile kt has landed (a
 * commit group per tile; the caller's prologue issued the first
 * STAGES - 2), LOAD(nt, stage) copies tile nt = kt + STAGES - 2 into the
 * stage whose wgmmas are done, and four m64nNk16 wgmmas take the
 * warpgroup's a tile at A_OFF and b tile at B_OFF of tile kt's stage.
 * Returns with every wgmma done. */
template <int N, int R, int STAGES, typename Load>
__device__ __forceinline__ void bw_mainloop(float *d, int ktiles,
                                            unsigned sbase, int stage,
                                            unsigned a_off, unsigned b_off,
                                            Load load)
{
    constexpr int AHEAD = STAGES - 2;
#pragma unroll 1
    for (int kt = 0; kt < ktiles; kt++) {
        cp_async_wait<AHEAD - 1>();
        fence_proxy_async();
        /* tile kt landed for every thread, and every thread has waited
         * for the wgmmas of tile kt - 2, whose stage is refilled now */
        __syncthreads();
        const int nt = kt + AHEAD;
        if (nt < ktiles)
            load(nt, nt % STAGES);
        cp_async_commit();
        const unsigned st = sbase + (unsigned)((kt % STAGES) * stage);
        bw_ktile<N, R>(d, st + a_off, st + b_off, kt == 0);
        wgmma_wait<1>();
        bw_hold<R>(d);
    }
    wgmma_wait<0>();
    bw_hold<R>(d);
}
#endif /* RLXG_SM90A_DEVICE */

} /* namespace */

#endif
