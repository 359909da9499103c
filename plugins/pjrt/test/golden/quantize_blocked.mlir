module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x6xf32>, %1: tensor<2x2xf32>, %2: tensor<2x2xui8>) -> (tensor<2x6xui8>) {
    %3 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>) -> tensor<2x2x4xf32>
    %4 = "stablehlo.reshape"(%3) : (tensor<2x2x4xf32>) -> tensor<2x8xf32>
    %5 = "stablehlo.slice"(%4) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 6>, strides = array<i64: 1, 1>} : (tensor<2x8xf32>) -> tensor<2x6xf32>
    %6 = "stablehlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x2xui8>) -> tensor<2x2x4xui8>
    %7 = "stablehlo.reshape"(%6) : (tensor<2x2x4xui8>) -> tensor<2x8xui8>
    %8 = "stablehlo.slice"(%7) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 6>, strides = array<i64: 1, 1>} : (tensor<2x8xui8>) -> tensor<2x6xui8>
    %9 = "stablehlo.divide"(%0, %5) : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
    %10 = "stablehlo.round_nearest_even"(%9) : (tensor<2x6xf32>) -> tensor<2x6xf32>
    %11 = "stablehlo.convert"(%8) : (tensor<2x6xui8>) -> tensor<2x6xf32>
    %12 = "stablehlo.add"(%10, %11) : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
    %13 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x6xf32>} : () -> tensor<2x6xf32>
    %14 = "stablehlo.maximum"(%12, %13) : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
    %15 = "stablehlo.constant"() {value = dense<0x437F0000> : tensor<2x6xf32>} : () -> tensor<2x6xf32>
    %16 = "stablehlo.minimum"(%14, %15) : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
    %17 = "stablehlo.convert"(%16) : (tensor<2x6xf32>) -> tensor<2x6xui8>
    %18 = "stablehlo.compare"(%9, %9) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
    %19 = "stablehlo.select"(%18, %8, %17) : (tensor<2x6xi1>, tensor<2x6xui8>, tensor<2x6xui8>) -> tensor<2x6xui8>
    "func.return"(%19) : (tensor<2x6xui8>) -> ()
  }
}
