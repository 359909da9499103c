module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xui8>) -> (tensor<ui8>) {
    %1 = "stablehlo.convert"(%0) : (tensor<2x3xui8>) -> tensor<2x3xf64>
    %2 = "stablehlo.multiply"(%1, %1) : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
    %3 = "stablehlo.constant"() {value = dense<0x0000000000000000> : tensor<f64>} : () -> tensor<f64>
    %4 = "stablehlo.reduce"(%2, %3) ({
    ^bb0(%5: tensor<f64>, %6: tensor<f64>):
      %7 = "stablehlo.add"(%5, %6) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%7) : (tensor<f64>) -> ()
    }) {dimensions = array<i64: 0, 1>} : (tensor<2x3xf64>, tensor<f64>) -> tensor<f64>
    %8 = "stablehlo.sqrt"(%4) : (tensor<f64>) -> tensor<f64>
    %9 = "stablehlo.convert"(%8) : (tensor<f64>) -> tensor<i64>
    %10 = "stablehlo.convert"(%9) : (tensor<i64>) -> tensor<ui8>
    "func.return"(%10) : (tensor<ui8>) -> ()
  }
}
