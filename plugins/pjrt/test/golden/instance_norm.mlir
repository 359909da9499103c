module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3x5xf32>, %1: tensor<3xf32>, %2: tensor<3xf32>) -> (tensor<2x3x5xf32>) {
    %3 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %4 = "stablehlo.reduce"(%0, %3) ({
    ^bb0(%5: tensor<f32>, %6: tensor<f32>):
      %7 = "stablehlo.add"(%5, %6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x3x5xf32>, tensor<f32>) -> tensor<2x3xf32>
    %8 = "stablehlo.constant"() {value = dense<0x40A00000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %9 = "stablehlo.divide"(%4, %8) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3x5xf32>
    %11 = "stablehlo.subtract"(%0, %10) : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
    %12 = "stablehlo.multiply"(%11, %11) : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
    %13 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%12, %13) ({
    ^bb0(%15: tensor<f32>, %16: tensor<f32>):
      %17 = "stablehlo.add"(%15, %16) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%17) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x3x5xf32>, tensor<f32>) -> tensor<2x3xf32>
    %18 = "stablehlo.constant"() {value = dense<0x40A00000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %19 = "stablehlo.divide"(%14, %18) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %20 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %21 = "stablehlo.add"(%19, %20) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %22 = "stablehlo.rsqrt"(%21) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %23 = "stablehlo.broadcast_in_dim"(%22) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3x5xf32>
    %24 = "stablehlo.multiply"(%11, %23) : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
    %25 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x5xf32>
    %26 = "stablehlo.multiply"(%24, %25) : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
    %27 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3x5xf32>
    %28 = "stablehlo.add"(%26, %27) : (tensor<2x3x5xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
    "func.return"(%28) : (tensor<2x3x5xf32>) -> ()
  }
}
