module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<3x2xf32>) {
    %1 = "stablehlo.reshape"(%0) : (tensor<2x3xf32>) -> tensor<3x2xf32>
    "func.return"(%1) : (tensor<3x2xf32>) -> ()
  }
}
