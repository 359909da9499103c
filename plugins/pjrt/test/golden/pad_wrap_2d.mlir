module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui8>) -> (tensor<2x6xui8>) {
    %1 = "stablehlo.constant"() {value = dense<[1, 2, 0, 1, 2, 0]> : tensor<6xi64>} : () -> tensor<6xi64>
    %2 = "stablehlo.reshape"(%1) : (tensor<6xi64>) -> tensor<6x1xi64>
    %3 = "stablehlo.gather"(%0, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1>} : (tensor<2x3xui8>, tensor<6x1xi64>) -> tensor<2x6xui8>
    "func.return"(%3) : (tensor<2x6xui8>) -> ()
  }
}
