module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3xi64>, %1: tensor<2xf32>) -> (tensor<3x5xf32>) {
    %2 = "stablehlo.constant"() {value = dense<0> : tensor<3xi64>} : () -> tensor<3xi64>
    %3 = "stablehlo.compare"(%0, %2) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
    %4 = "stablehlo.constant"() {value = dense<5> : tensor<3xi64>} : () -> tensor<3xi64>
    %5 = "stablehlo.add"(%0, %4) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
    %6 = "stablehlo.select"(%3, %5, %0) : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
    %7 = "stablehlo.broadcast_in_dim"(%6) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi64>) -> tensor<3x5xi64>
    %8 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<3x5xi64>
    %9 = "stablehlo.compare"(%8, %7) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi1>
    %10 = "stablehlo.slice"(%1) {start_indices = array<i64: 0>, limit_indices = array<i64: 1>, strides = array<i64: 1>} : (tensor<2xf32>) -> tensor<1xf32>
    %11 = "stablehlo.reshape"(%10) : (tensor<1xf32>) -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<3x5xf32>
    %13 = "stablehlo.slice"(%1) {start_indices = array<i64: 1>, limit_indices = array<i64: 2>, strides = array<i64: 1>} : (tensor<2xf32>) -> tensor<1xf32>
    %14 = "stablehlo.reshape"(%13) : (tensor<1xf32>) -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<3x5xf32>
    %16 = "stablehlo.select"(%9, %15, %12) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    "func.return"(%16) : (tensor<3x5xf32>) -> ()
  }
}
