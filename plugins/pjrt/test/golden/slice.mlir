module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<4x3xf32>) -> (tensor<2x2xf32>) {
    %1 = "stablehlo.slice"(%0) {start_indices = array<i64: 1, 1>, limit_indices = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xf32>) -> tensor<2x2xf32>
    "func.return"(%1) : (tensor<2x2xf32>) -> ()
  }
}
