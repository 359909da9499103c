module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<4x3xi32>, %1: tensor<3x2xi64>, %2: tensor<3xi32>) -> (tensor<4x3xi32>, tensor<i1>) {
    %3 = "stablehlo.constant"() {value = dense<[4, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
    %4 = "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 1>} : (tensor<2xi64>) -> tensor<3x2xi64>
    %5 = "stablehlo.constant"() {value = dense<0> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
    %6 = "stablehlo.compare"(%1, %5) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %7 = "stablehlo.add"(%1, %4) : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
    %8 = "stablehlo.select"(%6, %7, %1) : (tensor<3x2xi1>, tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
    %9 = "stablehlo.compare"(%8, %4) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %10 = "stablehlo.compare"(%8, %5) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %11 = "stablehlo.or"(%10, %9) : (tensor<3x2xi1>, tensor<3x2xi1>) -> tensor<3x2xi1>
    %12 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %13 = "stablehlo.reduce"(%11, %12) ({
    ^bb0(%14: tensor<i1>, %15: tensor<i1>):
      %16 = "stablehlo.or"(%14, %15) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%16) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<3x2xi1>, tensor<i1>) -> tensor<i1>
    %17 = "stablehlo.constant"() {value = dense<-1> : tensor<4x3xi64>} : () -> tensor<4x3xi64>
    %18 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3xi64>
    %19 = "stablehlo.scatter"(%17, %8, %18) ({
    ^bb0(%20: tensor<i64>, %21: tensor<i64>):
      %22 = "stablehlo.maximum"(%20, %21) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%22) : (tensor<i64>) -> ()
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false} : (tensor<4x3xi64>, tensor<3x2xi64>, tensor<3xi64>) -> tensor<4x3xi64>
    %23 = "stablehlo.constant"() {value = dense<0> : tensor<4x3xi64>} : () -> tensor<4x3xi64>
    %24 = "stablehlo.compare"(%19, %23) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<4x3xi64>, tensor<4x3xi64>) -> tensor<4x3xi1>
    %25 = "stablehlo.maximum"(%19, %23) : (tensor<4x3xi64>, tensor<4x3xi64>) -> tensor<4x3xi64>
    %26 = "stablehlo.gather"(%2, %25) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>} : (tensor<3xi32>, tensor<4x3xi64>) -> tensor<4x3xi32>
    %27 = "stablehlo.broadcast_in_dim"(%24) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<4x3xi1>) -> tensor<4x3xi1>
    %28 = "stablehlo.select"(%27, %26, %0) : (tensor<4x3xi1>, tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi32>
    "func.return"(%28, %13) : (tensor<4x3xi32>, tensor<i1>) -> ()
  }
}
