module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi16>) -> (tensor<2x3xi16>) {
    %1 = "stablehlo.negate"(%0) : (tensor<2x3xi16>) -> tensor<2x3xi16>
    "func.return"(%1) : (tensor<2x3xi16>) -> ()
  }
}
