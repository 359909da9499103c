// conv_common.glsl - the push constants both convolution shaders read:
// the shapes padded to 3 spatial axes (a missing leading axis has size
// 1, kernel 1, stride 1, dilation 1, pad 0).
layout(push_constant) uniform P {
    uint count, m, c, group, np, in_sp, k_sp, has_bias, rnd, transposed, kg;
    uint in_[3], out_[3], ks[3], stride[3], dil[3], pb[3];
    uint x_signed, w_signed;
} p;
