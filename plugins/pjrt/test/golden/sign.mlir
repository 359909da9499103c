module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %3 = "stablehlo.select"(%2, %1, %0) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.constant"() {value = dense<0xBF800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %5 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %6 = "stablehlo.select"(%5, %4, %3) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %8 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %9 = "stablehlo.select"(%8, %7, %6) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%9) : (tensor<2x3xf32>) -> ()
  }
}
