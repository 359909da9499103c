module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf16>) -> (tensor<2x3xf16>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xf16>) -> tensor<2x3xf32>
    %2 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%1, %2) ({
    ^bb0(%4: tensor<f32>, %5: tensor<f32>):
      %6 = "stablehlo.maximum"(%4, %5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%6) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    %7 = "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.subtract"(%1, %7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.exponential"(%8) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %11 = "stablehlo.reduce"(%9, %10) ({
    ^bb0(%12: tensor<f32>, %13: tensor<f32>):
      %14 = "stablehlo.add"(%12, %13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%14) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    %15 = "stablehlo.broadcast_in_dim"(%11) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
    %16 = "stablehlo.divide"(%9, %15) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "stablehlo.convert"(%16) : (tensor<2x3xf32>) -> tensor<2x3xf16>
    "func.return"(%17) : (tensor<2x3xf16>) -> ()
  }
}
