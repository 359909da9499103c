module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>, %1: tensor<3x4xf32>) -> (tensor<2x4xf32>) {
    %2 = "stablehlo.dot_general"(%0, %1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    "func.return"(%2) : (tensor<2x4xf32>) -> ()
  }
}
