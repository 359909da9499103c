/*
 * vk_shaders.c - the embedded SPIR-V table (see vk_shaders.h). Each
 * *.spv.h is a C initializer written by `glslc -mfmt=c`.
 */
#include "vk_internal.h"
#include "vk_shaders.h"

static const uint32_t unary_spv[] =
#include "unary.spv.h"
    ;
static const uint32_t binary_spv[] =
#include "binary.spv.h"
    ;
static const uint32_t copy_spv[] =
#include "copy.spv.h"
    ;
static const uint32_t gather_spv[] =
#include "gather.spv.h"
    ;
static const uint32_t cast_spv[] =
#include "cast.spv.h"
    ;
static const uint32_t matmul_spv[] =
#include "matmul.spv.h"
    ;
static const uint32_t sgemm_spv[] =
#include "sgemm.spv.h"
    ;
static const uint32_t softmax_spv[] =
#include "softmax.spv.h"
    ;
static const uint32_t norm_spv[] =
#include "norm.spv.h"
    ;
static const uint32_t reduce_spv[] =
#include "reduce.spv.h"
    ;

#define S(n) #n, n##_spv, sizeof n##_spv

const rlx__vk_shader rlx__vk_shaders[RLX_VK_PIPE_COUNT] = {
    [RLX_VK_PIPE_UNARY] = { S(unary), 0, { 0 } },
    [RLX_VK_PIPE_BINARY] = { S(binary), 0, { 0 } },
    [RLX_VK_PIPE_COPY] = { S(copy), 0, { 0 } },
    [RLX_VK_PIPE_GATHER] = { S(gather), 0, { 0 } },
    [RLX_VK_PIPE_CAST] = { S(cast), 0, { 0 } },
    [RLX_VK_PIPE_MATMUL] = { S(matmul), 0, { 0 } },
    [RLX_VK_PIPE_SGEMM] = { S(sgemm), 1, { 8 } },
    [RLX_VK_PIPE_SGEMM_BK16] = { S(sgemm), 1, { 16 } },
    [RLX_VK_PIPE_SOFTMAX] = { S(softmax), 0, { 0 } },
    [RLX_VK_PIPE_NORM] = { S(norm), 0, { 0 } },
    [RLX_VK_PIPE_REDUCE] = { S(reduce), 0, { 0 } },
};
