module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui64>) -> (tensor<2x3xui64>) {
    %1 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xui64>} : () -> tensor<2x3xui64>
    %2 = "stablehlo.maximum"(%0, %1) : (tensor<2x3xui64>, tensor<2x3xui64>) -> tensor<2x3xui64>
    %3 = "stablehlo.constant"() {value = dense<18446744073709551615> : tensor<2x3xui64>} : () -> tensor<2x3xui64>
    %4 = "stablehlo.minimum"(%2, %3) : (tensor<2x3xui64>, tensor<2x3xui64>) -> tensor<2x3xui64>
    "func.return"(%4) : (tensor<2x3xui64>) -> ()
  }
}
