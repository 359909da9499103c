module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<3x5xi64>) -> (tensor<3x2xi64>) {
    %1 = "stablehlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<3x5xi64>
    %2 = "stablehlo.constant"() {value = dense<9223372036854775807> : tensor<3x5xi64>} : () -> tensor<3x5xi64>
    %3 = "stablehlo.constant"() {value = dense<false> : tensor<3x5xi1>} : () -> tensor<3x5xi1>
    %4 = "stablehlo.not"(%3) : (tensor<3x5xi1>) -> tensor<3x5xi1>
    %5 = "stablehlo.select"(%4, %0, %2) : (tensor<3x5xi1>, tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %6 = "stablehlo.constant"() {value = dense<9223372036854775807> : tensor<i64>} : () -> tensor<i64>
    %7 = "stablehlo.reduce"(%5, %6) ({
    ^bb0(%8: tensor<i64>, %9: tensor<i64>):
      %10 = "stablehlo.minimum"(%8, %9) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%10) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<3x5xi64>, tensor<i64>) -> tensor<3xi64>
    %11 = "stablehlo.broadcast_in_dim"(%7) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi64>) -> tensor<3x5xi64>
    %12 = "stablehlo.compare"(%0, %11) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi1>
    %13 = "stablehlo.and"(%12, %4) : (tensor<3x5xi1>, tensor<3x5xi1>) -> tensor<3x5xi1>
    %14 = "stablehlo.constant"() {value = dense<5> : tensor<3x5xi64>} : () -> tensor<3x5xi64>
    %15 = "stablehlo.select"(%13, %1, %14) : (tensor<3x5xi1>, tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %16 = "stablehlo.constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
    %17 = "stablehlo.reduce"(%15, %16) ({
    ^bb0(%18: tensor<i64>, %19: tensor<i64>):
      %20 = "stablehlo.minimum"(%18, %19) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%20) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<3x5xi64>, tensor<i64>) -> tensor<3xi64>
    %21 = "stablehlo.broadcast_in_dim"(%17) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi64>) -> tensor<3x5xi64>
    %22 = "stablehlo.compare"(%1, %21) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi1>
    %23 = "stablehlo.or"(%3, %22) : (tensor<3x5xi1>, tensor<3x5xi1>) -> tensor<3x5xi1>
    %24 = "stablehlo.reshape"(%17) : (tensor<3xi64>) -> tensor<3x1xi64>
    %25 = "stablehlo.not"(%23) : (tensor<3x5xi1>) -> tensor<3x5xi1>
    %26 = "stablehlo.select"(%25, %0, %2) : (tensor<3x5xi1>, tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %27 = "stablehlo.constant"() {value = dense<9223372036854775807> : tensor<i64>} : () -> tensor<i64>
    %28 = "stablehlo.reduce"(%26, %27) ({
    ^bb0(%29: tensor<i64>, %30: tensor<i64>):
      %31 = "stablehlo.minimum"(%29, %30) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%31) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<3x5xi64>, tensor<i64>) -> tensor<3xi64>
    %32 = "stablehlo.broadcast_in_dim"(%28) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi64>) -> tensor<3x5xi64>
    %33 = "stablehlo.compare"(%0, %32) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi1>
    %34 = "stablehlo.and"(%33, %25) : (tensor<3x5xi1>, tensor<3x5xi1>) -> tensor<3x5xi1>
    %35 = "stablehlo.constant"() {value = dense<5> : tensor<3x5xi64>} : () -> tensor<3x5xi64>
    %36 = "stablehlo.select"(%34, %1, %35) : (tensor<3x5xi1>, tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi64>
    %37 = "stablehlo.constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
    %38 = "stablehlo.reduce"(%36, %37) ({
    ^bb0(%39: tensor<i64>, %40: tensor<i64>):
      %41 = "stablehlo.minimum"(%39, %40) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%41) : (tensor<i64>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<3x5xi64>, tensor<i64>) -> tensor<3xi64>
    %42 = "stablehlo.broadcast_in_dim"(%38) {broadcast_dimensions = array<i64: 0>} : (tensor<3xi64>) -> tensor<3x5xi64>
    %43 = "stablehlo.compare"(%1, %42) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<3x5xi64>, tensor<3x5xi64>) -> tensor<3x5xi1>
    %44 = "stablehlo.or"(%23, %43) : (tensor<3x5xi1>, tensor<3x5xi1>) -> tensor<3x5xi1>
    %45 = "stablehlo.reshape"(%38) : (tensor<3xi64>) -> tensor<3x1xi64>
    %46 = "stablehlo.concatenate"(%24, %45) {dimension = 1 : i64} : (tensor<3x1xi64>, tensor<3x1xi64>) -> tensor<3x2xi64>
    "func.return"(%46) : (tensor<3x2xi64>) -> ()
  }
}
