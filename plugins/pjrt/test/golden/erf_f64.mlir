module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf64>) -> (tensor<2x3xf64>) {
    %1 = "chlo.erf"(%0) : (tensor<2x3xf64>) -> tensor<2x3xf64>
    "func.return"(%1) : (tensor<2x3xf64>) -> ()
  }
}
