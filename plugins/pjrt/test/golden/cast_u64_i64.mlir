module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui64>) -> (tensor<2x3xi64>) {
    %1 = "stablehlo.constant"() {value = dense<9223372036854775807> : tensor<2x3xui64>} : () -> tensor<2x3xui64>
    %2 = "stablehlo.minimum"(%0, %1) : (tensor<2x3xui64>, tensor<2x3xui64>) -> tensor<2x3xui64>
    %3 = "stablehlo.convert"(%2) : (tensor<2x3xui64>) -> tensor<2x3xi64>
    "func.return"(%3) : (tensor<2x3xi64>) -> ()
  }
}
