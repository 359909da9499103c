module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xui32>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xf32>) -> tensor<2x3xui32>
    %2 = "stablehlo.constant"() {value = dense<0x4F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %3 = "stablehlo.compare"(%0, %2) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %4 = "stablehlo.constant"() {value = dense<4294967295> : tensor<2x3xui32>} : () -> tensor<2x3xui32>
    %5 = "stablehlo.select"(%3, %4, %1) : (tensor<2x3xi1>, tensor<2x3xui32>, tensor<2x3xui32>) -> tensor<2x3xui32>
    %6 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %7 = "stablehlo.compare"(%0, %6) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %8 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xui32>} : () -> tensor<2x3xui32>
    %9 = "stablehlo.select"(%7, %8, %5) : (tensor<2x3xi1>, tensor<2x3xui32>, tensor<2x3xui32>) -> tensor<2x3xui32>
    %10 = "stablehlo.compare"(%0, %0) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %11 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xui32>} : () -> tensor<2x3xui32>
    %12 = "stablehlo.select"(%10, %11, %9) : (tensor<2x3xi1>, tensor<2x3xui32>, tensor<2x3xui32>) -> tensor<2x3xui32>
    "func.return"(%12) : (tensor<2x3xui32>) -> ()
  }
}
