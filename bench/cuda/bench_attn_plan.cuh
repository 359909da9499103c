/*
 * bench_attn_plan.cuh - the attention plan of an encoder block as the
 * cuda plugin's fused plan makes it, for the kernel benchmarks of
 * bench/cuda: B sequences of S tokens, H heads of size 64, q, k and v
 * read from one [B, S, 3 n] qkv buffer (n = 64 H), the output written as
 * [B, S, n]. After gpu_kernels.h (through the kernel sources).
 */
#ifndef RLX_BENCH_ATTN_PLAN_CUH
#define RLX_BENCH_ATTN_PLAN_CUH

static inline rlxg_attn_plan bench_attn_plan(int B, int S, int H)
{
    const int64_t n = (int64_t)H * 64;
    rlxg_attn_plan p = {};
    p.batch = B, p.heads = H, p.sq = S, p.sk = S, p.dh = 64, p.dv = 64;
    const int64_t in_s[4] = { S * 3 * n, 64, 3 * n, 1 };
    const int64_t out_s[4] = { S * n, 64, n, 1 };
    for (int i = 0; i < 4; i++)
        p.q_s[i] = p.k_s[i] = p.v_s[i] = in_s[i], p.o_s[i] = out_s[i];
    p.q_off = 0, p.k_off = n, p.v_off = 2 * n;
    p.scale = 0.125f; /* 1 / sqrt(64) */
    return p;
}

#endif
