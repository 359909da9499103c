module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf16>) -> (tensor<2x1xf16>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xf16>) -> tensor<2x3xf32>
    %2 = "stablehlo.multiply"(%1, %1) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %4 = "stablehlo.reduce"(%2, %3) ({
    ^bb0(%5: tensor<f32>, %6: tensor<f32>):
      %7 = "stablehlo.add"(%5, %6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %8 = "stablehlo.sqrt"(%4) : (tensor<2xf32>) -> tensor<2xf32>
    %9 = "stablehlo.reshape"(%8) : (tensor<2xf32>) -> tensor<2x1xf32>
    %10 = "stablehlo.convert"(%9) : (tensor<2x1xf32>) -> tensor<2x1xf16>
    "func.return"(%10) : (tensor<2x1xf16>) -> ()
  }
}
