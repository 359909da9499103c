module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.constant"() {value = dense<0x3E800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %3 = "stablehlo.multiply"(%0, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.add"(%3, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %6 = "stablehlo.minimum"(%4, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %8 = "stablehlo.maximum"(%6, %7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%8) : (tensor<2x3xf32>) -> ()
  }
}
