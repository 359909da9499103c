module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<4x3x2xf32>, %1: tensor<2x1xi64>, %2: tensor<2x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<i1>) {
    %3 = "stablehlo.constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
    %4 = "stablehlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 1>} : (tensor<1xi64>) -> tensor<2x1xi64>
    %5 = "stablehlo.constant"() {value = dense<0> : tensor<2x1xi64>} : () -> tensor<2x1xi64>
    %6 = "stablehlo.compare"(%1, %5) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi1>
    %7 = "stablehlo.add"(%1, %4) : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi64>
    %8 = "stablehlo.select"(%6, %7, %1) : (tensor<2x1xi1>, tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi64>
    %9 = "stablehlo.compare"(%8, %4) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi1>
    %10 = "stablehlo.compare"(%8, %5) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x1xi64>, tensor<2x1xi64>) -> tensor<2x1xi1>
    %11 = "stablehlo.or"(%10, %9) : (tensor<2x1xi1>, tensor<2x1xi1>) -> tensor<2x1xi1>
    %12 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %13 = "stablehlo.reduce"(%11, %12) ({
    ^bb0(%14: tensor<i1>, %15: tensor<i1>):
      %16 = "stablehlo.or"(%14, %15) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%16) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<2x1xi1>, tensor<i1>) -> tensor<i1>
    %17 = "stablehlo.scatter"(%0, %8, %2) ({
    ^bb0(%18: tensor<f32>, %19: tensor<f32>):
      %20 = "stablehlo.maximum"(%18, %19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%20) : (tensor<f32>) -> ()
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false} : (tensor<4x3x2xf32>, tensor<2x1xi64>, tensor<2x3x2xf32>) -> tensor<4x3x2xf32>
    "func.return"(%17, %13) : (tensor<4x3x2xf32>, tensor<i1>) -> ()
  }
}
