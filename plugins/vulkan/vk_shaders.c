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
static const uint32_t sgemm_128x128x8_spv[] =
#include "sgemm_128x128x8.spv.h"
    ;
static const uint32_t sgemm_128x128x16_spv[] =
#include "sgemm_128x128x16.spv.h"
    ;
static const uint32_t sgemm_128x128x8_w2d_spv[] =
#include "sgemm_128x128x8_w2d.spv.h"
    ;
static const uint32_t sgemm_128x128x16_w2d_spv[] =
#include "sgemm_128x128x16_w2d.spv.h"
    ;
static const uint32_t sgemm_128x256x8_spv[] =
#include "sgemm_128x256x8.spv.h"
    ;
static const uint32_t sgemm_128x64x16_spv[] =
#include "sgemm_128x64x16.spv.h"
    ;
static const uint32_t sgemm_64x64x16_spv[] =
#include "sgemm_64x64x16.spv.h"
    ;
static const uint32_t sgemm_128x128x8_check_spv[] =
#include "sgemm_128x128x8_check.spv.h"
    ;
static const uint32_t sgemm_64x64x16_check_spv[] =
#include "sgemm_64x64x16_check.spv.h"
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
static const uint32_t conv_spv[] =
#include "conv.spv.h"
    ;
static const uint32_t convd_spv[] =
#include "convd.spv.h"
    ;
static const uint32_t pool_spv[] =
#include "pool.spv.h"
    ;
static const uint32_t chnorm_spv[] =
#include "chnorm.spv.h"
    ;
static const uint32_t resize_spv[] =
#include "resize.spv.h"
    ;
static const uint32_t logic_spv[] =
#include "logic.spv.h"
    ;
static const uint32_t where_spv[] =
#include "where.spv.h"
    ;
static const uint32_t remap_spv[] =
#include "remap.spv.h"
    ;
static const uint32_t arg_spv[] =
#include "arg.spv.h"
    ;
static const uint32_t trilu_spv[] =
#include "trilu.spv.h"
    ;
static const uint32_t gather_el_spv[] =
#include "gather_el.spv.h"
    ;
static const uint32_t gather_nd_spv[] =
#include "gather_nd.spv.h"
    ;
static const uint32_t scatter_spv[] =
#include "scatter.spv.h"
    ;
static const uint32_t scan_spv[] =
#include "scan.spv.h"
    ;
static const uint32_t one_hot_spv[] =
#include "one_hot.spv.h"
    ;
static const uint32_t logic64_spv[] =
#include "logic64.spv.h"
    ;
static const uint32_t cumsum64_spv[] =
#include "cumsum64.spv.h"
    ;
static const uint32_t nonzero_spv[] =
#include "nonzero.spv.h"
    ;
static const uint32_t quant_spv[] =
#include "quant.spv.h"
    ;
static const uint32_t matmul_int_spv[] =
#include "matmul_int.spv.h"
    ;
static const uint32_t convi_spv[] =
#include "convi.spv.h"
    ;
static const uint32_t ew64_spv[] =
#include "ew64.spv.h"
    ;
static const uint32_t reduce64_spv[] =
#include "reduce64.spv.h"
    ;
static const uint32_t grid_spv[] =
#include "grid.spv.h"
    ;
static const uint32_t det_spv[] =
#include "det.spv.h"
    ;
static const uint32_t roi_spv[] =
#include "roi.spv.h"
    ;
static const uint32_t arg64_spv[] =
#include "arg64.spv.h"
    ;
static const uint32_t topk64_spv[] =
#include "topk64.spv.h"
    ;
static const uint32_t matmul_dot_spv[] =
#include "matmul_dot.spv.h"
    ;
static const uint32_t convg_int_spv[] =
#include "convg_int.spv.h"
    ;
static const uint32_t convg_dot_spv[] =
#include "convg_dot.spv.h"
    ;
static const uint32_t convg_int_q_spv[] =
#include "convg_int_q.spv.h"
    ;
static const uint32_t convg_dot_q_spv[] =
#include "convg_dot_q.spv.h"
    ;
static const uint32_t qepi_spv[] =
#include "qepi.spv.h"
    ;
static const uint32_t convi_q_spv[] =
#include "convi_q.spv.h"
    ;

#define S(n) #n, n##_spv, sizeof n##_spv

_Static_assert(RLXV_SGEMM_VARIANTS == 9, "one SPIR-V per sgemm variant");

