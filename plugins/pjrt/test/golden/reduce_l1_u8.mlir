module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui8>) -> (tensor<ui8>) {
    %1 = "stablehlo.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
    %2 = "stablehlo.reduce"(%0, %1) ({
    ^bb0(%3: tensor<ui8>, %4: tensor<ui8>):
      %5 = "stablehlo.add"(%3, %4) : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
      "stablehlo.return"(%5) : (tensor<ui8>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xui8>, tensor<ui8>) -> tensor<ui8>
    "func.return"(%2) : (tensor<ui8>) -> ()
  }
}
