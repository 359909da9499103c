module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x4xf16>, %1: tensor<3x2xi32>, %2: tensor<3x2xf16>) -> (tensor<3x4xf16>, tensor<i1>) {
    %3 = "stablehlo.convert"(%0) : (tensor<3x4xf16>) -> tensor<3x4xf32>
    %4 = "stablehlo.convert"(%2) : (tensor<3x2xf16>) -> tensor<3x2xf32>
    %5 = "stablehlo.convert"(%1) : (tensor<3x2xi32>) -> tensor<3x2xi64>
    %6 = "stablehlo.constant"() {value = dense<4> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
    %7 = "stablehlo.constant"() {value = dense<0> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
    %8 = "stablehlo.compare"(%5, %7) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %9 = "stablehlo.add"(%5, %6) : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
    %10 = "stablehlo.select"(%8, %9, %5) : (tensor<3x2xi1>, tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
    %11 = "stablehlo.compare"(%10, %6) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %12 = "stablehlo.compare"(%10, %7) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi1>
    %13 = "stablehlo.or"(%12, %11) : (tensor<3x2xi1>, tensor<3x2xi1>) -> tensor<3x2xi1>
    %14 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %15 = "stablehlo.reduce"(%13, %14) ({
    ^bb0(%16: tensor<i1>, %17: tensor<i1>):
      %18 = "stablehlo.or"(%16, %17) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%18) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<3x2xi1>, tensor<i1>) -> tensor<i1>
    %19 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3x2xi64>
    %20 = "stablehlo.reshape"(%19) : (tensor<3x2xi64>) -> tensor<3x2x1xi64>
    %21 = "stablehlo.reshape"(%10) : (tensor<3x2xi64>) -> tensor<3x2x1xi64>
    %22 = "stablehlo.concatenate"(%20, %21) {dimension = 2 : i64} : (tensor<3x2x1xi64>, tensor<3x2x1xi64>) -> tensor<3x2x2xi64>
    %23 = "stablehlo.scatter"(%3, %22, %4) ({
    ^bb0(%24: tensor<f32>, %25: tensor<f32>):
      %26 = "stablehlo.add"(%24, %25) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%26) : (tensor<f32>) -> ()
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2>, unique_indices = false} : (tensor<3x4xf32>, tensor<3x2x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
    %27 = "stablehlo.convert"(%23) : (tensor<3x4xf32>) -> tensor<3x4xf16>
    "func.return"(%27, %15) : (tensor<3x4xf16>, tensor<i1>) -> ()
  }
}
