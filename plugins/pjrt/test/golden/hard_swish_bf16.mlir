module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xbf16>) -> (tensor<2x3xbf16>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xbf16>) -> tensor<2x3xf32>
    %2 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %3 = "stablehlo.constant"() {value = dense<0x3E2AAAAB> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %4 = "stablehlo.multiply"(%1, %3) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.add"(%4, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %7 = "stablehlo.minimum"(%5, %6) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %9 = "stablehlo.maximum"(%7, %8) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "stablehlo.multiply"(%1, %9) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %12 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %13 = "stablehlo.compare"(%9, %12) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %14 = "stablehlo.select"(%13, %11, %10) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "stablehlo.convert"(%14) : (tensor<2x3xf32>) -> tensor<2x3xbf16>
    "func.return"(%15) : (tensor<2x3xbf16>) -> ()
  }
}
