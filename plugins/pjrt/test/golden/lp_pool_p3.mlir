module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x6xf32>) -> (tensor<1x2x3xf32>) {
    %1 = "stablehlo.abs"(%0) : (tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
    %2 = "stablehlo.constant"() {value = dense<0x40400000> : tensor<1x2x6xf32>} : () -> tensor<1x2x6xf32>
    %3 = "stablehlo.power"(%1, %2) : (tensor<1x2x6xf32>, tensor<1x2x6xf32>) -> tensor<1x2x6xf32>
    %4 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %5 = "stablehlo.reduce_window"(%3, %4) ({
    ^bb0(%6: tensor<f32>, %7: tensor<f32>):
      %8 = "stablehlo.add"(%6, %7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) {window_dimensions = array<i64: 1, 1, 2>, window_strides = array<i64: 1, 1, 2>, window_dilations = array<i64: 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [0, 0]]> : tensor<3x2xi64>} : (tensor<1x2x6xf32>, tensor<f32>) -> tensor<1x2x3xf32>
    %9 = "stablehlo.constant"() {value = dense<0x3EAAAAAB> : tensor<1x2x3xf32>} : () -> tensor<1x2x3xf32>
    %10 = "stablehlo.power"(%5, %9) : (tensor<1x2x3xf32>, tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
    "func.return"(%10) : (tensor<1x2x3xf32>) -> ()
  }
}
