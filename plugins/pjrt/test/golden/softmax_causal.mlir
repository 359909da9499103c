module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>) {
    %1 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3x4xi64>
    %2 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<2x3x4xi64>
    %3 = "stablehlo.constant"() {value = dense<1> : tensor<2x3x4xi64>} : () -> tensor<2x3x4xi64>
    %4 = "stablehlo.add"(%1, %3) : (tensor<2x3x4xi64>, tensor<2x3x4xi64>) -> tensor<2x3x4xi64>
    %5 = "stablehlo.compare"(%2, %4) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x3x4xi64>, tensor<2x3x4xi64>) -> tensor<2x3x4xi1>
    %6 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<2x3x4xf32>} : () -> tensor<2x3x4xf32>
    %7 = "stablehlo.select"(%5, %6, %0) : (tensor<2x3x4xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %8 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %9 = "stablehlo.reduce"(%7, %8) ({
    ^bb0(%10: tensor<f32>, %11: tensor<f32>):
      %12 = "stablehlo.maximum"(%10, %11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%12) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3xf32>
    %13 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %14 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %15 = "stablehlo.compare"(%9, %14) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %16 = "stablehlo.select"(%15, %13, %9) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
    %18 = "stablehlo.subtract"(%7, %17) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %19 = "stablehlo.exponential"(%18) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %20 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %21 = "stablehlo.reduce"(%19, %20) ({
    ^bb0(%22: tensor<f32>, %23: tensor<f32>):
      %24 = "stablehlo.add"(%22, %23) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3xf32>
    %25 = "stablehlo.broadcast_in_dim"(%21) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3x4xf32>
    %26 = "stablehlo.divide"(%19, %25) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %27 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3x4xf32>} : () -> tensor<2x3x4xf32>
    %28 = "stablehlo.select"(%5, %27, %26) : (tensor<2x3x4xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    "func.return"(%28) : (tensor<2x3x4xf32>) -> ()
  }
}
