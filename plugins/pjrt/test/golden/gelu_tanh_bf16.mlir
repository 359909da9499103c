module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xbf16>) -> (tensor<2x3xbf16>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xbf16>) -> tensor<2x3xf32>
    %2 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %3 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %4 = "stablehlo.multiply"(%1, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.multiply"(%1, %4) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.constant"() {value = dense<0x3D372713> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %7 = "stablehlo.multiply"(%6, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.add"(%1, %7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.constant"() {value = dense<0x3F4C422A> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %10 = "stablehlo.multiply"(%9, %8) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "stablehlo.tanh"(%10) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "stablehlo.add"(%3, %11) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "stablehlo.multiply"(%2, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "stablehlo.multiply"(%13, %12) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %16 = "stablehlo.compare"(%1, %15) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %17 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %18 = "stablehlo.select"(%16, %17, %14) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "stablehlo.convert"(%18) : (tensor<2x3xf32>) -> tensor<2x3xbf16>
    "func.return"(%19) : (tensor<2x3xbf16>) -> ()
  }
}
