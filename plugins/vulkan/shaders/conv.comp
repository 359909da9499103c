#version 450
// conv.comp - convolution as an implicit GEMM, per image and group:
// Y[m, p] = sum_k W[m, k] X[k, p] with k = (input channel, kernel tap)
// and p the output position; X is never stored (im2col on the fly: each
// B-tile element is read from the input under its tap, 0 in the
// padding). The tiling is sgemm's (shaders/sgemm.comp), in scalar form
// since the gathered B tile cannot be read as vec4: 64x64 block tiles,
// a depth of 16, 4x4 outputs per thread spread 16 apart so the
// shared-memory reads are conflict-free. Bias and the f16/bf16 rounding
// are applied in the epilogue. Workgroup z = image * group + group.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 256) in;
#include "common.glsl"
#include "conv_common.glsl"

layout(std430, set = 0, binding = 0) writeonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 2) readonly buffer W { float w[]; };
layout(std430, set = 0, binding = 3) readonly buffer Bias { float bias[]; };

#define BM 64
#define BN 64
#define BK 16

shared float As[BK][BM + 1];
shared float Bs[BK][BN + 1];

// The input under tap KK (channel and kernel position) of output
// position PP, or 0 in the padding.
float im2col(uint xbase, uint kk, uint pp)
{
    uint ci = kk / p.k_sp, kr = kk % p.k_sp;
    uint k2 = kr % p.ks[2], k1 = (kr / p.ks[2]) % p.ks[1],
         k0 = kr / (p.ks[2] * p.ks[1]);
    uint o2 = pp % p.out_[2], o1 = (pp / p.out_[2]) % p.out_[1],
         o0 = pp / (p.out_[2] * p.out_[1]);
    int i0 = int(o0 * p.stride[0] + k0 * p.dil[0]) - int(p.pb[0]);
    int i1 = int(o1 * p.stride[1] + k1 * p.dil[1]) - int(p.pb[1]);
    int i2 = int(o2 * p.stride[2] + k2 * p.dil[2]) - int(p.pb[2]);
    if (i0 < 0 || i1 < 0 || i2 < 0 || uint(i0) >= p.in_[0] ||
        uint(i1) >= p.in_[1] || uint(i2) >= p.in_[2])
        return 0.0;
    return x[xbase + ci * p.in_sp +
             (uint(i0) * p.in_[1] + uint(i1)) * p.in_[2] + uint(i2)];
}

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint tx = tid % 16u, ty = tid / 16u;
    uint mg = p.m / p.group, cg = p.c / p.group;
    uint z = gl_WorkGroupID.z, n = z / p.group, g = z % p.group;
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    uint xbase = (n * p.c + g * cg) * p.in_sp;
    uint wbase = g * mg * p.kg;

    float acc[4][4];
    [[unroll]] for (uint i = 0u; i < 4u; i++)
        [[unroll]] for (uint j = 0u; j < 4u; j++)
            acc[i][j] = 0.0;

    for (uint k0 = 0u; k0 < p.kg; k0 += BK) {
        [[unroll]] for (uint j = 0u; j < 4u; j++) {
            uint idx = tid + 256u * j;
            uint ar = idx / BK, ak = idx % BK;
            uint row = m0 + ar, kk = k0 + ak;
            As[ak][ar] = row < mg && kk < p.kg ? w[wbase + row * p.kg + kk]
                                               : 0.0;
            uint bk = idx / BN, bc = idx % BN;
            uint col = n0 + bc, kb = k0 + bk;
            Bs[bk][bc] = col < p.np && kb < p.kg ? im2col(xbase, kb, col)
                                                 : 0.0;
        }
        barrier();
        [[unroll]] for (uint q = 0u; q < BK; q++) {
            float av[4], bv[4];
            [[unroll]] for (uint i = 0u; i < 4u; i++)
                av[i] = As[q][ty + 16u * i];
            [[unroll]] for (uint j = 0u; j < 4u; j++)
                bv[j] = Bs[q][tx + 16u * j];
            [[unroll]] for (uint i = 0u; i < 4u; i++)
                [[unroll]] for (uint j = 0u; j < 4u; j++)
                    acc[i][j] += av[i] * bv[j];
        }
        barrier();
    }

    [[unroll]] for (uint i = 0u; i < 4u; i++) {
        uint row = m0 + ty + 16u * i;
        if (row >= mg)
            continue;
        uint mm = g * mg + row;
        float b = p.has_bias != 0u ? bias[mm] : 0.0;
        [[unroll]] for (uint j = 0u; j < 4u; j++) {
            uint col = n0 + tx + 16u * j;
            if (col < p.np)
                y[(n * p.m + mm) * p.np + col] = rlx_round(acc[i][j] + b,
                                                           p.rnd);
        }
    }
}
