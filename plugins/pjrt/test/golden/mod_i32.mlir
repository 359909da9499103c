module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi32>, %1: tensor<2x3xi32>) -> (tensor<2x3xi32>) {
    %2 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
    %3 = "stablehlo.compare"(%1, %2) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %4 = "stablehlo.constant"() {value = dense<1> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
    %5 = "stablehlo.select"(%3, %4, %1) : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %6 = "stablehlo.remainder"(%0, %5) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %7 = "stablehlo.compare"(%6, %2) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %8 = "stablehlo.compare"(%5, %2) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %9 = "stablehlo.xor"(%7, %8) : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    %10 = "stablehlo.compare"(%6, %2) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %11 = "stablehlo.and"(%9, %10) : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    %12 = "stablehlo.add"(%6, %5) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %13 = "stablehlo.select"(%11, %12, %6) : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %14 = "stablehlo.select"(%3, %2, %13) : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    "func.return"(%14) : (tensor<2x3xi32>) -> ()
  }
}
