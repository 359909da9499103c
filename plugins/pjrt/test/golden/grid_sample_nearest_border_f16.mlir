module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x1x5xf16>, %1: tensor<1x3x1xf16>) -> (tensor<1x1x3xf16>) {
    %2 = "stablehlo.convert"(%0) : (tensor<1x1x5xf16>) -> tensor<1x1x5xf64>
    %3 = "stablehlo.convert"(%1) : (tensor<1x3x1xf16>) -> tensor<1x3x1xf64>
    %4 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 3, 1>, strides = array<i64: 1, 1, 1>} : (tensor<1x3x1xf64>) -> tensor<1x3x1xf64>
    %5 = "stablehlo.reshape"(%4) : (tensor<1x3x1xf64>) -> tensor<1x3xf64>
    %6 = "stablehlo.compare"(%5, %5) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xi1>
    %7 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %8 = "stablehlo.add"(%5, %7) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %9 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %10 = "stablehlo.divide"(%8, %9) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %11 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %12 = "stablehlo.multiply"(%10, %11) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %13 = "stablehlo.round_nearest_even"(%12) : (tensor<1x3xf64>) -> tensor<1x3xf64>
    %14 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %15 = "stablehlo.compare"(%13, %14) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xi1>
    %16 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %17 = "stablehlo.compare"(%13, %16) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xi1>
    %18 = "stablehlo.or"(%15, %17) : (tensor<1x3xi1>, tensor<1x3xi1>) -> tensor<1x3xi1>
    %19 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %20 = "stablehlo.maximum"(%13, %19) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %21 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %22 = "stablehlo.minimum"(%20, %21) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %23 = "stablehlo.select"(%18, %22, %13) : (tensor<1x3xi1>, tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %24 = "stablehlo.constant"() {value = dense<0xC30C6BF526340000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %25 = "stablehlo.maximum"(%23, %24) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %26 = "stablehlo.constant"() {value = dense<0x430C6BF526340000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %27 = "stablehlo.minimum"(%25, %26) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %28 = "stablehlo.convert"(%27) : (tensor<1x3xf64>) -> tensor<1x3xi64>
    %29 = "stablehlo.convert"(%28) : (tensor<1x3xi64>) -> tensor<1x3xf64>
    %30 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %31 = "stablehlo.maximum"(%29, %30) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %32 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x3xf64>} : () -> tensor<1x3xf64>
    %33 = "stablehlo.minimum"(%31, %32) : (tensor<1x3xf64>, tensor<1x3xf64>) -> tensor<1x3xf64>
    %34 = "stablehlo.convert"(%33) : (tensor<1x3xf64>) -> tensor<1x3xi64>
    %35 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x3xi64>
    %36 = "stablehlo.reshape"(%35) : (tensor<1x3xi64>) -> tensor<1x3x1xi64>
    %37 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x3xf64>} : () -> tensor<1x1x3xf64>
    %38 = "stablehlo.reshape"(%34) : (tensor<1x3xi64>) -> tensor<1x3x1xi64>
    %39 = "stablehlo.concatenate"(%36, %38) {dimension = 2 : i64} : (tensor<1x3x1xi64>, tensor<1x3x1xi64>) -> tensor<1x3x2xi64>
    %40 = "stablehlo.gather"(%2, %39) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2], start_index_map = [0, 2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1>} : (tensor<1x1x5xf64>, tensor<1x3x2xi64>) -> tensor<1x1x3xf64>
    %41 = "stablehlo.add"(%37, %40) : (tensor<1x1x3xf64>, tensor<1x1x3xf64>) -> tensor<1x1x3xf64>
    %42 = "stablehlo.broadcast_in_dim"(%6) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x3xi1>) -> tensor<1x1x3xi1>
    %43 = "stablehlo.constant"() {value = dense<0x7FF8000000000000> : tensor<1x1x3xf64>} : () -> tensor<1x1x3xf64>
    %44 = "stablehlo.select"(%42, %43, %41) : (tensor<1x1x3xi1>, tensor<1x1x3xf64>, tensor<1x1x3xf64>) -> tensor<1x1x3xf64>
    %45 = "stablehlo.convert"(%44) : (tensor<1x1x3xf64>) -> tensor<1x1x3xf16>
    "func.return"(%45) : (tensor<1x1x3xf16>) -> ()
  }
}
