module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x1x4x4xi8>) -> (tensor<1x1x2x2xi8>) {
    %1 = "stablehlo.constant"() {value = dense<-128> : tensor<i8>} : () -> tensor<i8>
    %2 = "stablehlo.reduce_window"(%0, %1) ({
    ^bb0(%3: tensor<i8>, %4: tensor<i8>):
      %5 = "stablehlo.maximum"(%3, %4) : (tensor<i8>, tensor<i8>) -> tensor<i8>
      "stablehlo.return"(%5) : (tensor<i8>) -> ()
    }) {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>, window_dilations = array<i64: 1, 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [0, 0], [0, 0]]> : tensor<4x2xi64>} : (tensor<1x1x4x4xi8>, tensor<i8>) -> tensor<1x1x2x2xi8>
    "func.return"(%2) : (tensor<1x1x2x2xi8>) -> ()
  }
}
