module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x5xf32>) -> (tensor<3x2xi64>) {
    %1 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<3x5xf32>} : () -> tensor<3x5xf32>
    %2 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %3 = "stablehlo.select"(%2, %1, %0) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %4 = "stablehlo.constant"() {value = dense<0x7FC00000> : tensor<3x5xf32>} : () -> tensor<3x5xf32>
    %5 = "stablehlo.compare"(%3, %3) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %6 = "stablehlo.select"(%5, %4, %3) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %7 = "stablehlo.bitcast_convert"(%6) : (tensor<3x5xf32>) -> tensor<3x5xi32>
    %8 = "stablehlo.constant"() {value = dense<0> : tensor<3x5xi32>} : () -> tensor<3x5xi32>
    %9 = "stablehlo.compare"(%7, %8) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi1>
    %10 = "stablehlo.constant"() {value = dense<2147483647> : tensor<3x5xi32>} : () -> tensor<3x5xi32>
    %11 = "stablehlo.xor"(%7, %10) : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
    %12 = "stablehlo.select"(%9, %11, %7) : (tensor<3x5xi1>, tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
    %13 = "stablehlo.convert"(%12) : (tensor<3x5xi32>) -> tensor<3x5xi64>
    %14 = "stablehlo.constant"() {value = dense<-1> : tensor<3x5xi64>} : () -> tensor<3x5xi64>
    %15 = "stablehlo.subtract"(%14, %13) : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %16 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<3x5xi64>
    %17 = "stablehlo.constant"() {value = dense<4294967296> : tensor<3x5xi64>} : () -> tensor<3x5xi64>
    %18 = "stablehlo.multiply"(%15, %17) : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %19 = "stablehlo.add"(%18, %16) : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %20 = "stablehlo.sort"(%19) ({
    ^bb0(%21: tensor<i64>, %22: tensor<i64>):
      %23 = "stablehlo.compare"(%21, %22) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%23) : (tensor<i1>) -> ()
    }) {dimension = 1 : i64, is_stable = false} : (tensor<3x5xi64>) -> tensor<3x5xi64>
    %24 = "stablehlo.slice"(%20) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 3, 2>, strides = array<i64: 1, 1>} : (tensor<3x5xi64>) -> tensor<3x2xi64>
    %25 = "stablehlo.constant"() {value = dense<4294967295> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
    %26 = "stablehlo.and"(%24, %25) : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
    "func.return"(%26) : (tensor<3x2xi64>) -> ()
  }
}
