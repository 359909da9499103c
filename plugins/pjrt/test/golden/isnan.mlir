module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xi1>) {
    %1 = "stablehlo.compare"(%0, %0) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    "func.return"(%1) : (tensor<2x3xi1>) -> ()
  }
}
