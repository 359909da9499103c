/*
 * test_pjrt_ops14.c - the StableHLO the PJRT bridge emits for the ABI
 * 1.4 ops, without a real PJRT plugin: each case compiles one node on
 * the fake plugin, the module is checked for structure (mlir_check.c)
 * and compared with golden/NAME.mlir, and a line that only a right
 * lowering has (the op, its key attribute or its index table) must be
 * in it. Also: every 1.4 op the bridge declares has a case here, and the
 * ops it has no lowering for are declined, so placement moves them.
 * Numbers on a real PJRT plugin: `rlx conformance --backend pjrt-cuda`
 * (scripts/gpu-pjrt.sh).
 *
 * argv: as test_pjrt.c's. RLX_PJRT_GOLDEN_UPDATE=1 rewrites the goldens.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "../../../test/harness.h"
#include "pjrt_golden.h"
#include "pjrt_test_util.h"

typedef struct in_spec {
    rlx_dtype dt;
    uint32_t rank;
    int64_t shape[5];
    int param; /* a param rather than an input (weights, norms) */
} in_spec;

typedef struct case14 {
    const char *name;
    rlx_op op;
    int n_in;
    in_spec in[5];
    uint32_t n_ints;
    int64_t ints[16];
    uint32_t n_floats;
    double floats[8];
    const char *must;  /* a line fragment only a right lowering has */
    const char *never; /* and one it must not have (NULL: none) */
} case14;

#define F32 RLX_DTYPE_F32
#define F16 RLX_DTYPE_F16
#define BF16 RLX_DTYPE_BF16
#define I8 RLX_DTYPE_I8
#define U8 RLX_DTYPE_U8
#define I32 RLX_DTYPE_I32
#define I64 RLX_DTYPE_I64
#define BOOL RLX_DTYPE_BOOL
#define F64 RLX_DTYPE_F64
#define I16 RLX_DTYPE_I16
#define U16 RLX_DTYPE_U16
#define U32 RLX_DTYPE_U32
#define U64 RLX_DTYPE_U64
#define S0(dt) { dt, 0, { 0 }, 0 }
#define T23(dt) { dt, 2, { 2, 3 }, 0 }
#define V3(dt) { dt, 1, { 3 }, 0 }
#define P(dt, n) { dt, 1, { n }, 1 }

