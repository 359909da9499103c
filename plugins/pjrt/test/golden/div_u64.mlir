module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui64>, %1: tensor<2x3xui64>) -> (tensor<2x3xui64>) {
    %2 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xui64>} : () -> tensor<2x3xui64>
    %3 = "stablehlo.compare"(%1, %2) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xui64>, tensor<2x3xui64>) -> tensor<2x3xi1>
    %4 = "stablehlo.constant"() {value = dense<1> : tensor<2x3xui64>} : () -> tensor<2x3xui64>
    %5 = "stablehlo.select"(%3, %4, %1) : (tensor<2x3xi1>, tensor<2x3xui64>, tensor<2x3xui64>) -> tensor<2x3xui64>
    %6 = "stablehlo.divide"(%0, %5) : (tensor<2x3xui64>, tensor<2x3xui64>) -> tensor<2x3xui64>
    %7 = "stablehlo.select"(%3, %2, %6) : (tensor<2x3xi1>, tensor<2x3xui64>, tensor<2x3xui64>) -> tensor<2x3xui64>
    "func.return"(%7) : (tensor<2x3xui64>) -> ()
  }
}
