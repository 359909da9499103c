module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi32>) -> (tensor<2x3xui16>) {
    %1 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
    %2 = "stablehlo.maximum"(%0, %1) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %3 = "stablehlo.constant"() {value = dense<65535> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
    %4 = "stablehlo.minimum"(%2, %3) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
    %5 = "stablehlo.convert"(%4) : (tensor<2x3xi32>) -> tensor<2x3xui16>
    "func.return"(%5) : (tensor<2x3xui16>) -> ()
  }
}
