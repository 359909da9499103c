#version 450
// scatter.comp - scatter_elements and scatter_nd after the data has been
// copied into the result: one invocation applies every update in
// row-major order of the indices, so duplicates resolve exactly as the
// reference's (the last write wins, or each reduction applies in turn).
// Scatters in models are small; the serial walk keeps them exact. An
// index outside [-dim, dim) skips that update and raises the run's
// error flag.
//   mode 0 scatter_elements: update u at coordinates c goes to c with
//     c[axis] = idx[u];
//   mode 1 scatter_nd: index row q (LAST indices) picks a block of RN
//     elements that updates[q, 0..rn) go to.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 1) in;
#include "common.glsl"

// kind: 0 float, 1 signed, 2 unsigned; wrap as logic.comp;
// reduction: RLX_REDUCTION_* (0 none, 1 add, 2 mul, 3 max, 4 min)
layout(push_constant) uniform P {
    uint mode, n, words, idx_words, reduction, kind, wrap, rnd, rank, axis,
         rn;
    uint dims[8], ds[8];
} p;
layout(std430, set = 0, binding = 0) buffer Y { uint y[]; };
layout(std430, set = 0, binding = 2) readonly buffer I { uint idx[]; };
layout(std430, set = 0, binding = 3) readonly buffer U { uint upd[]; };
layout(std430, set = 0, binding = 4) buffer E { uint err[]; };

uint combine(uint a, uint b)
{
    if (p.reduction == 0u)
        return b;
    if (p.kind == 0u) {
        float x = uintBitsToFloat(a), z = uintBitsToFloat(b), r;
        if (p.reduction == 1u)
            r = x + z;
        else if (p.reduction == 2u)
            r = x * z;
        else if (p.reduction == 3u)
            r = isnan(x) || isnan(z) ? x + z : max(x, z);
        else
            r = isnan(x) || isnan(z) ? x + z : min(x, z);
        return floatBitsToUint(rlx_round(r, p.rnd));
    }
    int x = int(a), z = int(b), o;
    if (p.reduction == 1u)
        o = x + z;
    else if (p.reduction == 2u)
        o = x * z;
    else if (p.reduction == 3u)
        o = p.kind == 1u ? max(x, z) : int(max(a, b));
    else
        o = p.kind == 1u ? min(x, z) : int(min(a, b));
    if (p.wrap == 1u)
        return uint(bitfieldExtract(o, 0, 8));
    if (p.wrap == 2u)
        return uint(o) & 0xffu;
    return uint(o);
}

void put(uint dst, uint src)
{
    if (p.words == 2u) {
        y[2u * dst] = upd[2u * src];
        y[2u * dst + 1u] = upd[2u * src + 1u];
        return;
    }
    y[dst] = combine(y[dst], upd[src]);
}

void main()
{
    if (gl_GlobalInvocationID.x != 0u || gl_WorkGroupID.y != 0u)
        return;
    if (p.mode == 0u) {
        for (uint u = 0u; u < p.n; u++) {
            int k = rlx_index(idx[u * p.idx_words],
                              p.idx_words == 2u ? idx[u * 2u + 1u] : 0u,
                              p.idx_words, p.rn);
            if (k < 0) {
                err[0] = 1u;
                continue;
            }
            uint rest = u, dst = 0u;
            for (uint d = p.rank; d-- > 0u;) {
                uint c = rest % p.dims[d];
                rest /= p.dims[d];
                dst += (d == p.axis ? uint(k) : c) * p.ds[d];
            }
            put(dst, u);
        }
        return;
    }
    for (uint q = 0u; q < p.n; q++) {
        uint dst = 0u;
        bool ok = true;
        for (uint k = 0u; k < p.rank; k++) {
            uint at = (q * p.rank + k) * p.idx_words;
            int i = rlx_index(idx[at], p.idx_words == 2u ? idx[at + 1u] : 0u,
                              p.idx_words, p.dims[k]);
            ok = ok && i >= 0;
            dst += uint(max(i, 0)) * p.ds[k];
        }
        if (!ok) {
            err[0] = 1u;
            continue;
        }
        for (uint r = 0u; r < p.rn; r++)
            put(dst + r, q * p.rn + r);
    }
}
