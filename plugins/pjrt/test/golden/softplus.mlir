module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.maximum"(%0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.abs"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.negate"(%3) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.exponential"(%4) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.log_plus_one"(%5) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.add"(%2, %6) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%7) : (tensor<2x3xf32>) -> ()
  }
}
