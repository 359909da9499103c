module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.exponential_minus_one"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.multiply"(%2, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %5 = "stablehlo.compare"(%0, %4) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %6 = "stablehlo.select"(%5, %3, %0) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%6) : (tensor<2x3xf32>) -> ()
  }
}
