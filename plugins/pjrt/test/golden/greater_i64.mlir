module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi64>, %1: tensor<3xi64>) -> (tensor<2x3xi1>) {
    %2 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi64>) -> tensor<2x3xi64>
    %3 = "stablehlo.compare"(%0, %2) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x3xi64>, tensor<2x3xi64>) -> tensor<2x3xi1>
    "func.return"(%3) : (tensor<2x3xi1>) -> ()
  }
}
