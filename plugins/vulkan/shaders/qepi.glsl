// qepi.glsl - the requantization chain after conv_integer, fused into
// its epilogue (vk_plan_qfuse.c): y = clamp(saturate(round half to
// even(f32(acc + bias) * mult / scale) + zp)), the same f32 operations
// in the same order as the separate add, cast, mul, quantize_linear and
// max/min shaders, so the result is bit-identical. The operands are in
// the table shaders/qepi.comp writes (its layout is described there).
layout(std430, set = 0, binding = 3) readonly buffer QTab { int qtab[]; };

int qepi_xz()
{
    return qtab[0];
}

int qepi_wz(uint m)
{
    return qtab[8u + 3u * m];
}

int qepi_requant(int acc, uint m)
{
    int a = acc + qtab[9u + 3u * m];           // i32, wrapping
    precise float d = float(a) * intBitsToFloat(qtab[10u + 3u * m]);
    float q = rlx_div_rn(d, intBitsToFloat(qtab[2]));
    int zp = qtab[1], lo = qtab[3], hi = qtab[4], r;
    if (isnan(q)) {
        r = zp;
    } else {
        float t = roundEven(q) + float(zp);
        r = t <= float(lo) ? lo : (t >= float(hi) ? hi : int(t));
    }
    return min(max(r, qtab[5]), qtab[6]);
}
