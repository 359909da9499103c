module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x5x5xf32>) -> (tensor<1x2x5x5xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.reduce_window"(%0, %1) ({
    ^bb0(%3: tensor<f32>, %4: tensor<f32>):
      %5 = "stablehlo.add"(%3, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) {window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [1, 1], [1, 1]]> : tensor<4x2xi64>} : (tensor<1x2x5x5xf32>, tensor<f32>) -> tensor<1x2x5x5xf32>
    %6 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<1x1x7x7xf32>} : () -> tensor<1x1x7x7xf32>
    %7 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %8 = "stablehlo.reduce_window"(%6, %7) ({
    ^bb0(%9: tensor<f32>, %10: tensor<f32>):
      %11 = "stablehlo.add"(%9, %10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%11) : (tensor<f32>) -> ()
    }) {window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 1, 1>, window_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [0, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x1x7x7xf32>, tensor<f32>) -> tensor<1x1x5x5xf32>
    %12 = "stablehlo.broadcast_in_dim"(%8) {broadcast_dimensions = array<i64: 0, 1, 2, 3>} : (tensor<1x1x5x5xf32>) -> tensor<1x2x5x5xf32>
    %13 = "stablehlo.divide"(%2, %12) : (tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
    "func.return"(%13) : (tensor<1x2x5x5xf32>) -> ()
  }
}
