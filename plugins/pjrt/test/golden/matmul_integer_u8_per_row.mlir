module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui8>, %1: tensor<3x4xui8>, %2: tensor<2xui8>, %3: tensor<ui8>) -> (tensor<2x4xi32>) {
    %4 = "stablehlo.convert"(%0) : (tensor<2x3xui8>) -> tensor<2x3xf64>
    %5 = "stablehlo.convert"(%2) : (tensor<2xui8>) -> tensor<2xf64>
    %6 = "stablehlo.broadcast_in_dim"(%5) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x3xf64>
    %7 = "stablehlo.subtract"(%4, %6) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %8 = "stablehlo.convert"(%1) : (tensor<3x4xui8>) -> tensor<3x4xf64>
    %9 = "stablehlo.convert"(%3) : (tensor<ui8>) -> tensor<f64>
    %10 = "stablehlo.broadcast_in_dim"(%9) {broadcast_dimensions = array<i64>} : (tensor<f64>) -> tensor<3x4xf64>
    %11 = "stablehlo.subtract"(%8, %10) : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
    %12 = "stablehlo.dot_general"(%7, %11) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x3xf64>, tensor<3x4xf64>) -> tensor<2x4xf64>
    %13 = "stablehlo.convert"(%12) : (tensor<2x4xf64>) -> tensor<2x4xi64>
    %14 = "stablehlo.convert"(%13) : (tensor<2x4xi64>) -> tensor<2x4xi32>
    "func.return"(%14) : (tensor<2x4xi32>) -> ()
  }
}
