module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui8>) -> (tensor<2x3xui8>) {
    %1 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xui8>} : () -> tensor<2x3xui8>
    %2 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xi1>
    %3 = "stablehlo.convert"(%2) : (tensor<2x3xi1>) -> tensor<2x3xui8>
    %4 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xi1>
    %5 = "stablehlo.convert"(%4) : (tensor<2x3xi1>) -> tensor<2x3xui8>
    %6 = "stablehlo.subtract"(%3, %5) : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
    "func.return"(%6) : (tensor<2x3xui8>) -> ()
  }
}
