module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x4xf32>) -> (tensor<3x1xi64>) {
    %1 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) ({
    ^bb0(%3: tensor<f32>, %4: tensor<f32>):
      %5 = "stablehlo.maximum"(%3, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
    %6 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x4xf32>
    %7 = "stablehlo.compare"(%0, %6) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %8 = "stablehlo.compare"(%6, %6) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %9 = "stablehlo.compare"(%0, %0) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %10 = "stablehlo.and"(%9, %8) : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
    %11 = "stablehlo.or"(%7, %10) : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
    %12 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<3x4xi64>
    %13 = "stablehlo.constant"() {value = dense<4> : tensor<3x4xi64>} : () -> tensor<3x4xi64>
    %14 = "stablehlo.select"(%11, %12, %13) : (tensor<3x4xi1>, tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi64>
    %15 = "stablehlo.constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
    %16 = "stablehlo.reduce"(%14, %15) ({
    ^bb0(%17: tensor<i64>, %18: tensor<i64>):
      %19 = "stablehlo.minimum"(%17, %18) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%19) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<3x4xi64>, tensor<i64>) -> tensor<3xi64>
    %20 = "stablehlo.reshape"(%16) : (tensor<3xi64>) -> tensor<3x1xi64>
    "func.return"(%20) : (tensor<3x1xi64>) -> ()
  }
}
