module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi64>) -> (tensor<2x3xui8>) {
    %1 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xi64>} : () -> tensor<2x3xi64>
    %2 = "stablehlo.maximum"(%0, %1) : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
    %3 = "stablehlo.constant"() {value = dense<255> : tensor<2x3xi64>} : () -> tensor<2x3xi64>
    %4 = "stablehlo.minimum"(%2, %3) : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
    %5 = "stablehlo.convert"(%4) : (tensor<2x3xi64>) -> tensor<2x3xui8>
    "func.return"(%5) : (tensor<2x3xui8>) -> ()
  }
}
