module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x1xf32>) {
    %1 = "stablehlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
    %2 = "stablehlo.reduce"(%0, %1) ({
    ^bb0(%3: tensor<f32>, %4: tensor<f32>):
      %5 = "stablehlo.maximum"(%3, %4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %6 = "stablehlo.constant"() {value = dense<0x7F800000> : tensor<2xf32>} : () -> tensor<2xf32>
    %7 = "stablehlo.abs"(%2) : (tensor<2xf32>) -> tensor<2xf32>
    %8 = "stablehlo.compare"(%7, %6) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %9 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2xf32>} : () -> tensor<2xf32>
    %10 = "stablehlo.select"(%8, %9, %2) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x3xf32>
    %12 = "stablehlo.subtract"(%0, %11) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "stablehlo.exponential"(%12) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<f32>} : () -> tensor<f32>
    %15 = "stablehlo.reduce"(%13, %14) ({
    ^bb0(%16: tensor<f32>, %17: tensor<f32>):
      %18 = "stablehlo.add"(%16, %17) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%18) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %19 = "stablehlo.log"(%15) : (tensor<2xf32>) -> tensor<2xf32>
    %20 = "stablehlo.add"(%19, %10) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %21 = "stablehlo.reshape"(%20) : (tensor<2xf32>) -> tensor<2x1xf32>
    "func.return"(%21) : (tensor<2x1xf32>) -> ()
  }
}
