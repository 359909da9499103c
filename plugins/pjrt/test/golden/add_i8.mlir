module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi8>, %1: tensor<2x3xi8>) -> (tensor<2x3xi8>) {
    %2 = "stablehlo.add"(%0, %1) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    "func.return"(%2) : (tensor<2x3xi8>) -> ()
  }
}
