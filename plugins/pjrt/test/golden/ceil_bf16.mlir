module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xbf16>) -> (tensor<2x3xbf16>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xbf16>) -> tensor<2x3xf32>
    %2 = "stablehlo.ceil"(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.convert"(%2) : (tensor<2x3xf32>) -> tensor<2x3xbf16>
    "func.return"(%3) : (tensor<2x3xbf16>) -> ()
  }
}
