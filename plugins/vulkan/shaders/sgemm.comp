#version 450
// sgemm.comp - C = A B for row-major A [m, k], B [k, n], with m and n
// multiples of 128 and k a multiple of BK; batches along z with their
// own strides. 256 threads compute a 128x128 tile, 8x8 per thread held
// in registers; A and B tiles go through shared memory in two stages,
// the next one loaded into registers (vec4 loads) while the current one
// is multiplied, so one barrier per step suffices.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
layout(constant_id = 0) const uint BK = 8u;
#include "common.glsl"

layout(push_constant) uniform P { uint m, n, k, a_bs, b_bs, c_bs, rnd; } p;
layout(std430, set = 0, binding = 0) writeonly buffer C { vec4 c[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { vec4 a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { vec4 b[]; };

const uint BM = 128u, BN = 128u;
const uint AV = BK / 8u;   // vec4 of A (and of B) each thread loads per step
// A tile stored transposed, [k][m], padded by one vec4 against bank
// conflicts on the transposing stores.
shared vec4 As[2][BK][BM / 4u + 1u];
shared vec4 Bs[2][BK][BN / 4u];

void main()
{
    uint tid = gl_LocalInvocationID.x;
    uint tx = tid % 16u, ty = tid / 16u;
    uint m0 = gl_WorkGroupID.y * BM, n0 = gl_WorkGroupID.x * BN;
    uint z = gl_WorkGroupID.z;
    uint lda4 = p.k / 4u, ldb4 = p.n / 4u;
    uint abase = (z * p.a_bs) / 4u + m0 * lda4;
    uint bbase = (z * p.b_bs) / 4u + n0 / 4u;

    vec4 acc[8][2];
    for (uint i = 0u; i < 8u; i++) {
        acc[i][0] = vec4(0.0);
        acc[i][1] = vec4(0.0);
    }
    vec4 ra[AV], rb[AV];

    // Step 0 straight into stage 0.
    for (uint j = 0u; j < AV; j++) {
        uint idx = tid + 256u * j;
        uint r = idx / (BK / 4u), k4 = idx % (BK / 4u);
        ra[j] = a[abase + r * lda4 + k4];
        uint kr = idx / (BN / 4u), n4 = idx % (BN / 4u);
        rb[j] = b[bbase + kr * ldb4 + n4];
    }
    for (uint j = 0u; j < AV; j++) {
        uint idx = tid + 256u * j;
        uint r = idx / (BK / 4u), k4 = idx % (BK / 4u);
        As[0][k4 * 4u + 0u][r / 4u][r % 4u] = ra[j].x;
        As[0][k4 * 4u + 1u][r / 4u][r % 4u] = ra[j].y;
        As[0][k4 * 4u + 2u][r / 4u][r % 4u] = ra[j].z;
        As[0][k4 * 4u + 3u][r / 4u][r % 4u] = ra[j].w;
        uint kr = idx / (BN / 4u), n4 = idx % (BN / 4u);
        Bs[0][kr][n4] = rb[j];
    }
    barrier();

    uint steps = p.k / BK;
    for (uint t = 0u; t < steps; t++) {
        uint s = t & 1u;
        bool more = t + 1u < steps;
        if (more) {
            uint k0 = (t + 1u) * BK;
            for (uint j = 0u; j < AV; j++) {
                uint idx = tid + 256u * j;
                uint r = idx / (BK / 4u), k4 = idx % (BK / 4u);
                ra[j] = a[abase + r * lda4 + k0 / 4u + k4];
                uint kr = idx / (BN / 4u), n4 = idx % (BN / 4u);
                rb[j] = b[bbase + (k0 + kr) * ldb4 + n4];
            }
        }
        for (uint q = 0u; q < BK; q++) {
            vec4 a0 = As[s][q][ty], a1 = As[s][q][ty + 16u];
            vec4 b0 = Bs[s][q][tx], b1 = Bs[s][q][tx + 16u];
            acc[0][0] += a0.x * b0; acc[0][1] += a0.x * b1;
            acc[1][0] += a0.y * b0; acc[1][1] += a0.y * b1;
            acc[2][0] += a0.z * b0; acc[2][1] += a0.z * b1;
            acc[3][0] += a0.w * b0; acc[3][1] += a0.w * b1;
            acc[4][0] += a1.x * b0; acc[4][1] += a1.x * b1;
            acc[5][0] += a1.y * b0; acc[5][1] += a1.y * b1;
            acc[6][0] += a1.z * b0; acc[6][1] += a1.z * b1;
            acc[7][0] += a1.w * b0; acc[7][1] += a1.w * b1;
        }
        if (more) {
            uint ns = s ^ 1u;
            for (uint j = 0u; j < AV; j++) {
                uint idx = tid + 256u * j;
                uint r = idx / (BK / 4u), k4 = idx % (BK / 4u);
                As[ns][k4 * 4u + 0u][r / 4u][r % 4u] = ra[j].x;
                As[ns][k4 * 4u + 1u][r / 4u][r % 4u] = ra[j].y;
                As[ns][k4 * 4u + 2u][r / 4u][r % 4u] = ra[j].z;
                As[ns][k4 * 4u + 3u][r / 4u][r % 4u] = ra[j].w;
                uint kr = idx / (BN / 4u), n4 = idx % (BN / 4u);
                Bs[ns][kr][n4] = rb[j];
            }
        }
        barrier();
    }

    uint ldc4 = p.n / 4u;
    uint cbase = (z * p.c_bs) / 4u;
    for (uint i = 0u; i < 8u; i++) {
        uint row = m0 + (i < 4u ? ty * 4u + i : 64u + ty * 4u + (i - 4u));
        for (uint h = 0u; h < 2u; h++) {
            vec4 v = acc[i][h];
            if (p.rnd != 0u)
                v = vec4(rlx_round(v.x, p.rnd), rlx_round(v.y, p.rnd),
                         rlx_round(v.z, p.rnd), rlx_round(v.w, p.rnd));
            c[cbase + row * ldc4 + n0 / 4u + tx + 16u * h] = v;
        }
    }
}
