module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x4x5xf32>, %1: tensor<4x1x3xf32>) -> (tensor<1x2x11xf32>) {
    %2 = "stablehlo.reverse"(%1) {dimensions = array<i64: 2>} : (tensor<4x1x3xf32>) -> tensor<4x1x3xf32>
    %3 = "stablehlo.reshape"(%2) : (tensor<4x1x3xf32>) -> tensor<2x2x1x3xf32>
    %4 = "stablehlo.transpose"(%3) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x2x1x3xf32>) -> tensor<2x1x2x3xf32>
    %5 = "stablehlo.reshape"(%4) : (tensor<2x1x2x3xf32>) -> tensor<2x2x3xf32>
    %6 = "stablehlo.convolution"(%0, %5) {lhs_dilation = array<i64: 2>, window_strides = array<i64: 1>, rhs_dilation = array<i64: 1>, padding = dense<[[2, 2]]> : tensor<1x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>, feature_group_count = 2 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x4x5xf32>, tensor<2x2x3xf32>) -> tensor<1x2x11xf32>
    "func.return"(%6) : (tensor<1x2x11xf32>) -> ()
  }
}
