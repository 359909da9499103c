module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xi8>, %1: tensor<3xi8>) -> (tensor<2x3xi8>) {
    %2 = "stablehlo.broadcast_in_dim"(%1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xi8>) -> tensor<2x3xi8>
    %3 = "stablehlo.constant"() {value = dense<1> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %4 = "stablehlo.constant"() {value = dense<0> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %5 = "stablehlo.and"(%2, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %6 = "stablehlo.compare"(%5, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %7 = "stablehlo.multiply"(%3, %0) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %8 = "stablehlo.select"(%6, %7, %3) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %9 = "stablehlo.multiply"(%0, %0) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %10 = "stablehlo.constant"() {value = dense<1> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %11 = "stablehlo.shift_right_logical"(%2, %10) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %12 = "stablehlo.and"(%11, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %13 = "stablehlo.compare"(%12, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %14 = "stablehlo.multiply"(%8, %9) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %15 = "stablehlo.select"(%13, %14, %8) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %16 = "stablehlo.multiply"(%9, %9) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %17 = "stablehlo.constant"() {value = dense<2> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %18 = "stablehlo.shift_right_logical"(%2, %17) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %19 = "stablehlo.and"(%18, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %20 = "stablehlo.compare"(%19, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %21 = "stablehlo.multiply"(%15, %16) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %22 = "stablehlo.select"(%20, %21, %15) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %23 = "stablehlo.multiply"(%16, %16) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %24 = "stablehlo.constant"() {value = dense<3> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %25 = "stablehlo.shift_right_logical"(%2, %24) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %26 = "stablehlo.and"(%25, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %27 = "stablehlo.compare"(%26, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %28 = "stablehlo.multiply"(%22, %23) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %29 = "stablehlo.select"(%27, %28, %22) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %30 = "stablehlo.multiply"(%23, %23) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %31 = "stablehlo.constant"() {value = dense<4> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %32 = "stablehlo.shift_right_logical"(%2, %31) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %33 = "stablehlo.and"(%32, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %34 = "stablehlo.compare"(%33, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %35 = "stablehlo.multiply"(%29, %30) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %36 = "stablehlo.select"(%34, %35, %29) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %37 = "stablehlo.multiply"(%30, %30) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %38 = "stablehlo.constant"() {value = dense<5> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %39 = "stablehlo.shift_right_logical"(%2, %38) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %40 = "stablehlo.and"(%39, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %41 = "stablehlo.compare"(%40, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %42 = "stablehlo.multiply"(%36, %37) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %43 = "stablehlo.select"(%41, %42, %36) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %44 = "stablehlo.multiply"(%37, %37) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %45 = "stablehlo.constant"() {value = dense<6> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %46 = "stablehlo.shift_right_logical"(%2, %45) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %47 = "stablehlo.and"(%46, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %48 = "stablehlo.compare"(%47, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %49 = "stablehlo.multiply"(%43, %44) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %50 = "stablehlo.select"(%48, %49, %43) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %51 = "stablehlo.multiply"(%44, %44) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %52 = "stablehlo.constant"() {value = dense<7> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %53 = "stablehlo.shift_right_logical"(%2, %52) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %54 = "stablehlo.and"(%53, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %55 = "stablehlo.compare"(%54, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %56 = "stablehlo.multiply"(%50, %51) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %57 = "stablehlo.select"(%55, %56, %50) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %58 = "stablehlo.constant"() {value = dense<-1> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
    %59 = "stablehlo.and"(%2, %3) : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %60 = "stablehlo.compare"(%59, %4) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %61 = "stablehlo.select"(%60, %58, %3) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %62 = "stablehlo.compare"(%0, %58) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %63 = "stablehlo.select"(%62, %61, %4) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %64 = "stablehlo.compare"(%0, %3) {comparison_direction = #stablehlo<comparison_direction EQ>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %65 = "stablehlo.select"(%64, %3, %63) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    %66 = "stablehlo.compare"(%2, %4) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi1>
    %67 = "stablehlo.select"(%66, %65, %57) : (tensor<2x3xi1>, tensor<2x3xi8>, tensor<2x3xi8>) -> tensor<2x3xi8>
    "func.return"(%67) : (tensor<2x3xi8>) -> ()
  }
}
