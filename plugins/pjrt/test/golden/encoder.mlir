module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x64x256xf32>, %1: tensor<256xf32>, %2: tensor<256xf32>, %3: tensor<256x256xf32>, %4: tensor<256xf32>, %5: tensor<256x256xf32>, %6: tensor<256xf32>, %7: tensor<256x256xf32>, %8: tensor<256xf32>, %9: tensor<256x256xf32>, %10: tensor<256xf32>, %11: tensor<256xf32>, %12: tensor<256xf32>, %13: tensor<256x1024xf32>, %14: tensor<1024xf32>, %15: tensor<1024x256xf32>, %16: tensor<256xf32>) -> (tensor<2x64x256xf32>) {
    %17 = "stablehlo.constant"() {value = dense<"0x0000003E"> : tensor<f32>} : () -> tensor<f32>
    %18 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %19 = "stablehlo.reduce"(%0, %18) ({
    ^bb0(%20: tensor<f32>, %21: tensor<f32>):
      %22 = "stablehlo.add"(%20, %21) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%22) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x64x256xf32>, tensor<f32>) -> tensor<2x64xf32>
    %23 = "stablehlo.constant"() {value = dense<0x43800000> : tensor<2x64xf32>} : () -> tensor<2x64xf32>
    %24 = "stablehlo.divide"(%19, %23) : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
    %25 = "stablehlo.broadcast_in_dim"(%24) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x64xf32>) -> tensor<2x64x256xf32>
    %26 = "stablehlo.subtract"(%0, %25) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %27 = "stablehlo.multiply"(%26, %26) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %28 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %29 = "stablehlo.reduce"(%27, %28) ({
    ^bb0(%30: tensor<f32>, %31: tensor<f32>):
      %32 = "stablehlo.add"(%30, %31) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%32) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x64x256xf32>, tensor<f32>) -> tensor<2x64xf32>
    %33 = "stablehlo.constant"() {value = dense<0x43800000> : tensor<2x64xf32>} : () -> tensor<2x64xf32>
    %34 = "stablehlo.divide"(%29, %33) : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
    %35 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<2x64xf32>} : () -> tensor<2x64xf32>
    %36 = "stablehlo.add"(%34, %35) : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
    %37 = "stablehlo.rsqrt"(%36) : (tensor<2x64xf32>) -> tensor<2x64xf32>
    %38 = "stablehlo.broadcast_in_dim"(%37) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x64xf32>) -> tensor<2x64x256xf32>
    %39 = "stablehlo.multiply"(%26, %38) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %40 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %41 = "stablehlo.multiply"(%39, %40) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %42 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %43 = "stablehlo.add"(%41, %42) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %44 = "stablehlo.dot_general"(%43, %3) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x64x256xf32>, tensor<256x256xf32>) -> tensor<2x64x256xf32>
    %45 = "stablehlo.broadcast_in_dim"(%4) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %46 = "stablehlo.add"(%44, %45) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %47 = "stablehlo.reshape"(%46) : (tensor<2x64x256xf32>) -> tensor<2x64x4x64xf32>
    %48 = "stablehlo.transpose"(%47) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x64x4x64xf32>) -> tensor<2x4x64x64xf32>
    %49 = "stablehlo.dot_general"(%43, %5) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x64x256xf32>, tensor<256x256xf32>) -> tensor<2x64x256xf32>
    %50 = "stablehlo.broadcast_in_dim"(%6) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %51 = "stablehlo.add"(%49, %50) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %52 = "stablehlo.reshape"(%51) : (tensor<2x64x256xf32>) -> tensor<2x64x4x64xf32>
    %53 = "stablehlo.transpose"(%52) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x64x4x64xf32>) -> tensor<2x4x64x64xf32>
    %54 = "stablehlo.dot_general"(%43, %7) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x64x256xf32>, tensor<256x256xf32>) -> tensor<2x64x256xf32>
    %55 = "stablehlo.broadcast_in_dim"(%8) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %56 = "stablehlo.add"(%54, %55) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %57 = "stablehlo.reshape"(%56) : (tensor<2x64x256xf32>) -> tensor<2x64x4x64xf32>
    %58 = "stablehlo.transpose"(%57) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x64x4x64xf32>) -> tensor<2x4x64x64xf32>
    %59 = "stablehlo.dot_general"(%48, %53) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [3]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
    %60 = "stablehlo.broadcast_in_dim"(%17) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x4x64x64xf32>
    %61 = "stablehlo.multiply"(%59, %60) : (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
    %62 = "stablehlo.iota"() {iota_dimension = 2 : i64} : () -> tensor<2x4x64x64xi64>
    %63 = "stablehlo.iota"() {iota_dimension = 3 : i64} : () -> tensor<2x4x64x64xi64>
    %64 = "stablehlo.constant"() {value = dense<0> : tensor<2x4x64x64xi64>} : () -> tensor<2x4x64x64xi64>
    %65 = "stablehlo.add"(%62, %64) : (tensor<2x4x64x64xi64>, tensor<2x4x64x64xi64>) -> tensor<2x4x64x64xi64>
    %66 = "stablehlo.compare"(%63, %65) {comparison_direction = #stablehlo<comparison_direction GT>} : (tensor<2x4x64x64xi64>, tensor<2x4x64x64xi64>) -> tensor<2x4x64x64xi1>
    %67 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<2x4x64x64xf32>} : () -> tensor<2x4x64x64xf32>
    %68 = "stablehlo.select"(%66, %67, %61) : (tensor<2x4x64x64xi1>, tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
    %69 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %70 = "stablehlo.reduce"(%68, %69) ({
    ^bb0(%71: tensor<f32>, %72: tensor<f32>):
      %73 = "stablehlo.maximum"(%71, %72) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%73) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<2x4x64x64xf32>, tensor<f32>) -> tensor<2x4x64xf32>
    %74 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x4x64xf32>} : () -> tensor<2x4x64xf32>
    %75 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<2x4x64xf32>} : () -> tensor<2x4x64xf32>
    %76 = "stablehlo.compare"(%70, %75) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x4x64xf32>, tensor<2x4x64xf32>) -> tensor<2x4x64xi1>
    %77 = "stablehlo.select"(%76, %74, %70) : (tensor<2x4x64xi1>, tensor<2x4x64xf32>, tensor<2x4x64xf32>) -> tensor<2x4x64xf32>
    %78 = "stablehlo.broadcast_in_dim"(%77) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<2x4x64xf32>) -> tensor<2x4x64x64xf32>
    %79 = "stablehlo.subtract"(%68, %78) : (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
    %80 = "stablehlo.exponential"(%79) : (tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
    %81 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %82 = "stablehlo.reduce"(%80, %81) ({
    ^bb0(%83: tensor<f32>, %84: tensor<f32>):
      %85 = "stablehlo.add"(%83, %84) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%85) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 3>} : (tensor<2x4x64x64xf32>, tensor<f32>) -> tensor<2x4x64xf32>
    %86 = "stablehlo.broadcast_in_dim"(%82) {broadcast_dimensions = array<i64: 0, 1, 2>} : (tensor<2x4x64xf32>) -> tensor<2x4x64x64xf32>
    %87 = "stablehlo.divide"(%80, %86) : (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
    %88 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x4x64x64xf32>} : () -> tensor<2x4x64x64xf32>
    %89 = "stablehlo.select"(%66, %88, %87) : (tensor<2x4x64x64xi1>, tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
    %90 = "stablehlo.dot_general"(%89, %58) {dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0, 1], rhs_batching_dimensions = [0, 1], lhs_contracting_dimensions = [3], rhs_contracting_dimensions = [2]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x4x64x64xf32>, tensor<2x4x64x64xf32>) -> tensor<2x4x64x64xf32>
    %91 = "stablehlo.transpose"(%90) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x64x64xf32>) -> tensor<2x64x4x64xf32>
    %92 = "stablehlo.reshape"(%91) : (tensor<2x64x4x64xf32>) -> tensor<2x64x256xf32>
    %93 = "stablehlo.dot_general"(%92, %9) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x64x256xf32>, tensor<256x256xf32>) -> tensor<2x64x256xf32>
    %94 = "stablehlo.broadcast_in_dim"(%10) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %95 = "stablehlo.add"(%93, %94) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %96 = "stablehlo.add"(%0, %95) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %97 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %98 = "stablehlo.reduce"(%96, %97) ({
    ^bb0(%99: tensor<f32>, %100: tensor<f32>):
      %101 = "stablehlo.add"(%99, %100) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%101) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x64x256xf32>, tensor<f32>) -> tensor<2x64xf32>
    %102 = "stablehlo.constant"() {value = dense<0x43800000> : tensor<2x64xf32>} : () -> tensor<2x64xf32>
    %103 = "stablehlo.divide"(%98, %102) : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
    %104 = "stablehlo.broadcast_in_dim"(%103) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x64xf32>) -> tensor<2x64x256xf32>
    %105 = "stablehlo.subtract"(%96, %104) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %106 = "stablehlo.multiply"(%105, %105) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %107 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %108 = "stablehlo.reduce"(%106, %107) ({
    ^bb0(%109: tensor<f32>, %110: tensor<f32>):
      %111 = "stablehlo.add"(%109, %110) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%111) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 2>} : (tensor<2x64x256xf32>, tensor<f32>) -> tensor<2x64xf32>
    %112 = "stablehlo.constant"() {value = dense<0x43800000> : tensor<2x64xf32>} : () -> tensor<2x64xf32>
    %113 = "stablehlo.divide"(%108, %112) : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
    %114 = "stablehlo.constant"() {value = dense<0x3727C5AC> : tensor<2x64xf32>} : () -> tensor<2x64xf32>
    %115 = "stablehlo.add"(%113, %114) : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
    %116 = "stablehlo.rsqrt"(%115) : (tensor<2x64xf32>) -> tensor<2x64xf32>
    %117 = "stablehlo.broadcast_in_dim"(%116) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x64xf32>) -> tensor<2x64x256xf32>
    %118 = "stablehlo.multiply"(%105, %117) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %119 = "stablehlo.broadcast_in_dim"(%11) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %120 = "stablehlo.multiply"(%118, %119) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %121 = "stablehlo.broadcast_in_dim"(%12) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %122 = "stablehlo.add"(%120, %121) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %123 = "stablehlo.dot_general"(%122, %13) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x64x256xf32>, tensor<256x1024xf32>) -> tensor<2x64x1024xf32>
    %124 = "stablehlo.broadcast_in_dim"(%14) {broadcast_dimensions = array<i64: 2>} : (tensor<1024xf32>) -> tensor<2x64x1024xf32>
    %125 = "stablehlo.add"(%123, %124) : (tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) -> tensor<2x64x1024xf32>
    %126 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<2x64x1024xf32>} : () -> tensor<2x64x1024xf32>
    %127 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x64x1024xf32>} : () -> tensor<2x64x1024xf32>
    %128 = "stablehlo.constant"() {value = dense<0x3F3504F3> : tensor<2x64x1024xf32>} : () -> tensor<2x64x1024xf32>
    %129 = "stablehlo.multiply"(%125, %128) : (tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) -> tensor<2x64x1024xf32>
    %130 = "chlo.erf"(%129) : (tensor<2x64x1024xf32>) -> tensor<2x64x1024xf32>
    %131 = "stablehlo.add"(%127, %130) : (tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) -> tensor<2x64x1024xf32>
    %132 = "stablehlo.multiply"(%126, %125) : (tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) -> tensor<2x64x1024xf32>
    %133 = "stablehlo.multiply"(%132, %131) : (tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) -> tensor<2x64x1024xf32>
    %134 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<2x64x1024xf32>} : () -> tensor<2x64x1024xf32>
    %135 = "stablehlo.compare"(%125, %134) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) -> tensor<2x64x1024xi1>
    %136 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x64x1024xf32>} : () -> tensor<2x64x1024xf32>
    %137 = "stablehlo.select"(%135, %136, %133) : (tensor<2x64x1024xi1>, tensor<2x64x1024xf32>, tensor<2x64x1024xf32>) -> tensor<2x64x1024xf32>
    %138 = "stablehlo.dot_general"(%137, %15) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x64x1024xf32>, tensor<1024x256xf32>) -> tensor<2x64x256xf32>
    %139 = "stablehlo.broadcast_in_dim"(%16) {broadcast_dimensions = array<i64: 2>} : (tensor<256xf32>) -> tensor<2x64x256xf32>
    %140 = "stablehlo.add"(%138, %139) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    %141 = "stablehlo.add"(%96, %140) : (tensor<2x64x256xf32>, tensor<2x64x256xf32>) -> tensor<2x64x256xf32>
    "func.return"(%141) : (tensor<2x64x256xf32>) -> ()
  }
}
