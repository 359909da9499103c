module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi1>, %1: tensor<3xi1>) -> (tensor<2x3xi1>) {
    %2 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi1>) -> tensor<2x3xi1>
    %3 = "stablehlo.and"(%0, %2) : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
    "func.return"(%3) : (tensor<2x3xi1>) -> ()
  }
}
