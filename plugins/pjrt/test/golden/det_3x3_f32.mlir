module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3x3xf32>) -> (tensor<2xf32>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3x3xf32>) -> tensor<2x3x3xf64>
    %2 = "stablehlo.slice"(%1) {start_indices = array<i64: 0, 0, 0>, limit_indices = array<i64: 2, 1, 3>, strides = array<i64: 1, 1, 1>} : (tensor<2x3x3xf64>) -> tensor<2x1x3xf64>
    %3 = "stablehlo.reshape"(%2) : (tensor<2x1x3xf64>) -> tensor<2x3xf64>
    %4 = "stablehlo.slice"(%1) {start_indices = array<i64: 0, 1, 0>, limit_indices = array<i64: 2, 2, 3>, strides = array<i64: 1, 1, 1>} : (tensor<2x3x3xf64>) -> tensor<2x1x3xf64>
    %5 = "stablehlo.reshape"(%4) : (tensor<2x1x3xf64>) -> tensor<2x3xf64>
    %6 = "stablehlo.slice"(%1) {start_indices = array<i64: 0, 2, 0>, limit_indices = array<i64: 2, 3, 3>, strides = array<i64: 1, 1, 1>} : (tensor<2x3x3xf64>) -> tensor<2x1x3xf64>
    %7 = "stablehlo.reshape"(%6) : (tensor<2x1x3xf64>) -> tensor<2x3xf64>
    %8 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %9 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %10 = "stablehlo.compare"(%9, %9) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %11 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %12 = "stablehlo.reshape"(%11) : (tensor<2x1xf64>) -> tensor<2xf64>
    %13 = "stablehlo.constant"() {value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
    %14 = "stablehlo.slice"(%5) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %15 = "stablehlo.reshape"(%14) : (tensor<2x1xf64>) -> tensor<2xf64>
    %16 = "stablehlo.abs"(%15) : (tensor<2xf64>) -> tensor<2xf64>
    %17 = "stablehlo.abs"(%12) : (tensor<2xf64>) -> tensor<2xf64>
    %18 = "stablehlo.compare"(%16, %17) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %19 = "stablehlo.compare"(%15, %15) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %20 = "stablehlo.or"(%18, %19) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %21 = "stablehlo.select"(%20, %15, %12) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %22 = "stablehlo.constant"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
    %23 = "stablehlo.select"(%20, %22, %13) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %24 = "stablehlo.slice"(%7) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %25 = "stablehlo.reshape"(%24) : (tensor<2x1xf64>) -> tensor<2xf64>
    %26 = "stablehlo.abs"(%25) : (tensor<2xf64>) -> tensor<2xf64>
    %27 = "stablehlo.abs"(%21) : (tensor<2xf64>) -> tensor<2xf64>
    %28 = "stablehlo.compare"(%26, %27) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %29 = "stablehlo.compare"(%25, %25) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %30 = "stablehlo.or"(%28, %29) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %31 = "stablehlo.select"(%30, %25, %21) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %32 = "stablehlo.constant"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
    %33 = "stablehlo.select"(%30, %32, %23) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %34 = "stablehlo.not"(%10) : (tensor<2xi1>) -> tensor<2xi1>
    %35 = "stablehlo.compare"(%31, %9) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %36 = "stablehlo.and"(%34, %35) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %37 = "stablehlo.multiply"(%9, %8) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %38 = "stablehlo.select"(%36, %37, %9) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %39 = "stablehlo.or"(%10, %36) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %40 = "stablehlo.constant"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
    %41 = "stablehlo.compare"(%33, %40) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %42 = "stablehlo.broadcast_in_dim"(%41) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi1>) -> tensor<2x3xi1>
    %43 = "stablehlo.select"(%42, %5, %3) : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %44 = "stablehlo.select"(%42, %3, %5) : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %45 = "stablehlo.constant"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
    %46 = "stablehlo.compare"(%33, %45) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %47 = "stablehlo.broadcast_in_dim"(%46) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi1>) -> tensor<2x3xi1>
    %48 = "stablehlo.select"(%47, %7, %43) : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %49 = "stablehlo.select"(%47, %3, %7) : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %50 = "stablehlo.constant"() {value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
    %51 = "stablehlo.compare"(%33, %50) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %52 = "stablehlo.negate"(%8) : (tensor<2xf64>) -> tensor<2xf64>
    %53 = "stablehlo.select"(%51, %52, %8) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %54 = "stablehlo.multiply"(%53, %31) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %55 = "stablehlo.slice"(%44) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %56 = "stablehlo.reshape"(%55) : (tensor<2x1xf64>) -> tensor<2xf64>
    %57 = "stablehlo.divide"(%56, %31) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %58 = "stablehlo.broadcast_in_dim"(%57) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x3xf64>
    %59 = "stablehlo.multiply"(%58, %48) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %60 = "stablehlo.subtract"(%44, %59) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %61 = "stablehlo.slice"(%49) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %62 = "stablehlo.reshape"(%61) : (tensor<2x1xf64>) -> tensor<2xf64>
    %63 = "stablehlo.divide"(%62, %31) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %64 = "stablehlo.broadcast_in_dim"(%63) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x3xf64>
    %65 = "stablehlo.multiply"(%64, %48) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %66 = "stablehlo.subtract"(%49, %65) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %67 = "stablehlo.slice"(%60) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 2>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %68 = "stablehlo.reshape"(%67) : (tensor<2x1xf64>) -> tensor<2xf64>
    %69 = "stablehlo.constant"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
    %70 = "stablehlo.slice"(%66) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 2>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %71 = "stablehlo.reshape"(%70) : (tensor<2x1xf64>) -> tensor<2xf64>
    %72 = "stablehlo.abs"(%71) : (tensor<2xf64>) -> tensor<2xf64>
    %73 = "stablehlo.abs"(%68) : (tensor<2xf64>) -> tensor<2xf64>
    %74 = "stablehlo.compare"(%72, %73) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %75 = "stablehlo.compare"(%71, %71) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %76 = "stablehlo.or"(%74, %75) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %77 = "stablehlo.select"(%76, %71, %68) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %78 = "stablehlo.constant"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
    %79 = "stablehlo.select"(%76, %78, %69) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    %80 = "stablehlo.not"(%39) : (tensor<2xi1>) -> tensor<2xi1>
    %81 = "stablehlo.compare"(%77, %9) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %82 = "stablehlo.and"(%80, %81) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %83 = "stablehlo.multiply"(%9, %54) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %84 = "stablehlo.select"(%82, %83, %38) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %85 = "stablehlo.or"(%39, %82) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %86 = "stablehlo.constant"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
    %87 = "stablehlo.compare"(%79, %86) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %88 = "stablehlo.broadcast_in_dim"(%87) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi1>) -> tensor<2x3xi1>
    %89 = "stablehlo.select"(%88, %66, %60) : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %90 = "stablehlo.select"(%88, %60, %66) : (tensor<2x3xi1>, tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %91 = "stablehlo.constant"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
    %92 = "stablehlo.compare"(%79, %91) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %93 = "stablehlo.negate"(%54) : (tensor<2xf64>) -> tensor<2xf64>
    %94 = "stablehlo.select"(%92, %93, %54) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %95 = "stablehlo.multiply"(%94, %77) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %96 = "stablehlo.slice"(%90) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 2>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %97 = "stablehlo.reshape"(%96) : (tensor<2x1xf64>) -> tensor<2xf64>
    %98 = "stablehlo.divide"(%97, %77) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %99 = "stablehlo.broadcast_in_dim"(%98) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x3xf64>
    %100 = "stablehlo.multiply"(%99, %89) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %101 = "stablehlo.subtract"(%90, %100) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %102 = "stablehlo.slice"(%101) {start_indices = array<i64: 0, 2>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x3xf64>) -> tensor<2x1xf64>
    %103 = "stablehlo.reshape"(%102) : (tensor<2x1xf64>) -> tensor<2xf64>
    %104 = "stablehlo.constant"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
    %105 = "stablehlo.not"(%85) : (tensor<2xi1>) -> tensor<2xi1>
    %106 = "stablehlo.compare"(%103, %9) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %107 = "stablehlo.and"(%105, %106) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %108 = "stablehlo.multiply"(%9, %95) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %109 = "stablehlo.select"(%107, %108, %84) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %110 = "stablehlo.or"(%85, %107) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %111 = "stablehlo.constant"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
    %112 = "stablehlo.compare"(%104, %111) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %113 = "stablehlo.negate"(%95) : (tensor<2xf64>) -> tensor<2xf64>
    %114 = "stablehlo.select"(%112, %113, %95) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %115 = "stablehlo.multiply"(%114, %103) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %116 = "stablehlo.select"(%110, %109, %115) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %117 = "stablehlo.convert"(%116) : (tensor<2xf64>) -> tensor<2xf32>
    "func.return"(%117) : (tensor<2xf32>) -> ()
  }
}
