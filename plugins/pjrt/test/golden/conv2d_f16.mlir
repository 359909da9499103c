module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x5x5xf16>, %1: tensor<3x2x3x3xf16>) -> (tensor<1x3x3x3xf16>) {
    %2 = "stablehlo.convert"(%0) : (tensor<1x2x5x5xf16>) -> tensor<1x2x5x5xf32>
    %3 = "stablehlo.convert"(%1) : (tensor<3x2x3x3xf16>) -> tensor<3x2x3x3xf32>
    %4 = "stablehlo.convolution"(%2, %3) {lhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
    %5 = "stablehlo.convert"(%4) : (tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf16>
    "func.return"(%5) : (tensor<1x3x3x3xf16>) -> ()
  }
}
