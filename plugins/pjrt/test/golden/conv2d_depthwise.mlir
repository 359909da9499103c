module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x4x8x8xf32>, %1: tensor<4x1x3x3xf32>) -> (tensor<1x4x6x6xf32>) {
    %2 = "stablehlo.convolution"(%0, %1) {lhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 4 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
    "func.return"(%2) : (tensor<1x4x6x6xf32>) -> ()
  }
}
