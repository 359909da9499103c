module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf16>, %1: tensor<3xf16>, %2: tensor<3xi8>) -> (tensor<2x3xi8>) {
    %3 = "stablehlo.convert"(%0) : (tensor<2x3xf16>) -> tensor<2x3xf32>
    %4 = "stablehlo.convert"(%1) : (tensor<3xf16>) -> tensor<3xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi8>) -> tensor<2x3xi8>
    %7 = "stablehlo.divide"(%3, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.round_nearest_even"(%7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.convert"(%6) : (tensor<2x3xi8>) -> tensor<2x3xf32>
    %10 = "stablehlo.add"(%8, %9) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "stablehlo.constant"() {value = dense<0xC3000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %12 = "stablehlo.maximum"(%10, %11) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "stablehlo.constant"() {value = dense<0x42FE0000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %14 = "stablehlo.minimum"(%12, %13) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "stablehlo.convert"(%14) : (tensor<2x3xf32>) -> tensor<2x3xi8>
    %16 = "stablehlo.compare"(%7, %7) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %17 = "stablehlo.select"(%16, %6, %15) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    "func.return"(%17) : (tensor<2x3xi8>) -> ()
  }
}
