module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x4xf32>, %1: tensor<3x2xi64>) -> (tensor<3x2xf32>, tensor<i1>) {
    %2 = "stablehlo.constant"() {value = dense<4> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
    %3 = "stablehlo.constant"() {value = dense<0> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
    %4 = "stablehlo.compare"(%1, %3) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %5 = "stablehlo.add"(%1, %2) : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
    %6 = "stablehlo.select"(%4, %5, %1) : (tensor<3x2xi1>, tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
    %7 = "stablehlo.compare"(%6, %2) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %8 = "stablehlo.compare"(%6, %3) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %9 = "stablehlo.or"(%8, %7) : (tensor<3x2xi1>, tensor<3x2xi1>) -> tensor<3x2xi1>
    %10 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %11 = "stablehlo.reduce"(%9, %10) ({
    ^bb0(%12: tensor<i1>, %13: tensor<i1>):
      %14 = "stablehlo.or"(%12, %13) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%14) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<3x2xi1>, tensor<i1>) -> tensor<i1>
    %15 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3x2xi64>
    %16 = "stablehlo.reshape"(%15) : (tensor<3x2xi64>) -> tensor<3x2x1xi64>
    %17 = "stablehlo.reshape"(%6) : (tensor<3x2xi64>) -> tensor<3x2x1xi64>
    %18 = "stablehlo.concatenate"(%16, %17) {dimension = 2 : i64} : (tensor<3x2x1xi64>, tensor<3x2x1xi64>) -> tensor<3x2x2xi64>
    %19 = "stablehlo.gather"(%0, %18) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>} : (tensor<3x4xf32>, tensor<3x2x2xi64>) -> tensor<3x2xf32>
    "func.return"(%19, %11) : (tensor<3x2xf32>, tensor<i1>) -> ()
  }
}
