module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x1x4x4xf32>, %1: tensor<1x2x2x2xf32>) -> (tensor<1x1x2x2xf32>) {
    %2 = "stablehlo.convert"(%0) : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf64>
    %3 = "stablehlo.convert"(%1) : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf64>
    %4 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0, 0, 1>, limit_indices = array<i64: 1, 2, 2, 2>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x2x2x2xf64>) -> tensor<1x2x2x1xf64>
    %5 = "stablehlo.reshape"(%4) : (tensor<1x2x2x1xf64>) -> tensor<1x2x2xf64>
    %6 = "stablehlo.compare"(%5, %5) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %7 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %8 = "stablehlo.add"(%5, %7) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %9 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %10 = "stablehlo.multiply"(%8, %9) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %11 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %12 = "stablehlo.subtract"(%10, %11) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %13 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %14 = "stablehlo.divide"(%12, %13) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %15 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %16 = "stablehlo.compare"(%14, %15) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %17 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %18 = "stablehlo.compare"(%14, %17) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %19 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %20 = "stablehlo.subtract"(%19, %14) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %21 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %22 = "stablehlo.subtract"(%14, %21) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %23 = "stablehlo.select"(%16, %20, %22) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %24 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %25 = "stablehlo.divide"(%23, %24) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %26 = "stablehlo.floor"(%25) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %27 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %28 = "stablehlo.multiply"(%26, %27) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %29 = "stablehlo.subtract"(%23, %28) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %30 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %31 = "stablehlo.remainder"(%26, %30) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %32 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %33 = "stablehlo.compare"(%31, %32) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %34 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %35 = "stablehlo.add"(%34, %29) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %36 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %37 = "stablehlo.subtract"(%36, %29) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %38 = "stablehlo.select"(%33, %35, %37) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %39 = "stablehlo.select"(%33, %37, %35) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %40 = "stablehlo.select"(%18, %39, %14) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %41 = "stablehlo.select"(%16, %38, %40) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %42 = "stablehlo.constant"() {value = dense<0xC30C6BF526340000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %43 = "stablehlo.maximum"(%41, %42) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %44 = "stablehlo.constant"() {value = dense<0x430C6BF526340000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %45 = "stablehlo.minimum"(%43, %44) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %46 = "stablehlo.floor"(%45) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %47 = "stablehlo.subtract"(%45, %46) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %48 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %49 = "stablehlo.add"(%47, %48) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %50 = "stablehlo.constant"() {value = dense<0xBFE8000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %51 = "stablehlo.multiply"(%49, %50) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %52 = "stablehlo.constant"() {value = dense<0xC00E000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %53 = "stablehlo.subtract"(%51, %52) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %54 = "stablehlo.multiply"(%53, %49) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %55 = "stablehlo.constant"() {value = dense<0xC018000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %56 = "stablehlo.add"(%54, %55) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %57 = "stablehlo.multiply"(%56, %49) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %58 = "stablehlo.constant"() {value = dense<0xC008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %59 = "stablehlo.subtract"(%57, %58) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %60 = "stablehlo.constant"() {value = dense<0xBFF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %61 = "stablehlo.add"(%46, %60) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %62 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %63 = "stablehlo.compare"(%61, %62) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %64 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %65 = "stablehlo.compare"(%61, %64) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %66 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %67 = "stablehlo.subtract"(%66, %61) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %68 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %69 = "stablehlo.subtract"(%61, %68) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %70 = "stablehlo.select"(%63, %67, %69) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %71 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %72 = "stablehlo.divide"(%70, %71) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %73 = "stablehlo.floor"(%72) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %74 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %75 = "stablehlo.multiply"(%73, %74) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %76 = "stablehlo.subtract"(%70, %75) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %77 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %78 = "stablehlo.remainder"(%73, %77) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %79 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %80 = "stablehlo.compare"(%78, %79) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %81 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %82 = "stablehlo.add"(%81, %76) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %83 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %84 = "stablehlo.subtract"(%83, %76) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %85 = "stablehlo.select"(%80, %82, %84) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %86 = "stablehlo.select"(%80, %84, %82) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %87 = "stablehlo.select"(%65, %86, %61) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %88 = "stablehlo.select"(%63, %85, %87) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %89 = "stablehlo.convert"(%88) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %90 = "stablehlo.convert"(%89) : (tensor<1x2x2xi64>) -> tensor<1x2x2xf64>
    %91 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %92 = "stablehlo.maximum"(%90, %91) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %93 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %94 = "stablehlo.minimum"(%92, %93) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %95 = "stablehlo.convert"(%94) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %96 = "stablehlo.constant"() {value = dense<0x3FF4000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %97 = "stablehlo.multiply"(%47, %96) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %98 = "stablehlo.constant"() {value = dense<0x4002000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %99 = "stablehlo.subtract"(%97, %98) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %100 = "stablehlo.multiply"(%99, %47) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %101 = "stablehlo.multiply"(%100, %47) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %102 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %103 = "stablehlo.add"(%101, %102) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %104 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %105 = "stablehlo.add"(%46, %104) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %106 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %107 = "stablehlo.compare"(%105, %106) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %108 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %109 = "stablehlo.compare"(%105, %108) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %110 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %111 = "stablehlo.subtract"(%110, %105) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %112 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %113 = "stablehlo.subtract"(%105, %112) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %114 = "stablehlo.select"(%107, %111, %113) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %115 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %116 = "stablehlo.divide"(%114, %115) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %117 = "stablehlo.floor"(%116) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %118 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %119 = "stablehlo.multiply"(%117, %118) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %120 = "stablehlo.subtract"(%114, %119) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %121 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %122 = "stablehlo.remainder"(%117, %121) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %123 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %124 = "stablehlo.compare"(%122, %123) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %125 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %126 = "stablehlo.add"(%125, %120) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %127 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %128 = "stablehlo.subtract"(%127, %120) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %129 = "stablehlo.select"(%124, %126, %128) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %130 = "stablehlo.select"(%124, %128, %126) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %131 = "stablehlo.select"(%109, %130, %105) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %132 = "stablehlo.select"(%107, %129, %131) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %133 = "stablehlo.convert"(%132) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %134 = "stablehlo.convert"(%133) : (tensor<1x2x2xi64>) -> tensor<1x2x2xf64>
    %135 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %136 = "stablehlo.maximum"(%134, %135) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %137 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %138 = "stablehlo.minimum"(%136, %137) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %139 = "stablehlo.convert"(%138) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %140 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %141 = "stablehlo.subtract"(%140, %47) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %142 = "stablehlo.constant"() {value = dense<0x3FF4000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %143 = "stablehlo.multiply"(%141, %142) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %144 = "stablehlo.constant"() {value = dense<0x4002000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %145 = "stablehlo.subtract"(%143, %144) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %146 = "stablehlo.multiply"(%145, %141) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %147 = "stablehlo.multiply"(%146, %141) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %148 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %149 = "stablehlo.add"(%147, %148) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %150 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %151 = "stablehlo.add"(%46, %150) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %152 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %153 = "stablehlo.compare"(%151, %152) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %154 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %155 = "stablehlo.compare"(%151, %154) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %156 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %157 = "stablehlo.subtract"(%156, %151) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %158 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %159 = "stablehlo.subtract"(%151, %158) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %160 = "stablehlo.select"(%153, %157, %159) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %161 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %162 = "stablehlo.divide"(%160, %161) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %163 = "stablehlo.floor"(%162) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %164 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %165 = "stablehlo.multiply"(%163, %164) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %166 = "stablehlo.subtract"(%160, %165) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %167 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %168 = "stablehlo.remainder"(%163, %167) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %169 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %170 = "stablehlo.compare"(%168, %169) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %171 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %172 = "stablehlo.add"(%171, %166) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %173 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %174 = "stablehlo.subtract"(%173, %166) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %175 = "stablehlo.select"(%170, %172, %174) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %176 = "stablehlo.select"(%170, %174, %172) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %177 = "stablehlo.select"(%155, %176, %151) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %178 = "stablehlo.select"(%153, %175, %177) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %179 = "stablehlo.convert"(%178) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %180 = "stablehlo.convert"(%179) : (tensor<1x2x2xi64>) -> tensor<1x2x2xf64>
    %181 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %182 = "stablehlo.maximum"(%180, %181) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %183 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %184 = "stablehlo.minimum"(%182, %183) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %185 = "stablehlo.convert"(%184) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %186 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %187 = "stablehlo.subtract"(%186, %47) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %188 = "stablehlo.constant"() {value = dense<0xBFE8000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %189 = "stablehlo.multiply"(%187, %188) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %190 = "stablehlo.constant"() {value = dense<0xC00E000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %191 = "stablehlo.subtract"(%189, %190) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %192 = "stablehlo.multiply"(%191, %187) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %193 = "stablehlo.constant"() {value = dense<0xC018000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %194 = "stablehlo.add"(%192, %193) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %195 = "stablehlo.multiply"(%194, %187) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %196 = "stablehlo.constant"() {value = dense<0xC008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %197 = "stablehlo.subtract"(%195, %196) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %198 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %199 = "stablehlo.add"(%46, %198) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %200 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %201 = "stablehlo.compare"(%199, %200) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %202 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %203 = "stablehlo.compare"(%199, %202) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %204 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %205 = "stablehlo.subtract"(%204, %199) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %206 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %207 = "stablehlo.subtract"(%199, %206) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %208 = "stablehlo.select"(%201, %205, %207) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %209 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %210 = "stablehlo.divide"(%208, %209) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %211 = "stablehlo.floor"(%210) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %212 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %213 = "stablehlo.multiply"(%211, %212) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %214 = "stablehlo.subtract"(%208, %213) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %215 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %216 = "stablehlo.remainder"(%211, %215) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %217 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %218 = "stablehlo.compare"(%216, %217) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %219 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %220 = "stablehlo.add"(%219, %214) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %221 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %222 = "stablehlo.subtract"(%221, %214) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %223 = "stablehlo.select"(%218, %220, %222) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %224 = "stablehlo.select"(%218, %222, %220) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %225 = "stablehlo.select"(%203, %224, %199) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %226 = "stablehlo.select"(%201, %223, %225) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %227 = "stablehlo.convert"(%226) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %228 = "stablehlo.convert"(%227) : (tensor<1x2x2xi64>) -> tensor<1x2x2xf64>
    %229 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %230 = "stablehlo.maximum"(%228, %229) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %231 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %232 = "stablehlo.minimum"(%230, %231) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %233 = "stablehlo.convert"(%232) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %234 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0, 0, 0>, limit_indices = array<i64: 1, 2, 2, 1>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x2x2x2xf64>) -> tensor<1x2x2x1xf64>
    %235 = "stablehlo.reshape"(%234) : (tensor<1x2x2x1xf64>) -> tensor<1x2x2xf64>
    %236 = "stablehlo.compare"(%235, %235) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %237 = "stablehlo.or"(%6, %236) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %238 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %239 = "stablehlo.add"(%235, %238) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %240 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %241 = "stablehlo.multiply"(%239, %240) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %242 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %243 = "stablehlo.subtract"(%241, %242) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %244 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %245 = "stablehlo.divide"(%243, %244) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %246 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %247 = "stablehlo.compare"(%245, %246) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %248 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %249 = "stablehlo.compare"(%245, %248) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %250 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %251 = "stablehlo.subtract"(%250, %245) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %252 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %253 = "stablehlo.subtract"(%245, %252) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %254 = "stablehlo.select"(%247, %251, %253) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %255 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %256 = "stablehlo.divide"(%254, %255) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %257 = "stablehlo.floor"(%256) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %258 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %259 = "stablehlo.multiply"(%257, %258) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %260 = "stablehlo.subtract"(%254, %259) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %261 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %262 = "stablehlo.remainder"(%257, %261) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %263 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %264 = "stablehlo.compare"(%262, %263) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %265 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %266 = "stablehlo.add"(%265, %260) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %267 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %268 = "stablehlo.subtract"(%267, %260) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %269 = "stablehlo.select"(%264, %266, %268) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %270 = "stablehlo.select"(%264, %268, %266) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %271 = "stablehlo.select"(%249, %270, %245) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %272 = "stablehlo.select"(%247, %269, %271) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %273 = "stablehlo.constant"() {value = dense<0xC30C6BF526340000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %274 = "stablehlo.maximum"(%272, %273) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %275 = "stablehlo.constant"() {value = dense<0x430C6BF526340000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %276 = "stablehlo.minimum"(%274, %275) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %277 = "stablehlo.floor"(%276) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %278 = "stablehlo.subtract"(%276, %277) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %279 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %280 = "stablehlo.add"(%278, %279) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %281 = "stablehlo.constant"() {value = dense<0xBFE8000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %282 = "stablehlo.multiply"(%280, %281) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %283 = "stablehlo.constant"() {value = dense<0xC00E000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %284 = "stablehlo.subtract"(%282, %283) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %285 = "stablehlo.multiply"(%284, %280) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %286 = "stablehlo.constant"() {value = dense<0xC018000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %287 = "stablehlo.add"(%285, %286) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %288 = "stablehlo.multiply"(%287, %280) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %289 = "stablehlo.constant"() {value = dense<0xC008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %290 = "stablehlo.subtract"(%288, %289) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %291 = "stablehlo.constant"() {value = dense<0xBFF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %292 = "stablehlo.add"(%277, %291) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %293 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %294 = "stablehlo.compare"(%292, %293) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %295 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %296 = "stablehlo.compare"(%292, %295) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %297 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %298 = "stablehlo.subtract"(%297, %292) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %299 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %300 = "stablehlo.subtract"(%292, %299) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %301 = "stablehlo.select"(%294, %298, %300) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %302 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %303 = "stablehlo.divide"(%301, %302) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %304 = "stablehlo.floor"(%303) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %305 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %306 = "stablehlo.multiply"(%304, %305) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %307 = "stablehlo.subtract"(%301, %306) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %308 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %309 = "stablehlo.remainder"(%304, %308) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %310 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %311 = "stablehlo.compare"(%309, %310) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %312 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %313 = "stablehlo.add"(%312, %307) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %314 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %315 = "stablehlo.subtract"(%314, %307) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %316 = "stablehlo.select"(%311, %313, %315) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %317 = "stablehlo.select"(%311, %315, %313) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %318 = "stablehlo.select"(%296, %317, %292) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %319 = "stablehlo.select"(%294, %316, %318) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %320 = "stablehlo.convert"(%319) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %321 = "stablehlo.convert"(%320) : (tensor<1x2x2xi64>) -> tensor<1x2x2xf64>
    %322 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %323 = "stablehlo.maximum"(%321, %322) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %324 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %325 = "stablehlo.minimum"(%323, %324) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %326 = "stablehlo.convert"(%325) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %327 = "stablehlo.constant"() {value = dense<0x3FF4000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %328 = "stablehlo.multiply"(%278, %327) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %329 = "stablehlo.constant"() {value = dense<0x4002000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %330 = "stablehlo.subtract"(%328, %329) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %331 = "stablehlo.multiply"(%330, %278) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %332 = "stablehlo.multiply"(%331, %278) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %333 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %334 = "stablehlo.add"(%332, %333) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %335 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %336 = "stablehlo.add"(%277, %335) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %337 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %338 = "stablehlo.compare"(%336, %337) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %339 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %340 = "stablehlo.compare"(%336, %339) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %341 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %342 = "stablehlo.subtract"(%341, %336) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %343 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %344 = "stablehlo.subtract"(%336, %343) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %345 = "stablehlo.select"(%338, %342, %344) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %346 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %347 = "stablehlo.divide"(%345, %346) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %348 = "stablehlo.floor"(%347) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %349 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %350 = "stablehlo.multiply"(%348, %349) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %351 = "stablehlo.subtract"(%345, %350) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %352 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %353 = "stablehlo.remainder"(%348, %352) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %354 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %355 = "stablehlo.compare"(%353, %354) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %356 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %357 = "stablehlo.add"(%356, %351) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %358 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %359 = "stablehlo.subtract"(%358, %351) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %360 = "stablehlo.select"(%355, %357, %359) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %361 = "stablehlo.select"(%355, %359, %357) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %362 = "stablehlo.select"(%340, %361, %336) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %363 = "stablehlo.select"(%338, %360, %362) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %364 = "stablehlo.convert"(%363) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %365 = "stablehlo.convert"(%364) : (tensor<1x2x2xi64>) -> tensor<1x2x2xf64>
    %366 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %367 = "stablehlo.maximum"(%365, %366) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %368 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %369 = "stablehlo.minimum"(%367, %368) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %370 = "stablehlo.convert"(%369) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %371 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %372 = "stablehlo.subtract"(%371, %278) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %373 = "stablehlo.constant"() {value = dense<0x3FF4000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %374 = "stablehlo.multiply"(%372, %373) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %375 = "stablehlo.constant"() {value = dense<0x4002000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %376 = "stablehlo.subtract"(%374, %375) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %377 = "stablehlo.multiply"(%376, %372) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %378 = "stablehlo.multiply"(%377, %372) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %379 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %380 = "stablehlo.add"(%378, %379) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %381 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %382 = "stablehlo.add"(%277, %381) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %383 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %384 = "stablehlo.compare"(%382, %383) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %385 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %386 = "stablehlo.compare"(%382, %385) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %387 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %388 = "stablehlo.subtract"(%387, %382) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %389 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %390 = "stablehlo.subtract"(%382, %389) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %391 = "stablehlo.select"(%384, %388, %390) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %392 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %393 = "stablehlo.divide"(%391, %392) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %394 = "stablehlo.floor"(%393) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %395 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %396 = "stablehlo.multiply"(%394, %395) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %397 = "stablehlo.subtract"(%391, %396) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %398 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %399 = "stablehlo.remainder"(%394, %398) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %400 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %401 = "stablehlo.compare"(%399, %400) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %402 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %403 = "stablehlo.add"(%402, %397) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %404 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %405 = "stablehlo.subtract"(%404, %397) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %406 = "stablehlo.select"(%401, %403, %405) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %407 = "stablehlo.select"(%401, %405, %403) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %408 = "stablehlo.select"(%386, %407, %382) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %409 = "stablehlo.select"(%384, %406, %408) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %410 = "stablehlo.convert"(%409) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %411 = "stablehlo.convert"(%410) : (tensor<1x2x2xi64>) -> tensor<1x2x2xf64>
    %412 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %413 = "stablehlo.maximum"(%411, %412) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %414 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %415 = "stablehlo.minimum"(%413, %414) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %416 = "stablehlo.convert"(%415) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %417 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %418 = "stablehlo.subtract"(%417, %278) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %419 = "stablehlo.constant"() {value = dense<0xBFE8000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %420 = "stablehlo.multiply"(%418, %419) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %421 = "stablehlo.constant"() {value = dense<0xC00E000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %422 = "stablehlo.subtract"(%420, %421) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %423 = "stablehlo.multiply"(%422, %418) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %424 = "stablehlo.constant"() {value = dense<0xC018000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %425 = "stablehlo.add"(%423, %424) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %426 = "stablehlo.multiply"(%425, %418) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %427 = "stablehlo.constant"() {value = dense<0xC008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %428 = "stablehlo.subtract"(%426, %427) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %429 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %430 = "stablehlo.add"(%277, %429) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %431 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %432 = "stablehlo.compare"(%430, %431) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %433 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %434 = "stablehlo.compare"(%430, %433) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %435 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %436 = "stablehlo.subtract"(%435, %430) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %437 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %438 = "stablehlo.subtract"(%430, %437) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %439 = "stablehlo.select"(%432, %436, %438) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %440 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %441 = "stablehlo.divide"(%439, %440) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %442 = "stablehlo.floor"(%441) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %443 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %444 = "stablehlo.multiply"(%442, %443) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %445 = "stablehlo.subtract"(%439, %444) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %446 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %447 = "stablehlo.remainder"(%442, %446) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %448 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %449 = "stablehlo.compare"(%447, %448) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %450 = "stablehlo.constant"() {value = dense<0xBFE0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %451 = "stablehlo.add"(%450, %445) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %452 = "stablehlo.constant"() {value = dense<0x400C000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %453 = "stablehlo.subtract"(%452, %445) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %454 = "stablehlo.select"(%449, %451, %453) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %455 = "stablehlo.select"(%449, %453, %451) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %456 = "stablehlo.select"(%434, %455, %430) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %457 = "stablehlo.select"(%432, %454, %456) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %458 = "stablehlo.convert"(%457) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %459 = "stablehlo.convert"(%458) : (tensor<1x2x2xi64>) -> tensor<1x2x2xf64>
    %460 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %461 = "stablehlo.maximum"(%459, %460) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %462 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %463 = "stablehlo.minimum"(%461, %462) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %464 = "stablehlo.convert"(%463) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %465 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x2x2xi64>
    %466 = "stablehlo.reshape"(%465) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %467 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2x2xf64>} : () -> tensor<1x1x2x2xf64>
    %468 = "stablehlo.reshape"(%95) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %469 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %470 = "stablehlo.multiply"(%469, %59) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %471 = "stablehlo.reshape"(%326) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %472 = "stablehlo.multiply"(%470, %290) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %473 = "stablehlo.concatenate"(%466, %468, %471) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %474 = "stablehlo.gather"(%2, %473) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %475 = "stablehlo.broadcast_in_dim"(%472) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %476 = "stablehlo.multiply"(%474, %475) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %477 = "stablehlo.add"(%467, %476) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %478 = "stablehlo.reshape"(%95) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %479 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %480 = "stablehlo.multiply"(%479, %59) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %481 = "stablehlo.reshape"(%370) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %482 = "stablehlo.multiply"(%480, %334) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %483 = "stablehlo.concatenate"(%466, %478, %481) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %484 = "stablehlo.gather"(%2, %483) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %485 = "stablehlo.broadcast_in_dim"(%482) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %486 = "stablehlo.multiply"(%484, %485) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %487 = "stablehlo.add"(%477, %486) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %488 = "stablehlo.reshape"(%95) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %489 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %490 = "stablehlo.multiply"(%489, %59) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %491 = "stablehlo.reshape"(%416) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %492 = "stablehlo.multiply"(%490, %380) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %493 = "stablehlo.concatenate"(%466, %488, %491) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %494 = "stablehlo.gather"(%2, %493) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %495 = "stablehlo.broadcast_in_dim"(%492) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %496 = "stablehlo.multiply"(%494, %495) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %497 = "stablehlo.add"(%487, %496) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %498 = "stablehlo.reshape"(%95) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %499 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %500 = "stablehlo.multiply"(%499, %59) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %501 = "stablehlo.reshape"(%464) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %502 = "stablehlo.multiply"(%500, %428) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %503 = "stablehlo.concatenate"(%466, %498, %501) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %504 = "stablehlo.gather"(%2, %503) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %505 = "stablehlo.broadcast_in_dim"(%502) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %506 = "stablehlo.multiply"(%504, %505) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %507 = "stablehlo.add"(%497, %506) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %508 = "stablehlo.reshape"(%139) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %509 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %510 = "stablehlo.multiply"(%509, %103) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %511 = "stablehlo.reshape"(%326) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %512 = "stablehlo.multiply"(%510, %290) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %513 = "stablehlo.concatenate"(%466, %508, %511) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %514 = "stablehlo.gather"(%2, %513) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %515 = "stablehlo.broadcast_in_dim"(%512) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %516 = "stablehlo.multiply"(%514, %515) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %517 = "stablehlo.add"(%507, %516) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %518 = "stablehlo.reshape"(%139) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %519 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %520 = "stablehlo.multiply"(%519, %103) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %521 = "stablehlo.reshape"(%370) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %522 = "stablehlo.multiply"(%520, %334) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %523 = "stablehlo.concatenate"(%466, %518, %521) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %524 = "stablehlo.gather"(%2, %523) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %525 = "stablehlo.broadcast_in_dim"(%522) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %526 = "stablehlo.multiply"(%524, %525) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %527 = "stablehlo.add"(%517, %526) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %528 = "stablehlo.reshape"(%139) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %529 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %530 = "stablehlo.multiply"(%529, %103) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %531 = "stablehlo.reshape"(%416) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %532 = "stablehlo.multiply"(%530, %380) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %533 = "stablehlo.concatenate"(%466, %528, %531) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %534 = "stablehlo.gather"(%2, %533) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %535 = "stablehlo.broadcast_in_dim"(%532) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %536 = "stablehlo.multiply"(%534, %535) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %537 = "stablehlo.add"(%527, %536) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %538 = "stablehlo.reshape"(%139) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %539 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %540 = "stablehlo.multiply"(%539, %103) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %541 = "stablehlo.reshape"(%464) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %542 = "stablehlo.multiply"(%540, %428) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %543 = "stablehlo.concatenate"(%466, %538, %541) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %544 = "stablehlo.gather"(%2, %543) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %545 = "stablehlo.broadcast_in_dim"(%542) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %546 = "stablehlo.multiply"(%544, %545) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %547 = "stablehlo.add"(%537, %546) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %548 = "stablehlo.reshape"(%185) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %549 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %550 = "stablehlo.multiply"(%549, %149) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %551 = "stablehlo.reshape"(%326) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %552 = "stablehlo.multiply"(%550, %290) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %553 = "stablehlo.concatenate"(%466, %548, %551) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %554 = "stablehlo.gather"(%2, %553) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %555 = "stablehlo.broadcast_in_dim"(%552) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %556 = "stablehlo.multiply"(%554, %555) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %557 = "stablehlo.add"(%547, %556) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %558 = "stablehlo.reshape"(%185) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %559 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %560 = "stablehlo.multiply"(%559, %149) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %561 = "stablehlo.reshape"(%370) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %562 = "stablehlo.multiply"(%560, %334) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %563 = "stablehlo.concatenate"(%466, %558, %561) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %564 = "stablehlo.gather"(%2, %563) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %565 = "stablehlo.broadcast_in_dim"(%562) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %566 = "stablehlo.multiply"(%564, %565) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %567 = "stablehlo.add"(%557, %566) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %568 = "stablehlo.reshape"(%185) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %569 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %570 = "stablehlo.multiply"(%569, %149) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %571 = "stablehlo.reshape"(%416) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %572 = "stablehlo.multiply"(%570, %380) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %573 = "stablehlo.concatenate"(%466, %568, %571) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %574 = "stablehlo.gather"(%2, %573) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %575 = "stablehlo.broadcast_in_dim"(%572) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %576 = "stablehlo.multiply"(%574, %575) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %577 = "stablehlo.add"(%567, %576) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %578 = "stablehlo.reshape"(%185) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %579 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %580 = "stablehlo.multiply"(%579, %149) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %581 = "stablehlo.reshape"(%464) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %582 = "stablehlo.multiply"(%580, %428) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %583 = "stablehlo.concatenate"(%466, %578, %581) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %584 = "stablehlo.gather"(%2, %583) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %585 = "stablehlo.broadcast_in_dim"(%582) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %586 = "stablehlo.multiply"(%584, %585) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %587 = "stablehlo.add"(%577, %586) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %588 = "stablehlo.reshape"(%233) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %589 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %590 = "stablehlo.multiply"(%589, %197) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %591 = "stablehlo.reshape"(%326) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %592 = "stablehlo.multiply"(%590, %290) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %593 = "stablehlo.concatenate"(%466, %588, %591) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %594 = "stablehlo.gather"(%2, %593) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %595 = "stablehlo.broadcast_in_dim"(%592) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %596 = "stablehlo.multiply"(%594, %595) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %597 = "stablehlo.add"(%587, %596) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %598 = "stablehlo.reshape"(%233) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %599 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %600 = "stablehlo.multiply"(%599, %197) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %601 = "stablehlo.reshape"(%370) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %602 = "stablehlo.multiply"(%600, %334) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %603 = "stablehlo.concatenate"(%466, %598, %601) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %604 = "stablehlo.gather"(%2, %603) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %605 = "stablehlo.broadcast_in_dim"(%602) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %606 = "stablehlo.multiply"(%604, %605) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %607 = "stablehlo.add"(%597, %606) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %608 = "stablehlo.reshape"(%233) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %609 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %610 = "stablehlo.multiply"(%609, %197) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %611 = "stablehlo.reshape"(%416) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %612 = "stablehlo.multiply"(%610, %380) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %613 = "stablehlo.concatenate"(%466, %608, %611) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %614 = "stablehlo.gather"(%2, %613) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %615 = "stablehlo.broadcast_in_dim"(%612) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %616 = "stablehlo.multiply"(%614, %615) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %617 = "stablehlo.add"(%607, %616) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %618 = "stablehlo.reshape"(%233) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %619 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %620 = "stablehlo.multiply"(%619, %197) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %621 = "stablehlo.reshape"(%464) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %622 = "stablehlo.multiply"(%620, %428) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %623 = "stablehlo.concatenate"(%466, %618, %621) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %624 = "stablehlo.gather"(%2, %623) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x1x2x2xf64>
    %625 = "stablehlo.broadcast_in_dim"(%622) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %626 = "stablehlo.multiply"(%624, %625) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %627 = "stablehlo.add"(%617, %626) : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %628 = "stablehlo.broadcast_in_dim"(%237) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xi1>) -> tensor<1x1x2x2xi1>
    %629 = "stablehlo.constant"() {value = dense<0x7FF8000000000000> : tensor<1x1x2x2xf64>} : () -> tensor<1x1x2x2xf64>
    %630 = "stablehlo.select"(%628, %629, %627) : (tensor<1x1x2x2xi1>, tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
    %631 = "stablehlo.convert"(%630) : (tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf32>
    "func.return"(%631) : (tensor<1x1x2x2xf32>) -> ()
  }
}
