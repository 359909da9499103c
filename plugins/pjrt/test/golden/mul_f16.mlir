module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf16>, %1: tensor<1x3xf16>) -> (tensor<2x3xf16>) {
    %2 = "stablehlo.convert"(%0) : (tensor<2x3xf16>) -> tensor<2x3xf32>
    %3 = "stablehlo.convert"(%1) : (tensor<1x3xf16>) -> tensor<1x3xf32>
    %4 = "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.multiply"(%2, %4) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.convert"(%5) : (tensor<2x3xf32>) -> tensor<2x3xf16>
    "func.return"(%6) : (tensor<2x3xf16>) -> ()
  }
}
