#version 450
// pool.comp - max_pool, avg_pool and lp_pool, one thread per output:
// each reads its window directly (shapes padded to 3 spatial axes as in
// conv_common.glsl). Padding never enters a max (a NaN wins it);
// avg_pool divides by the window's elements inside the input, or with
// count_include_pad by its positions inside the padded input (never
// those past the end padding, which ceil mode can add); lp_pool counts
// padding as 0. max_pool_index (op 89) writes where each maximum is, as
// i64 (two words): the flat input position, the spatial part row-major
// or (storage order 1, in lp's place) column-major; the first of equal
// maxima wins, a NaN wins over numbers, a window wholly in the padding
// gives -1.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(push_constant) uniform P {
    uint count, op, rnd, include_pad, lp;
    uint in_[3], out_[3], ks[3], stride[3], dil[3], pb[3], pe[3];
    uint kind;
} p;
layout(std430, set = 0, binding = 0) writeonly buffer Y { uint y[]; };
layout(std430, set = 0, binding = 1) readonly buffer X { uint x[]; };

float load(uint i)
{
    return p.kind != 0u ? float(int(x[i])) : uintBitsToFloat(x[i]);
}

void main()
{
    uint e = rlx_gid();
    if (e >= p.count)
        return;
    uint np = p.out_[0] * p.out_[1] * p.out_[2];
    uint in_sp = p.in_[0] * p.in_[1] * p.in_[2];
    uint pp = e % np, nc = e / np;
    uint o[3];
    o[2] = pp % p.out_[2];
    o[1] = (pp / p.out_[2]) % p.out_[1];
    o[0] = pp / (p.out_[2] * p.out_[1]);
    int lo[3];
    for (uint a = 0u; a < 3u; a++)
        lo[a] = int(o[a] * p.stride[a]) - int(p.pb[a]);
    float best = -RLX_INF, sum = 0.0;
    uint inside_n = 0u, padded_n = 0u;
    bool nan = false;
    int at = -1;         // max_pool_index: the winner's spatial position
    float abest = 0.0;
    for (uint k0 = 0u; k0 < p.ks[0]; k0++) {
        int i0 = lo[0] + int(k0 * p.dil[0]);
        for (uint k1 = 0u; k1 < p.ks[1]; k1++) {
            int i1 = lo[1] + int(k1 * p.dil[1]);
            for (uint k2 = 0u; k2 < p.ks[2]; k2++) {
                int i2 = lo[2] + int(k2 * p.dil[2]);
                bool padded = i0 < int(p.in_[0] + p.pe[0]) &&
                              i1 < int(p.in_[1] + p.pe[1]) &&
                              i2 < int(p.in_[2] + p.pe[2]);
                padded_n += padded ? 1u : 0u;
                if (i0 < 0 || i1 < 0 || i2 < 0 || i0 >= int(p.in_[0]) ||
                    i1 >= int(p.in_[1]) || i2 >= int(p.in_[2]))
                    continue;
                float v = load(nc * in_sp + (uint(i0) * p.in_[1] +
                                             uint(i1)) * p.in_[2] + uint(i2));
                inside_n++;
                if (p.op == 89u) {
                    if (at < 0 || v > abest || (isnan(v) && !isnan(abest))) {
                        abest = v;
                        at = p.lp == 1u
                            ? int(uint(i0) + (uint(i1) + uint(i2) * p.in_[1]) *
                                                 p.in_[0])
                            : int((uint(i0) * p.in_[1] + uint(i1)) * p.in_[2] +
                                  uint(i2));
                    }
                } else if (p.op == 82u) {
                    nan = nan || isnan(v);
                    best = v > best ? v : best;
                } else if (p.op == 83u) {
                    sum += v;
                } else {
                    sum += rlx_pow(abs(v), float(p.lp));
                }
            }
        }
    }
    if (p.op == 89u) {
        int pos = at < 0 ? -1 : int(nc * in_sp) + at;
        y[2u * e] = uint(pos);
        y[2u * e + 1u] = pos < 0 ? 0xffffffffu : 0u;
        return;
    }
    float r;
    if (p.op == 82u)
        r = nan ? RLX_NAN : best;
    else if (p.op == 83u)
        r = sum / float(p.include_pad != 0u ? padded_n : inside_n);
    else
        r = p.lp == 1u ? sum : (p.lp == 2u ? rlx_sqrt(sum)
                                : rlx_pow(sum, 1.0 / float(p.lp)));
    y[e] = p.kind != 0u ? uint(int(r)) : floatBitsToUint(rlx_round(r, p.rnd));
}
