module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui32>, %1: tensor<3xui32>) -> (tensor<2x3xui32>) {
    %2 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xui32>) -> tensor<2x3xui32>
    %3 = "stablehlo.shift_right_logical"(%0, %2) : (tensor<2x3xui32>, tensor<2x3xui32>) -> tensor<2x3xui32>
    "func.return"(%3) : (tensor<2x3xui32>) -> ()
  }
}
