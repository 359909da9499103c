module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x6xi64>, tensor<i1>) {
    %1 = "stablehlo.reshape"(%0) : (tensor<2x3xf32>) -> tensor<6xf32>
    %2 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<6xf32>} : () -> tensor<6xf32>
    %3 = "stablehlo.compare"(%1, %2) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %4 = "stablehlo.convert"(%3) : (tensor<6xi1>) -> tensor<6xi64>
    %5 = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %6 = "stablehlo.reduce"(%4, %5) ({
    ^bb0(%7: tensor<i64>, %8: tensor<i64>):
      %9 = "stablehlo.add"(%7, %8) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%9) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<6xi64>, tensor<i64>) -> tensor<i64>
    %10 = "stablehlo.constant"() {value = dense<6> : tensor<i64>} : () -> tensor<i64>
    %11 = "stablehlo.compare"(%6, %10) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %12 = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %13 = "stablehlo.reduce_window"(%4, %12) ({
    ^bb0(%14: tensor<i64>, %15: tensor<i64>):
      %16 = "stablehlo.add"(%14, %15) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%16) : (tensor<i64>) -> ()
    }) {window_dimensions = array<i64: 6>, window_strides = array<i64: 1>, window_dilations = array<i64: 1>, padding = dense<[[5, 0]]> : tensor<1x2xi64>} : (tensor<6xi64>, tensor<i64>) -> tensor<6xi64>
    %17 = "stablehlo.constant"() {value = dense<1> : tensor<6xi64>} : () -> tensor<6xi64>
    %18 = "stablehlo.subtract"(%13, %17) : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi64>
    %19 = "stablehlo.constant"() {value = dense<6> : tensor<6xi64>} : () -> tensor<6xi64>
    %20 = "stablehlo.minimum"(%18, %19) : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi64>
    %21 = "stablehlo.select"(%3, %20, %19) : (tensor<6xi1>, tensor<6xi64>, tensor<6xi64>) -> tensor<6xi64>
    %22 = "stablehlo.reshape"(%21) : (tensor<6xi64>) -> tensor<6x1xi64>
    %23 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<2x3xi64>
    %24 = "stablehlo.reshape"(%23) : (tensor<2x3xi64>) -> tensor<6x1xi64>
    %25 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi64>
    %26 = "stablehlo.reshape"(%25) : (tensor<2x3xi64>) -> tensor<6x1xi64>
    %27 = "stablehlo.concatenate"(%24, %26) {dimension = 1 : i64} : (tensor<6x1xi64>, tensor<6x1xi64>) -> tensor<6x2xi64>
    %28 = "stablehlo.constant"() {value = dense<-1> : tensor<7x2xi64>} : () -> tensor<7x2xi64>
    %29 = "stablehlo.scatter"(%28, %22, %27) ({
    ^bb0(%30: tensor<i64>, %31: tensor<i64>):
      %32 = "stablehlo.maximum"(%30, %31) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%32) : (tensor<i64>) -> ()
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false} : (tensor<7x2xi64>, tensor<6x1xi64>, tensor<6x2xi64>) -> tensor<7x2xi64>
    %33 = "stablehlo.slice"(%29) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 6, 2>, strides = array<i64: 1, 1>} : (tensor<7x2xi64>) -> tensor<6x2xi64>
    %34 = "stablehlo.transpose"(%33) {permutation = array<i64: 1, 0>} : (tensor<6x2xi64>) -> tensor<2x6xi64>
    "func.return"(%34, %11) : (tensor<2x6xi64>, tensor<i1>) -> ()
  }
}
