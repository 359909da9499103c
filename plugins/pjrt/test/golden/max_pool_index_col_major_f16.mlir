module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x1x6xf16>) -> (tensor<1x1x2xi64>) {
    %1 = "stablehlo.convert"(%0) : (tensor<1x1x6xf16>) -> tensor<1x1x6xf32>
    %2 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %3 = "stablehlo.pad"(%1, %2) {edge_padding_low = array<i64: 0, 0, 0>, edge_padding_high = array<i64: 0, 0, 0>, interior_padding = array<i64: 0, 0, 0>} : (tensor<1x1x6xf32>, tensor<f32>) -> tensor<1x1x6xf32>
    %4 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x1x2xi64>
    %5 = "stablehlo.constant"() {value = dense<2> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %6 = "stablehlo.multiply"(%4, %5) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %7 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x1x2xi64>
    %8 = "stablehlo.constant"() {value = dense<1> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %9 = "stablehlo.multiply"(%7, %8) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %10 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x1x2xi64>
    %11 = "stablehlo.add"(%9, %10) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %12 = "stablehlo.constant"() {value = dense<6> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %13 = "stablehlo.multiply"(%11, %12) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %14 = "stablehlo.constant"() {value = dense<false> : tensor<1x1x2xi1>} : () -> tensor<1x1x2xi1>
    %15 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<1x1x2xf32>} : () -> tensor<1x1x2xf32>
    %16 = "stablehlo.constant"() {value = dense<-1> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %17 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 1, 1, 3>, strides = array<i64: 1, 1, 2>} : (tensor<1x1x6xf32>) -> tensor<1x1x2xf32>
    %18 = "stablehlo.constant"() {value = dense<0> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %19 = "stablehlo.add"(%6, %18) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %20 = "stablehlo.constant"() {value = dense<0> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %21 = "stablehlo.compare"(%19, %20) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi1>
    %22 = "stablehlo.constant"() {value = dense<6> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %23 = "stablehlo.compare"(%19, %22) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi1>
    %24 = "stablehlo.and"(%21, %23) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %25 = "stablehlo.constant"() {value = dense<1> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %26 = "stablehlo.multiply"(%19, %25) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %27 = "stablehlo.compare"(%17, %15) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %28 = "stablehlo.compare"(%17, %17) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %29 = "stablehlo.compare"(%15, %15) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %30 = "stablehlo.not"(%14) : (tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %31 = "stablehlo.and"(%28, %29) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %32 = "stablehlo.or"(%27, %31) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %33 = "stablehlo.or"(%30, %32) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %34 = "stablehlo.and"(%24, %33) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %35 = "stablehlo.select"(%34, %17, %15) : (tensor<1x1x2xi1>, tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    %36 = "stablehlo.add"(%13, %26) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %37 = "stablehlo.select"(%34, %36, %16) : (tensor<1x1x2xi1>, tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %38 = "stablehlo.or"(%14, %24) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %39 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0, 1>, limit_indices = array<i64: 1, 1, 4>, strides = array<i64: 1, 1, 2>} : (tensor<1x1x6xf32>) -> tensor<1x1x2xf32>
    %40 = "stablehlo.constant"() {value = dense<1> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %41 = "stablehlo.add"(%6, %40) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %42 = "stablehlo.constant"() {value = dense<0> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %43 = "stablehlo.compare"(%41, %42) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi1>
    %44 = "stablehlo.constant"() {value = dense<6> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %45 = "stablehlo.compare"(%41, %44) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi1>
    %46 = "stablehlo.and"(%43, %45) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %47 = "stablehlo.constant"() {value = dense<1> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %48 = "stablehlo.multiply"(%41, %47) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %49 = "stablehlo.compare"(%39, %35) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %50 = "stablehlo.compare"(%39, %39) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %51 = "stablehlo.compare"(%35, %35) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %52 = "stablehlo.not"(%38) : (tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %53 = "stablehlo.and"(%50, %51) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %54 = "stablehlo.or"(%49, %53) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %55 = "stablehlo.or"(%52, %54) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %56 = "stablehlo.and"(%46, %55) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %57 = "stablehlo.select"(%56, %39, %35) : (tensor<1x1x2xi1>, tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    %58 = "stablehlo.add"(%13, %48) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %59 = "stablehlo.select"(%56, %58, %37) : (tensor<1x1x2xi1>, tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %60 = "stablehlo.or"(%38, %46) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %61 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0, 2>, limit_indices = array<i64: 1, 1, 5>, strides = array<i64: 1, 1, 2>} : (tensor<1x1x6xf32>) -> tensor<1x1x2xf32>
    %62 = "stablehlo.constant"() {value = dense<2> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %63 = "stablehlo.add"(%6, %62) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %64 = "stablehlo.constant"() {value = dense<0> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %65 = "stablehlo.compare"(%63, %64) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi1>
    %66 = "stablehlo.constant"() {value = dense<6> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %67 = "stablehlo.compare"(%63, %66) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi1>
    %68 = "stablehlo.and"(%65, %67) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %69 = "stablehlo.constant"() {value = dense<1> : tensor<1x1x2xi64>} : () -> tensor<1x1x2xi64>
    %70 = "stablehlo.multiply"(%63, %69) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %71 = "stablehlo.compare"(%61, %57) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %72 = "stablehlo.compare"(%61, %61) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %73 = "stablehlo.compare"(%57, %57) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xi1>
    %74 = "stablehlo.not"(%60) : (tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %75 = "stablehlo.and"(%72, %73) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %76 = "stablehlo.or"(%71, %75) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %77 = "stablehlo.or"(%74, %76) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %78 = "stablehlo.and"(%68, %77) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %79 = "stablehlo.select"(%78, %61, %57) : (tensor<1x1x2xi1>, tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    %80 = "stablehlo.add"(%13, %70) : (tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %81 = "stablehlo.select"(%78, %80, %59) : (tensor<1x1x2xi1>, tensor<1x1x2xi64>, tensor<1x1x2xi64>) -> tensor<1x1x2xi64>
    %82 = "stablehlo.or"(%60, %68) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    "func.return"(%81) : (tensor<1x1x2xi64>) -> ()
  }
}
