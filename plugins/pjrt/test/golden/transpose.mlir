module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3x4xi32>) -> (tensor<2x4x3xi32>) {
    %1 = "stablehlo.transpose"(%0) {permutation = array<i64: 0, 2, 1>} : (tensor<2x3x4xi32>) -> tensor<2x4x3xi32>
    "func.return"(%1) : (tensor<2x4x3xi32>) -> ()
  }
}
