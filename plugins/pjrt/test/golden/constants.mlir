module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
    %1 = "stablehlo.constant"() {value = dense<"0x0000803F000020C00000000000004040"> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
    %2 = "stablehlo.constant"() {value = dense<"0x01000001"> : tensor<2x2xui8>} : () -> tensor<2x2xui8>
    %3 = "stablehlo.constant"() {value = dense<0> : tensor<2x2xui8>} : () -> tensor<2x2xui8>
    %4 = "stablehlo.compare"(%2, %3) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x2xui8>, tensor<2x2xui8>) -> tensor<2x2xi1>
    %5 = "stablehlo.add"(%0, %1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %6 = "stablehlo.convert"(%4) : (tensor<2x2xi1>) -> tensor<2x2xf32>
    "func.return"(%5, %6) : (tensor<2x2xf32>, tensor<2x2xf32>) -> ()
  }
}
