module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x7x7xf32>) -> (tensor<1x2x4x4xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.reduce_window"(%0, %1) ({
    ^bb0(%3: tensor<f32>, %4: tensor<f32>):
      %5 = "stablehlo.maximum"(%3, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) {window_dimensions = array<i64: 1, 1, 3, 3>, window_strides = array<i64: 1, 1, 2, 2>, window_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [1, 1], [1, 1]]> : tensor<4x2xi64>} : (tensor<1x2x7x7xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
    "func.return"(%2) : (tensor<1x2x4x4xf32>) -> ()
  }
}
