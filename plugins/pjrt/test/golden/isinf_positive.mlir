module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf16>) -> (tensor<2x3xi1>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xf16>) -> tensor<2x3xf32>
    %2 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %3 = "stablehlo.compare"(%1, %2) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    "func.return"(%3) : (tensor<2x3xi1>) -> ()
  }
}
