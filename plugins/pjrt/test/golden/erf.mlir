module @rlx attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%0: tensor<2x3xf32>) -> (tensor<2x3xf32>) {
    %1 = "stablehlo.abs"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "stablehlo.multiply"(%0, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.constant"() {value = dense<0xBA46980C> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %4 = "stablehlo.constant"() {value = dense<0x3B97B426> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %5 = "stablehlo.multiply"(%3, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.add"(%5, %4) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = "stablehlo.constant"() {value = dense<0xBCC30C31> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %8 = "stablehlo.multiply"(%6, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "stablehlo.add"(%8, %7) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "stablehlo.constant"() {value = dense<0x3DCCCCCD> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %11 = "stablehlo.multiply"(%9, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "stablehlo.add"(%11, %10) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "stablehlo.constant"() {value = dense<0xBEAAAAAB> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %14 = "stablehlo.multiply"(%12, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "stablehlo.add"(%14, %13) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %16 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %17 = "stablehlo.multiply"(%15, %2) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "stablehlo.add"(%17, %16) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "stablehlo.constant"() {value = dense<0x3F906EBB> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %20 = "stablehlo.multiply"(%18, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %21 = "stablehlo.multiply"(%20, %19) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %22 = "stablehlo.constant"() {value = dense<0x3EA7BA05> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %23 = "stablehlo.multiply"(%1, %22) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %24 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %25 = "stablehlo.add"(%24, %23) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %26 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %27 = "stablehlo.divide"(%26, %25) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %28 = "stablehlo.constant"() {value = dense<0x3F87DC22> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %29 = "stablehlo.constant"() {value = dense<0xBFBA00E3> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %30 = "stablehlo.multiply"(%28, %27) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %31 = "stablehlo.add"(%30, %29) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %32 = "stablehlo.constant"() {value = dense<0x3FB5F0E3> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %33 = "stablehlo.multiply"(%31, %27) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %34 = "stablehlo.add"(%33, %32) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %35 = "stablehlo.constant"() {value = dense<0xBE91A98E> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %36 = "stablehlo.multiply"(%34, %27) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %37 = "stablehlo.add"(%36, %35) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %38 = "stablehlo.constant"() {value = dense<0x3E827906> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %39 = "stablehlo.multiply"(%37, %27) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %40 = "stablehlo.add"(%39, %38) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %41 = "stablehlo.multiply"(%40, %27) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %42 = "stablehlo.negate"(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %43 = "stablehlo.exponential"(%42) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %44 = "stablehlo.multiply"(%41, %43) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %45 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %46 = "stablehlo.subtract"(%45, %44) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %47 = "stablehlo.constant"() {value = dense<0x3F800000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %48 = "stablehlo.constant"() {value = dense<0x40C00000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %49 = "stablehlo.compare"(%1, %48) {comparison_direction = #stablehlo<comparison_direction GE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %50 = "stablehlo.select"(%49, %47, %46) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %51 = "stablehlo.constant"() {value = dense<0x00000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %52 = "stablehlo.compare"(%0, %51) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %53 = "stablehlo.negate"(%50) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %54 = "stablehlo.select"(%52, %53, %50) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %55 = "stablehlo.constant"() {value = dense<0x3F000000> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    %56 = "stablehlo.compare"(%1, %55) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %57 = "stablehlo.select"(%56, %21, %54) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %58 = "stablehlo.compare"(%0, %0) {comparison_direction = #stablehlo<comparison_direction NE>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
    %59 = "stablehlo.select"(%58, %0, %57) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%59) : (tensor<2x3xf32>) -> ()
  }
}
