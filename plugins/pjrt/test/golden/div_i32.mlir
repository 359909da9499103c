module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi32>, %1: tensor<3xi32>) -> (tensor<2x3xi32>) {
    %2 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>) -> tensor<2x3xi32>
    %3 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
    %4 = "stablehlo.compare"(%2, %3) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %5 = "stablehlo.constant"() {value = dense<1> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
    %6 = "stablehlo.select"(%4, %5, %2) : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %7 = "stablehlo.divide"(%0, %6) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %8 = "stablehlo.select"(%4, %3, %7) : (tensor<2x3xi1>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    "func.return"(%8) : (tensor<2x3xi32>) -> ()
  }
}
