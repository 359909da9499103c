module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3xui8>) -> (tensor<1x2xi64>, tensor<i1>) {
    %1 = "stablehlo.constant"() {value = dense<0> : tensor<3xui8>} : () -> tensor<3xui8>
    %2 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xi1>
    %3 = "stablehlo.convert"(%2) : (tensor<3xi1>) -> tensor<3xi64>
    %4 = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %5 = "stablehlo.reduce"(%3, %4) ({
    ^bb0(%6: tensor<i64>, %7: tensor<i64>):
      %8 = "stablehlo.add"(%6, %7) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%8) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
    %9 = "stablehlo.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
    %10 = "stablehlo.compare"(%5, %9) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %11 = "stablehlo.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
    %12 = "stablehlo.reduce_window"(%3, %11) ({
    ^bb0(%13: tensor<i64>, %14: tensor<i64>):
      %15 = "stablehlo.add"(%13, %14) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%15) : (tensor<i64>) -> ()
    }) {window_dimensions = array<i64: 3>, window_strides = array<i64: 1>, window_dilations = array<i64: 1>, padding = dense<[[2, 0]]> : tensor<1x2xi64>} : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
    %16 = "stablehlo.constant"() {value = dense<1> : tensor<3xi64>} : () -> tensor<3xi64>
    %17 = "stablehlo.subtract"(%12, %16) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
    %18 = "stablehlo.constant"() {value = dense<2> : tensor<3xi64>} : () -> tensor<3xi64>
    %19 = "stablehlo.minimum"(%17, %18) : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
    %20 = "stablehlo.select"(%2, %19, %18) : (tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
    %21 = "stablehlo.reshape"(%20) : (tensor<3xi64>) -> tensor<3x1xi64>
    %22 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<3xi64>
    %23 = "stablehlo.reshape"(%22) : (tensor<3xi64>) -> tensor<3x1xi64>
    %24 = "stablehlo.constant"() {value = dense<-1> : tensor<3x1xi64>} : () -> tensor<3x1xi64>
    %25 = "stablehlo.scatter"(%24, %21, %23) ({
    ^bb0(%26: tensor<i64>, %27: tensor<i64>):
      %28 = "stablehlo.maximum"(%26, %27) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%28) : (tensor<i64>) -> ()
    }) {indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false} : (tensor<3x1xi64>, tensor<3x1xi64>, tensor<3x1xi64>) -> tensor<3x1xi64>
    %29 = "stablehlo.slice"(%25) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<3x1xi64>) -> tensor<2x1xi64>
    %30 = "stablehlo.transpose"(%29) {permutation = array<i64: 1, 0>} : (tensor<2x1xi64>) -> tensor<1x2xi64>
    "func.return"(%30, %10) : (tensor<1x2xi64>, tensor<i1>) -> ()
  }
}
