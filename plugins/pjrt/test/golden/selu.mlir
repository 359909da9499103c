module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x3FE10966> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.exponential_minus_one"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.multiply"(%2, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.constant"() {value = dense<0x3F867D5F> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %5 = "stablehlo.multiply"(%0, %4) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %7 = "stablehlo.compare"(%0, %6) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %8 = "stablehlo.select"(%7, %5, %3) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%8) : (tensor<2x3xf32>) -> ()
  }
}
