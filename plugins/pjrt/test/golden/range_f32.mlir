module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<5xf32>) {
    %0 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<5xf32>
    %1 = "stablehlo.constant"() {value = dense<0x3FC00000> : tensor<5xf32>} : () -> tensor<5xf32>
    %2 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<5xf32>} : () -> tensor<5xf32>
    %3 = "stablehlo.multiply"(%0, %2) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %4 = "stablehlo.add"(%3, %1) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    "func.return"(%4) : (tensor<5xf32>) -> ()
  }
}
