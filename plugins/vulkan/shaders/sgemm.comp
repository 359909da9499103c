#version 450
// sgemm.comp - C = A B for row-major A [m, k], B [k, n], C [m, n], f32,
// batched along z with per-batch strides. k and n (and the batch strides)
// must be multiples of 4: A, B and C are read and written as vec4.
//
// The tile shape is fixed at compile time (glslc -D...), so that every
// loop over a register array unrolls and the arrays become plain
// registers (a loop bound that is a specialization constant leaves them
// in local memory on NVIDIA's compiler, which made the first version of
// this shader 3x slower than a naive one):
//   BM, BN  block tile (rows, columns of C per workgroup)
//   BK      depth of one step through k
//   TM, TN  micro tile per thread (multiples of 4), held as (TM/4) x
//           (TN/4) blocks of 4x4, spread BM/(TM/4) rows and BN/(TN/4)
//           columns apart so the shared-memory reads are conflict-free
//   CHECK   1: any m, n, k (n, k multiples of 4), loads and stores guarded;
//           0: m % BM == n % BN == k % BK == 0
//   WARP2D  1: a warp covers 4 x 8 threads of the thread grid (fewer
//           shared-memory wavefronts); 0: 2 x 16
// 256 threads (or (BM/TM)*(BN/TN)); A tile stored k-major (transposed)
// and padded by one vec4 in shared memory; two shared stages, the next
// step's tiles loaded into registers while the current one is
// multiplied, one barrier per step.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#ifndef BM
#define BM 128
#endif
#ifndef BN
#define BN 128
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 8
#endif
#ifndef TN
#define TN 8
#endif
#ifndef CHECK
#define CHECK 0
#endif
#ifndef WARP2D
#define WARP2D 0
#endif

#define TX (BN / TN)            // threads along n
#define TY (BM / TM)            // threads along m
#define NT (TX * TY)            // threads
#define MI (TM / 4)             // 4-row blocks per thread
#define NI (TN / 4)             // 4-column blocks per thread
#define AV (BM * BK / 4 / NT)   // vec4 of A each thread loads per step
#define BV (BK * BN / 4 / NT)   // vec4 of B each thread loads per step
#define APAD (BM / 4 + 1)       // vec4 per k row of the A tile
#if AV < 1 || BV < 1 || AV * NT * 4 != BM * BK || BV * NT * 4 != BK * BN
#error "each thread must load whole vec4 of both tiles: raise BK"
#endif

layout(local_size_x = NT) in;
#include "common.glsl"

