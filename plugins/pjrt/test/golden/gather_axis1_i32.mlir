module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<4x3xbf16>, %1: tensor<5xi32>) -> (tensor<4x5xbf16>, tensor<i1>) {
    %2 = "stablehlo.convert"(%1) : (tensor<5xi32>) -> tensor<5xi64>
    %3 = "stablehlo.constant"() {value = dense<0> : tensor<5xi64>} : () -> tensor<5xi64>
    %4 = "stablehlo.compare"(%2, %3) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
    %5 = "stablehlo.constant"() {value = dense<3> : tensor<5xi64>} : () -> tensor<5xi64>
    %6 = "stablehlo.compare"(%2, %5) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
    %7 = "stablehlo.or"(%4, %6) : (tensor<5xi1>, tensor<5xi1>) -> tensor<5xi1>
    %8 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %9 = "stablehlo.reduce"(%7, %8) ({
    ^bb0(%10: tensor<i1>, %11: tensor<i1>):
      %12 = "stablehlo.or"(%10, %11) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%12) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<5xi1>, tensor<i1>) -> tensor<i1>
    %13 = "stablehlo.gather"(%0, %1) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1>} : (tensor<4x3xbf16>, tensor<5xi32>) -> tensor<4x5xbf16>
    "func.return"(%13, %9) : (tensor<4x5xbf16>, tensor<i1>) -> ()
  }
}
