module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x3xf32>) {
    %0 = "stablehlo.constant"() {value = dense<0x3FC00000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    "func.return"(%0) : (tensor<2x3xf32>) -> ()
  }
}
