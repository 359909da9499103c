module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x4x5x5xf32>, %1: tensor<4x3x3x3xf32>, %2: tensor<3xf32>) -> (tensor<1x3x10x10xf32>) {
    %3 = "stablehlo.reverse"(%1) {dimensions = array<i64: 2, 3>} : (tensor<4x3x3x3xf32>) -> tensor<4x3x3x3xf32>
    %4 = "stablehlo.convolution"(%0, %3) {lhs_dilation = array<i64: 2, 2>, window_strides = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 2], [1, 2]]> : tensor<2x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[i, o, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x4x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x3x10x10xf32>
    %5 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<1x3x10x10xf32>
    %6 = "stablehlo.add"(%4, %5) : (tensor<1x3x10x10xf32>, tensor<1x3x10x10xf32>) -> tensor<1x3x10x10xf32>
    "func.return"(%6) : (tensor<1x3x10x10xf32>) -> ()
  }
}
