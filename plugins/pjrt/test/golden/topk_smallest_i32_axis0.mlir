module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<4x3xi32>) -> (tensor<3x3xi64>) {
    %1 = "stablehlo.convert"(%0) : (tensor<4x3xi32>) -> tensor<4x3xi64>
    %2 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4x3xi64>
    %3 = "stablehlo.constant"() {value = dense<4294967296> : tensor<4x3xi64>} : () -> tensor<4x3xi64>
    %4 = "stablehlo.multiply"(%1, %3) : (tensor<4x3xi64>, tensor<4x3xi64>) -> tensor<4x3xi64>
    %5 = "stablehlo.add"(%4, %2) : (tensor<4x3xi64>, tensor<4x3xi64>) -> tensor<4x3xi64>
    %6 = "stablehlo.sort"(%5) ({
    ^bb0(%7: tensor<i64>, %8: tensor<i64>):
      %9 = "stablehlo.compare"(%7, %8) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%9) : (tensor<i1>) -> ()
    }) {dimension = 0 : i64, is_stable = false} : (tensor<4x3xi64>) -> tensor<4x3xi64>
    %10 = "stablehlo.slice"(%6) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<4x3xi64>) -> tensor<3x3xi64>
    %11 = "stablehlo.constant"() {value = dense<4294967295> : tensor<3x3xi64>} : () -> tensor<3x3xi64>
    %12 = "stablehlo.and"(%10, %11) : (tensor<3x3xi64>, tensor<3x3xi64>) -> tensor<3x3xi64>
    "func.return"(%12) : (tensor<3x3xi64>) -> ()
  }
}
