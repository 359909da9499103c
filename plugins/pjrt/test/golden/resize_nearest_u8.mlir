module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x1x3xui8>) -> (tensor<1x1x6xui8>) {
    %1 = "stablehlo.constant"() {value = dense<[0, 1, 1, 2, 2, 2]> : tensor<6xi64>} : () -> tensor<6xi64>
    %2 = "stablehlo.reshape"(%1) : (tensor<6xi64>) -> tensor<6x1xi64>
    %3 = "stablehlo.gather"(%0, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], collapsed_slice_dims = [2], start_index_map = [2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>} : (tensor<1x1x3xui8>, tensor<6x1xi64>) -> tensor<1x1x6xui8>
    "func.return"(%3) : (tensor<1x1x6xui8>) -> ()
  }
}
