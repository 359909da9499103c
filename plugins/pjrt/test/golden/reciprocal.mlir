module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.divide"(%1, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%2) : (tensor<2x3xf32>) -> ()
  }
}
