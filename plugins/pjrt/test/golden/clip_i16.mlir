module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi16>) -> (tensor<2x3xi16>) {
    %1 = "stablehlo.constant"() {value = dense<-32768> : tensor<2x3xi16>} : () -> tensor<2x3xi16>
    %2 = "stablehlo.maximum"(%0, %1) : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
    %3 = "stablehlo.constant"() {value = dense<3> : tensor<2x3xi16>} : () -> tensor<2x3xi16>
    %4 = "stablehlo.minimum"(%2, %3) : (tensor<2x3xi16>, tensor<2x3xi16>) -> tensor<2x3xi16>
    "func.return"(%4) : (tensor<2x3xi16>) -> ()
  }
}
