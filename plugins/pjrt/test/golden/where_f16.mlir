module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi1>, %1: tensor<2x3xf16>, %2: tensor<3xf16>) -> (tensor<2x3xf16>) {
    %3 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf16>) -> tensor<2x3xf16>
    %4 = "stablehlo.select"(%0, %1, %3) : (tensor<2x3xi1>, tensor<2x3xf16>, tensor<2x3xf16>) -> tensor<2x3xf16>
    "func.return"(%4) : (tensor<2x3xf16>) -> ()
  }
}
