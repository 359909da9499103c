module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi32>, %1: tensor<3xbf16>, %2: tensor<3xi32>) -> (tensor<2x3xbf16>) {
    %3 = "stablehlo.convert"(%0) : (tensor<2x3xi32>) -> tensor<2x3xf32>
    %4 = "stablehlo.convert"(%1) : (tensor<3xbf16>) -> tensor<3xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi32>) -> tensor<2x3xi32>
    %7 = "stablehlo.convert"(%6) : (tensor<2x3xi32>) -> tensor<2x3xf32>
    %8 = "stablehlo.subtract"(%3, %7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.multiply"(%8, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "stablehlo.convert"(%9) : (tensor<2x3xf32>) -> tensor<2x3xbf16>
    "func.return"(%10) : (tensor<2x3xbf16>) -> ()
  }
}
