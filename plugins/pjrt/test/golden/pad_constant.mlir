module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<4x5xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0x40E00000> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.pad"(%0, %1) {edge_padding_low = array<i64: 1, 0>, edge_padding_high = array<i64: 1, 2>, interior_padding = array<i64: 0, 0>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x5xf32>
    "func.return"(%2) : (tensor<4x5xf32>) -> ()
  }
}
