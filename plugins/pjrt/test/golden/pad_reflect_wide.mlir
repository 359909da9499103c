module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<4xf32>) -> (tensor<9xf32>) {
    %1 = "stablehlo.constant"() {value = dense<[1, 2, 3, 2, 1, 0, 1, 2, 3]> : tensor<9xi64>} : () -> tensor<9xi64>
    %2 = "stablehlo.reshape"(%1) : (tensor<9xi64>) -> tensor<9x1xi64>
    %3 = "stablehlo.gather"(%0, %2) {dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>} : (tensor<4xf32>, tensor<9x1xi64>) -> tensor<9xf32>
    "func.return"(%3) : (tensor<9xf32>) -> ()
  }
}
