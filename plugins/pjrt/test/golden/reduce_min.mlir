module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) ({
    ^bb0(%3: tensor<f32>, %4: tensor<f32>):
      %5 = "stablehlo.minimum"(%3, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    "func.return"(%2) : (tensor<2xf32>) -> ()
  }
}
