module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
    %1 = "stablehlo.reverse"(%0) {dimensions = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %2 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %3 = "stablehlo.pad"(%1, %2) {edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 0, -1>, interior_padding = array<i64: 0, 0>} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
    %4 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %5 = "stablehlo.reduce_window"(%3, %4) ({
    ^bb0(%6: tensor<f32>, %7: tensor<f32>):
      %8 = "stablehlo.add"(%6, %7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) {window_dimensions = array<i64: 1, 4>, window_strides = array<i64: 1, 1>, window_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [3, 0]]> : tensor<2x2xi64>} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
    %9 = "stablehlo.reverse"(%5) {dimensions = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x4xf32>
    "func.return"(%9) : (tensor<3x4xf32>) -> ()
  }
}
