module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3x4x4xf32>, %1: tensor<3xf32>, %2: tensor<3xf32>, %3: tensor<3xf32>, %4: tensor<3xf32>) -> (tensor<2x3x4x4xf32>) {
    %5 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<3xf32>} : () -> tensor<3xf32>
    %6 = "stablehlo.add"(%4, %5) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %7 = "stablehlo.rsqrt"(%6) : (tensor<3xf32>) -> tensor<3xf32>
    %8 = "stablehlo.multiply"(%1, %7) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %9 = "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x4x4xf32>
    %10 = "stablehlo.subtract"(%0, %9) : (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %11 = "stablehlo.broadcast_in_dim"(%8) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x4x4xf32>
    %12 = "stablehlo.multiply"(%10, %11) : (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %13 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x4x4xf32>
    %14 = "stablehlo.add"(%12, %13) : (tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    "func.return"(%14) : (tensor<2x3x4x4xf32>) -> ()
  }
}
