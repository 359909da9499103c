module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x5x5xi8>, %1: tensor<i8>, %2: tensor<3xi8>, %3: tensor<3x2x3x3xi8>) -> (tensor<1x3x5x5xi32>) {
    %4 = "stablehlo.convert"(%0) : (tensor<1x2x5x5xi8>) -> tensor<1x2x5x5xf64>
    %5 = "stablehlo.convert"(%1) : (tensor<i8>) -> tensor<f64>
    %6 = "stablehlo.broadcast_in_dim"(%5) {broadcast_dimensions = array<i64>} : (tensor<f64>) -> tensor<1x2x5x5xf64>
    %7 = "stablehlo.subtract"(%4, %6) : (tensor<1x2x5x5xf64>, tensor<1x2x5x5xf64>) -> tensor<1x2x5x5xf64>
    %8 = "stablehlo.convert"(%3) : (tensor<3x2x3x3xi8>) -> tensor<3x2x3x3xf64>
    %9 = "stablehlo.convert"(%2) : (tensor<3xi8>) -> tensor<3xf64>
    %10 = "stablehlo.broadcast_in_dim"(%9) {broadcast_dimensions = array<i64: 0>} : (tensor<3xf64>) -> tensor<3x2x3x3xf64>
    %11 = "stablehlo.subtract"(%8, %10) : (tensor<3x2x3x3xf64>, tensor<3x2x3x3xf64>) -> tensor<3x2x3x3xf64>
    %12 = "stablehlo.convolution"(%7, %11) {lhs_dilation = array<i64: 1, 1>, window_strides = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, dimension_numbers = #stablehlo.conv<[b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x2x5x5xf64>, tensor<3x2x3x3xf64>) -> tensor<1x3x5x5xf64>
    %13 = "stablehlo.convert"(%12) : (tensor<1x3x5x5xf64>) -> tensor<1x3x5x5xi64>
    %14 = "stablehlo.convert"(%13) : (tensor<1x3x5x5xi64>) -> tensor<1x3x5x5xi32>
    "func.return"(%14) : (tensor<1x3x5x5xi32>) -> ()
  }
}
