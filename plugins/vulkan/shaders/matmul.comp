#version 450
// matmul.comp - general batched matmul: any strides (transposes, vector
// sides), broadcast batch dims, any m, n, k. 16x16 tiles staged in shared
// memory; one output element per thread.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 16, local_size_y = 16) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint m, n, k, a_row, a_col, b_row, b_col, rnd, nb;
    uint bdims[6], abs_[6], bbs[6];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer C { float c[]; };
layout(std430, set = 0, binding = 1) readonly buffer A { float a[]; };
layout(std430, set = 0, binding = 2) readonly buffer B { float b[]; };

shared float As[16][17];
shared float Bs[16][17];

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
    float acc = 0.0;
    for (uint t = 0u; t < p.k; t += 16u) {
        As[ly][lx] = row < p.m && t + lx < p.k
                         ? a[ao + row * p.a_row + (t + lx) * p.a_col] : 0.0;
        Bs[ly][lx] = t + ly < p.k && col < p.n
                         ? b[bo + (t + ly) * p.b_row + col * p.b_col] : 0.0;
        barrier();
        for (uint q = 0u; q < 16u; q++)
            acc += As[ly][q] * Bs[q][lx];
        barrier();
    }
    if (row < p.m && col < p.n)
        c[z * p.m * p.n + row * p.n + col] = rlx_round(acc, p.rnd);
}
