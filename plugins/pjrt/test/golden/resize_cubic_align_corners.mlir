module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x1x4xf32>) -> (tensor<1x1x7xf32>) {
    %1 = "stablehlo.constant"() {value = dense<[0, 0, 1, 0, 2, 1, 3]> : tensor<7xi64>} : () -> tensor<7xi64>
    %2 = "stablehlo.reshape"(%1) : (tensor<7xi64>) -> tensor<7x1xi64>
    %3 = "stablehlo.gather"(%0, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>, tensor<7x1xi64>) -> tensor<1x1x7xf32>
    %4 = "stablehlo.constant"() {value = dense<[1.000000000e+00, -9.375000000e-02, 1.000000000e+00, -9.375000000e-02, 1.000000000e+00, -9.375000000e-02, 1.000000000e+00]> : tensor<7xf32>} : () -> tensor<7xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) {broadcast_dimensions = array<i64: 2>} : (tensor<7xf32>) -> tensor<1x1x7xf32>
    %6 = "stablehlo.multiply"(%3, %5) : (tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %7 = "stablehlo.constant"() {value = dense<[0, 0, 0, 1, 0, 2, 0]> : tensor<7xi64>} : () -> tensor<7xi64>
    %8 = "stablehlo.reshape"(%7) : (tensor<7xi64>) -> tensor<7x1xi64>
    %9 = "stablehlo.gather"(%0, %8) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>, tensor<7x1xi64>) -> tensor<1x1x7xf32>
    %10 = "stablehlo.constant"() {value = dense<[0.000000000e+00, 5.937500000e-01, 0.000000000e+00, 5.937500000e-01, 0.000000000e+00, 5.937500000e-01, 0.000000000e+00]> : tensor<7xf32>} : () -> tensor<7xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) {broadcast_dimensions = array<i64: 2>} : (tensor<7xf32>) -> tensor<1x1x7xf32>
    %12 = "stablehlo.multiply"(%9, %11) : (tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %13 = "stablehlo.constant"() {value = dense<[false, true, false, true, false, true, false]> : tensor<7xi1>} : () -> tensor<7xi1>
    %14 = "stablehlo.broadcast_in_dim"(%13) {broadcast_dimensions = array<i64: 2>} : (tensor<7xi1>) -> tensor<1x1x7xi1>
    %15 = "stablehlo.add"(%6, %12) : (tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %16 = "stablehlo.select"(%14, %15, %6) : (tensor<1x1x7xi1>, tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %17 = "stablehlo.constant"() {value = dense<[0, 1, 0, 2, 0, 3, 0]> : tensor<7xi64>} : () -> tensor<7xi64>
    %18 = "stablehlo.reshape"(%17) : (tensor<7xi64>) -> tensor<7x1xi64>
    %19 = "stablehlo.gather"(%0, %18) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>, tensor<7x1xi64>) -> tensor<1x1x7xf32>
    %20 = "stablehlo.constant"() {value = dense<[0.000000000e+00, 5.937500000e-01, 0.000000000e+00, 5.937500000e-01, 0.000000000e+00, 5.937500000e-01, 0.000000000e+00]> : tensor<7xf32>} : () -> tensor<7xf32>
    %21 = "stablehlo.broadcast_in_dim"(%20) {broadcast_dimensions = array<i64: 2>} : (tensor<7xf32>) -> tensor<1x1x7xf32>
    %22 = "stablehlo.multiply"(%19, %21) : (tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %23 = "stablehlo.constant"() {value = dense<[false, true, false, true, false, true, false]> : tensor<7xi1>} : () -> tensor<7xi1>
    %24 = "stablehlo.broadcast_in_dim"(%23) {broadcast_dimensions = array<i64: 2>} : (tensor<7xi1>) -> tensor<1x1x7xi1>
    %25 = "stablehlo.add"(%16, %22) : (tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %26 = "stablehlo.select"(%24, %25, %16) : (tensor<1x1x7xi1>, tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %27 = "stablehlo.constant"() {value = dense<[0, 2, 0, 3, 0, 3, 0]> : tensor<7xi64>} : () -> tensor<7xi64>
    %28 = "stablehlo.reshape"(%27) : (tensor<7xi64>) -> tensor<7x1xi64>
    %29 = "stablehlo.gather"(%0, %28) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>} : (tensor<1x1x4xf32>, tensor<7x1xi64>) -> tensor<1x1x7xf32>
    %30 = "stablehlo.constant"() {value = dense<[0.000000000e+00, -9.375000000e-02, 0.000000000e+00, -9.375000000e-02, 0.000000000e+00, -9.375000000e-02, 0.000000000e+00]> : tensor<7xf32>} : () -> tensor<7xf32>
    %31 = "stablehlo.broadcast_in_dim"(%30) {broadcast_dimensions = array<i64: 2>} : (tensor<7xf32>) -> tensor<1x1x7xf32>
    %32 = "stablehlo.multiply"(%29, %31) : (tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %33 = "stablehlo.constant"() {value = dense<[false, true, false, true, false, true, false]> : tensor<7xi1>} : () -> tensor<7xi1>
    %34 = "stablehlo.broadcast_in_dim"(%33) {broadcast_dimensions = array<i64: 2>} : (tensor<7xi1>) -> tensor<1x1x7xi1>
    %35 = "stablehlo.add"(%26, %32) : (tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    %36 = "stablehlo.select"(%34, %35, %26) : (tensor<1x1x7xi1>, tensor<1x1x7xf32>, tensor<1x1x7xf32>) -> tensor<1x1x7xf32>
    "func.return"(%36) : (tensor<1x1x7xf32>) -> ()
  }
}
