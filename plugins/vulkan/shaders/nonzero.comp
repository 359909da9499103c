#version 450
// nonzero.comp - non_zero: one invocation walks the input in row-major
// order and writes each nonzero element's coordinates as a column of the
// i64 [rank, cols] result, then pads the remaining columns with -1; more
// nonzeros than columns raise the run's error flag. NaN counts, -0 does
// not. The walk is serial so the columns come in order; the op appears
// on small tensors (masks, shape logic) in the models that use it.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 1) in;
#include "common.glsl"

// kind: 0 one-word float, 1 one-word integer, 2 i64, 3 f64
layout(push_constant) uniform P {
    uint count, kind, rank, cols;
    uint dims[8];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };
layout(std430, set = 0, binding = 4) buffer E { uint err[]; };

bool nonzero(uint i)
{
    if (p.kind == 0u)
        return uintBitsToFloat(x[i]) != 0.0;
    if (p.kind == 1u)
        return x[i] != 0u;
    uint hi = x[2u * i + 1u];
    if (p.kind == 3u)
        hi &= 0x7fffffffu;
    return x[2u * i] != 0u || hi != 0u;
}

void put(uint at, uint lo, uint hi)
{
    y[2u * at] = lo;
    y[2u * at + 1u] = hi;
}

void main()
{
    if (gl_GlobalInvocationID.x != 0u || gl_WorkGroupID.y != 0u)
        return;
    uint col = 0u;
    for (uint i = 0u; i < p.count; i++) {
        if (!nonzero(i))
            continue;
        if (col >= p.cols) {
            err[0] = 1u;
            return;
        }
        uint rest = i;
        for (uint d = p.rank; d-- > 0u;) {
            put(d * p.cols + col, rest % p.dims[d], 0u);
            rest /= p.dims[d];
        }
        col++;
    }
    for (; col < p.cols; col++)
        for (uint d = 0u; d < p.rank; d++)
            put(d * p.cols + col, 0xffffffffu, 0xffffffffu);
}
