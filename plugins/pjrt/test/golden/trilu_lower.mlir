module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x4xf32>) -> (tensor<3x4xf32>) {
    %1 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3x4xi64>
    %2 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<3x4xi64>
    %3 = "stablehlo.constant"() {value = dense<1> : tensor<3x4xi64>} : () -> tensor<3x4xi64>
    %4 = "stablehlo.add"(%1, %3) : (tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi64>
    %5 = "stablehlo.compare"(%2, %4) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi1>
    %6 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<3x4xf32>} : () -> tensor<3x4xf32>
    %7 = "stablehlo.select"(%5, %0, %6) : (tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    "func.return"(%7) : (tensor<3x4xf32>) -> ()
  }
}