const rlxv_shader rlxv_shaders[RLXV_PIPE_COUNT] = {
    [RLXV_PIPE_UNARY] = { S(unary), 0, { 0 } },
    [RLXV_PIPE_BINARY] = { S(binary), 0, { 0 } },
    [RLXV_PIPE_COPY] = { S(copy), 0, { 0 } },
    [RLXV_PIPE_GATHER] = { S(gather), 0, { 0 } },
    [RLXV_PIPE_CAST] = { S(cast), 0, { 0 } },
    [RLXV_PIPE_MATMUL] = { S(matmul), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 0] = { S(sgemm_128x128x8), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 1] = { S(sgemm_128x128x16), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 2] = { S(sgemm_128x128x8_w2d), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 3] = { S(sgemm_128x128x16_w2d), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 4] = { S(sgemm_128x256x8), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 5] = { S(sgemm_128x64x16), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 6] = { S(sgemm_64x64x16), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 7] = { S(sgemm_128x128x8_check), 0, { 0 } },
    [RLXV_PIPE_SGEMM0 + 8] = { S(sgemm_64x64x16_check), 0, { 0 } },
    [RLXV_PIPE_SOFTMAX] = { S(softmax), 0, { 0 } },
    [RLXV_PIPE_NORM] = { S(norm), 0, { 0 } },
    [RLXV_PIPE_REDUCE] = { S(reduce), 0, { 0 } },
    [RLXV_PIPE_CONV] = { S(conv), 0, { 0 } },
    [RLXV_PIPE_CONVD] = { S(convd), 0, { 0 } },
    [RLXV_PIPE_POOL] = { S(pool), 0, { 0 } },
    [RLXV_PIPE_CHNORM] = { S(chnorm), 0, { 0 } },
    [RLXV_PIPE_RESIZE] = { S(resize), 0, { 0 } },
    [RLXV_PIPE_LOGIC] = { S(logic), 0, { 0 } },
    [RLXV_PIPE_WHERE] = { S(where), 0, { 0 } },
    [RLXV_PIPE_REMAP] = { S(remap), 0, { 0 } },
    [RLXV_PIPE_ARG] = { S(arg), 0, { 0 } },
    [RLXV_PIPE_TRILU] = { S(trilu), 0, { 0 } },
    [RLXV_PIPE_GATHER_EL] = { S(gather_el), 0, { 0 } },
    [RLXV_PIPE_GATHER_ND] = { S(gather_nd), 0, { 0 } },
    [RLXV_PIPE_SCATTER] = { S(scatter), 0, { 0 } },
    [RLXV_PIPE_SCAN] = { S(scan), 0, { 0 } },
    [RLXV_PIPE_ONE_HOT] = { S(one_hot), 0, { 0 } },
    [RLXV_PIPE_LOGIC64] = { S(logic64), 0, { 0 } },
    [RLXV_PIPE_CUMSUM64] = { S(cumsum64), 0, { 0 } },
    [RLXV_PIPE_NONZERO] = { S(nonzero), 0, { 0 } },
    [RLXV_PIPE_QUANT] = { S(quant), 0, { 0 } },
    [RLXV_PIPE_MATMUL_INT] = { S(matmul_int), 0, { 0 } },
    [RLXV_PIPE_CONVI] = { S(convi), 0, { 0 } },
    [RLXV_PIPE_EW64] = { S(ew64), 0, { 0 } },
    [RLXV_PIPE_REDUCE64] = { S(reduce64), 0, { 0 } },
    [RLXV_PIPE_GRID] = { S(grid), 0, { 0 } },
    [RLXV_PIPE_DET] = { S(det), 0, { 0 } },
    [RLXV_PIPE_ROI] = { S(roi), 0, { 0 } },
    [RLXV_PIPE_ARG64] = { S(arg64), 0, { 0 } },
    [RLXV_PIPE_TOPK64] = { S(topk64), 0, { 0 } },
    [RLXV_PIPE_MATMUL_DOT] = { S(matmul_dot), 0, { 0 } },
    [RLXV_PIPE_CONVG_INT] = { S(convg_int), 0, { 0 } },
    [RLXV_PIPE_CONVG_DOT] = { S(convg_dot), 0, { 0 } },
    [RLXV_PIPE_CONVG_INT_Q] = { S(convg_int_q), 0, { 0 } },
    [RLXV_PIPE_CONVG_DOT_Q] = { S(convg_dot_q), 0, { 0 } },
    [RLXV_PIPE_QEPI] = { S(qepi), 0, { 0 } },
    [RLXV_PIPE_CONVI_Q] = { S(convi_q), 0, { 0 } },
};
