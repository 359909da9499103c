module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x4xi32>) -> (tensor<4xi64>) {
    %1 = "stablehlo.constant"() {value = dense<2147483647> : tensor<i32>} : () -> tensor<i32>
    %2 = "stablehlo.reduce"(%0, %1) ({
    ^bb0(%3: tensor<i32>, %4: tensor<i32>):
      %5 = "stablehlo.minimum"(%3, %4) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%5) : (tensor<i32>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<3x4xi32>, tensor<i32>) -> tensor<4xi32>
    %6 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<4xi32>) -> tensor<3x4xi32>
    %7 = "stablehlo.compare"(%0, %6) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3x4xi32>, tensor<3x4xi32>) -> tensor<3x4xi1>
    %8 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3x4xi64>
    %9 = "stablehlo.constant"() {value = dense<-1> : tensor<3x4xi64>} : () -> tensor<3x4xi64>
    %10 = "stablehlo.select"(%7, %8, %9) : (tensor<3x4xi1>, tensor<3x4xi64>, tensor<3x4xi64>) -> tensor<3x4xi64>
    %11 = "stablehlo.constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
    %12 = "stablehlo.reduce"(%10, %11) ({
    ^bb0(%13: tensor<i64>, %14: tensor<i64>):
      %15 = "stablehlo.maximum"(%13, %14) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%15) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<3x4xi64>, tensor<i64>) -> tensor<4xi64>
    "func.return"(%12) : (tensor<4xi64>) -> ()
  }
}
