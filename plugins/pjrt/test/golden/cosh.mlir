module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.exponential"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.negate"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.exponential"(%3) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %6 = "stablehlo.add"(%2, %4) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.multiply"(%6, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%7) : (tensor<2x3xf32>) -> ()
  }
}