static const case14 cases[] = {
    /* comparisons, logical, bitwise, where */
    { "equal_bcast", RLX_OP_EQUAL, 2, { T23(F32), V3(F32) }, 0, { 0 }, 0, { 0 }, "comparison_direction EQ>", NULL },
    { "less_i32", RLX_OP_LESS, 2, { T23(I32), T23(I32) }, 0, { 0 }, 0, { 0 }, "comparison_direction LT>} : (tensor<2x3xi32>", NULL },
    { "less_equal_f16", RLX_OP_LESS_EQUAL, 2, { T23(F16), T23(F16) }, 0, { 0 }, 0, { 0 }, "comparison_direction LE>} : (tensor<2x3xf16>", NULL },
    { "greater_i64", RLX_OP_GREATER, 2, { T23(I64), V3(I64) }, 0, { 0 }, 0, { 0 }, "comparison_direction GT>", NULL },
    { "greater_equal_u8", RLX_OP_GREATER_EQUAL, 2, { T23(U8), T23(U8) }, 0, { 0 }, 0, { 0 }, "comparison_direction GE>} : (tensor<2x3xui8>", NULL },
    { "logical_and", RLX_OP_LOGICAL_AND, 2, { T23(BOOL), V3(BOOL) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.and\"", NULL },
    { "logical_or", RLX_OP_LOGICAL_OR, 2, { T23(BOOL), T23(BOOL) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.or\"", NULL },
    { "logical_xor", RLX_OP_LOGICAL_XOR, 2, { T23(BOOL), T23(BOOL) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.xor\"", NULL },
    { "logical_not", RLX_OP_LOGICAL_NOT, 1, { T23(BOOL) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.not\"(%0) : (tensor<2x3xi1>)", NULL },
    { "where_f16", RLX_OP_WHERE, 3, { T23(BOOL), T23(F16), V3(F16) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.select\"(%0, %1, %3) : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>)", "convert" },
    { "bitwise_and_i32", RLX_OP_BITWISE_AND, 2, { T23(I32), T23(I32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.and\"(%0, %1) : (tensor<2x3xi32>", NULL },
    { "bitwise_or_i8", RLX_OP_BITWISE_OR, 2, { T23(I8), T23(I8) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.or\"", NULL },
    { "bitwise_xor_i64", RLX_OP_BITWISE_XOR, 2, { T23(I64), T23(I64) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.xor\"", NULL },
    { "bitwise_not_u8", RLX_OP_BITWISE_NOT, 1, { T23(U8) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.not\"(%0) : (tensor<2x3xui8>)", NULL },
    /* clip, rounding and the other elementwise math */
    { "clip_relu6", RLX_OP_CLIP, 1, { T23(F32) }, 0, { 0 }, 2, { 0, 6 }, "dense<0x40C00000>", NULL },
    { "clip_i32", RLX_OP_CLIP, 1, { T23(I32) }, 0, { 0 }, 2, { -2.5, 4.5 }, "dense<4> : tensor<2x3xi32>", NULL },
    { "floor", RLX_OP_FLOOR, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.floor\"", NULL },
    { "ceil_bf16", RLX_OP_CEIL, 1, { T23(BF16) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.ceil\"", NULL },
    { "round", RLX_OP_ROUND, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.round_nearest_even\"", NULL },
    { "sign", RLX_OP_SIGN, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "dense<0xBF800000>", NULL },
    { "sign_u8", RLX_OP_SIGN, 1, { T23(U8) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.subtract\"", "stablehlo.sign" },
    { "reciprocal", RLX_OP_RECIPROCAL, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.divide\"", NULL },
    { "erf", RLX_OP_ERF, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "dense<0x3EA7BA05>", "chlo." },
    { "isnan", RLX_OP_ISNAN, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.compare\"(%0, %0)", NULL },
    { "isinf_positive", RLX_OP_ISINF, 1, { T23(F16) }, 2, { 1, 0 }, 0, { 0 }, "dense<0x7F800000>", "0xFF800000" },
    { "leaky_relu", RLX_OP_LEAKY_RELU, 1, { T23(F32) }, 0, { 0 }, 1, { 0.1 }, "dense<0x3DCCCCCD>", NULL },
    { "elu", RLX_OP_ELU, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.exponential_minus_one\"", NULL },
    { "selu", RLX_OP_SELU, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "dense<0x3FE10966>", NULL },
    { "softplus", RLX_OP_SOFTPLUS, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.log_plus_one\"", NULL },
    { "hard_sigmoid", RLX_OP_HARD_SIGMOID, 1, { T23(F32) }, 0, { 0 }, 2, { 0.25, 0.5 }, "dense<0x3E800000>", NULL },
    { "hard_swish_bf16", RLX_OP_HARD_SWISH, 1, { T23(BF16) }, 0, { 0 }, 0, { 0 }, "dense<0x3E2AAAAB>", NULL },
    { "mish", RLX_OP_MISH, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.tanh\"", NULL },
    { "prelu", RLX_OP_PRELU, 2, { T23(F32), V3(F32) }, 0, { 0 }, 0, { 0 }, "comparison_direction LT>", NULL },
    { "mod_i32", RLX_OP_MOD, 2, { T23(I32), T23(I32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.remainder\"", NULL },
    { "mod_fmod_f32", RLX_OP_MOD, 2, { T23(F32), V3(F32) }, 1, { 1 }, 0, { 0 }, "\"stablehlo.remainder\"", NULL },
    { "asin", RLX_OP_ASIN, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.atan2\"", "chlo." },
    { "acos", RLX_OP_ACOS, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.atan2\"", "chlo." },
    { "sinh", RLX_OP_SINH, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.exponential_minus_one\"", "chlo." },
    { "cosh", RLX_OP_COSH, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.exponential\"", "chlo." },
    { "asinh", RLX_OP_ASINH, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.log_plus_one\"", "chlo." },
    { "acosh", RLX_OP_ACOSH, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.log\"", "chlo." },
    { "atanh", RLX_OP_ATANH, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.log_plus_one\"", "chlo." },
    /* integer arithmetic */
    { "div_i32", RLX_OP_DIV, 2, { T23(I32), V3(I32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.divide\"", NULL },
    { "add_i8", RLX_OP_ADD, 2, { T23(I8), T23(I8) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.add\"(%0, %1) : (tensor<2x3xi8>", NULL },
    { "neg_i64", RLX_OP_NEG, 1, { T23(I64) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.negate\"(%0) : (tensor<2x3xi64>)", NULL },
    { "relu_i32", RLX_OP_RELU, 1, { T23(I32) }, 0, { 0 }, 0, { 0 }, "dense<0> : tensor<2x3xi32>", NULL },
    /* reductions, argmax, argmin */
    { "reduce_min", RLX_OP_REDUCE_MIN, 1, { T23(F32) }, 2, { 0, 1 }, 0, { 0 }, "dense<0x7F800000>", NULL },
    { "reduce_prod_i32", RLX_OP_REDUCE_PROD, 1, { T23(I32) }, 2, { 0, 0 }, 0, { 0 }, "\"stablehlo.multiply\"", NULL },
    { "reduce_l1", RLX_OP_REDUCE_L1, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.abs\"", NULL },
    { "reduce_l1_u8", RLX_OP_REDUCE_L1, 1, { T23(U8) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.add\"", "stablehlo.abs" },
    { "reduce_l2_f16", RLX_OP_REDUCE_L2, 1, { T23(F16) }, 2, { 1, 1 }, 0, { 0 }, "\"stablehlo.sqrt\"", NULL },
    { "reduce_log_sum_exp", RLX_OP_REDUCE_LOG_SUM_EXP, 1, { T23(F32) }, 2, { 1, 1 }, 0, { 0 }, "\"stablehlo.log\"", NULL },
    { "reduce_sum_square", RLX_OP_REDUCE_SUM_SQUARE, 1, { T23(F32) }, 2, { 0, -1 }, 0, { 0 }, "\"stablehlo.multiply\"(%0, %0)", NULL },
    { "reduce_max_u8", RLX_OP_REDUCE_MAX, 1, { T23(U8) }, 2, { 0, 1 }, 0, { 0 }, "dense<0> : tensor<ui8>", NULL },
    { "argmax", RLX_OP_ARGMAX, 1, { { F32, 2, { 3, 4 }, 0 } }, 2, { 1, 1 }, 0, { 0 }, "iota_dimension = 1", NULL },
    { "argmin_last_i32", RLX_OP_ARGMIN, 1, { { I32, 2, { 3, 4 }, 0 } }, 3, { 0, 0, 1 }, 0, { 0 }, "dense<-1> : tensor<i64>", NULL },
    /* convolution */
    { "conv2d_bias_stride_pad", RLX_OP_CONV, 3, { { F32, 4, { 1, 4, 8, 8 }, 0 }, { F32, 4, { 6, 4, 3, 3 }, 1 }, P(F32, 6) }, 9, { 1, 2, 2, 1, 1, 1, 1, 1, 1 }, 0, { 0 }, "window_strides = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64", NULL },
    { "conv2d_depthwise", RLX_OP_CONV, 2, { { F32, 4, { 1, 4, 8, 8 }, 0 }, { F32, 4, { 4, 1, 3, 3 }, 1 } }, 1, { 4 }, 0, { 0 }, "feature_group_count = 4 : i64", NULL },
    { "conv1d_dilation", RLX_OP_CONV, 2, { { F32, 3, { 2, 3, 10 }, 0 }, { F32, 3, { 5, 3, 3 }, 1 } }, 3, { 1, 1, 2 }, 0, { 0 }, "rhs_dilation = array<i64: 2>", NULL },
    { "conv2d_f16", RLX_OP_CONV, 2, { { F16, 4, { 1, 2, 5, 5 }, 0 }, { F16, 4, { 3, 2, 3, 3 }, 1 } }, 0, { 0 }, 0, { 0 }, "-> tensor<1x3x3x3xf16>", NULL },
    { "conv_transpose2d", RLX_OP_CONV_TRANSPOSE, 3, { { F32, 4, { 1, 4, 5, 5 }, 0 }, { F32, 4, { 4, 3, 3, 3 }, 1 }, P(F32, 3) }, 11, { 1, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1 }, 0, { 0 }, "lhs_dilation = array<i64: 2, 2>, window_strides = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 2], [1, 2]]>", NULL },
    { "conv_transpose1d_grouped", RLX_OP_CONV_TRANSPOSE, 2, { { F32, 3, { 1, 4, 5 }, 0 }, { F32, 3, { 4, 1, 3 }, 1 } }, 2, { 2, 2 }, 0, { 0 }, "permutation = array<i64: 0, 2, 1, 3>", NULL },
    /* pooling */
    { "max_pool2d", RLX_OP_MAX_POOL, 1, { { F32, 4, { 1, 2, 7, 7 }, 0 } }, 13, { 0, 0, 2, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1 }, 0, { 0 }, "window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>, window_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [1, 1], [1, 1]]>", NULL },
    { "max_pool_ceil", RLX_OP_MAX_POOL, 1, { { F32, 4, { 1, 1, 6, 6 }, 0 } }, 7, { 1, 0, 2, 3, 3, 2, 2 }, 0, { 0 }, "padding = dense<[[0, 0], [0, 0], [0, 1], [0, 1]]>", NULL },
    { "max_pool_i8", RLX_OP_MAX_POOL, 1, { { I8, 4, { 1, 1, 4, 4 }, 0 } }, 7, { 0, 0, 2, 2, 2, 2, 2 }, 0, { 0 }, "dense<-128> : tensor<i8>", NULL },
    { "avg_pool_include_pad", RLX_OP_AVG_POOL, 1, { { F32, 4, { 1, 2, 5, 5 }, 0 } }, 13, { 0, 1, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1 }, 0, { 0 }, "-> tensor<1x1x7x7xf32>", NULL },
    { "avg_pool_global", RLX_OP_AVG_POOL, 1, { { F32, 4, { 1, 3, 4, 4 }, 0 } }, 5, { 0, 0, 2, 4, 4 }, 0, { 0 }, "-> tensor<1x3x1x1xf32>", NULL },
    { "lp_pool_p3", RLX_OP_LP_POOL, 1, { { F32, 3, { 1, 2, 6 }, 0 } }, 5, { 0, 0, 3, 2, 2 }, 0, { 0 }, "dense<0x3EAAAAAB>", NULL },
    /* norms */
    { "batch_norm", RLX_OP_BATCH_NORM, 5, { { F32, 4, { 2, 3, 4, 4 }, 0 }, P(F32, 3), P(F32, 3), P(F32, 3), P(F32, 3) }, 0, { 0 }, 1, { 1e-5 }, "\"stablehlo.rsqrt\"", NULL },
    { "instance_norm", RLX_OP_INSTANCE_NORM, 3, { { F32, 3, { 2, 3, 5 }, 0 }, P(F32, 3), P(F32, 3) }, 0, { 0 }, 0, { 0 }, "-> tensor<2x3x5xf32>", NULL },
    { "group_norm_per_group_bf16", RLX_OP_GROUP_NORM, 3, { { BF16, 3, { 2, 4, 3 }, 0 }, P(BF16, 2), P(BF16, 2) }, 1, { 2 }, 0, { 0 }, "-> tensor<2x2x6xf32>", NULL },
    /* resize */
    { "resize_nearest_asymmetric", RLX_OP_RESIZE, 1, { { F32, 4, { 1, 1, 3, 3 }, 0 } }, 8, { 0, 4, 0, 0, 1, 1, 6, 6 }, 0, { 0 }, "dense<[0, 0, 1, 1, 2, 2]>", NULL },
    { "resize_nearest_u8", RLX_OP_RESIZE, 1, { { U8, 3, { 1, 1, 3 }, 0 } }, 7, { 0, 4, 1, 0, 1, 1, 6 }, 0, { 0 }, "dense<[0, 1, 1, 2, 2, 2]>", "stablehlo.multiply" },
    { "resize_linear_half_pixel", RLX_OP_RESIZE, 1, { { F32, 4, { 1, 2, 4, 4 }, 0 } }, 8, { 1, 0, 0, 0, 1, 2, 8, 8 }, 0, { 0 }, "dense<[2.500000000e-01, 7.500000000e-01", NULL },
    { "resize_cubic_align_corners", RLX_OP_RESIZE, 1, { { F32, 3, { 1, 1, 4 }, 0 } }, 7, { 2, 3, 0, 0, 1, 1, 7 }, 0, { 0 }, "\"stablehlo.select\"", NULL },
    { "resize_tf_crop_extrapolate", RLX_OP_RESIZE, 1, { { F32, 1, { 3 }, 0 } }, 5, { 1, 5, 0, 0, 3 }, 5, { -0.75, -7, 1, 0.5, 1.5 }, "dense<[false, false, true]>", NULL },
    /* data movement and indexing */
    { "pad_constant", RLX_OP_PAD, 1, { T23(F32) }, 5, { 0, 1, 0, 1, 2 }, 1, { 7 }, "edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 1, 2>", NULL },
    { "pad_reflect_wide", RLX_OP_PAD, 1, { { F32, 1, { 4 }, 0 } }, 3, { 1, 5, 0 }, 0, { 0 }, "dense<[1, 2, 3, 2, 1, 0, 1, 2, 3]>", NULL },
    { "pad_edge_crop", RLX_OP_PAD, 1, { { I32, 1, { 4 }, 0 } }, 3, { 2, -1, 2 }, 0, { 0 }, "dense<[1, 2, 3, 3, 3]>", NULL },
    { "pad_wrap_2d", RLX_OP_PAD, 1, { T23(U8) }, 5, { 3, 0, 2, 0, 1 }, 0, { 0 }, "dense<[1, 2, 0, 1, 2, 0]>", NULL },
    { "expand", RLX_OP_EXPAND, 1, { { F32, 2, { 3, 1 }, 0 } }, 3, { 2, 1, 4 }, 0, { 0 }, "broadcast_dimensions = array<i64: 1, 2>", NULL },
    { "tile", RLX_OP_TILE, 1, { T23(I64) }, 2, { 2, 1 }, 0, { 0 }, "-> tensor<2x2x3xi64>", NULL },
    { "strided_slice_reverse", RLX_OP_STRIDED_SLICE, 1, { { F32, 2, { 5, 4 }, 0 } }, 8, { 0, -1, INT64_MIN, -1, 1, 0, 4, 2 }, 0, { 0 }, "limit_indices = array<i64: 5, 3>, strides = array<i64: 1, 2>", NULL },
    { "gather_elements", RLX_OP_GATHER_ELEMENTS, 2, { { F32, 2, { 3, 4 }, 0 }, { I64, 2, { 3, 2 }, 0 } }, 1, { 1 }, 0, { 0 }, "collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2", NULL },
    { "gather_nd_batch", RLX_OP_GATHER_ND, 2, { { F32, 3, { 2, 3, 4 }, 0 }, { I32, 2, { 2, 1 }, 0 } }, 1, { 1 }, 0, { 0 }, "offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1", NULL },
    { "cumsum_exclusive_reverse", RLX_OP_CUMSUM, 1, { { F32, 2, { 3, 4 }, 0 } }, 3, { 1, 1, 1 }, 0, { 0 }, "edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 0, -1>", NULL },
    { "cumsum_i32", RLX_OP_CUMSUM, 1, { { I32, 1, { 5 }, 0 } }, 0, { 0 }, 0, { 0 }, "window_dimensions = array<i64: 5>, window_strides = array<i64: 1>, window_dilations = array<i64: 1>, padding = dense<[[4, 0]]>", NULL },
    { "range_f32", RLX_OP_RANGE, 0, { { 0 } }, 2, { F32, 5 }, 2, { 1.5, 0.5 }, "dense<0x3FC00000>", NULL },
    { "range_i64", RLX_OP_RANGE, 0, { { 0 } }, 4, { I64, 4, 10, -3 }, 0, { 0 }, "dense<[-3]>", NULL },
    { "one_hot", RLX_OP_ONE_HOT, 2, { { I64, 1, { 3 }, 0 }, { F32, 1, { 2 }, 0 } }, 2, { 5, -1 }, 0, { 0 }, "iota_dimension = 1", NULL },
    { "scatter_elements_last_wins", RLX_OP_SCATTER_ELEMENTS, 3, { { F32, 2, { 3, 4 }, 0 }, { I64, 2, { 2, 4 }, 0 }, { F32, 2, { 2, 4 }, 0 } }, 1, { 0 }, 0, { 0 }, "\"stablehlo.scatter\"(%20, %19, %22)", NULL },
    { "scatter_elements_add_f16", RLX_OP_SCATTER_ELEMENTS, 3, { { F16, 2, { 3, 4 }, 0 }, { I32, 2, { 3, 2 }, 0 }, { F16, 2, { 3, 2 }, 0 } }, 2, { 1, RLX_REDUCTION_ADD }, 0, { 0 }, "scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2>", NULL },
    { "scatter_nd_max", RLX_OP_SCATTER_ND, 3, { { F32, 3, { 4, 3, 2 }, 0 }, { I64, 2, { 2, 1 }, 0 }, { F32, 3, { 2, 3, 2 }, 0 } }, 1, { RLX_REDUCTION_MAX }, 0, { 0 }, "update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1", NULL },
    { "scatter_nd_last_wins_i32", RLX_OP_SCATTER_ND, 3, { { I32, 2, { 4, 3 }, 0 }, { I64, 2, { 3, 2 }, 0 }, { I32, 1, { 3 }, 0 } }, 0, { 0 }, 0, { 0 }, "dense<-1> : tensor<4x3xi64>", NULL },
    { "topk_largest", RLX_OP_TOPK, 1, { { F32, 2, { 3, 5 }, 0 } }, 2, { 2, -1 }, 0, { 0 }, "\"stablehlo.bitcast_convert\"", NULL },
    { "topk_smallest_i32_axis0", RLX_OP_TOPK, 1, { { I32, 2, { 4, 3 }, 0 } }, 3, { 3, 0, 0 }, 0, { 0 }, "dimension = 0 : i64, is_stable = false", "bitcast_convert" },
    /* the other widths: f64 computes in f64, unsigned types stay unsigned */
    { "add_u16", RLX_OP_ADD, 2, { T23(U16), V3(U16) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.add\"(%0, %2) : (tensor<2x3xui16>", NULL },
    { "less_u32", RLX_OP_LESS, 2, { T23(U32), T23(U32) }, 0, { 0 }, 0, { 0 }, "comparison_direction LT>} : (tensor<2x3xui32>", NULL },
    { "neg_i16", RLX_OP_NEG, 1, { T23(I16) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.negate\"(%0) : (tensor<2x3xi16>) -> tensor<2x3xi16>", NULL },
    { "abs_u64", RLX_OP_ABS, 1, { T23(U64) }, 0, { 0 }, 0, { 0 }, "\"func.return\"(%0)", "stablehlo.abs" },
    { "div_u64", RLX_OP_DIV, 2, { T23(U64), T23(U64) }, 0, { 0 }, 0, { 0 }, "dense<1> : tensor<2x3xui64>", NULL },
    { "clip_u64_saturated", RLX_OP_CLIP, 1, { T23(U64) }, 0, { 0 }, 2, { -5, 1e30 }, "dense<18446744073709551615> : tensor<2x3xui64>", NULL },
    { "clip_i16", RLX_OP_CLIP, 1, { T23(I16) }, 0, { 0 }, 2, { -1e9, 3 }, "dense<-32768> : tensor<2x3xi16>", NULL },
    { "reduce_mean_i16", RLX_OP_REDUCE_MEAN, 1, { T23(I16) }, 2, { 0, 1 }, 0, { 0 }, "(tensor<2xi64>) -> tensor<2xi16>", NULL },
    { "reduce_l2_u8_wraps", RLX_OP_REDUCE_L2, 1, { T23(U8) }, 0, { 0 }, 0, { 0 }, "(tensor<f64>) -> tensor<i64>", NULL },
    { "erf_f64", RLX_OP_ERF, 1, { T23(F64) }, 0, { 0 }, 0, { 0 }, "\"chlo.erf\"(%0) : (tensor<2x3xf64>)", NULL },
    { "exp_f64", RLX_OP_EXP, 1, { T23(F64) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.exponential\"(%0) : (tensor<2x3xf64>) -> tensor<2x3xf64>", "convert" },
    { "cast_u64_i64", RLX_OP_CAST, 1, { T23(U64) }, 1, { I64 }, 0, { 0 }, "dense<9223372036854775807> : tensor<2x3xui64>", NULL },
    { "cast_f32_u32", RLX_OP_CAST, 1, { T23(F32) }, 1, { U32 }, 0, { 0 }, "dense<4294967295> : tensor<2x3xui32>", NULL },
    { "cast_i32_u16", RLX_OP_CAST, 1, { T23(I32) }, 1, { U16 }, 0, { 0 }, "dense<65535> : tensor<2x3xi32>", NULL },
    { "topk_i64_rounds", RLX_OP_TOPK, 1, { { I64, 2, { 3, 5 }, 0 } }, 3, { 2, -1, 0 }, 0, { 0 }, "\"stablehlo.concatenate\"(%24, %45) {dimension = 1 : i64}", "stablehlo.sort" },
    { "topk_u32", RLX_OP_TOPK, 1, { { U32, 2, { 3, 5 }, 0 } }, 2, { 2, -1 }, 0, { 0 }, "dense<-2147483648> : tensor<3x5xi32>", NULL },
    { "pow_i8", RLX_OP_POW, 2, { T23(I8), V3(I8) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.shift_right_logical\"(%2, %", "stablehlo.power" },
    /* det: an unrolled elimination with partial pivoting, in f64 */
    { "det_3x3_f32", RLX_OP_DET, 1, { { F32, 3, { 2, 3, 3 }, 0 } }, 0, { 0 }, 0, { 0 }, "(tensor<2xf64>) -> tensor<2xf32>", NULL },
    { "det_2x2_f64", RLX_OP_DET, 1, { { F64, 2, { 2, 2 }, 0 } }, 0, { 0 }, 0, { 0 }, "\"stablehlo.negate\"", "convert" },
    /* max_pool_index: the window walked offset by offset */
    { "max_pool_index_pad", RLX_OP_MAX_POOL_INDEX, 1, { { F32, 4, { 1, 2, 5, 5 }, 0 } }, 13, { 0, 0, 0, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1 }, 0, { 0 }, "edge_padding_low = array<i64: 0, 0, 1, 1>, edge_padding_high = array<i64: 0, 0, 1, 1>", NULL },
    { "max_pool_index_col_major_f16", RLX_OP_MAX_POOL_INDEX, 1, { { F16, 3, { 1, 1, 6 }, 0 } }, 5, { 0, 0, 1, 3, 2 }, 0, { 0 }, "limit_indices = array<i64: 1, 1, 5>, strides = array<i64: 1, 1, 2>", NULL },
    /* grid_sample: one gather per combination of taps, in f64 */
    { "grid_sample_bilinear_zeros", RLX_OP_GRID_SAMPLE, 2, { { F32, 4, { 1, 2, 3, 4 }, 0 }, { F32, 4, { 1, 2, 2, 2 }, 0 } }, 3, { 0, 0, 0 }, 0, { 0 }, "offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>", NULL },
    { "grid_sample_nearest_border_f16", RLX_OP_GRID_SAMPLE, 2, { { F16, 3, { 1, 1, 5 }, 0 }, { F16, 3, { 1, 3, 1 }, 0 } }, 3, { 1, 1, 1 }, 0, { 0 }, "\"stablehlo.round_nearest_even\"", "stablehlo.remainder" },
    { "grid_sample_cubic_reflection", RLX_OP_GRID_SAMPLE, 2, { { F32, 4, { 1, 1, 4, 4 }, 0 }, { F32, 4, { 1, 2, 2, 2 }, 0 } }, 3, { 2, 2, 0 }, 0, { 0 }, "dense<0xC00E000000000000>", NULL },
    /* roi_align: a static window of samples, four corner gathers */
    { "roi_align_avg_adaptive", RLX_OP_ROI_ALIGN, 3, { { F32, 4, { 1, 2, 4, 4 }, 0 }, { F32, 2, { 2, 4 }, 0 }, { I64, 1, { 2 }, 0 } }, 5, { 0, 2, 2, 0, 1 }, 1, { 1.0 }, "\"stablehlo.is_finite\"", NULL },
    { "roi_align_max_sr2_f16", RLX_OP_ROI_ALIGN, 3, { { F16, 4, { 2, 1, 3, 3 }, 0 }, { F16, 2, { 1, 4 }, 0 }, { I32, 1, { 1 }, 0 } }, 5, { 1, 1, 1, 2, 0 }, 1, { 0.5 }, "index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>", "is_finite" },
    /* non_zero: a static [rank, n], columns by a prefix count */
    { "non_zero_2d", RLX_OP_NON_ZERO, 1, { T23(F32) }, 0, { 0 }, 0, { 0 }, "update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>", NULL },
    { "non_zero_cols_u8", RLX_OP_NON_ZERO, 1, { V3(U8) }, 1, { 2 }, 0, { 0 }, "dense<2> : tensor<i64>", NULL },
    /* bit_shift (unsigned) */
    { "bit_shift_left_u8", RLX_OP_BIT_SHIFT, 2, { T23(U8), T23(U8) }, 0, { 0 }, 0, { 0 }, "\"stablehlo.shift_left\"(%0, %1) : (tensor<2x3xui8>", NULL },
    { "bit_shift_right_u32", RLX_OP_BIT_SHIFT, 2, { T23(U32), V3(U32) }, 1, { 1 }, 0, { 0 }, "\"stablehlo.shift_right_logical\"(%0, %2) : (tensor<2x3xui32>", "shift_left" },
    /* quantization */
    { "quantize_u8", RLX_OP_QUANTIZE_LINEAR, 3, { T23(F32), S0(F32), S0(U8) }, 0, { 0 }, 0, { 0 }, "dense<0x437F0000>", NULL },
    { "quantize_i8_per_axis_f16", RLX_OP_QUANTIZE_LINEAR, 3, { T23(F16), V3(F16), V3(I8) }, 1, { 1 }, 0, { 0 }, "broadcast_dimensions = array<i64: 1>} : (tensor<3xi8>) -> tensor<2x3xi8>", NULL },
    { "quantize_blocked", RLX_OP_QUANTIZE_LINEAR, 3, { { F32, 2, { 2, 6 }, 0 }, { F32, 2, { 2, 2 }, 0 }, { U8, 2, { 2, 2 }, 0 } }, 2, { 1, 4 }, 0, { 0 }, "limit_indices = array<i64: 2, 6>", NULL },
    { "dequantize_i32_bf16", RLX_OP_DEQUANTIZE_LINEAR, 3, { T23(I32), V3(BF16), V3(I32) }, 1, { -1 }, 0, { 0 }, "(tensor<2x3xf32>) -> tensor<2x3xbf16>", NULL },
    { "matmul_integer_u8_per_row", RLX_OP_MATMUL_INTEGER, 4, { T23(U8), { U8, 2, { 3, 4 }, 0 }, { U8, 1, { 2 }, 0 }, S0(U8) }, 0, { 0 }, 0, { 0 }, "(tensor<2x4xf64>) -> tensor<2x4xi64>", NULL },
    { "conv_integer_i8", RLX_OP_CONV_INTEGER, 4, { { I8, 4, { 1, 2, 5, 5 }, 0 }, { I8, 4, { 3, 2, 3, 3 }, 1 }, S0(I8), V3(I8) }, 9, { 1, 1, 1, 1, 1, 1, 1, 1, 1 }, 0, { 0 }, "padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x2x5x5xf64>", NULL },
    { "trilu_lower", RLX_OP_TRILU, 1, { { F32, 2, { 3, 4 }, 0 } }, 2, { 0, 1 }, 0, { 0 }, "comparison_direction LE>", NULL },
};

static rlx_graph *build(const case14 *c)
{
    rlx_graph *g = NULL;
    if (rlx_graph_create(&g) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    rlx_value in[5];
    for (int i = 0; i < c->n_in; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        const in_spec *s = &c->in[i];
        rlx_status st = (s->param ? rlx_graph_param : rlx_graph_input)(
            g, name, s->dt, s->rank, s->shape, &in[i]);
        if (st != RLX_OK)
            FAIL("%s: input %d: %s", c->name, i, rlx_last_error());
    }
    rlx_attrs attrs = { c->n_ints, c->ints, c->n_floats, c->floats };
    rlx_value y;
    if (rlx_graph_add_node(g, "y", c->op, (uint32_t)c->n_in, in, &attrs,
                           &y) != RLX_OK)
        FAIL("%s: node: %s", c->name, rlx_last_error());
    if (rlx_graph_output(g, "y", y) != RLX_OK)
        FAIL("%s: output: %s", c->name, rlx_last_error());
    return g;
}

TEST(golden_stablehlo_for_the_1_4_ops)
{
    rlx_runtime *rt = runtime_with(fake);
    int failures = 0;
    char first[1024] = "";
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const case14 *c = &cases[i];
        rlx_graph *g = build(c);
        char why[1024] = "";
        int rc = golden(rt, c->name, g, why, sizeof why);
        if (rc == 0) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s.mlir", golden_dir, c->name);
            char *text = read_file(path);
            if (!text || !strstr(text, c->must))
                snprintf(why, sizeof why, "%s: the module lacks '%s'",
                         c->name, c->must), rc = -1;
            else if (c->never && strstr(text, c->never))
                snprintf(why, sizeof why, "%s: the module has '%s'",
                         c->name, c->never), rc = -1;
            free(text);
        }
        if (rc) {
            if (!failures++)
                snprintf(first, sizeof first, "%s", why);
            fprintf(stderr, "# %s\n", why);
        }
        rlx_graph_destroy(g);
    }
    rlx_runtime_destroy(rt);
    if (failures)
        FAIL("%d of %zu cases failed; first: %s", failures,
             sizeof cases / sizeof *cases, first);
}

/* ---- the numbers: each case on cpu-ref and through the bridge ---------- */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Inputs: floats in [-2.5, 2.5] (eighths), integers in [0, 2] (valid
 * indices, batch numbers and shift amounts for most cases), bools. */
static void fill(rlx_dtype dt, void *data, size_t count, uint64_t *s)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t r = rng_next(s);
        double f = (double)(int)(r % 41) / 8.0 - 2.5;
        int64_t k = (int64_t)(r % 3);
        switch (dt) {
        case RLX_DTYPE_F32: ((float *)data)[i] = (float)f; break;
        case RLX_DTYPE_F64: ((double *)data)[i] = f; break;
        case RLX_DTYPE_F16: { /* eighths up to 2.5 are exact in f16 */
            float x = (float)f;
            uint32_t b;
            memcpy(&b, &x, 4);
            uint16_t h = (uint16_t)(((b >> 16) & 0x8000) |
                                    (x == 0 ? 0 : (((b >> 23) & 0xFF) - 112)
                                                      << 10 |
                                               ((b >> 13) & 0x3FF)));
            ((uint16_t *)data)[i] = h;
            break;
        }
        case RLX_DTYPE_BF16: {
            float x = (float)f;
            uint32_t b;
            memcpy(&b, &x, 4);
            ((uint16_t *)data)[i] = (uint16_t)(b >> 16);
            break;
        }
        case RLX_DTYPE_BOOL: ((uint8_t *)data)[i] = (uint8_t)(r & 1); break;
        default: { /* integers: little-endian k at the dtype's width */
            size_t es = rlx_dtype_size(dt);
            memset((char *)data + i * es, 0, es);
            ((uint8_t *)data)[i * es] = (uint8_t)k;
        }
        }
    }
}

static double value_at(rlx_dtype dt, const void *p, size_t i)
{
    switch (dt) {
    case RLX_DTYPE_F32: return ((const float *)p)[i];
    case RLX_DTYPE_F64: return ((const double *)p)[i];
    case RLX_DTYPE_F16: case RLX_DTYPE_BF16: {
        uint16_t h = ((const uint16_t *)p)[i];
        if (dt == RLX_DTYPE_BF16) {
            uint32_t b = (uint32_t)h << 16;
            float x;
            memcpy(&x, &b, 4);
            return x;
        }
        int ex = (h >> 10) & 31, man = h & 1023;
        double v = ex == 31 ? (man ? NAN : INFINITY)
                 : ex ? ldexp(1024 + man, ex - 25) : ldexp(man, -24);
        return h & 0x8000 ? -v : v;
    }
    default: return NAN; /* integers compare as bytes */
    }
}

/* Y (the bridge) against WANT (cpu-ref): floats within TOL, NaN as NaN;
 * everything else byte for byte. */
static int same(rlx_dtype dt, const void *y, const void *want, size_t bytes,
                char *why, size_t why_size)
{
    int fl = dt == RLX_DTYPE_F32 || dt == RLX_DTYPE_F64 ||
             dt == RLX_DTYPE_F16 || dt == RLX_DTYPE_BF16;
    if (!fl) {
        if (memcmp(y, want, bytes) == 0)
            return 1;
        snprintf(why, why_size, "integer result differs");
        return 0;
    }
    double tol = dt == RLX_DTYPE_F64 ? 1e-9 : dt == RLX_DTYPE_F32 ? 1e-4
                                                                 : 2e-2;
    for (size_t i = 0; i < bytes / rlx_dtype_size(dt); i++) {
        double a = value_at(dt, y, i), b = value_at(dt, want, i);
        if ((isnan(a) && isnan(b)) || a == b ||
            fabs(a - b) <= tol * (1 + fabs(b)))
            continue;
        snprintf(why, why_size, "element %zu is %.9g, cpu-ref %.9g", i, a,
                 b);
        return 0;
    }
    return 1;
}

/* Compile C's graph in a session of BACKEND on RT and run it on the
 * inputs IN; the status, and the output in OUT (malloc'd). */
static rlx_status run_case(rlx_runtime *rt, const char *backend,
                           const case14 *c, void *const *in,
                           const size_t *bytes, void **out, size_t *n,
                           rlx_dtype *dt)
{
    *out = NULL;
    *n = 0;
    rlx_graph *g = build(c);
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_status st = rlx_session_create(rt, backend, &s);
    if (st == RLX_OK)
        st = rlx_session_compile(s, g, &p);
    for (int i = 0; st == RLX_OK && i < c->n_in; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        st = (c->in[i].param ? rlx_program_set_param : rlx_program_set_input)(
            p, name, in[i], bytes[i]);
    }
    if (st == RLX_OK)
        st = rlx_program_run(p);
    if (st == RLX_OK)
        st = rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, NULL, dt, NULL, NULL);
    if (st == RLX_OK) {
        const void *o = rlx_program_output_data(p, 0, n);
        *out = malloc(*n ? *n : 1);
        if (o && *out)
            memcpy(*out, o, *n);
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return st;
}

TEST(numbers_of_every_case_match_cpu_ref)
{
    if (!fake_numpy || !getenv("RLX_FAKE_PJRT_PYTHON"))
        FAIL("the numpy fake plugin or a python3 with NumPy is missing. "
             "Fix: apt-get install python3-numpy and reconfigure");
    rlx_runtime *rt = runtime_with(fake_numpy);
    int failures = 0, compared = 0;
    char first[512] = "";
    for (size_t ci = 0; ci < sizeof cases / sizeof *cases; ci++) {
        const case14 *c = &cases[ci];
        uint64_t seed = 0x9E3779B97F4A7C15ull ^ (ci * 0x100000001B3ull);
        void *in[5] = { NULL };
        size_t bytes[5] = { 0 };
        for (int i = 0; i < c->n_in; i++) {
            size_t count = 1;
            for (uint32_t d = 0; d < c->in[i].rank; d++)
                count *= (size_t)c->in[i].shape[d];
            bytes[i] = count * rlx_dtype_size(c->in[i].dt);
            in[i] = malloc(bytes[i] ? bytes[i] : 1);
            ASSERT(in[i] != NULL);
            fill(c->in[i].dt, in[i], count, &seed);
        }
        void *want = NULL, *got = NULL;
        size_t nw = 0, ng = 0;
        rlx_dtype dt = RLX_DTYPE_INVALID, dg = RLX_DTYPE_INVALID;
        rlx_status sw = run_case(rt, "cpu-ref", c, in, bytes, &want, &nw,
                                 &dt);
        char werr[512];
        snprintf(werr, sizeof werr, "%s", rlx_last_error());
        rlx_status sg = run_case(rt, "pjrt", c, in, bytes, &got, &ng, &dg);
        char why[600] = "";
        if ((sw == RLX_OK) != (sg == RLX_OK)) {
            snprintf(why, sizeof why, "cpu-ref %s, the bridge %s",
                     sw == RLX_OK ? "ran" : werr,
                     sg == RLX_OK ? "ran" : rlx_last_error());
        } else if (sw == RLX_OK) {
            compared++;
            if (nw != ng || dt != dg)
                snprintf(why, sizeof why, "%zu bytes of %s, cpu-ref %zu of "
                         "%s", ng, rlx_dtype_name(dg), nw, rlx_dtype_name(dt));
            else
                same(dt, got, want, nw, why, sizeof why);
        }
        if (why[0]) {
            if (!failures++)
                snprintf(first, sizeof first, "%s: %s", c->name, why);
            fprintf(stderr, "# %s: %s\n", c->name, why);
        }
        free(want);
        free(got);
        for (int i = 0; i < c->n_in; i++)
            free(in[i]);
    }
    rlx_runtime_destroy(rt);
    if (failures)
        FAIL("%d of %zu cases differ from cpu-ref; first: %s", failures,
             sizeof cases / sizeof *cases, first);
    /* most cases run on valid inputs: not all comparisons can be
     * "both failed" */
    ASSERT(compared * 2 > (int)(sizeof cases / sizeof *cases));
}

/* The 1.4 ops the bridge has no lowering for: placement must move them.
 * None now; an op added to the table later lands here or gets a case
 * (RLX_OP_INVALID, outside the range walked, keeps the array legal). */
static const rlx_op declined[] = {
    RLX_OP_INVALID,
};

TEST(every_declared_1_4_op_has_a_case_and_the_rest_are_declined)
{
    rlx_runtime *rt = runtime_with(fake);
    const rlx_backend *b = rlx_runtime_find_backend(rt, "pjrt");
    ASSERT(b != NULL);
    static const rlx_dtype dts[] = { F32, F16, BF16, I8, U8, I32, I64, BOOL,
                                     F64, I16, U16, U32, U64 };
    for (int op = 80; op < 256; op++) {
        rlx_op known;
        const char *name = rlx_op_name((rlx_op)op);
        if (!name || rlx_op_from_name(name, &known) != RLX_OK ||
            known != (rlx_op)op)
            continue;
        int declared = 0;
        for (size_t d = 0; d < sizeof dts / sizeof *dts; d++)
            declared |= rlx_backend_supports_op(b, (rlx_op)op, dts[d]);
        int has_case = 0;
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
            has_case |= cases[i].op == (rlx_op)op;
        int is_declined = 0;
        for (size_t i = 0; i < sizeof declined / sizeof *declined; i++)
            is_declined |= declined[i] == (rlx_op)op;
        if (declared && !has_case)
            FAIL("op %s is declared but has no golden case",
                 rlx_op_name((rlx_op)op));
        if (is_declined && declared)
            FAIL("op %s has no lowering but is declared",
                 rlx_op_name((rlx_op)op));
        if (!is_declined && !declared)
            FAIL("op %s is neither lowered nor listed as declined",
                 rlx_op_name((rlx_op)op));
    }
    /* dtypes: f64 for elementwise math and reductions, every integer
     * width; f64 convolutions, matmuls and norms stay elsewhere */
    ASSERT(!rlx_backend_supports_op(b, RLX_OP_CONV, RLX_DTYPE_F64));
    ASSERT(rlx_backend_supports_op(b, RLX_OP_ERF, RLX_DTYPE_F64));
    ASSERT(rlx_backend_supports_op(b, RLX_OP_ADD, RLX_DTYPE_U16));
    ASSERT(rlx_backend_supports_op(b, RLX_OP_ADD, RLX_DTYPE_I32));
    ASSERT(rlx_backend_supports_op(b, RLX_OP_ABS, RLX_DTYPE_U8));
    ASSERT(rlx_backend_supports_op(b, RLX_OP_REDUCE_MEAN, RLX_DTYPE_U64));
    ASSERT(!rlx_backend_supports_op(b, RLX_OP_BIT_SHIFT, RLX_DTYPE_I32));
    ASSERT(rlx_backend_supports_op(b, RLX_OP_BIT_SHIFT, RLX_DTYPE_U64));
    ASSERT(rlx_backend_supports_op(b, RLX_OP_MAX_POOL, RLX_DTYPE_I8));
    ASSERT(!rlx_backend_supports_op(b, RLX_OP_AVG_POOL, RLX_DTYPE_I8));
    rlx_runtime_destroy(rt);
}

static const rlx_test_case cases_list[] = {
    TEST_ENTRY(golden_stablehlo_for_the_1_4_ops),
    TEST_ENTRY(every_declared_1_4_op_has_a_case_and_the_rest_are_declined),
    TEST_ENTRY(numbers_of_every_case_match_cpu_ref),
};

int main(int argc, char **argv)
{
    return pjrt_test_main(cases_list, sizeof cases_list / sizeof *cases_list,
                          argc, argv);
}
