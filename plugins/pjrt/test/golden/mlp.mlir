module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<8x784xf32>, %1: tensor<784x512xf32>, %2: tensor<512xf32>, %3: tensor<512x512xf32>, %4: tensor<512xf32>, %5: tensor<512x10xf32>, %6: tensor<10xf32>) -> (tensor<8x10xf32>) {
    %7 = "stablehlo.dot_general"(%0, %1) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<8x784xf32>, tensor<784x512xf32>) -> tensor<8x512xf32>
    %8 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 1>} : (tensor<512xf32>) -> tensor<8x512xf32>
    %9 = "stablehlo.add"(%7, %8) : (tensor<8x512xf32>, tensor<8x512xf32>) -> tensor<8x512xf32>
    %10 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<8x512xf32>} : () -> tensor<8x512xf32>
    %11 = "stablehlo.maximum"(%9, %10) : (tensor<8x512xf32>, tensor<8x512xf32>) -> tensor<8x512xf32>
    %12 = "stablehlo.dot_general"(%11, %3) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<8x512xf32>, tensor<512x512xf32>) -> tensor<8x512xf32>
    %13 = "stablehlo.broadcast_in_dim"(%4) {broadcast_dimensions = array<i64: 1>} : (tensor<512xf32>) -> tensor<8x512xf32>
    %14 = "stablehlo.add"(%12, %13) : (tensor<8x512xf32>, tensor<8x512xf32>) -> tensor<8x512xf32>
    %15 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<8x512xf32>} : () -> tensor<8x512xf32>
    %16 = "stablehlo.maximum"(%14, %15) : (tensor<8x512xf32>, tensor<8x512xf32>) -> tensor<8x512xf32>
    %17 = "stablehlo.dot_general"(%16, %5) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<8x512xf32>, tensor<512x10xf32>) -> tensor<8x10xf32>
    %18 = "stablehlo.broadcast_in_dim"(%6) {broadcast_dimensions = array<i64: 1>} : (tensor<10xf32>) -> tensor<8x10xf32>
    %19 = "stablehlo.add"(%17, %18) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %20 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %21 = "stablehlo.reduce"(%19, %20) ({
    ^bb0(%22: tensor<f32>, %23: tensor<f32>):
      %24 = "stablehlo.maximum"(%22, %23) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%24) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %25 = "stablehlo.broadcast_in_dim"(%21) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x10xf32>
    %26 = "stablehlo.subtract"(%19, %25) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %27 = "stablehlo.exponential"(%26) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %28 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %29 = "stablehlo.reduce"(%27, %28) ({
    ^bb0(%30: tensor<f32>, %31: tensor<f32>):
      %32 = "stablehlo.add"(%30, %31) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%32) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %33 = "stablehlo.broadcast_in_dim"(%29) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x10xf32>
    %34 = "stablehlo.divide"(%27, %33) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    "func.return"(%34) : (tensor<8x10xf32>) -> ()
  }
}
