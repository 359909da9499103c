module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x4x3xbf16>, %1: tensor<2xbf16>, %2: tensor<2xbf16>) -> (tensor<2x4x3xbf16>) {
    %3 = "stablehlo.convert"(%0) : (tensor<2x4x3xbf16>) -> tensor<2x4x3xf32>
    %4 = "stablehlo.reshape"(%3) : (tensor<2x4x3xf32>) -> tensor<2x2x6xf32>
    %5 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) ({
    ^bb0(%7: tensor<f32>, %8: tensor<f32>):
      %9 = "stablehlo.add"(%7, %8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%9) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x2x6xf32>, tensor<f32>) -> tensor<2x2xf32>
    %10 = "stablehlo.constant"() {value = dense<0x40C00000> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
    %11 = "stablehlo.divide"(%6, %10) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %12 = "stablehlo.broadcast_in_dim"(%11) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>) -> tensor<2x2x6xf32>
    %13 = "stablehlo.subtract"(%4, %12) : (tensor<2x2x6xf32>, tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
    %14 = "stablehlo.multiply"(%13, %13) : (tensor<2x2x6xf32>, tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
    %15 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %16 = "stablehlo.reduce"(%14, %15) ({
    ^bb0(%17: tensor<f32>, %18: tensor<f32>):
      %19 = "stablehlo.add"(%17, %18) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%19) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x2x6xf32>, tensor<f32>) -> tensor<2x2xf32>
    %20 = "stablehlo.constant"() {value = dense<0x40C00000> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
    %21 = "stablehlo.divide"(%16, %20) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %22 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
    %23 = "stablehlo.add"(%21, %22) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %24 = "stablehlo.rsqrt"(%23) : (tensor<2x2xf32>) -> tensor<2x2xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>) -> tensor<2x2x6xf32>
    %26 = "stablehlo.multiply"(%13, %25) : (tensor<2x2x6xf32>, tensor<2x2x6xf32>) -> tensor<2x2x6xf32>
    %27 = "stablehlo.reshape"(%26) : (tensor<2x2x6xf32>) -> tensor<2x4x3xf32>
    %28 = "stablehlo.convert"(%1) : (tensor<2xbf16>) -> tensor<2xf32>
    %29 = "stablehlo.broadcast_in_dim"(%28) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x2xf32>
    %30 = "stablehlo.reshape"(%29) : (tensor<2x2xf32>) -> tensor<4xf32>
    %31 = "stablehlo.convert"(%2) : (tensor<2xbf16>) -> tensor<2xf32>
    %32 = "stablehlo.broadcast_in_dim"(%31) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x2xf32>
    %33 = "stablehlo.reshape"(%32) : (tensor<2x2xf32>) -> tensor<4xf32>
    %34 = "stablehlo.broadcast_in_dim"(%30) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<2x4x3xf32>
    %35 = "stablehlo.multiply"(%27, %34) : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
    %36 = "stablehlo.broadcast_in_dim"(%33) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<2x4x3xf32>
    %37 = "stablehlo.add"(%35, %36) : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
    %38 = "stablehlo.convert"(%37) : (tensor<2x4x3xf32>) -> tensor<2x4x3xbf16>
    "func.return"(%38) : (tensor<2x4x3xbf16>) -> ()
  }
}