layout(push_constant) uniform P { uint m, n, k, a_bs, b_bs, c_bs, rnd; } p;
layout(std430, set = 0, binding = 0) restrict writeonly buffer C { vec4 c[]; };
layout(std430, set = 0, binding = 1) restrict readonly buffer A { vec4 a[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer B { vec4 b[]; };

shared vec4 As[2][BK][APAD];
shared vec4 Bs[2][BK][BN / 4];

void main()
{
    uint tid = gl_LocalInvocationID.x;
#if WARP2D
    // warp w, lane l: 8 lanes along n, 4 along m; warps tile the grid.
    uint w = tid / 32u, l = tid % 32u;
    uint tx = (w % (TX / 8u)) * 8u + l % 8u;
    uint ty = (w / (TX / 8u)) * 4u + l / 8u;
#else
    uint tx = tid % TX, ty = tid / TX;
#endif
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    uint z = gl_WorkGroupID.z;
    uint lda4 = p.k / 4u, ldb4 = p.n / 4u;
    uint abase = (z * p.a_bs) / 4u;
    uint bbase = (z * p.b_bs) / 4u + n0 / 4u;

    // Where this thread's loads go: A row ar[j], k quad ak[j]; B row
    // br[j], column quad bn[j] (relative to the tile).
    uint ar[AV], ak[AV], br[BV], bn[BV];
    [[unroll]] for (uint j = 0u; j < AV; j++) {
        uint idx = tid + NT * j;
        ar[j] = idx / (BK / 4u);
        ak[j] = idx % (BK / 4u);
    }
    [[unroll]] for (uint j = 0u; j < BV; j++) {
        uint idx = tid + NT * j;
        br[j] = idx / (BN / 4u);
        bn[j] = idx % (BN / 4u);
    }

    vec4 acc[TM][NI];
    [[unroll]] for (uint i = 0u; i < TM; i++)
        [[unroll]] for (uint h = 0u; h < NI; h++)
            acc[i][h] = vec4(0.0);
    vec4 ra[AV], rb[BV];

    uint steps = (p.k + BK - 1u) / BK;
    // Step 0 into registers, then into stage 0.
    [[unroll]] for (uint j = 0u; j < AV; j++) {
#if CHECK
        bool in_a = m0 + ar[j] < p.m && ak[j] * 4u < p.k;
        ra[j] = in_a ? a[abase + (m0 + ar[j]) * lda4 + ak[j]] : vec4(0.0);
#else
        ra[j] = a[abase + (m0 + ar[j]) * lda4 + ak[j]];
#endif
    }
    [[unroll]] for (uint j = 0u; j < BV; j++) {
#if CHECK
        bool in_b = br[j] < p.k && n0 + bn[j] * 4u < p.n;
        rb[j] = in_b ? b[bbase + br[j] * ldb4 + bn[j]] : vec4(0.0);
#else
        rb[j] = b[bbase + br[j] * ldb4 + bn[j]];
#endif
    }
    [[unroll]] for (uint j = 0u; j < AV; j++) {
        uint q = ar[j] / 4u, e = ar[j] % 4u;
        As[0][ak[j] * 4u + 0u][q][e] = ra[j].x;
        As[0][ak[j] * 4u + 1u][q][e] = ra[j].y;
        As[0][ak[j] * 4u + 2u][q][e] = ra[j].z;
        As[0][ak[j] * 4u + 3u][q][e] = ra[j].w;
    }
    [[unroll]] for (uint j = 0u; j < BV; j++)
        Bs[0][br[j]][bn[j]] = rb[j];
    barrier();

    for (uint t = 0u; t < steps; t++) {
        uint s = t & 1u;
        bool more = t + 1u < steps;
        if (more) {
            uint k0 = (t + 1u) * BK;
            [[unroll]] for (uint j = 0u; j < AV; j++) {
#if CHECK
                bool in_a = m0 + ar[j] < p.m && k0 + ak[j] * 4u < p.k;
                ra[j] = in_a ? a[abase + (m0 + ar[j]) * lda4 + k0 / 4u + ak[j]]
                             : vec4(0.0);
#else
                ra[j] = a[abase + (m0 + ar[j]) * lda4 + k0 / 4u + ak[j]];
#endif
            }
            [[unroll]] for (uint j = 0u; j < BV; j++) {
#if CHECK
                bool in_b = k0 + br[j] < p.k && n0 + bn[j] * 4u < p.n;
                rb[j] = in_b ? b[bbase + (k0 + br[j]) * ldb4 + bn[j]]
                             : vec4(0.0);
#else
                rb[j] = b[bbase + (k0 + br[j]) * ldb4 + bn[j]];
#endif
            }
        }
        [[unroll]] for (uint q = 0u; q < BK; q++) {
            vec4 av[MI], bv[NI];
            [[unroll]] for (uint i = 0u; i < MI; i++)
                av[i] = As[s][q][i * TY + ty];
            [[unroll]] for (uint h = 0u; h < NI; h++)
                bv[h] = Bs[s][q][h * TX + tx];
            [[unroll]] for (uint i = 0u; i < MI; i++)
                [[unroll]] for (uint h = 0u; h < NI; h++) {
                    acc[i * 4u + 0u][h] += av[i].x * bv[h];
                    acc[i * 4u + 1u][h] += av[i].y * bv[h];
                    acc[i * 4u + 2u][h] += av[i].z * bv[h];
                    acc[i * 4u + 3u][h] += av[i].w * bv[h];
                }
        }
        if (more) {
            uint ns = s ^ 1u;
            [[unroll]] for (uint j = 0u; j < AV; j++) {
                uint q = ar[j] / 4u, e = ar[j] % 4u;
                As[ns][ak[j] * 4u + 0u][q][e] = ra[j].x;
                As[ns][ak[j] * 4u + 1u][q][e] = ra[j].y;
                As[ns][ak[j] * 4u + 2u][q][e] = ra[j].z;
                As[ns][ak[j] * 4u + 3u][q][e] = ra[j].w;
            }
            [[unroll]] for (uint j = 0u; j < BV; j++)
                Bs[ns][br[j]][bn[j]] = rb[j];
        }
        barrier();
    }

    uint ldc4 = p.n / 4u;
    uint cbase = (z * p.c_bs) / 4u;
    [[unroll]] for (uint i = 0u; i < MI; i++)
        [[unroll]] for (uint r = 0u; r < 4u; r++) {
            uint row = m0 + (i * TY + ty) * 4u + r;
            [[unroll]] for (uint h = 0u; h < NI; h++) {
                uint col4 = n0 / 4u + h * TX + tx;
                vec4 v = acc[i * 4u + r][h];
                if (p.rnd != 0u)
                    v = vec4(rlx_round(v.x, p.rnd), rlx_round(v.y, p.rnd),
                             rlx_round(v.z, p.rnd), rlx_round(v.w, p.rnd));
#if CHECK
                if (row < p.m && col4 * 4u < p.n)
#endif
                    c[cbase + row * ldc4 + col4] = v;
            }
        }
}
