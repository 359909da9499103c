module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<1x2x4x4xf32>, %1: tensor<2x4xf32>, %2: tensor<2xi64>) -> (tensor<2x2x2x2xf32>, tensor<i1>) {
    %3 = "stablehlo.convert"(%0) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf64>
    %4 = "stablehlo.convert"(%1) : (tensor<2x4xf32>) -> tensor<2x4xf64>
    %5 = "stablehlo.constant"() {value = dense<0> : tensor<2xi64>} : () -> tensor<2xi64>
    %6 = "stablehlo.compare"(%2, %5) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
    %7 = "stablehlo.constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
    %8 = "stablehlo.compare"(%2, %7) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
    %9 = "stablehlo.or"(%6, %8) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %10 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %11 = "stablehlo.reduce"(%9, %10) ({
    ^bb0(%12: tensor<i1>, %13: tensor<i1>):
      %14 = "stablehlo.or"(%12, %13) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%14) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<2xi1>, tensor<i1>) -> tensor<i1>
    %15 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 1>, strides = array<i64: 1, 1>} : (tensor<2x4xf64>) -> tensor<2x1xf64>
    %16 = "stablehlo.reshape"(%15) : (tensor<2x1xf64>) -> tensor<2xf64>
    %17 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %18 = "stablehlo.multiply"(%16, %17) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %19 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %20 = "stablehlo.subtract"(%18, %19) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %21 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 2>, strides = array<i64: 1, 1>} : (tensor<2x4xf64>) -> tensor<2x1xf64>
    %22 = "stablehlo.reshape"(%21) : (tensor<2x1xf64>) -> tensor<2xf64>
    %23 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %24 = "stablehlo.multiply"(%22, %23) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %25 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %26 = "stablehlo.subtract"(%24, %25) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %27 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 2>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x4xf64>) -> tensor<2x1xf64>
    %28 = "stablehlo.reshape"(%27) : (tensor<2x1xf64>) -> tensor<2xf64>
    %29 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %30 = "stablehlo.multiply"(%28, %29) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %31 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %32 = "stablehlo.subtract"(%30, %31) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %33 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 3>, limit_indices = array<i64: 2, 4>, strides = array<i64: 1, 1>} : (tensor<2x4xf64>) -> tensor<2x1xf64>
    %34 = "stablehlo.reshape"(%33) : (tensor<2x1xf64>) -> tensor<2xf64>
    %35 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %36 = "stablehlo.multiply"(%34, %35) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %37 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %38 = "stablehlo.subtract"(%36, %37) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %39 = "stablehlo.subtract"(%32, %20) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %40 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %41 = "stablehlo.divide"(%39, %40) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %42 = "stablehlo.ceil"(%41) : (tensor<2xf64>) -> tensor<2xf64>
    %43 = "stablehlo.is_finite"(%42) : (tensor<2xf64>) -> tensor<2xi1>
    %44 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %45 = "stablehlo.compare"(%42, %44) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %46 = "stablehlo.and"(%43, %45) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %47 = "stablehlo.constant"() {value = dense<0x40F0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %48 = "stablehlo.minimum"(%42, %47) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %49 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %50 = "stablehlo.select"(%46, %48, %49) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %51 = "stablehlo.subtract"(%38, %26) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %52 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %53 = "stablehlo.divide"(%51, %52) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %54 = "stablehlo.ceil"(%53) : (tensor<2xf64>) -> tensor<2xf64>
    %55 = "stablehlo.is_finite"(%54) : (tensor<2xf64>) -> tensor<2xi1>
    %56 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %57 = "stablehlo.compare"(%54, %56) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %58 = "stablehlo.and"(%55, %57) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
    %59 = "stablehlo.constant"() {value = dense<0x40F0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %60 = "stablehlo.minimum"(%54, %59) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %61 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %62 = "stablehlo.select"(%58, %60, %61) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %63 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x2xf64>
    %64 = "stablehlo.broadcast_in_dim"(%53) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %65 = "stablehlo.multiply"(%63, %64) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %66 = "stablehlo.broadcast_in_dim"(%26) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %67 = "stablehlo.add"(%66, %65) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %68 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<2x2x16xf64>
    %69 = "stablehlo.constant"() {value = dense<0xBFF0000000000000> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %70 = "stablehlo.subtract"(%69, %67) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %71 = "stablehlo.broadcast_in_dim"(%62) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %72 = "stablehlo.multiply"(%70, %71) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %73 = "stablehlo.broadcast_in_dim"(%53) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %74 = "stablehlo.divide"(%72, %73) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %75 = "stablehlo.floor"(%74) : (tensor<2x2xf64>) -> tensor<2x2xf64>
    %76 = "stablehlo.constant"() {value = dense<0x3FF8000000000000> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %77 = "stablehlo.subtract"(%75, %76) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %78 = "stablehlo.is_finite"(%77) : (tensor<2x2xf64>) -> tensor<2x2xi1>
    %79 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %80 = "stablehlo.select"(%78, %77, %79) : (tensor<2x2xi1>, tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %81 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %82 = "stablehlo.maximum"(%80, %81) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %83 = "stablehlo.broadcast_in_dim"(%62) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %84 = "stablehlo.minimum"(%82, %83) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %85 = "stablehlo.floor"(%84) : (tensor<2x2xf64>) -> tensor<2x2xf64>
    %86 = "stablehlo.broadcast_in_dim"(%85) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xf64>) -> tensor<2x2x16xf64>
    %87 = "stablehlo.add"(%86, %68) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %88 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %89 = "stablehlo.add"(%87, %88) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %90 = "stablehlo.broadcast_in_dim"(%53) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2x16xf64>
    %91 = "stablehlo.multiply"(%89, %90) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %92 = "stablehlo.broadcast_in_dim"(%62) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2x16xf64>
    %93 = "stablehlo.divide"(%91, %92) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %94 = "stablehlo.broadcast_in_dim"(%67) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xf64>) -> tensor<2x2x16xf64>
    %95 = "stablehlo.add"(%94, %93) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %96 = "stablehlo.broadcast_in_dim"(%62) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2x16xf64>
    %97 = "stablehlo.compare"(%87, %96) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %98 = "stablehlo.constant"() {value = dense<0xBFF0000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %99 = "stablehlo.compare"(%95, %98) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %100 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %101 = "stablehlo.compare"(%95, %100) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %102 = "stablehlo.or"(%99, %101) : (tensor<2x2x16xi1>, tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %103 = "stablehlo.not"(%102) : (tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %104 = "stablehlo.and"(%97, %103) : (tensor<2x2x16xi1>, tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %105 = "stablehlo.compare"(%95, %95) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %106 = "stablehlo.not"(%105) : (tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %107 = "stablehlo.and"(%104, %106) : (tensor<2x2x16xi1>, tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %108 = "stablehlo.convert"(%107) : (tensor<2x2x16xi1>) -> tensor<2x2x16xf64>
    %109 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<f64>} : () -> tensor<f64>
    %110 = "stablehlo.reduce"(%108, %109) ({
    ^bb0(%111: tensor<f64>, %112: tensor<f64>):
      %113 = "stablehlo.add"(%111, %112) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%113) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x2x16xf64>, tensor<f64>) -> tensor<2x2xf64>
    %114 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %115 = "stablehlo.compare"(%95, %114) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %116 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %117 = "stablehlo.select"(%115, %116, %95) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %118 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %119 = "stablehlo.select"(%107, %117, %118) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %120 = "stablehlo.convert"(%119) : (tensor<2x2x16xf64>) -> tensor<2x2x16xi64>
    %121 = "stablehlo.convert"(%120) : (tensor<2x2x16xi64>) -> tensor<2x2x16xf64>
    %122 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %123 = "stablehlo.compare"(%121, %122) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %124 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %125 = "stablehlo.select"(%123, %124, %121) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %126 = "stablehlo.select"(%123, %125, %119) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %127 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %128 = "stablehlo.add"(%125, %127) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %129 = "stablehlo.select"(%123, %125, %128) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %130 = "stablehlo.subtract"(%126, %125) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %131 = "stablehlo.convert"(%125) : (tensor<2x2x16xf64>) -> tensor<2x2x16xi64>
    %132 = "stablehlo.convert"(%129) : (tensor<2x2x16xf64>) -> tensor<2x2x16xi64>
    %133 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x2xf64>
    %134 = "stablehlo.broadcast_in_dim"(%41) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %135 = "stablehlo.multiply"(%133, %134) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %136 = "stablehlo.broadcast_in_dim"(%20) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %137 = "stablehlo.add"(%136, %135) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %138 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<2x2x16xf64>
    %139 = "stablehlo.constant"() {value = dense<0xBFF0000000000000> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %140 = "stablehlo.subtract"(%139, %137) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %141 = "stablehlo.broadcast_in_dim"(%50) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %142 = "stablehlo.multiply"(%140, %141) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %143 = "stablehlo.broadcast_in_dim"(%41) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %144 = "stablehlo.divide"(%142, %143) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %145 = "stablehlo.floor"(%144) : (tensor<2x2xf64>) -> tensor<2x2xf64>
    %146 = "stablehlo.constant"() {value = dense<0x3FF8000000000000> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %147 = "stablehlo.subtract"(%145, %146) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %148 = "stablehlo.is_finite"(%147) : (tensor<2x2xf64>) -> tensor<2x2xi1>
    %149 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %150 = "stablehlo.select"(%148, %147, %149) : (tensor<2x2xi1>, tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %151 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %152 = "stablehlo.maximum"(%150, %151) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %153 = "stablehlo.broadcast_in_dim"(%50) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2xf64>
    %154 = "stablehlo.minimum"(%152, %153) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %155 = "stablehlo.floor"(%154) : (tensor<2x2xf64>) -> tensor<2x2xf64>
    %156 = "stablehlo.broadcast_in_dim"(%155) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xf64>) -> tensor<2x2x16xf64>
    %157 = "stablehlo.add"(%156, %138) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %158 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %159 = "stablehlo.add"(%157, %158) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %160 = "stablehlo.broadcast_in_dim"(%41) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2x16xf64>
    %161 = "stablehlo.multiply"(%159, %160) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %162 = "stablehlo.broadcast_in_dim"(%50) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2x16xf64>
    %163 = "stablehlo.divide"(%161, %162) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %164 = "stablehlo.broadcast_in_dim"(%137) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xf64>) -> tensor<2x2x16xf64>
    %165 = "stablehlo.add"(%164, %163) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %166 = "stablehlo.broadcast_in_dim"(%50) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2x16xf64>
    %167 = "stablehlo.compare"(%157, %166) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %168 = "stablehlo.constant"() {value = dense<0xBFF0000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %169 = "stablehlo.compare"(%165, %168) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %170 = "stablehlo.constant"() {value = dense<0x4010000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %171 = "stablehlo.compare"(%165, %170) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %172 = "stablehlo.or"(%169, %171) : (tensor<2x2x16xi1>, tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %173 = "stablehlo.not"(%172) : (tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %174 = "stablehlo.and"(%167, %173) : (tensor<2x2x16xi1>, tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %175 = "stablehlo.compare"(%165, %165) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %176 = "stablehlo.not"(%175) : (tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %177 = "stablehlo.and"(%174, %176) : (tensor<2x2x16xi1>, tensor<2x2x16xi1>) -> tensor<2x2x16xi1>
    %178 = "stablehlo.convert"(%177) : (tensor<2x2x16xi1>) -> tensor<2x2x16xf64>
    %179 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<f64>} : () -> tensor<f64>
    %180 = "stablehlo.reduce"(%178, %179) ({
    ^bb0(%181: tensor<f64>, %182: tensor<f64>):
      %183 = "stablehlo.add"(%181, %182) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%183) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x2x16xf64>, tensor<f64>) -> tensor<2x2xf64>
    %184 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %185 = "stablehlo.compare"(%165, %184) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %186 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %187 = "stablehlo.select"(%185, %186, %165) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %188 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %189 = "stablehlo.select"(%177, %187, %188) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %190 = "stablehlo.convert"(%189) : (tensor<2x2x16xf64>) -> tensor<2x2x16xi64>
    %191 = "stablehlo.convert"(%190) : (tensor<2x2x16xi64>) -> tensor<2x2x16xf64>
    %192 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %193 = "stablehlo.compare"(%191, %192) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xi1>
    %194 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %195 = "stablehlo.select"(%193, %194, %191) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %196 = "stablehlo.select"(%193, %195, %189) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %197 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2x2x16xf64>} : () -> tensor<2x2x16xf64>
    %198 = "stablehlo.add"(%195, %197) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %199 = "stablehlo.select"(%193, %195, %198) : (tensor<2x2x16xi1>, tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %200 = "stablehlo.subtract"(%196, %195) : (tensor<2x2x16xf64>, tensor<2x2x16xf64>) -> tensor<2x2x16xf64>
    %201 = "stablehlo.convert"(%195) : (tensor<2x2x16xf64>) -> tensor<2x2x16xi64>
    %202 = "stablehlo.convert"(%199) : (tensor<2x2x16xf64>) -> tensor<2x2x16xi64>
    %203 = "stablehlo.broadcast_in_dim"(%107) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<2x2x16xi1>) -> tensor<2x2x2x16x16xi1>
    %204 = "stablehlo.broadcast_in_dim"(%177) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<2x2x16xi1>) -> tensor<2x2x2x16x16xi1>
    %205 = "stablehlo.and"(%203, %204) : (tensor<2x2x2x16x16xi1>, tensor<2x2x2x16x16xi1>) -> tensor<2x2x2x16x16xi1>
    %206 = "stablehlo.broadcast_in_dim"(%130) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<2x2x16xf64>) -> tensor<2x2x2x16x16xf64>
    %207 = "stablehlo.broadcast_in_dim"(%200) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<2x2x16xf64>) -> tensor<2x2x2x16x16xf64>
    %208 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2x2x2x16x16xf64>} : () -> tensor<2x2x2x16x16xf64>
    %209 = "stablehlo.subtract"(%208, %206) : (tensor<2x2x2x16x16xf64>, tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x16x16xf64>
    %210 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2x2x2x16x16xf64>} : () -> tensor<2x2x2x16x16xf64>
    %211 = "stablehlo.subtract"(%210, %207) : (tensor<2x2x2x16x16xf64>, tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x16x16xf64>
    %212 = "stablehlo.multiply"(%209, %211) : (tensor<2x2x2x16x16xf64>, tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x16x16xf64>
    %213 = "stablehlo.multiply"(%209, %207) : (tensor<2x2x2x16x16xf64>, tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x16x16xf64>
    %214 = "stablehlo.multiply"(%206, %211) : (tensor<2x2x2x16x16xf64>, tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x16x16xf64>
    %215 = "stablehlo.multiply"(%206, %207) : (tensor<2x2x2x16x16xf64>, tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x16x16xf64>
    %216 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0>} : (tensor<2xi64>) -> tensor<2x2x2x16x16xi64>
    %217 = "stablehlo.reshape"(%216) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %218 = "stablehlo.broadcast_in_dim"(%131) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<2x2x16xi64>) -> tensor<2x2x2x16x16xi64>
    %219 = "stablehlo.broadcast_in_dim"(%132) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<2x2x16xi64>) -> tensor<2x2x2x16x16xi64>
    %220 = "stablehlo.broadcast_in_dim"(%201) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<2x2x16xi64>) -> tensor<2x2x2x16x16xi64>
    %221 = "stablehlo.broadcast_in_dim"(%202) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<2x2x16xi64>) -> tensor<2x2x2x16x16xi64>
    %222 = "stablehlo.reshape"(%218) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %223 = "stablehlo.reshape"(%220) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %224 = "stablehlo.concatenate"(%217, %222, %223) {dimension = 5 : i64} : (tensor<2x2x2x16x16x1xi64>, tensor<2x2x2x16x16x1xi64>, tensor<2x2x2x16x16x1xi64>) -> tensor<2x2x2x16x16x3xi64>
    %225 = "stablehlo.gather"(%3, %224) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 1>} : (tensor<1x2x4x4xf64>, tensor<2x2x2x16x16x3xi64>) -> tensor<2x2x2x2x16x16xf64>
    %226 = "stablehlo.broadcast_in_dim"(%212) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %227 = "stablehlo.multiply"(%226, %225) : (tensor<2x2x2x2x16x16xf64>, tensor<2x2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %228 = "stablehlo.reshape"(%218) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %229 = "stablehlo.reshape"(%221) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %230 = "stablehlo.concatenate"(%217, %228, %229) {dimension = 5 : i64} : (tensor<2x2x2x16x16x1xi64>, tensor<2x2x2x16x16x1xi64>, tensor<2x2x2x16x16x1xi64>) -> tensor<2x2x2x16x16x3xi64>
    %231 = "stablehlo.gather"(%3, %230) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 1>} : (tensor<1x2x4x4xf64>, tensor<2x2x2x16x16x3xi64>) -> tensor<2x2x2x2x16x16xf64>
    %232 = "stablehlo.broadcast_in_dim"(%213) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %233 = "stablehlo.multiply"(%232, %231) : (tensor<2x2x2x2x16x16xf64>, tensor<2x2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %234 = "stablehlo.reshape"(%219) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %235 = "stablehlo.reshape"(%220) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %236 = "stablehlo.concatenate"(%217, %234, %235) {dimension = 5 : i64} : (tensor<2x2x2x16x16x1xi64>, tensor<2x2x2x16x16x1xi64>, tensor<2x2x2x16x16x1xi64>) -> tensor<2x2x2x16x16x3xi64>
    %237 = "stablehlo.gather"(%3, %236) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 1>} : (tensor<1x2x4x4xf64>, tensor<2x2x2x16x16x3xi64>) -> tensor<2x2x2x2x16x16xf64>
    %238 = "stablehlo.broadcast_in_dim"(%214) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %239 = "stablehlo.multiply"(%238, %237) : (tensor<2x2x2x2x16x16xf64>, tensor<2x2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %240 = "stablehlo.reshape"(%219) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %241 = "stablehlo.reshape"(%221) : (tensor<2x2x2x16x16xi64>) -> tensor<2x2x2x16x16x1xi64>
    %242 = "stablehlo.concatenate"(%217, %240, %241) {dimension = 5 : i64} : (tensor<2x2x2x16x16x1xi64>, tensor<2x2x2x16x16x1xi64>, tensor<2x2x2x16x16x1xi64>) -> tensor<2x2x2x16x16x3xi64>
    %243 = "stablehlo.gather"(%3, %242) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2, 1, 1>} : (tensor<1x2x4x4xf64>, tensor<2x2x2x16x16x3xi64>) -> tensor<2x2x2x2x16x16xf64>
    %244 = "stablehlo.broadcast_in_dim"(%215) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %245 = "stablehlo.multiply"(%244, %243) : (tensor<2x2x2x2x16x16xf64>, tensor<2x2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %246 = "stablehlo.broadcast_in_dim"(%205) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<2x2x2x16x16xi1>) -> tensor<2x2x2x2x16x16xi1>
    %247 = "stablehlo.add"(%227, %233) : (tensor<2x2x2x2x16x16xf64>, tensor<2x2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %248 = "stablehlo.add"(%247, %239) : (tensor<2x2x2x2x16x16xf64>, tensor<2x2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %249 = "stablehlo.add"(%248, %245) : (tensor<2x2x2x2x16x16xf64>, tensor<2x2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %250 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2x2x2x2x16x16xf64>} : () -> tensor<2x2x2x2x16x16xf64>
    %251 = "stablehlo.select"(%246, %249, %250) : (tensor<2x2x2x2x16x16xi1>, tensor<2x2x2x2x16x16xf64>, tensor<2x2x2x2x16x16xf64>) -> tensor<2x2x2x2x16x16xf64>
    %252 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<f64>} : () -> tensor<f64>
    %253 = "stablehlo.reduce"(%251, %252) ({
    ^bb0(%254: tensor<f64>, %255: tensor<f64>):
      %256 = "stablehlo.add"(%254, %255) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%256) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 4, 5>} : (tensor<2x2x2x2x16x16xf64>, tensor<f64>) -> tensor<2x2x2x2xf64>
    %257 = "stablehlo.multiply"(%50, %62) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %258 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %259 = "stablehlo.compare"(%257, %258) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %260 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %261 = "stablehlo.select"(%259, %257, %260) : (tensor<2xi1>, tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %262 = "stablehlo.broadcast_in_dim"(%261) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf64>) -> tensor<2x2x2x2xf64>
    %263 = "stablehlo.divide"(%253, %262) : (tensor<2x2x2x2xf64>, tensor<2x2x2x2xf64>) -> tensor<2x2x2x2xf64>
    %264 = "stablehlo.convert"(%263) : (tensor<2x2x2x2xf64>) -> tensor<2x2x2x2xf32>
    "func.return"(%264, %11) : (tensor<2x2x2x2xf32>, tensor<i1>) -> ()
  }
}
