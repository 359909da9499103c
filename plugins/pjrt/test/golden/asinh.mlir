module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %2 = "stablehlo.abs"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.multiply"(%2, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.add"(%3, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.sqrt"(%4) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.add"(%1, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.divide"(%3, %6) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.add"(%2, %7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.log_plus_one"(%8) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "stablehlo.constant"() {value = dense<0x5D5E0B6B> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %11 = "stablehlo.compare"(%2, %10) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %12 = "stablehlo.constant"() {value = dense<0x3F317218> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %13 = "stablehlo.log"(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "stablehlo.add"(%13, %12) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "stablehlo.select"(%11, %14, %9) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %16 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %17 = "stablehlo.compare"(%0, %16) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %18 = "stablehlo.negate"(%15) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "stablehlo.select"(%17, %18, %15) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%19) : (tensor<2x3xf32>) -> ()
  }
}
