module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3xbf16>, %1: tensor<3x4xbf16>) -> (tensor<4xbf16>) {
    %2 = "stablehlo.convert"(%0) : (tensor<3xbf16>) -> tensor<3xf32>
    %3 = "stablehlo.convert"(%1) : (tensor<3x4xbf16>) -> tensor<3x4xf32>
    %4 = "stablehlo.reshape"(%2) : (tensor<3xf32>) -> tensor<1x3xf32>
    %5 = "stablehlo.dot_general"(%4, %3) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<1x3xf32>, tensor<3x4xf32>) -> tensor<1x4xf32>
    %6 = "stablehlo.reshape"(%5) : (tensor<1x4xf32>) -> tensor<4xf32>
    %7 = "stablehlo.convert"(%6) : (tensor<4xf32>) -> tensor<4xbf16>
    "func.return"(%7) : (tensor<4xbf16>) -> ()
  }
}
