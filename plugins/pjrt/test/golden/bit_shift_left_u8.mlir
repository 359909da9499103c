module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui8>, %1: tensor<2x3xui8>) -> (tensor<2x3xui8>) {
    %2 = "stablehlo.shift_left"(%0, %1) : (tensor<2x3xui8>, tensor<2x3xui8>) -> tensor<2x3xui8>
    "func.return"(%2) : (tensor<2x3xui8>) -> ()
  }
}
