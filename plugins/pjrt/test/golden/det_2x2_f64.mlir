module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x2xf64>) -> (tensor<f64>) {
    %1 = "stablehlo.reshape"(%0) : (tensor<2x2xf64>) -> tensor<1x2x2xf64>
    %2 = "stablehlo.slice"(%1) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 2>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x2xf64>) -> tensor<1x1x2xf64>
    %3 = "stablehlo.reshape"(%2) : (tensor<1x1x2xf64>) -> tensor<1x2xf64>
    %4 = "stablehlo.slice"(%1) {start_indices = array<i64: 0, 1, 0>, limit_indices = array<i64: 1, 2, 2>, strides = array<i64: 1, 1, 1>} : (tensor<1x2x2xf64>) -> tensor<1x1x2xf64>
    %5 = "stablehlo.reshape"(%4) : (tensor<1x1x2xf64>) -> tensor<1x2xf64>
    %6 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %7 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %8 = "stablehlo.compare"(%7, %7) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
    %9 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2xf64>) -> tensor<1x1xf64>
    %10 = "stablehlo.reshape"(%9) : (tensor<1x1xf64>) -> tensor<1xf64>
    %11 = "stablehlo.constant"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %12 = "stablehlo.slice"(%5) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2xf64>) -> tensor<1x1xf64>
    %13 = "stablehlo.reshape"(%12) : (tensor<1x1xf64>) -> tensor<1xf64>
    %14 = "stablehlo.abs"(%13) : (tensor<1xf64>) -> tensor<1xf64>
    %15 = "stablehlo.abs"(%10) : (tensor<1xf64>) -> tensor<1xf64>
    %16 = "stablehlo.compare"(%14, %15) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
    %17 = "stablehlo.compare"(%13, %13) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
    %18 = "stablehlo.or"(%16, %17) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
    %19 = "stablehlo.select"(%18, %13, %10) : (tensor<1xi1>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %20 = "stablehlo.constant"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %21 = "stablehlo.select"(%18, %20, %11) : (tensor<1xi1>, tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %22 = "stablehlo.not"(%8) : (tensor<1xi1>) -> tensor<1xi1>
    %23 = "stablehlo.compare"(%19, %7) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
    %24 = "stablehlo.and"(%22, %23) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
    %25 = "stablehlo.multiply"(%7, %6) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %26 = "stablehlo.select"(%24, %25, %7) : (tensor<1xi1>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %27 = "stablehlo.or"(%8, %24) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
    %28 = "stablehlo.constant"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %29 = "stablehlo.compare"(%21, %28) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %30 = "stablehlo.broadcast_in_dim"(%29) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi1>) -> tensor<1x2xi1>
    %31 = "stablehlo.select"(%30, %5, %3) : (tensor<1x2xi1>, tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
    %32 = "stablehlo.select"(%30, %3, %5) : (tensor<1x2xi1>, tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
    %33 = "stablehlo.constant"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %34 = "stablehlo.compare"(%21, %33) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %35 = "stablehlo.negate"(%6) : (tensor<1xf64>) -> tensor<1xf64>
    %36 = "stablehlo.select"(%34, %35, %6) : (tensor<1xi1>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %37 = "stablehlo.multiply"(%36, %19) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %38 = "stablehlo.slice"(%32) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2xf64>) -> tensor<1x1xf64>
    %39 = "stablehlo.reshape"(%38) : (tensor<1x1xf64>) -> tensor<1xf64>
    %40 = "stablehlo.divide"(%39, %19) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %41 = "stablehlo.broadcast_in_dim"(%40) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x2xf64>
    %42 = "stablehlo.multiply"(%41, %31) : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
    %43 = "stablehlo.subtract"(%32, %42) : (tensor<1x2xf64>, tensor<1x2xf64>) -> tensor<1x2xf64>
    %44 = "stablehlo.slice"(%43) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 1, 2>, strides = array<i64: 1, 1>} : (tensor<1x2xf64>) -> tensor<1x1xf64>
    %45 = "stablehlo.reshape"(%44) : (tensor<1x1xf64>) -> tensor<1xf64>
    %46 = "stablehlo.constant"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %47 = "stablehlo.not"(%27) : (tensor<1xi1>) -> tensor<1xi1>
    %48 = "stablehlo.compare"(%45, %7) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
    %49 = "stablehlo.and"(%47, %48) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
    %50 = "stablehlo.multiply"(%7, %37) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %51 = "stablehlo.select"(%49, %50, %26) : (tensor<1xi1>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %52 = "stablehlo.or"(%27, %49) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
    %53 = "stablehlo.constant"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %54 = "stablehlo.compare"(%46, %53) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %55 = "stablehlo.negate"(%37) : (tensor<1xf64>) -> tensor<1xf64>
    %56 = "stablehlo.select"(%54, %55, %37) : (tensor<1xi1>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %57 = "stablehlo.multiply"(%56, %45) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %58 = "stablehlo.select"(%52, %51, %57) : (tensor<1xi1>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %59 = "stablehlo.reshape"(%58) : (tensor<1xf64>) -> tensor<f64>
    "func.return"(%59) : (tensor<f64>) -> ()
  }
}
