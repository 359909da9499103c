module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi32>) -> (tensor<3xi32>) {
    %1 = "stablehlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %2 = "stablehlo.reduce"(%0, %1) ({
    ^bb0(%3: tensor<i32>, %4: tensor<i32>):
      %5 = "stablehlo.multiply"(%3, %4) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%5) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
    "func.return"(%2) : (tensor<3xi32>) -> ()
  }
}
