module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<f32>) {
    %1 = "stablehlo.abs"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%1, %2) ({
    ^bb0(%4: tensor<f32>, %5: tensor<f32>):
      %6 = "stablehlo.add"(%4, %5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%6) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
    "func.return"(%3) : (tensor<f32>) -> ()
  }
}
