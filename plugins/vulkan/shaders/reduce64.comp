#version 450
// reduce64.comp - the reductions on f64 (devices with shaderFloat64):
// one thread per output element walks its reduced elements in row-major
// order, as the reference does, so sums round the same way. The push
// words and the empty and NaN rules are reduce.comp's.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
#include "common.glsl"
#include "common64.glsl"

layout(push_constant) uniform P {
    uint out_count, red_count, op, rnd, nk, nr;
    uint dims[8], strides[8];
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uvec2 y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uvec2 x[]; };

double load(uint base, uint r)
{
    uint rr = r, off = base;
    for (uint d = p.nk + p.nr; d-- > p.nk;) {
        off += (rr % p.dims[d]) * p.strides[d];
        rr /= p.dims[d];
    }
    return packDouble2x32(x[off]);
}

void main()
{
    uint o = rlx_gid();
    if (o >= p.out_count)
        return;
    uint rest = o, base = 0u;
    for (uint d = p.nk; d-- > 0u;) {
        base += (rest % p.dims[d]) * p.strides[d];
        rest /= p.dims[d];
    }
    double acc = p.op == 66u || p.op == 136u ? -rlx_inf64()
               : p.op == 132u ? rlx_inf64()
               : p.op == 133u ? 1.0lf : 0.0lf;
    for (uint r = 0u; r < p.red_count; r++) {
        double v = load(base, r);
        switch (p.op) {
        case 66u: case 136u: // max; log-sum-exp's first pass
            if ((v > acc || isnan(v)) && !isnan(acc))
                acc = v;
            break;
        case 132u:
            if ((v < acc || isnan(v)) && !isnan(acc))
                acc = v;
            break;
        case 133u: acc *= v; break;
        case 134u: acc += abs(v); break;
        case 135u: case 137u: acc += v * v; break;
        default: acc += v; break; // sum, mean
        }
    }
    if (p.op == 136u && !isinf(acc) && !isnan(acc)) {
        // an infinite or NaN maximum is the answer itself
        double sum = 0.0lf;
        for (uint r = 0u; r < p.red_count; r++)
            sum += rlx_exp64(load(base, r) - acc);
        acc += rlx_log64(sum);
    }
    if (p.op == 65u)
        acc /= double(p.red_count); // empty: 0 / 0, NaN
    if (p.op == 135u)
        acc = sqrt(acc);
    y[o] = unpackDouble2x32(acc);
}
