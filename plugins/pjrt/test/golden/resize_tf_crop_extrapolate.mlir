module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3xf32>) -> (tensor<3xf32>) {
    %1 = "stablehlo.constant"() {value = dense<[1, 2, 0]> : tensor<3xi64>} : () -> tensor<3xi64>
    %2 = "stablehlo.reshape"(%1) : (tensor<3xi64>) -> tensor<3x1xi64>
    %3 = "stablehlo.gather"(%0, %2) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>} : (tensor<3xf32>, tensor<3x1xi64>) -> tensor<3xf32>
    %4 = "stablehlo.constant"() {value = dense<[false, false, true]> : tensor<3xi1>} : () -> tensor<3xi1>
    %5 = "stablehlo.broadcast_in_dim"(%4) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi1>) -> tensor<3xi1>
    %6 = "stablehlo.constant"() {value = dense<0xC0E00000> : tensor<3xf32>} : () -> tensor<3xf32>
    %7 = "stablehlo.select"(%5, %6, %3) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "func.return"(%7) : (tensor<3xf32>) -> ()
  }
}
