module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x4xf32>, %1: tensor<2x4xi64>, %2: tensor<2x4xf32>) -> (tensor<3x4xf32>, tensor<i1>) {
    %3 = "stablehlo.constant"() {value = dense<3> : tensor<2x4xi64>} : () -> tensor<2x4xi64>
    %4 = "stablehlo.constant"() {value = dense<0> : tensor<2x4xi64>} : () -> tensor<2x4xi64>
    %5 = "stablehlo.compare"(%1, %4) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x4xi64>, tensor<2x4xi64>) -> tensor<2x4xi1>
    %6 = "stablehlo.add"(%1, %3) : (tensor<2x4xi64>, tensor<2x4xi64>) -> tensor<2x4xi64>
    %7 = "stablehlo.select"(%5, %6, %1) : (tensor<2x4xi1>, tensor<2x4xi64>, tensor<2x4xi64>) -> tensor<2x4xi64>
    %8 = "stablehlo.compare"(%7, %3) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2x4xi64>, tensor<2x4xi64>) -> tensor<2x4xi1>
    %9 = "stablehlo.compare"(%7, %4) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x4xi64>, tensor<2x4xi64>) -> tensor<2x4xi1>
    %10 = "stablehlo.or"(%9, %8) : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
    %11 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %12 = "stablehlo.reduce"(%10, %11) ({
    ^bb0(%13: tensor<i1>, %14: tensor<i1>):
      %15 = "stablehlo.or"(%13, %14) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%15) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<2x4xi1>, tensor<i1>) -> tensor<i1>
    %16 = "stablehlo.reshape"(%7) : (tensor<2x4xi64>) -> tensor<2x4x1xi64>
    %17 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x4xi64>
    %18 = "stablehlo.reshape"(%17) : (tensor<2x4xi64>) -> tensor<2x4x1xi64>
    %19 = "stablehlo.concatenate"(%16, %18) {dimension = 2 : i64} : (tensor<2x4x1xi64>, tensor<2x4x1xi64>) -> tensor<2x4x2xi64>
    %20 = "stablehlo.constant"() {value = dense<-1> : tensor<3x4xi64>} : () -> tensor<3x4xi64>
    %21 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<8xi64>
    %22 = "stablehlo.reshape"(%21) : (tensor<8xi64>) -> tensor<2x4xi64>
    %23 = "stablehlo.scatter"(%20, %19, %22) ({
    ^bb0(%24: tensor<i64>, %25: tensor<i64>):
      %26 = "stablehlo.maximum"(%24, %25) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%26) : (tensor<i64>) -> ()
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2>, unique_indices = false} : (tensor<3x4xi64>, tensor<2x4x2xi64>, tensor<2x4xi64>) -> tensor<3x4xi64>
    %27 = "stablehlo.reshape"(%2) : (tensor<2x4xf32>) -> tensor<8xf32>
    %28 = "stablehlo.constant"() {value = dense<0> : tensor<3x4xi64>} : () -> tensor<3x4xi64>
    %29 = "stablehlo.compare"(%23, %28) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi1>
    %30 = "stablehlo.maximum"(%23, %28) : (tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi64>
    %31 = "stablehlo.gather"(%27, %30) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>} : (tensor<8xf32>, tensor<3x4xi64>) -> tensor<3x4xf32>
    %32 = "stablehlo.broadcast_in_dim"(%29) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<3x4xi1>) -> tensor<3x4xi1>
    %33 = "stablehlo.select"(%32, %31, %0) : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    "func.return"(%33, %12) : (tensor<3x4xf32>, tensor<i1>) -> ()
  }
}
