module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3x10xf32>, %1: tensor<5x3x3xf32>) -> (tensor<2x5x6xf32>) {
    %2 = "stablehlo.convolution"(%0, %1) {lhs_dilation = array<i64: 1>, window_strides = array<i64: 1>, rhs_dilation = array<i64: 2>, padding = dense<[[0, 0]]> : tensor<1x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x3x10xf32>, tensor<5x3x3xf32>) -> tensor<2x5x6xf32>
    "func.return"(%2) : (tensor<2x5x6xf32>) -> ()
  }
}
