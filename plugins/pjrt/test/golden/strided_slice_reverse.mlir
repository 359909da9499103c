module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<5x4xf32>) -> (tensor<5x2xf32>) {
    %1 = "stablehlo.reverse"(%0) {dimensions = array<i64: 0>} : (tensor<5x4xf32>) -> tensor<5x4xf32>
    %2 = "stablehlo.slice"(%1) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 5, 3>, strides = array<i64: 1, 2>} : (tensor<5x4xf32>) -> tensor<5x2xf32>
    "func.return"(%2) : (tensor<5x2xf32>) -> ()
  }
}
