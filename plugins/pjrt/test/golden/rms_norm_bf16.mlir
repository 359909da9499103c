module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x4xbf16>, %1: tensor<4xbf16>) -> (tensor<2x4xbf16>) {
    %2 = "stablehlo.convert"(%0) : (tensor<2x4xbf16>) -> tensor<2x4xf32>
    %3 = "stablehlo.convert"(%1) : (tensor<4xbf16>) -> tensor<4xf32>
    %4 = "stablehlo.multiply"(%2, %2) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %5 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) ({
    ^bb0(%7: tensor<f32>, %8: tensor<f32>):
      %9 = "stablehlo.add"(%7, %8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%9) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
    %10 = "stablehlo.constant"() {value = dense<0x40800000> : tensor<2xf32>} : () -> tensor<2xf32>
    %11 = "stablehlo.divide"(%6, %10) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %12 = "stablehlo.constant"() {value = dense<0x358637BD> : tensor<2xf32>} : () -> tensor<2xf32>
    %13 = "stablehlo.add"(%11, %12) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %14 = "stablehlo.rsqrt"(%13) : (tensor<2xf32>) -> tensor<2xf32>
    %15 = "stablehlo.broadcast_in_dim"(%14) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
    %16 = "stablehlo.multiply"(%2, %15) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<2x4xf32>
    %18 = "stablehlo.multiply"(%16, %17) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "stablehlo.convert"(%18) : (tensor<2x4xf32>) -> tensor<2x4xbf16>
    "func.return"(%19) : (tensor<2x4xbf16>) -> ()
  }
}
