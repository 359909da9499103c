module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x4x8x8xf32>, %1: tensor<6x4x3x3xf32>, %2: tensor<6xf32>) -> (tensor<1x6x4x4xf32>) {
    %3 = "stablehlo.convolution"(%0, %1) {lhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 2, 2>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x4x4xf32>
    %4 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<6xf32>) -> tensor<1x6x4x4xf32>
    %5 = "stablehlo.add"(%3, %4) : (tensor<1x6x4x4xf32>, tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
    "func.return"(%5) : (tensor<1x6x4x4xf32>) -> ()
  }
}
