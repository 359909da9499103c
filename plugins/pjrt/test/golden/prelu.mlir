module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>, %1: tensor<3xf32>) -> (tensor<2x3xf32>) {
    %2 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %4 = "stablehlo.compare"(%0, %3) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %5 = "stablehlo.multiply"(%2, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.select"(%4, %5, %0) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%6) : (tensor<2x3xf32>) -> ()
  }
}
