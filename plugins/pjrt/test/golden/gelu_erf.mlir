module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %3 = "stablehlo.constant"() {value = dense<0x3F3504F3> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %4 = "stablehlo.multiply"(%0, %3) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "chlo.erf"(%4) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.add"(%2, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.multiply"(%1, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.multiply"(%7, %6) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %10 = "stablehlo.compare"(%0, %9) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %11 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %12 = "stablehlo.select"(%10, %11, %8) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%12) : (tensor<2x3xf32>) -> ()
  }
}
