module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<5xi32>) -> (tensor<5xi32>) {
    %1 = "stablehlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %2 = "stablehlo.reduce_window"(%0, %1) ({
    ^bb0(%3: tensor<i32>, %4: tensor<i32>):
      %5 = "stablehlo.add"(%3, %4) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%5) : (tensor<i32>) -> ()
    }) {window_dimensions = array<i64: 5>, window_strides = array<i64: 1>, window_dilations = array<i64: 1>, padding = dense<[[4, 0]]> : tensor<1x2xi64>} : (tensor<5xi32>, tensor<i32>) -> tensor<5xi32>
    "func.return"(%2) : (tensor<5xi32>) -> ()
  }
}
