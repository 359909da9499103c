module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x4x4xf32>) -> (tensor<1x2x8x8xf32>) {
    %1 = "stablehlo.constant"() {value = dense<[0, 0, 0, 1, 1, 2, 2, 3]> : tensor<8xi64>} : () -> tensor<8xi64>
    %2 = "stablehlo.reshape"(%1) : (tensor<8xi64>) -> tensor<8x1xi64>
    %3 = "stablehlo.gather"(%0, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1, 3], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 4>} : (tensor<1x2x4x4xf32>, tensor<8x1xi64>) -> tensor<1x2x8x4xf32>
    %4 = "stablehlo.constant"() {value = dense<[2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01]> : tensor<8xf32>} : () -> tensor<8xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) {broadcast_dimensions = array<i64: 2>} : (tensor<8xf32>) -> tensor<1x2x8x4xf32>
    %6 = "stablehlo.multiply"(%3, %5) : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
    %7 = "stablehlo.constant"() {value = dense<[0, 1, 1, 2, 2, 3, 3, 3]> : tensor<8xi64>} : () -> tensor<8xi64>
    %8 = "stablehlo.reshape"(%7) : (tensor<8xi64>) -> tensor<8x1xi64>
    %9 = "stablehlo.gather"(%0, %8) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1, 3], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 4>} : (tensor<1x2x4x4xf32>, tensor<8x1xi64>) -> tensor<1x2x8x4xf32>
    %10 = "stablehlo.constant"() {value = dense<[7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01]> : tensor<8xf32>} : () -> tensor<8xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) {broadcast_dimensions = array<i64: 2>} : (tensor<8xf32>) -> tensor<1x2x8x4xf32>
    %12 = "stablehlo.multiply"(%9, %11) : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
    %13 = "stablehlo.constant"() {value = dense<[true, true, true, true, true, true, true, true]> : tensor<8xi1>} : () -> tensor<8xi1>
    %14 = "stablehlo.broadcast_in_dim"(%13) {broadcast_dimensions = array<i64: 2>} : (tensor<8xi1>) -> tensor<1x2x8x4xi1>
    %15 = "stablehlo.add"(%6, %12) : (tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
    %16 = "stablehlo.select"(%14, %15, %6) : (tensor<1x2x8x4xi1>, tensor<1x2x8x4xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
    %17 = "stablehlo.constant"() {value = dense<[0, 0, 0, 1, 1, 2, 2, 3]> : tensor<8xi64>} : () -> tensor<8xi64>
    %18 = "stablehlo.reshape"(%17) : (tensor<8xi64>) -> tensor<8x1xi64>
    %19 = "stablehlo.gather"(%16, %18) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1, 2], collapsed_slice_dims = [3], start_index_map = [3], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 8, 1>} : (tensor<1x2x8x4xf32>, tensor<8x1xi64>) -> tensor<1x2x8x8xf32>
    %20 = "stablehlo.constant"() {value = dense<[2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01]> : tensor<8xf32>} : () -> tensor<8xf32>
    %21 = "stablehlo.broadcast_in_dim"(%20) {broadcast_dimensions = array<i64: 3>} : (tensor<8xf32>) -> tensor<1x2x8x8xf32>
    %22 = "stablehlo.multiply"(%19, %21) : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %23 = "stablehlo.constant"() {value = dense<[0, 1, 1, 2, 2, 3, 3, 3]> : tensor<8xi64>} : () -> tensor<8xi64>
    %24 = "stablehlo.reshape"(%23) : (tensor<8xi64>) -> tensor<8x1xi64>
    %25 = "stablehlo.gather"(%16, %24) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1, 2], collapsed_slice_dims = [3], start_index_map = [3], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 8, 1>} : (tensor<1x2x8x4xf32>, tensor<8x1xi64>) -> tensor<1x2x8x8xf32>
    %26 = "stablehlo.constant"() {value = dense<[7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01, 7.500000000e-01, 2.500000000e-01]> : tensor<8xf32>} : () -> tensor<8xf32>
    %27 = "stablehlo.broadcast_in_dim"(%26) {broadcast_dimensions = array<i64: 3>} : (tensor<8xf32>) -> tensor<1x2x8x8xf32>
    %28 = "stablehlo.multiply"(%25, %27) : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %29 = "stablehlo.constant"() {value = dense<[true, true, true, true, true, true, true, true]> : tensor<8xi1>} : () -> tensor<8xi1>
    %30 = "stablehlo.broadcast_in_dim"(%29) {broadcast_dimensions = array<i64: 3>} : (tensor<8xi1>) -> tensor<1x2x8x8xi1>
    %31 = "stablehlo.add"(%22, %28) : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    %32 = "stablehlo.select"(%30, %31, %22) : (tensor<1x2x8x8xi1>, tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    "func.return"(%32) : (tensor<1x2x8x8xf32>) -> ()
  }
}
