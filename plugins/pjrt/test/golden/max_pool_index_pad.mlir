module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x5x5xf32>) -> (tensor<1x2x3x3xi64>) {
    %1 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.pad"(%0, %1) {edge_padding_low = array<i64: 0, 0, 1, 1>, edge_padding_high = array<i64: 0, 0, 1, 1>, interior_padding = array<i64: 0, 0, 0, 0>} : (tensor<1x2x5x5xf32>, tensor<f32>) -> tensor<1x2x7x7xf32>
    %3 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x2x3x3xi64>
    %4 = "stablehlo.constant"() {value = dense<2> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %5 = "stablehlo.multiply"(%3, %4) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %6 = "stablehlo.iota"() {iota_dimension = 3 : i64} : () -> tensor<1x2x3x3xi64>
    %7 = "stablehlo.constant"() {value = dense<2> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %8 = "stablehlo.multiply"(%6, %7) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %9 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x2x3x3xi64>
    %10 = "stablehlo.constant"() {value = dense<2> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %11 = "stablehlo.multiply"(%9, %10) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %12 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x2x3x3xi64>
    %13 = "stablehlo.add"(%11, %12) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %14 = "stablehlo.constant"() {value = dense<25> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %15 = "stablehlo.multiply"(%13, %14) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %16 = "stablehlo.constant"() {value = dense<false> : tensor<1x2x3x3xi1>} : () -> tensor<1x2x3x3xi1>
    %17 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<1x2x3x3xf32>} : () -> tensor<1x2x3x3xf32>
    %18 = "stablehlo.constant"() {value = dense<-1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %19 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 0, 0>, limit_indices = array<i64: 1, 2, 5, 5>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %20 = "stablehlo.constant"() {value = dense<-1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %21 = "stablehlo.add"(%5, %20) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %22 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %23 = "stablehlo.compare"(%21, %22) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %24 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %25 = "stablehlo.compare"(%21, %24) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %26 = "stablehlo.and"(%23, %25) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %27 = "stablehlo.constant"() {value = dense<-1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %28 = "stablehlo.add"(%8, %27) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %29 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %30 = "stablehlo.compare"(%28, %29) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %31 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %32 = "stablehlo.compare"(%28, %31) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %33 = "stablehlo.and"(%30, %32) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %34 = "stablehlo.and"(%26, %33) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %35 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %36 = "stablehlo.multiply"(%21, %35) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %37 = "stablehlo.add"(%36, %28) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %38 = "stablehlo.compare"(%19, %17) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %39 = "stablehlo.compare"(%19, %19) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %40 = "stablehlo.compare"(%17, %17) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %41 = "stablehlo.not"(%16) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %42 = "stablehlo.and"(%39, %40) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %43 = "stablehlo.or"(%38, %42) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %44 = "stablehlo.or"(%41, %43) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %45 = "stablehlo.and"(%34, %44) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %46 = "stablehlo.select"(%45, %19, %17) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %47 = "stablehlo.add"(%15, %37) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %48 = "stablehlo.select"(%45, %47, %18) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %49 = "stablehlo.or"(%16, %34) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %50 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 0, 1>, limit_indices = array<i64: 1, 2, 5, 6>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %51 = "stablehlo.constant"() {value = dense<-1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %52 = "stablehlo.add"(%5, %51) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %53 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %54 = "stablehlo.compare"(%52, %53) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %55 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %56 = "stablehlo.compare"(%52, %55) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %57 = "stablehlo.and"(%54, %56) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %58 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %59 = "stablehlo.add"(%8, %58) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %60 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %61 = "stablehlo.compare"(%59, %60) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %62 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %63 = "stablehlo.compare"(%59, %62) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %64 = "stablehlo.and"(%61, %63) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %65 = "stablehlo.and"(%57, %64) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %66 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %67 = "stablehlo.multiply"(%52, %66) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %68 = "stablehlo.add"(%67, %59) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %69 = "stablehlo.compare"(%50, %46) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %70 = "stablehlo.compare"(%50, %50) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %71 = "stablehlo.compare"(%46, %46) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %72 = "stablehlo.not"(%49) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %73 = "stablehlo.and"(%70, %71) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %74 = "stablehlo.or"(%69, %73) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %75 = "stablehlo.or"(%72, %74) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %76 = "stablehlo.and"(%65, %75) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %77 = "stablehlo.select"(%76, %50, %46) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %78 = "stablehlo.add"(%15, %68) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %79 = "stablehlo.select"(%76, %78, %48) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %80 = "stablehlo.or"(%49, %65) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %81 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 0, 2>, limit_indices = array<i64: 1, 2, 5, 7>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %82 = "stablehlo.constant"() {value = dense<-1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %83 = "stablehlo.add"(%5, %82) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %84 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %85 = "stablehlo.compare"(%83, %84) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %86 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %87 = "stablehlo.compare"(%83, %86) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %88 = "stablehlo.and"(%85, %87) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %89 = "stablehlo.constant"() {value = dense<1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %90 = "stablehlo.add"(%8, %89) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %91 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %92 = "stablehlo.compare"(%90, %91) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %93 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %94 = "stablehlo.compare"(%90, %93) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %95 = "stablehlo.and"(%92, %94) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %96 = "stablehlo.and"(%88, %95) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %97 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %98 = "stablehlo.multiply"(%83, %97) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %99 = "stablehlo.add"(%98, %90) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %100 = "stablehlo.compare"(%81, %77) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %101 = "stablehlo.compare"(%81, %81) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %102 = "stablehlo.compare"(%77, %77) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %103 = "stablehlo.not"(%80) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %104 = "stablehlo.and"(%101, %102) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %105 = "stablehlo.or"(%100, %104) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %106 = "stablehlo.or"(%103, %105) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %107 = "stablehlo.and"(%96, %106) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %108 = "stablehlo.select"(%107, %81, %77) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %109 = "stablehlo.add"(%15, %99) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %110 = "stablehlo.select"(%107, %109, %79) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %111 = "stablehlo.or"(%80, %96) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %112 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 1, 0>, limit_indices = array<i64: 1, 2, 6, 5>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %113 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %114 = "stablehlo.add"(%5, %113) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %115 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %116 = "stablehlo.compare"(%114, %115) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %117 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %118 = "stablehlo.compare"(%114, %117) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %119 = "stablehlo.and"(%116, %118) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %120 = "stablehlo.constant"() {value = dense<-1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %121 = "stablehlo.add"(%8, %120) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %122 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %123 = "stablehlo.compare"(%121, %122) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %124 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %125 = "stablehlo.compare"(%121, %124) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %126 = "stablehlo.and"(%123, %125) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %127 = "stablehlo.and"(%119, %126) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %128 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %129 = "stablehlo.multiply"(%114, %128) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %130 = "stablehlo.add"(%129, %121) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %131 = "stablehlo.compare"(%112, %108) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %132 = "stablehlo.compare"(%112, %112) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %133 = "stablehlo.compare"(%108, %108) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %134 = "stablehlo.not"(%111) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %135 = "stablehlo.and"(%132, %133) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %136 = "stablehlo.or"(%131, %135) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %137 = "stablehlo.or"(%134, %136) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %138 = "stablehlo.and"(%127, %137) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %139 = "stablehlo.select"(%138, %112, %108) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %140 = "stablehlo.add"(%15, %130) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %141 = "stablehlo.select"(%138, %140, %110) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %142 = "stablehlo.or"(%111, %127) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %143 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 1, 1>, limit_indices = array<i64: 1, 2, 6, 6>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %144 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %145 = "stablehlo.add"(%5, %144) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %146 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %147 = "stablehlo.compare"(%145, %146) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %148 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %149 = "stablehlo.compare"(%145, %148) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %150 = "stablehlo.and"(%147, %149) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %151 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %152 = "stablehlo.add"(%8, %151) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %153 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %154 = "stablehlo.compare"(%152, %153) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %155 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %156 = "stablehlo.compare"(%152, %155) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %157 = "stablehlo.and"(%154, %156) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %158 = "stablehlo.and"(%150, %157) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %159 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %160 = "stablehlo.multiply"(%145, %159) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %161 = "stablehlo.add"(%160, %152) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %162 = "stablehlo.compare"(%143, %139) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %163 = "stablehlo.compare"(%143, %143) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %164 = "stablehlo.compare"(%139, %139) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %165 = "stablehlo.not"(%142) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %166 = "stablehlo.and"(%163, %164) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %167 = "stablehlo.or"(%162, %166) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %168 = "stablehlo.or"(%165, %167) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %169 = "stablehlo.and"(%158, %168) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %170 = "stablehlo.select"(%169, %143, %139) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %171 = "stablehlo.add"(%15, %161) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %172 = "stablehlo.select"(%169, %171, %141) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %173 = "stablehlo.or"(%142, %158) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %174 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 1, 2>, limit_indices = array<i64: 1, 2, 6, 7>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %175 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %176 = "stablehlo.add"(%5, %175) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %177 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %178 = "stablehlo.compare"(%176, %177) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %179 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %180 = "stablehlo.compare"(%176, %179) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %181 = "stablehlo.and"(%178, %180) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %182 = "stablehlo.constant"() {value = dense<1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %183 = "stablehlo.add"(%8, %182) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %184 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %185 = "stablehlo.compare"(%183, %184) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %186 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %187 = "stablehlo.compare"(%183, %186) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %188 = "stablehlo.and"(%185, %187) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %189 = "stablehlo.and"(%181, %188) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %190 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %191 = "stablehlo.multiply"(%176, %190) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %192 = "stablehlo.add"(%191, %183) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %193 = "stablehlo.compare"(%174, %170) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %194 = "stablehlo.compare"(%174, %174) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %195 = "stablehlo.compare"(%170, %170) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %196 = "stablehlo.not"(%173) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %197 = "stablehlo.and"(%194, %195) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %198 = "stablehlo.or"(%193, %197) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %199 = "stablehlo.or"(%196, %198) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %200 = "stablehlo.and"(%189, %199) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %201 = "stablehlo.select"(%200, %174, %170) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %202 = "stablehlo.add"(%15, %192) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %203 = "stablehlo.select"(%200, %202, %172) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %204 = "stablehlo.or"(%173, %189) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %205 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 2, 0>, limit_indices = array<i64: 1, 2, 7, 5>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %206 = "stablehlo.constant"() {value = dense<1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %207 = "stablehlo.add"(%5, %206) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %208 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %209 = "stablehlo.compare"(%207, %208) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %210 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %211 = "stablehlo.compare"(%207, %210) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %212 = "stablehlo.and"(%209, %211) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %213 = "stablehlo.constant"() {value = dense<-1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %214 = "stablehlo.add"(%8, %213) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %215 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %216 = "stablehlo.compare"(%214, %215) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %217 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %218 = "stablehlo.compare"(%214, %217) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %219 = "stablehlo.and"(%216, %218) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %220 = "stablehlo.and"(%212, %219) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %221 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %222 = "stablehlo.multiply"(%207, %221) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %223 = "stablehlo.add"(%222, %214) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %224 = "stablehlo.compare"(%205, %201) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %225 = "stablehlo.compare"(%205, %205) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %226 = "stablehlo.compare"(%201, %201) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %227 = "stablehlo.not"(%204) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %228 = "stablehlo.and"(%225, %226) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %229 = "stablehlo.or"(%224, %228) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %230 = "stablehlo.or"(%227, %229) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %231 = "stablehlo.and"(%220, %230) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %232 = "stablehlo.select"(%231, %205, %201) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %233 = "stablehlo.add"(%15, %223) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %234 = "stablehlo.select"(%231, %233, %203) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %235 = "stablehlo.or"(%204, %220) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %236 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 2, 1>, limit_indices = array<i64: 1, 2, 7, 6>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %237 = "stablehlo.constant"() {value = dense<1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %238 = "stablehlo.add"(%5, %237) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %239 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %240 = "stablehlo.compare"(%238, %239) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %241 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %242 = "stablehlo.compare"(%238, %241) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %243 = "stablehlo.and"(%240, %242) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %244 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %245 = "stablehlo.add"(%8, %244) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %246 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %247 = "stablehlo.compare"(%245, %246) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %248 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %249 = "stablehlo.compare"(%245, %248) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %250 = "stablehlo.and"(%247, %249) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %251 = "stablehlo.and"(%243, %250) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %252 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %253 = "stablehlo.multiply"(%238, %252) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %254 = "stablehlo.add"(%253, %245) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %255 = "stablehlo.compare"(%236, %232) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %256 = "stablehlo.compare"(%236, %236) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %257 = "stablehlo.compare"(%232, %232) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %258 = "stablehlo.not"(%235) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %259 = "stablehlo.and"(%256, %257) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %260 = "stablehlo.or"(%255, %259) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %261 = "stablehlo.or"(%258, %260) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %262 = "stablehlo.and"(%251, %261) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %263 = "stablehlo.select"(%262, %236, %232) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %264 = "stablehlo.add"(%15, %254) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %265 = "stablehlo.select"(%262, %264, %234) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %266 = "stablehlo.or"(%235, %251) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %267 = "stablehlo.slice"(%2) {start_indices = array<i64: 0, 0, 2, 2>, limit_indices = array<i64: 1, 2, 7, 7>, strides = array<i64: 1, 1, 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x3x3xf32>
    %268 = "stablehlo.constant"() {value = dense<1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %269 = "stablehlo.add"(%5, %268) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %270 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %271 = "stablehlo.compare"(%269, %270) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %272 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %273 = "stablehlo.compare"(%269, %272) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %274 = "stablehlo.and"(%271, %273) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %275 = "stablehlo.constant"() {value = dense<1> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %276 = "stablehlo.add"(%8, %275) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %277 = "stablehlo.constant"() {value = dense<0> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %278 = "stablehlo.compare"(%276, %277) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %279 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %280 = "stablehlo.compare"(%276, %279) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi1>
    %281 = "stablehlo.and"(%278, %280) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %282 = "stablehlo.and"(%274, %281) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %283 = "stablehlo.constant"() {value = dense<5> : tensor<1x2x3x3xi64>} : () -> tensor<1x2x3x3xi64>
    %284 = "stablehlo.multiply"(%269, %283) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %285 = "stablehlo.add"(%284, %276) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %286 = "stablehlo.compare"(%267, %263) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %287 = "stablehlo.compare"(%267, %267) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %288 = "stablehlo.compare"(%263, %263) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xi1>
    %289 = "stablehlo.not"(%266) : (tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %290 = "stablehlo.and"(%287, %288) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %291 = "stablehlo.or"(%286, %290) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %292 = "stablehlo.or"(%289, %291) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %293 = "stablehlo.and"(%282, %292) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    %294 = "stablehlo.select"(%293, %267, %263) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %295 = "stablehlo.add"(%15, %285) : (tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %296 = "stablehlo.select"(%293, %295, %265) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi64>, tensor<1x2x3x3xi64>) -> tensor<1x2x3x3xi64>
    %297 = "stablehlo.or"(%266, %282) : (tensor<1x2x3x3xi1>, tensor<1x2x3x3xi1>) -> tensor<1x2x3x3xi1>
    "func.return"(%296) : (tensor<1x2x3x3xi64>) -> ()
  }
}
