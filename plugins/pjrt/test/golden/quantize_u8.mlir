module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>, %1: tensor<f32>, %2: tensor<ui8>) -> (tensor<2x3xui8>) {
    %3 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
    %4 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64>} : (tensor<ui8>) -> tensor<2x3xui8>
    %5 = "stablehlo.divide"(%0, %3) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.round_nearest_even"(%5) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.convert"(%4) : (tensor<2x3xui8>) -> tensor<2x3xf32>
    %8 = "stablehlo.add"(%6, %7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %10 = "stablehlo.maximum"(%8, %9) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "stablehlo.constant"() {value = dense<0x437F0000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %12 = "stablehlo.minimum"(%10, %11) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "stablehlo.convert"(%12) : (tensor<2x3xf32>) -> tensor<2x3xui8>
    %14 = "stablehlo.compare"(%5, %5) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %15 = "stablehlo.select"(%14, %4, %13) : (tensor<2x3xi1>, tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
    "func.return"(%15) : (tensor<2x3xui8>) -> ()
  }
}
