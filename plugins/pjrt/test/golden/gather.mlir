module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<4x3xf32>, %1: tensor<2x2xi64>) -> (tensor<2x2x3xf32>, tensor<i1>) {
    %2 = "stablehlo.constant"() {value = dense<0> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
    %3 = "stablehlo.compare"(%1, %2) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi1>
    %4 = "stablehlo.constant"() {value = dense<4> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
    %5 = "stablehlo.compare"(%1, %4) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2x2xi64>, tensor<2x2xi64>) -> tensor<2x2xi1>
    %6 = "stablehlo.or"(%3, %5) : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
    %7 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %8 = "stablehlo.reduce"(%6, %7) ({
    ^bb0(%9: tensor<i1>, %10: tensor<i1>):
      %11 = "stablehlo.or"(%9, %10) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%11) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xi1>, tensor<i1>) -> tensor<i1>
    %12 = "stablehlo.gather"(%0, %1) {dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>} : (tensor<4x3xf32>, tensor<2x2xi64>) -> tensor<2x2x3xf32>
    "func.return"(%12, %8) : (tensor<2x2x3xf32>, tensor<i1>) -> ()
  }
}
