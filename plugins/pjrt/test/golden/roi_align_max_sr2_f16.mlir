module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x1x3x3xf16>, %1: tensor<1x4xf16>, %2: tensor<1xi32>) -> (tensor<1x1x1x1xf16>, tensor<i1>) {
    %3 = "stablehlo.convert"(%0) : (tensor<2x1x3x3xf16>) -> tensor<2x1x3x3xf64>
    %4 = "stablehlo.convert"(%1) : (tensor<1x4xf16>) -> tensor<1x4xf64>
    %5 = "stablehlo.convert"(%2) : (tensor<1xi32>) -> tensor<1xi64>
    %6 = "stablehlo.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
    %7 = "stablehlo.compare"(%5, %6) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
    %8 = "stablehlo.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
    %9 = "stablehlo.compare"(%5, %8) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
    %10 = "stablehlo.or"(%7, %9) : (tensor<1xi1>, tensor<1xi1>) -> tensor<1xi1>
    %11 = "stablehlo.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %12 = "stablehlo.reduce"(%10, %11) ({
    ^bb0(%13: tensor<i1>, %14: tensor<i1>):
      %15 = "stablehlo.or"(%13, %14) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%15) : (tensor<i1>) -> ()
    }) {dimensions = array<i64: 0>} : (tensor<1xi1>, tensor<i1>) -> tensor<i1>
    %16 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x4xf64>) -> tensor<1x1xf64>
    %17 = "stablehlo.reshape"(%16) : (tensor<1x1xf64>) -> tensor<1xf64>
    %18 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %19 = "stablehlo.multiply"(%17, %18) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %20 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %21 = "stablehlo.subtract"(%19, %20) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %22 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 1, 2>, strides = array<i64: 1, 1>} : (tensor<1x4xf64>) -> tensor<1x1xf64>
    %23 = "stablehlo.reshape"(%22) : (tensor<1x1xf64>) -> tensor<1xf64>
    %24 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %25 = "stablehlo.multiply"(%23, %24) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %26 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %27 = "stablehlo.subtract"(%25, %26) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %28 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 2>, limit_indices = array<i64: 1, 3>, strides = array<i64: 1, 1>} : (tensor<1x4xf64>) -> tensor<1x1xf64>
    %29 = "stablehlo.reshape"(%28) : (tensor<1x1xf64>) -> tensor<1xf64>
    %30 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %31 = "stablehlo.multiply"(%29, %30) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %32 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %33 = "stablehlo.subtract"(%31, %32) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %34 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 3>, limit_indices = array<i64: 1, 4>, strides = array<i64: 1, 1>} : (tensor<1x4xf64>) -> tensor<1x1xf64>
    %35 = "stablehlo.reshape"(%34) : (tensor<1x1xf64>) -> tensor<1xf64>
    %36 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %37 = "stablehlo.multiply"(%35, %36) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %38 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %39 = "stablehlo.subtract"(%37, %38) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %40 = "stablehlo.subtract"(%33, %21) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %41 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %42 = "stablehlo.compare"(%40, %41) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
    %43 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %44 = "stablehlo.select"(%42, %40, %43) : (tensor<1xi1>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %45 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %46 = "stablehlo.divide"(%44, %45) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %47 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %48 = "stablehlo.subtract"(%39, %27) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %49 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %50 = "stablehlo.compare"(%48, %49) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
    %51 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %52 = "stablehlo.select"(%50, %48, %51) : (tensor<1xi1>, tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %53 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %54 = "stablehlo.divide"(%52, %53) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %55 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %56 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x1xf64>
    %57 = "stablehlo.broadcast_in_dim"(%54) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1xf64>
    %58 = "stablehlo.multiply"(%56, %57) : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
    %59 = "stablehlo.broadcast_in_dim"(%27) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1xf64>
    %60 = "stablehlo.add"(%59, %58) : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
    %61 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x1x2xf64>
    %62 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %63 = "stablehlo.add"(%62, %61) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %64 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %65 = "stablehlo.add"(%63, %64) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %66 = "stablehlo.broadcast_in_dim"(%54) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1x2xf64>
    %67 = "stablehlo.multiply"(%65, %66) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %68 = "stablehlo.broadcast_in_dim"(%55) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1x2xf64>
    %69 = "stablehlo.divide"(%67, %68) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %70 = "stablehlo.broadcast_in_dim"(%60) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x1xf64>) -> tensor<1x1x2xf64>
    %71 = "stablehlo.add"(%70, %69) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %72 = "stablehlo.broadcast_in_dim"(%55) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1x2xf64>
    %73 = "stablehlo.compare"(%63, %72) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %74 = "stablehlo.constant"() {value = dense<0xBFF0000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %75 = "stablehlo.compare"(%71, %74) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %76 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %77 = "stablehlo.compare"(%71, %76) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %78 = "stablehlo.or"(%75, %77) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %79 = "stablehlo.not"(%78) : (tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %80 = "stablehlo.and"(%73, %79) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %81 = "stablehlo.compare"(%71, %71) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %82 = "stablehlo.not"(%81) : (tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %83 = "stablehlo.and"(%80, %82) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %84 = "stablehlo.convert"(%83) : (tensor<1x1x2xi1>) -> tensor<1x1x2xf64>
    %85 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<f64>} : () -> tensor<f64>
    %86 = "stablehlo.reduce"(%84, %85) ({
    ^bb0(%87: tensor<f64>, %88: tensor<f64>):
      %89 = "stablehlo.add"(%87, %88) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%89) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<1x1x2xf64>, tensor<f64>) -> tensor<1x1xf64>
    %90 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %91 = "stablehlo.compare"(%71, %90) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %92 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %93 = "stablehlo.select"(%91, %92, %71) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %94 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %95 = "stablehlo.select"(%83, %93, %94) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %96 = "stablehlo.convert"(%95) : (tensor<1x1x2xf64>) -> tensor<1x1x2xi64>
    %97 = "stablehlo.convert"(%96) : (tensor<1x1x2xi64>) -> tensor<1x1x2xf64>
    %98 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %99 = "stablehlo.compare"(%97, %98) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %100 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %101 = "stablehlo.select"(%99, %100, %97) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %102 = "stablehlo.select"(%99, %101, %95) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %103 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %104 = "stablehlo.add"(%101, %103) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %105 = "stablehlo.select"(%99, %101, %104) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %106 = "stablehlo.subtract"(%102, %101) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %107 = "stablehlo.convert"(%101) : (tensor<1x1x2xf64>) -> tensor<1x1x2xi64>
    %108 = "stablehlo.convert"(%105) : (tensor<1x1x2xf64>) -> tensor<1x1x2xi64>
    %109 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<1x1xf64>
    %110 = "stablehlo.broadcast_in_dim"(%46) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1xf64>
    %111 = "stablehlo.multiply"(%109, %110) : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
    %112 = "stablehlo.broadcast_in_dim"(%21) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1xf64>
    %113 = "stablehlo.add"(%112, %111) : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xf64>
    %114 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<1x1x2xf64>
    %115 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %116 = "stablehlo.add"(%115, %114) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %117 = "stablehlo.constant"() {value = dense<0x3FE0000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %118 = "stablehlo.add"(%116, %117) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %119 = "stablehlo.broadcast_in_dim"(%46) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1x2xf64>
    %120 = "stablehlo.multiply"(%118, %119) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %121 = "stablehlo.broadcast_in_dim"(%47) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1x2xf64>
    %122 = "stablehlo.divide"(%120, %121) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %123 = "stablehlo.broadcast_in_dim"(%113) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<1x1xf64>) -> tensor<1x1x2xf64>
    %124 = "stablehlo.add"(%123, %122) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %125 = "stablehlo.broadcast_in_dim"(%47) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1x2xf64>
    %126 = "stablehlo.compare"(%116, %125) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %127 = "stablehlo.constant"() {value = dense<0xBFF0000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %128 = "stablehlo.compare"(%124, %127) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %129 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %130 = "stablehlo.compare"(%124, %129) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %131 = "stablehlo.or"(%128, %130) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %132 = "stablehlo.not"(%131) : (tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %133 = "stablehlo.and"(%126, %132) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %134 = "stablehlo.compare"(%124, %124) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %135 = "stablehlo.not"(%134) : (tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %136 = "stablehlo.and"(%133, %135) : (tensor<1x1x2xi1>, tensor<1x1x2xi1>) -> tensor<1x1x2xi1>
    %137 = "stablehlo.convert"(%136) : (tensor<1x1x2xi1>) -> tensor<1x1x2xf64>
    %138 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<f64>} : () -> tensor<f64>
    %139 = "stablehlo.reduce"(%137, %138) ({
    ^bb0(%140: tensor<f64>, %141: tensor<f64>):
      %142 = "stablehlo.add"(%140, %141) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%142) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<1x1x2xf64>, tensor<f64>) -> tensor<1x1xf64>
    %143 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %144 = "stablehlo.compare"(%124, %143) {comparison_direction = #stablehlo<comparison_direction LE>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %145 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %146 = "stablehlo.select"(%144, %145, %124) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %147 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %148 = "stablehlo.select"(%136, %146, %147) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %149 = "stablehlo.convert"(%148) : (tensor<1x1x2xf64>) -> tensor<1x1x2xi64>
    %150 = "stablehlo.convert"(%149) : (tensor<1x1x2xi64>) -> tensor<1x1x2xf64>
    %151 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %152 = "stablehlo.compare"(%150, %151) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xi1>
    %153 = "stablehlo.constant"() {value = dense<0x4000000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %154 = "stablehlo.select"(%152, %153, %150) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %155 = "stablehlo.select"(%152, %154, %148) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %156 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x1x2xf64>} : () -> tensor<1x1x2xf64>
    %157 = "stablehlo.add"(%154, %156) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %158 = "stablehlo.select"(%152, %154, %157) : (tensor<1x1x2xi1>, tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %159 = "stablehlo.subtract"(%155, %154) : (tensor<1x1x2xf64>, tensor<1x1x2xf64>) -> tensor<1x1x2xf64>
    %160 = "stablehlo.convert"(%154) : (tensor<1x1x2xf64>) -> tensor<1x1x2xi64>
    %161 = "stablehlo.convert"(%158) : (tensor<1x1x2xf64>) -> tensor<1x1x2xi64>
    %162 = "stablehlo.broadcast_in_dim"(%83) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<1x1x2xi1>) -> tensor<1x1x1x2x2xi1>
    %163 = "stablehlo.broadcast_in_dim"(%136) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x1x2xi1>) -> tensor<1x1x1x2x2xi1>
    %164 = "stablehlo.and"(%162, %163) : (tensor<1x1x1x2x2xi1>, tensor<1x1x1x2x2xi1>) -> tensor<1x1x1x2x2xi1>
    %165 = "stablehlo.broadcast_in_dim"(%106) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<1x1x2xf64>) -> tensor<1x1x1x2x2xf64>
    %166 = "stablehlo.broadcast_in_dim"(%159) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x1x2xf64>) -> tensor<1x1x1x2x2xf64>
    %167 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x1x1x2x2xf64>} : () -> tensor<1x1x1x2x2xf64>
    %168 = "stablehlo.subtract"(%167, %165) : (tensor<1x1x1x2x2xf64>, tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x2x2xf64>
    %169 = "stablehlo.constant"() {value = dense<0x3FF0000000000000> : tensor<1x1x1x2x2xf64>} : () -> tensor<1x1x1x2x2xf64>
    %170 = "stablehlo.subtract"(%169, %166) : (tensor<1x1x1x2x2xf64>, tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x2x2xf64>
    %171 = "stablehlo.multiply"(%168, %170) : (tensor<1x1x1x2x2xf64>, tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x2x2xf64>
    %172 = "stablehlo.multiply"(%168, %166) : (tensor<1x1x1x2x2xf64>, tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x2x2xf64>
    %173 = "stablehlo.multiply"(%165, %170) : (tensor<1x1x1x2x2xf64>, tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x2x2xf64>
    %174 = "stablehlo.multiply"(%165, %166) : (tensor<1x1x1x2x2xf64>, tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x2x2xf64>
    %175 = "stablehlo.broadcast_in_dim"(%5) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi64>) -> tensor<1x1x1x2x2xi64>
    %176 = "stablehlo.reshape"(%175) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %177 = "stablehlo.broadcast_in_dim"(%107) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<1x1x2xi64>) -> tensor<1x1x1x2x2xi64>
    %178 = "stablehlo.broadcast_in_dim"(%108) {broadcast_dimensions = array<i64: 0, 1, 3>} : (tensor<1x1x2xi64>) -> tensor<1x1x1x2x2xi64>
    %179 = "stablehlo.broadcast_in_dim"(%160) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x1x2xi64>) -> tensor<1x1x1x2x2xi64>
    %180 = "stablehlo.broadcast_in_dim"(%161) {broadcast_dimensions = array<i64: 0, 2, 4>} : (tensor<1x1x2xi64>) -> tensor<1x1x1x2x2xi64>
    %181 = "stablehlo.reshape"(%177) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %182 = "stablehlo.reshape"(%179) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %183 = "stablehlo.concatenate"(%176, %181, %182) {dimension = 5 : i64} : (tensor<1x1x1x2x2x1xi64>, tensor<1x1x1x2x2x1xi64>, tensor<1x1x1x2x2x1xi64>) -> tensor<1x1x1x2x2x3xi64>
    %184 = "stablehlo.gather"(%3, %183) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<2x1x3x3xf64>, tensor<1x1x1x2x2x3xi64>) -> tensor<1x1x1x1x2x2xf64>
    %185 = "stablehlo.broadcast_in_dim"(%171) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %186 = "stablehlo.multiply"(%185, %184) : (tensor<1x1x1x1x2x2xf64>, tensor<1x1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %187 = "stablehlo.reshape"(%177) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %188 = "stablehlo.reshape"(%180) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %189 = "stablehlo.concatenate"(%176, %187, %188) {dimension = 5 : i64} : (tensor<1x1x1x2x2x1xi64>, tensor<1x1x1x2x2x1xi64>, tensor<1x1x1x2x2x1xi64>) -> tensor<1x1x1x2x2x3xi64>
    %190 = "stablehlo.gather"(%3, %189) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<2x1x3x3xf64>, tensor<1x1x1x2x2x3xi64>) -> tensor<1x1x1x1x2x2xf64>
    %191 = "stablehlo.broadcast_in_dim"(%172) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %192 = "stablehlo.multiply"(%191, %190) : (tensor<1x1x1x1x2x2xf64>, tensor<1x1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %193 = "stablehlo.reshape"(%178) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %194 = "stablehlo.reshape"(%179) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %195 = "stablehlo.concatenate"(%176, %193, %194) {dimension = 5 : i64} : (tensor<1x1x1x2x2x1xi64>, tensor<1x1x1x2x2x1xi64>, tensor<1x1x1x2x2x1xi64>) -> tensor<1x1x1x2x2x3xi64>
    %196 = "stablehlo.gather"(%3, %195) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<2x1x3x3xf64>, tensor<1x1x1x2x2x3xi64>) -> tensor<1x1x1x1x2x2xf64>
    %197 = "stablehlo.broadcast_in_dim"(%173) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %198 = "stablehlo.multiply"(%197, %196) : (tensor<1x1x1x1x2x2xf64>, tensor<1x1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %199 = "stablehlo.reshape"(%178) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %200 = "stablehlo.reshape"(%180) : (tensor<1x1x1x2x2xi64>) -> tensor<1x1x1x2x2x1xi64>
    %201 = "stablehlo.concatenate"(%176, %199, %200) {dimension = 5 : i64} : (tensor<1x1x1x2x2x1xi64>, tensor<1x1x1x2x2x1xi64>, tensor<1x1x1x2x2x1xi64>) -> tensor<1x1x1x2x2x3xi64>
    %202 = "stablehlo.gather"(%3, %201) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0, 2, 3], start_index_map = [0, 2, 3], index_vector_dim = 5>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 1, 1>} : (tensor<2x1x3x3xf64>, tensor<1x1x1x2x2x3xi64>) -> tensor<1x1x1x1x2x2xf64>
    %203 = "stablehlo.broadcast_in_dim"(%174) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %204 = "stablehlo.multiply"(%203, %202) : (tensor<1x1x1x1x2x2xf64>, tensor<1x1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %205 = "stablehlo.broadcast_in_dim"(%164) {broadcast_dimensions = array<i64: 0, 2, 3, 4, 5>} : (tensor<1x1x1x2x2xi1>) -> tensor<1x1x1x1x2x2xi1>
    %206 = "stablehlo.maximum"(%186, %192) : (tensor<1x1x1x1x2x2xf64>, tensor<1x1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %207 = "stablehlo.maximum"(%206, %198) : (tensor<1x1x1x1x2x2xf64>, tensor<1x1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %208 = "stablehlo.maximum"(%207, %204) : (tensor<1x1x1x1x2x2xf64>, tensor<1x1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %209 = "stablehlo.constant"() {value = dense<0xFFF0000000000000> : tensor<1x1x1x1x2x2xf64>} : () -> tensor<1x1x1x1x2x2xf64>
    %210 = "stablehlo.select"(%205, %208, %209) : (tensor<1x1x1x1x2x2xi1>, tensor<1x1x1x1x2x2xf64>, tensor<1x1x1x1x2x2xf64>) -> tensor<1x1x1x1x2x2xf64>
    %211 = "stablehlo.constant"() {value = dense<0xFFF0000000000000> : tensor<f64>} : () -> tensor<f64>
    %212 = "stablehlo.reduce"(%210, %211) ({
    ^bb0(%213: tensor<f64>, %214: tensor<f64>):
      %215 = "stablehlo.maximum"(%213, %214) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%215) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 4, 5>} : (tensor<1x1x1x1x2x2xf64>, tensor<f64>) -> tensor<1x1x1x1xf64>
    %216 = "stablehlo.broadcast_in_dim"(%55) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1xf64>
    %217 = "stablehlo.compare"(%86, %216) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xi1>
    %218 = "stablehlo.broadcast_in_dim"(%47) {broadcast_dimensions = array<i64: 0>} : (tensor<1xf64>) -> tensor<1x1xf64>
    %219 = "stablehlo.compare"(%139, %218) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<1x1xf64>, tensor<1x1xf64>) -> tensor<1x1xi1>
    %220 = "stablehlo.broadcast_in_dim"(%217) {broadcast_dimensions = array<i64: 0, 2>} : (tensor<1x1xi1>) -> tensor<1x1x1x1xi1>
    %221 = "stablehlo.broadcast_in_dim"(%219) {broadcast_dimensions = array<i64: 0, 3>} : (tensor<1x1xi1>) -> tensor<1x1x1x1xi1>
    %222 = "stablehlo.or"(%220, %221) : (tensor<1x1x1x1xi1>, tensor<1x1x1x1xi1>) -> tensor<1x1x1x1xi1>
    %223 = "stablehlo.multiply"(%47, %55) : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xf64>
    %224 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1xf64>} : () -> tensor<1xf64>
    %225 = "stablehlo.compare"(%223, %224) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<1xf64>, tensor<1xf64>) -> tensor<1xi1>
    %226 = "stablehlo.broadcast_in_dim"(%225) {broadcast_dimensions = array<i64: 0>} : (tensor<1xi1>) -> tensor<1x1x1x1xi1>
    %227 = "stablehlo.or"(%222, %226) : (tensor<1x1x1x1xi1>, tensor<1x1x1x1xi1>) -> tensor<1x1x1x1xi1>
    %228 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<1x1x1x1xf64>} : () -> tensor<1x1x1x1xf64>
    %229 = "stablehlo.maximum"(%212, %228) : (tensor<1x1x1x1xf64>, tensor<1x1x1x1xf64>) -> tensor<1x1x1x1xf64>
    %230 = "stablehlo.select"(%227, %229, %212) : (tensor<1x1x1x1xi1>, tensor<1x1x1x1xf64>, tensor<1x1x1x1xf64>) -> tensor<1x1x1x1xf64>
    %231 = "stablehlo.convert"(%230) : (tensor<1x1x1x1xf64>) -> tensor<1x1x1x1xf16>
    "func.return"(%231, %12) : (tensor<1x1x1x1xf16>, tensor<i1>) -> ()
  }
}
