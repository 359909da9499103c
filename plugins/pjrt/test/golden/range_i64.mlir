module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<4xi64>) {
    %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<4xi64>
    %1 = "stablehlo.constant"() {value = dense<[10]> : tensor<1xi64>} : () -> tensor<1xi64>
    %2 = "stablehlo.constant"() {value = dense<[-3]> : tensor<1xi64>} : () -> tensor<1xi64>
    %3 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi64>) -> tensor<4xi64>
    %4 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi64>) -> tensor<4xi64>
    %5 = "stablehlo.multiply"(%0, %4) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
    %6 = "stablehlo.add"(%5, %3) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
    "func.return"(%6) : (tensor<4xi64>) -> ()
  }
}
