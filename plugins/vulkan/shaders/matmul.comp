#version 450
// matmul.comp - general batched matmul: any strides (transposes, vector
// sides), broadcast batch dims, any m, n, k. 16x16 tiles staged in shared
// memory; one output element per thread. Built a second time with
// INTEGER for matmul_integer: i8/u8 operands (one int word each) less
// their zero points (scalar, per row of a, per column of b), summed in
// 32 bits, which wraps as the op's i32 result does. With DOT as well
// (devices with VK_KHR_shader_integer_dot_product) the raw bytes are
// packed four to a word and multiplied by the packed dot-product
// instructions; the zero points come in at the end through the row and
// column sums: sum (a - za)(b - zb) = sum ab - zb sum a - za sum b
// + k za zb, all wrapping alike.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint m, n, k, a_row, a_col, b_row, b_col, rnd, nb;
    uint bdims[6], abs_[6], bbs[6];
    uint za_rows, zb_cols;  // INTEGER: a zero point per row, per column
    uint a_signed, b_signed; // DOT: i8 (1) or u8 (0) operands
} p;
#ifdef DOT
#include "dot.glsl"
#endif
#ifdef INTEGER
#define T int
layout(std430, set = 0, binding = 3) readonly buffer ZA { int za[]; };
layout(std430, set = 0, binding = 4) readonly buffer ZB { int zb[]; };
#else
#define T float
#endif
layout(std430, set = 0, binding = 0) writeonly buffer C { T c[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { T a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { T b[]; };

shared T As[16][17];
shared T Bs[16][17];

void main()
{
    uint lx = gl_LocalInvocationID.x, ly = gl_LocalInvocationID.y;
    uint row = gl_WorkGroupID.y * 16u + ly;
    uint col = gl_WorkGroupID.x * 16u + lx;
    uint z = gl_WorkGroupID.z, rest = z, ao = 0u, bo = 0u;
    for (uint d = p.nb; d-- > 0u;) {
        uint i = rest % p.bdims[d];
        rest /= p.bdims[d];
        ao += i * p.abs_[d];
        bo += i * p.bbs[d];
    }
#ifdef INTEGER
    // operands less their zero points; padding lanes hold 0
    int zr = row < p.m ? za[p.za_rows != 0u ? row : 0u] : 0;
    int zc = col < p.n ? zb[p.zb_cols != 0u ? col : 0u] : 0;
    int acc = 0;
#ifdef DOT
    int sum_a = 0, sum_b = 0;   // raw row and column sums
    bool as = p.a_signed != 0u, bs = p.b_signed != 0u;
#endif
#else
    float acc = 0.0;
#endif
    for (uint t = 0u; t < p.k; t += 16u) {
#if defined(DOT)
        As[ly][lx] = row < p.m && t + lx < p.k
                         ? a[ao + row * p.a_row + (t + lx) * p.a_col] : 0;
        Bs[ly][lx] = t + ly < p.k && col < p.n
                         ? b[bo + (t + ly) * p.b_row + col * p.b_col] : 0;
#elif defined(INTEGER)
        As[ly][lx] = row < p.m && t + lx < p.k
                         ? a[ao + row * p.a_row + (t + lx) * p.a_col] - zr : 0;
        Bs[ly][lx] = t + ly < p.k && col < p.n
                         ? b[bo + (t + ly) * p.b_row + col * p.b_col] - zc : 0;
#else
        As[ly][lx] = row < p.m && t + lx < p.k
                         ? a[ao + row * p.a_row + (t + lx) * p.a_col] : 0.0;
        Bs[ly][lx] = t + ly < p.k && col < p.n
                         ? b[bo + (t + ly) * p.b_row + col * p.b_col] : 0.0;
#endif
        barrier();
#ifdef DOT
        for (uint q = 0u; q < 16u; q += 4u) {
            uint pa = (uint(As[ly][q]) & 0xffu) |
                      ((uint(As[ly][q + 1u]) & 0xffu) << 8) |
                      ((uint(As[ly][q + 2u]) & 0xffu) << 16) |
                      (uint(As[ly][q + 3u]) << 24);
            uint pb = (uint(Bs[q][lx]) & 0xffu) |
                      ((uint(Bs[q + 1u][lx]) & 0xffu) << 8) |
                      ((uint(Bs[q + 2u][lx]) & 0xffu) << 16) |
                      (uint(Bs[q + 3u][lx]) << 24);
            acc += dot4(pa, pb, as, bs);
            sum_a += dot4(pa, 0x01010101u, as, false);
            sum_b += dot4(0x01010101u, pb, false, bs);
        }
#else
        for (uint q = 0u; q < 16u; q++)
            acc += As[ly][q] * Bs[q][lx];
#endif
        barrier();
    }
#ifdef DOT
    acc += -zc * sum_a - zr * sum_b + int(p.k) * zr * zc;
#endif
#ifdef INTEGER
    if (row < p.m && col < p.n)
        c[z * p.m * p.n + row * p.n + col] = acc;
#else
    if (row < p.m && col < p.n)
        c[z * p.m * p.n + row * p.n + col] = rlx_round(acc, p.rnd);
#endif
}
