module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x3x4xf32>, %1: tensor<1x2x2x2xf32>) -> (tensor<1x2x2x2xf32>) {
    %2 = "stablehlo.convert"(%0) : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf64>
    %3 = "stablehlo.convert"(%1) : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf64>
    %4 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0, 0, 1>, limit_indices = array<i64: 1, 2, 2, 2>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x2x2x2xf64>) -> tensor<1x2x2x1xf64>
    %5 = "stablehlo.reshape"(%4) : (tensor<1x2x2x1xf64>) -> tensor<1x2x2xf64>
    %6 = "stablehlo.compare"(%5, %5) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %7 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %8 = "stablehlo.add"(%5, %7) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %9 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %10 = "stablehlo.multiply"(%8, %9) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %11 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %12 = "stablehlo.subtract"(%10, %11) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %13 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %14 = "stablehlo.divide"(%12, %13) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %15 = "stablehlo.constant"() {value = dense<0xC30C6BF526340000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %16 = "stablehlo.maximum"(%14, %15) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %17 = "stablehlo.constant"() {value = dense<0x430C6BF526340000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %18 = "stablehlo.minimum"(%16, %17) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %19 = "stablehlo.floor"(%18) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %20 = "stablehlo.subtract"(%18, %19) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %21 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %22 = "stablehlo.compare"(%19, %21) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %23 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %24 = "stablehlo.compare"(%19, %23) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %25 = "stablehlo.or"(%22, %24) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %26 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %27 = "stablehlo.select"(%25, %26, %19) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %28 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %29 = "stablehlo.maximum"(%27, %28) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %30 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %31 = "stablehlo.minimum"(%29, %30) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %32 = "stablehlo.convert"(%31) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %33 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %34 = "stablehlo.add"(%19, %33) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %35 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %36 = "stablehlo.compare"(%34, %35) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %37 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %38 = "stablehlo.compare"(%34, %37) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %39 = "stablehlo.or"(%36, %38) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %40 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %41 = "stablehlo.select"(%39, %40, %34) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %42 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %43 = "stablehlo.maximum"(%41, %42) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %44 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %45 = "stablehlo.minimum"(%43, %44) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %46 = "stablehlo.convert"(%45) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %47 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %48 = "stablehlo.subtract"(%47, %20) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %49 = "stablehlo.slice"(%3) {start_indices = array<i64: 0, 0, 0, 0>, limit_indices = array<i64: 1, 2, 2, 1>, strides = array<i64: 1, 1, 1, 1>} : (tensor<1x2x2x2xf64>) -> tensor<1x2x2x1xf64>
    %50 = "stablehlo.reshape"(%49) : (tensor<1x2x2x1xf64>) -> tensor<1x2x2xf64>
    %51 = "stablehlo.compare"(%50, %50) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %52 = "stablehlo.or"(%6, %51) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %53 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %54 = "stablehlo.add"(%50, %53) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %55 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %56 = "stablehlo.multiply"(%54, %55) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %57 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %58 = "stablehlo.subtract"(%56, %57) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %59 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %60 = "stablehlo.divide"(%58, %59) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %61 = "stablehlo.constant"() {value = dense<0xC30C6BF526340000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %62 = "stablehlo.maximum"(%60, %61) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %63 = "stablehlo.constant"() {value = dense<0x430C6BF526340000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %64 = "stablehlo.minimum"(%62, %63) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %65 = "stablehlo.floor"(%64) : (tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %66 = "stablehlo.subtract"(%64, %65) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %67 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %68 = "stablehlo.compare"(%65, %67) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %69 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %70 = "stablehlo.compare"(%65, %69) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %71 = "stablehlo.or"(%68, %70) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %72 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %73 = "stablehlo.select"(%71, %72, %65) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %74 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %75 = "stablehlo.maximum"(%73, %74) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %76 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %77 = "stablehlo.minimum"(%75, %76) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %78 = "stablehlo.convert"(%77) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %79 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %80 = "stablehlo.add"(%65, %79) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %81 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %82 = "stablehlo.compare"(%80, %81) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %83 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %84 = "stablehlo.compare"(%80, %83) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xi1>
    %85 = "stablehlo.or"(%82, %84) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %86 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %87 = "stablehlo.select"(%85, %86, %80) : (tensor<1x2x2xi1>, tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %88 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %89 = "stablehlo.maximum"(%87, %88) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %90 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %91 = "stablehlo.minimum"(%89, %90) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %92 = "stablehlo.convert"(%91) : (tensor<1x2x2xf64>) -> tensor<1x2x2xi64>
    %93 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %94 = "stablehlo.subtract"(%93, %66) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %95 = "stablehlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<1x2x2xi64>
    %96 = "stablehlo.reshape"(%95) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %97 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2x2xf64>} : () -> tensor<1x2x2x2xf64>
    %98 = "stablehlo.reshape"(%32) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %99 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %100 = "stablehlo.multiply"(%99, %48) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %101 = "stablehlo.reshape"(%78) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %102 = "stablehlo.multiply"(%100, %94) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %103 = "stablehlo.or"(%25, %71) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %104 = "stablehlo.concatenate"(%96, %98, %101) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %105 = "stablehlo.gather"(%2, %104) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 1>} : (tensor<1x2x3x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x2x2x2xf64>
    %106 = "stablehlo.broadcast_in_dim"(%102) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x2x2x2xf64>
    %107 = "stablehlo.multiply"(%105, %106) : (tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %108 = "stablehlo.broadcast_in_dim"(%103) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xi1>) -> tensor<1x2x2x2xi1>
    %109 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2x2xf64>} : () -> tensor<1x2x2x2xf64>
    %110 = "stablehlo.select"(%108, %109, %107) : (tensor<1x2x2x2xi1>, tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %111 = "stablehlo.add"(%97, %110) : (tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %112 = "stablehlo.reshape"(%32) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %113 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %114 = "stablehlo.multiply"(%113, %48) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %115 = "stablehlo.reshape"(%92) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %116 = "stablehlo.multiply"(%114, %66) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %117 = "stablehlo.or"(%25, %85) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %118 = "stablehlo.concatenate"(%96, %112, %115) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %119 = "stablehlo.gather"(%2, %118) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 1>} : (tensor<1x2x3x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x2x2x2xf64>
    %120 = "stablehlo.broadcast_in_dim"(%116) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x2x2x2xf64>
    %121 = "stablehlo.multiply"(%119, %120) : (tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %122 = "stablehlo.broadcast_in_dim"(%117) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xi1>) -> tensor<1x2x2x2xi1>
    %123 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2x2xf64>} : () -> tensor<1x2x2x2xf64>
    %124 = "stablehlo.select"(%122, %123, %121) : (tensor<1x2x2x2xi1>, tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %125 = "stablehlo.add"(%111, %124) : (tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %126 = "stablehlo.reshape"(%46) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %127 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %128 = "stablehlo.multiply"(%127, %20) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %129 = "stablehlo.reshape"(%78) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %130 = "stablehlo.multiply"(%128, %94) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %131 = "stablehlo.or"(%39, %71) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %132 = "stablehlo.concatenate"(%96, %126, %129) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %133 = "stablehlo.gather"(%2, %132) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 1>} : (tensor<1x2x3x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x2x2x2xf64>
    %134 = "stablehlo.broadcast_in_dim"(%130) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x2x2x2xf64>
    %135 = "stablehlo.multiply"(%133, %134) : (tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %136 = "stablehlo.broadcast_in_dim"(%131) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xi1>) -> tensor<1x2x2x2xi1>
    %137 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2x2xf64>} : () -> tensor<1x2x2x2xf64>
    %138 = "stablehlo.select"(%136, %137, %135) : (tensor<1x2x2x2xi1>, tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %139 = "stablehlo.add"(%125, %138) : (tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %140 = "stablehlo.reshape"(%46) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %141 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x2x2xf64>} : () -> tensor<1x2x2xf64>
    %142 = "stablehlo.multiply"(%141, %20) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %143 = "stablehlo.reshape"(%92) : (tensor<1x2x2xi64>) -> tensor<1x2x2x1xi64>
    %144 = "stablehlo.multiply"(%142, %66) : (tensor<1x2x2xf64>, tensor<1x2x2xf64>) -> tensor<1x2x2xf64>
    %145 = "stablehlo.or"(%39, %85) : (tensor<1x2x2xi1>, tensor<1x2x2xi1>) -> tensor<1x2x2xi1>
    %146 = "stablehlo.concatenate"(%96, %140, %143) {dimension = 3 : i64} : (tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>, tensor<1x2x2x1xi64>) -> tensor<1x2x2x3xi64>
    %147 = "stablehlo.gather"(%2, %146) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 3>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 1>} : (tensor<1x2x3x4xf64>, tensor<1x2x2x3xi64>) -> tensor<1x2x2x2xf64>
    %148 = "stablehlo.broadcast_in_dim"(%144) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xf64>) -> tensor<1x2x2x2xf64>
    %149 = "stablehlo.multiply"(%147, %148) : (tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %150 = "stablehlo.broadcast_in_dim"(%145) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xi1>) -> tensor<1x2x2x2xi1>
    %151 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x2x2x2xf64>} : () -> tensor<1x2x2x2xf64>
    %152 = "stablehlo.select"(%150, %151, %149) : (tensor<1x2x2x2xi1>, tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %153 = "stablehlo.add"(%139, %152) : (tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %154 = "stablehlo.broadcast_in_dim"(%52) {broadcast_dimensions = array<i64: 0, 2, 3>} : (tensor<1x2x2xi1>) -> tensor<1x2x2x2xi1>
    %155 = "stablehlo.constant"() {value = dense<0x7FF8000000000000> : tensor<1x2x2x2xf64>} : () -> tensor<1x2x2x2xf64>
    %156 = "stablehlo.select"(%154, %155, %153) : (tensor<1x2x2x2xi1>, tensor<1x2x2x2xf64>, tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf64>
    %157 = "stablehlo.convert"(%156) : (tensor<1x2x2x2xf64>) -> tensor<1x2x2x2xf32>
    "func.return"(%157) : (tensor<1x2x2x2xf32>) -> ()
  }
}
