// dot.glsl - the packed 4 x 8-bit integer dot products of
// VK_KHR_shader_integer_dot_product, which matmul.comp and conv.comp
// built DOT multiply with (the device must have the extension).
#extension GL_EXT_spirv_intrinsics : require
// OpSDotKHR, OpUDotKHR, OpSUDotKHR on 4 x 8-bit packed operands
// (capabilities DotProductInput4x8BitPackedKHR, DotProductKHR)
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"],
                  capabilities = [6018, 6019], id = 4450)
int sdot(uint a, uint b, spirv_literal int packed_4x8);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"],
                  capabilities = [6018, 6019], id = 4451)
uint udot(uint a, uint b, spirv_literal int packed_4x8);
spirv_instruction(extensions = ["SPV_KHR_integer_dot_product"],
                  capabilities = [6018, 6019], id = 4452)
int sudot(uint a, uint b, spirv_literal int packed_4x8);

// the dot product of packed A and B by their signedness
int dot4(uint a, uint b, bool as, bool bs)
{
    if (as && bs)
        return sdot(a, b, 0);
    if (!as && !bs)
        return int(udot(a, b, 0));
    return as ? sudot(a, b, 0) : sudot(b, a, 0);
}
