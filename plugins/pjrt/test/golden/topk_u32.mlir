module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x5xui32>) -> (tensor<3x2xi64>) {
    %1 = "stablehlo.convert"(%0) : (tensor<3x5xui32>) -> tensor<3x5xi32>
    %2 = "stablehlo.constant"() {value = dense<-2147483648> : tensor<3x5xi32>} : () -> tensor<3x5xi32>
    %3 = "stablehlo.xor"(%1, %2) : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
    %4 = "stablehlo.convert"(%3) : (tensor<3x5xi32>) -> tensor<3x5xi64>
    %5 = "stablehlo.constant"() {value = dense<-1> : tensor<3x5xi64>} : () -> tensor<3x5xi64>
    %6 = "stablehlo.subtract"(%5, %4) : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %7 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<3x5xi64>
    %8 = "stablehlo.constant"() {value = dense<4294967296> : tensor<3x5xi64>} : () -> tensor<3x5xi64>
    %9 = "stablehlo.multiply"(%6, %8) : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %10 = "stablehlo.add"(%9, %7) : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %11 = "stablehlo.sort"(%10) ({
    ^bb0(%12: tensor<i64>, %13: tensor<i64>):
      %14 = "stablehlo.compare"(%12, %13) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%14) : (tensor<i1>) -> ()
    }) {dimension = 1 : i64, is_stable = false} : (tensor<3x5xi64>) -> tensor<3x5xi64>
    %15 = "stablehlo.slice"(%11) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 3, 2>, strides = array<i64: 1, 1>} : (tensor<3x5xi64>) -> tensor<3x2xi64>
    %16 = "stablehlo.constant"() {value = dense<4294967295> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
    %17 = "stablehlo.and"(%15, %16) : (tensor<3x2xi64>, tensor<3x2xi64>) -> tensor<3x2xi64>
    "func.return"(%17) : (tensor<3x2xi64>) -> ()
  }
}
