module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>, %1: tensor<2x2xf32>) -> (tensor<2x5xf32>) {
    %2 = "stablehlo.concatenate"(%0, %1) {dimension = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2x5xf32>
    "func.return"(%2) : (tensor<2x5xf32>) -> ()
  }
}
