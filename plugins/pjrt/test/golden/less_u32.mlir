module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui32>, %1: tensor<2x3xui32>) -> (tensor<2x3xi1>) {
    %2 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xui32>, tensor<2x3xui32>) -> tensor<2x3xi1>
    "func.return"(%2) : (tensor<2x3xi1>) -> ()
  }
}
