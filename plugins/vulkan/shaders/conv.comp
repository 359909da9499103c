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
//
// Built a second time with INTEGER for conv_integer (i8/u8 x and w, one
// int word each; x's zero point a scalar at binding 3, w's at binding 4,
// per output channel where has_bias is set): the tiles hold the operands
// less their zero points, summed in 32 bits, which wraps as the i32
// result does; padding adds nothing. With DOT as well (devices with
// VK_KHR_shader_integer_dot_product) the tiles hold the raw bytes packed
// four along k to a word, multiplied by the packed dot products
// (shaders/dot.glsl), and the zero points come in at the end through the
// row sums of w and the column sums of x: sum (w - wz)(x - xz) =
// sum wx - xz sum w - wz sum x + K wz xz. Padding then holds xz (which
// adds nothing once corrected) and the k tail 0 on both sides. With EPI
// too, the requantization chain after the conv is fused into the
// epilogue (shaders/qepi.glsl): the zero points and the chain's operands
// come from the table at binding 3 (shaders/qepi.comp) and the result is
// the chain's i8/u8 value.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x = 256) in;
#include "common.glsl"
#include "conv_common.glsl"

#if defined(EPI)
#define T int
#include "qepi.glsl"
#define XZP qepi_xz()
#define WZP(m) qepi_wz(m)
#elif defined(INTEGER)
#define T int
layout(std430, set = 0, binding = 3) readonly buffer XZ { int xz[]; };
layout(std430, set = 0, binding = 4) readonly buffer WZ { int wz[]; };
#define XZP xz[0]
#define WZP(m) wz[p.has_bias != 0u ? (m) : 0u]
#else
#define T float
layout(std430, set = 0, binding = 3) readonly buffer Bias { float bias[]; };
#endif
layout(std430, set = 0, binding = 0) writeonly buffer Y { T y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { T x[]; };
layout(std430, set = 0, binding = 2) readonly buffer W { T w[]; };

#define BM 64
#define BN 64
#define BK 16

#ifdef DOT
#include "dot.glsl"
// the tiles packed: word q of a column holds k = 4q .. 4q + 3
shared uint As[BK / 4][BM + 1];
shared uint Bs[BK / 4][BN + 1];
#else
shared T As[BK][BM + 1];
shared T Bs[BK][BN + 1];
#endif

// The input under tap KK (channel and kernel position) of output
// position PP, or PAD in the padding.
T im2col(uint xbase, uint kk, uint pp, T pad)
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
        return pad;
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

    T acc[4][4];
    [[unroll]] for (uint i = 0u; i < 4u; i++)
        [[unroll]] for (uint j = 0u; j < 4u; j++)
            acc[i][j] = T(0);
#ifdef INTEGER
    int xzp = XZP;
#endif
#ifdef DOT
    // raw row sums of w and column sums of x, this thread's 4 and 4
    int sum_w[4], sum_x[4];
    [[unroll]] for (uint i = 0u; i < 4u; i++)
        sum_w[i] = sum_x[i] = 0;
    bool ws = p.w_signed != 0u, xs = p.x_signed != 0u;
    // the word this thread packs of each tile: A row ar, B column bc,
    // both at k = k0 + 4 * aq
    uint ar = tid % BM, aq = tid / BM;
    uint arow = m0 + ar, bcol = n0 + ar;
#endif

    for (uint k0 = 0u; k0 < p.kg; k0 += BK) {
#ifdef DOT
        uint wa = 0u, xb = 0u;
        [[unroll]] for (uint e = 0u; e < 4u; e++) {
            uint kk = k0 + 4u * aq + e;
            int av = arow < mg && kk < p.kg ? w[wbase + arow * p.kg + kk] : 0;
            int bv = bcol < p.np && kk < p.kg ? im2col(xbase, kk, bcol, xzp)
                                              : 0;
            wa |= (uint(av) & 0xffu) << (8u * e);
            xb |= (uint(bv) & 0xffu) << (8u * e);
        }
        As[aq][ar] = wa;
        Bs[aq][ar] = xb;
#else
        [[unroll]] for (uint j = 0u; j < 4u; j++) {
            uint idx = tid + 256u * j;
            uint ar = idx / BK, ak = idx % BK;
            uint row = m0 + ar, kk = k0 + ak;
            uint bk = idx / BN, bc = idx % BN;
            uint col = n0 + bc, kb = k0 + bk;
#ifdef INTEGER
            As[ak][ar] = row < mg && kk < p.kg
                             ? w[wbase + row * p.kg + kk] - WZP(g * mg + row)
                             : 0;
            Bs[bk][bc] = col < p.np && kb < p.kg
                             ? im2col(xbase, kb, col, xzp) - xzp : 0;
#else
            As[ak][ar] = row < mg && kk < p.kg ? w[wbase + row * p.kg + kk]
                                               : 0.0;
            Bs[bk][bc] = col < p.np && kb < p.kg
                             ? im2col(xbase, kb, col, 0.0) : 0.0;
#endif
        }
#endif
        barrier();
#ifdef DOT
        [[unroll]] for (uint q = 0u; q < BK / 4u; q++) {
            uint av[4], bv[4];
            [[unroll]] for (uint i = 0u; i < 4u; i++)
                av[i] = As[q][ty + 16u * i];
            [[unroll]] for (uint j = 0u; j < 4u; j++)
                bv[j] = Bs[q][tx + 16u * j];
            [[unroll]] for (uint i = 0u; i < 4u; i++) {
                sum_w[i] += dot4(av[i], 0x01010101u, ws, false);
                sum_x[i] += dot4(0x01010101u, bv[i], false, xs);
                [[unroll]] for (uint j = 0u; j < 4u; j++)
                    acc[i][j] += dot4(av[i], bv[j], ws, xs);
            }
        }
#else
        [[unroll]] for (uint q = 0u; q < BK; q++) {
            T av[4], bv[4];
            [[unroll]] for (uint i = 0u; i < 4u; i++)
                av[i] = As[q][ty + 16u * i];
            [[unroll]] for (uint j = 0u; j < 4u; j++)
                bv[j] = Bs[q][tx + 16u * j];
            [[unroll]] for (uint i = 0u; i < 4u; i++)
                [[unroll]] for (uint j = 0u; j < 4u; j++)
                    acc[i][j] += av[i] * bv[j];
        }
#endif
        barrier();
    }

    [[unroll]] for (uint i = 0u; i < 4u; i++) {
        uint row = m0 + ty + 16u * i;
        if (row >= mg)
            continue;
        uint mm = g * mg + row;
#ifdef INTEGER
        int wzp = WZP(mm);
#else
        float b = p.has_bias != 0u ? bias[mm] : 0.0;
#endif
        [[unroll]] for (uint j = 0u; j < 4u; j++) {
            uint col = n0 + tx + 16u * j;
            if (col >= p.np)
                continue;
#if defined(DOT)
            int r = acc[i][j] - xzp * sum_w[i] - wzp * sum_x[j] +
                    int(p.kg) * wzp * xzp;
#elif defined(INTEGER)
            int r = acc[i][j];
#endif
#if defined(EPI)
            y[(n * p.m + mm) * p.np + col] = qepi_requant(r, mm);
#elif defined(INTEGER)
            y[(n * p.m + mm) * p.np + col] = r;
#else
            y[(n * p.m + mm) * p.np + col] = rlx_round(acc[i][j] + b,
                                                       p.rnd);
#endif
        }
    }
}
