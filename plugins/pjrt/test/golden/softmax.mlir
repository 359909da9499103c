module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) ({
    ^bb0(%3: tensor<f32>, %4: tensor<f32>):
      %5 = "stablehlo.maximum"(%3, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %6 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.subtract"(%0, %6) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "stablehlo.exponential"(%7) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %10 = "stablehlo.reduce"(%8, %9) ({
    ^bb0(%11: tensor<f32>, %12: tensor<f32>):
      %13 = "stablehlo.add"(%11, %12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%13) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %14 = "stablehlo.broadcast_in_dim"(%10) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x3xf32>
    %15 = "stablehlo.divide"(%8, %14) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%15) : (tensor<2x3xf32>) -> ()
  }
}
