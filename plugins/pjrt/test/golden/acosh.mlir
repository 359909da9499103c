module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.add"(%0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.subtract"(%0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.multiply"(%3, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.sqrt"(%4) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.add"(%0, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.log"(%6) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.constant"() {value = dense<0x5D5E0B6B> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %9 = "stablehlo.compare"(%0, %8) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %10 = "stablehlo.constant"() {value = dense<0x3F317218> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %11 = "stablehlo.log"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "stablehlo.add"(%11, %10) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "stablehlo.select"(%9, %12, %7) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%13) : (tensor<2x3xf32>) -> ()
  }
}
