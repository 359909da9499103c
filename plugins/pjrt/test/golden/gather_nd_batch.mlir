module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3x4xf32>, %1: tensor<2x1xi32>) -> (tensor<2x4xf32>, tensor<i1>) {
    %2 = "stablehlo.convert"(%1) : (tensor<2x1xi32>) -> tensor<2x1xi64>
    %3 = "stablehlo.constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
    %4 = "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 1>} : (tensor<1xi64>) -> tensor<2x1xi64>
    %5 = "stablehlo.constant"() {value = dense<0> : tensor<2x1xi64>} : () -> tensor<2x1xi64>
    %6 = "stablehlo.compare"(%2, %5) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi1>
    %7 = "stablehlo.add"(%2, %4) : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi64>
    %8 = "stablehlo.select"(%6, %7, %2) : (tensor<2x1xi1>, tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi64>
    %9 = "stablehlo.compare"(%8, %4) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi1>
    %10 = "stablehlo.compare"(%8, %5) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi1>
    %11 = "stablehlo.or"(%10, %9) : (tensor<2x1xi1>, tensor<2x1xi1>) -> tensor<2x1xi1>
    %12 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %13 = "stablehlo.reduce"(%11, %12) ({
    ^bb0(%14: tensor<i1>, %15: tensor<i1>):
      %16 = "stablehlo.or"(%14, %15) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%16) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<2x1xi1>, tensor<i1>) -> tensor<i1>
    %17 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<2x1xi64>
    %18 = "stablehlo.concatenate"(%17, %8) {dimension = 1 : i64} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x2xi64>
    %19 = "stablehlo.gather"(%0, %18) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 4>} : (tensor<2x3x4xf32>, tensor<2x2xi64>) -> tensor<2x4xf32>
    "func.return"(%19, %13) : (tensor<2x4xf32>, tensor<i1>) -> ()
  }
}
