#version 450
// reduce64.comp - the reductions reduce.comp lacks, one thread per
// output element walking its reduced elements in row-major order, as the
// reference does (so sums round the same way): every reduction on f64,
// those of i64 and u64 (sum, prod, L1, sum of squares wrapping in 64
// bits; max, min), and mean and L2 of every integer dtype, in double
// and truncated. Needs shaderFloat64 and shaderInt64. The push words and
// the empty and NaN rules are reduce.comp's.
#extension GL_GOOGLE_include_directive : require
#extension GL_ARB_gpu_shader_int64 : require
layout(local_size_x = 64) in;
#include "common.glsl"
#include "common64.glsl"

// kind: 0 f64, 1 signed word (i32, i16, i8), 2 unsigned word (u32, u16,
// u8, bool), 3 i64, 4 u64; wrap: the result's width as reduce.comp's
layout(push_constant) uniform P {
    uint out_count, red_count, op, rnd, nk, nr;
    uint dims[8], strides[8];
    uint kind, wrap;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uvec2 y[]; };
layout(std430, set = 0, binding = 0) writeonly buffer YW { uint yw[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uvec2 x[]; };
layout(std430, set = 0, binding = 1) readonly buffer XW { uint xw[]; };

uint offset_of(uint base, uint r)
{
    uint rr = r, off = base;
    for (uint d = p.nk + p.nr; d-- > p.nk;) {
        off += (rr % p.dims[d]) * p.strides[d];
        rr /= p.dims[d];
    }
    return off;
}

// element R of an integer input, as its int64 bits (u64: its bits)
int64_t load_int(uint base, uint r)
{
    uint off = offset_of(base, r);
    if (p.kind == 1u)
        return int64_t(int(xw[off]));
    if (p.kind == 2u)
        return int64_t(uint64_t(xw[off]));
    return int64_t(packUint2x32(x[off]));
}

void store_int(uint o, int64_t v)
{
    if (p.kind >= 3u) {
        y[o] = unpackUint2x32(uint64_t(v));
        return;
    }
    int w = int(uint(uint64_t(v) & 0xffffffffu));
    if (p.wrap == 1u)
        w = bitfieldExtract(w, 0, 8);
    else if (p.wrap == 2u)
        w &= 0xff;
    else if (p.wrap == 3u)
        w = bitfieldExtract(w, 0, 16);
    else if (p.wrap == 4u)
        w &= 0xffff;
    yw[o] = uint(w);
}

void reduce_int(uint o, uint base)
{
    bool uns = p.kind == 4u;
    if (p.op == 65u || p.op == 135u) { // mean, L2: in double, truncated
        double acc = 0.0lf;
        for (uint r = 0u; r < p.red_count; r++) {
            int64_t v = load_int(base, r);
            double d = uns ? double(uint64_t(v)) : double(v);
            acc += p.op == 135u ? d * d : d;
        }
        double d = p.op == 135u ? sqrt(acc)
                 : p.red_count != 0u ? acc / double(p.red_count) : 0.0lf;
        int64_t v;
        if (uns)
            v = d >= 18446744073709551615.0lf ? -1l : int64_t(uint64_t(d));
        else
            v = d >= 9223372036854775807.0lf ? 9223372036854775807l
                                             : int64_t(d);
        store_int(o, v);
        return;
    }
    // the empty reduction: the dtype's least (max), greatest (min)
    int64_t least = p.kind == 4u || p.kind == 2u ? 0l
                  : p.kind == 3u ? (-9223372036854775807l - 1l)
                  : p.wrap == 1u ? -128l : p.wrap == 3u ? -32768l
                  : -2147483648l;
    int64_t most = p.kind == 4u ? -1l : p.kind == 3u ? 9223372036854775807l
                 : p.wrap == 1u ? 127l : p.wrap == 2u ? 255l
                 : p.wrap == 3u ? 32767l : p.wrap == 4u ? 65535l
                 : p.kind == 2u ? 4294967295l : 2147483647l;
    int64_t acc = p.op == 66u ? least : p.op == 132u ? most
                : p.op == 133u ? 1l : 0l;
    for (uint r = 0u; r < p.red_count; r++) {
        int64_t v = load_int(base, r);
        bool more = uns ? uint64_t(v) > uint64_t(acc) : v > acc;
        bool less = uns ? uint64_t(v) < uint64_t(acc) : v < acc;
        switch (p.op) {
        case 66u: acc = more ? v : acc; break;
        case 132u: acc = less ? v : acc; break;
        case 133u: acc *= v; break;
        case 134u: acc += v < 0l && !uns ? -v : v; break;
        case 137u: acc += v * v; break;
        default: acc += v; break;
        }
    }
    store_int(o, acc);
}

double load(uint base, uint r)
{
    return packDouble2x32(x[offset_of(base, r)]);
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
    if (p.kind != 0u) {
        reduce_int(o, base);
        return;
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
