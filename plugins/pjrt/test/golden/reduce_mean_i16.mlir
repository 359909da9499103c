module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi16>) -> (tensor<2xi16>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xi16>) -> tensor<2x3xf64>
    %2 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<f64>} : () -> tensor<f64>
    %3 = "stablehlo.reduce"(%1, %2) ({
    ^bb0(%4: tensor<f64>, %5: tensor<f64>):
      %6 = "stablehlo.add"(%4, %5) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%6) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<2x3xf64>, tensor<f64>) -> tensor<2xf64>
    %7 = "stablehlo.constant"() {value = dense<0x4008000000000000> : tensor<2xf64>} : () -> tensor<2xf64>
    %8 = "stablehlo.divide"(%3, %7) : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
    %9 = "stablehlo.convert"(%8) : (tensor<2xf64>) -> tensor<2xi64>
    %10 = "stablehlo.convert"(%9) : (tensor<2xi64>) -> tensor<2xi16>
    "func.return"(%10) : (tensor<2xi16>) -> ()
  }
}
