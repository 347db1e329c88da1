// f16 and bf16 compute in f32, but for fma (which
// math-extend-to-supported-types leaves narrow): PTX's fma.rn.f16 and
// fma.rn.bf16 round once, where an f32 fma and a truncation would round
// twice. A type without a lowering is named where it is written.
// CHECK-LABEL: gpu.func @narrow
//       CHECK:   llvm.call_intrinsic "llvm.fma.f16"(%arg0, %arg0, %arg0) : (f16, f16, f16) -> f16
//       CHECK:   arith.extf %{{.*}} : bf16 to f32
//       CHECK:   llvm.call_intrinsic "llvm.ceil.f32"
//       CHECK:   arith.truncf %{{.*}} : f32 to bf16
// A constant exponent stays constant in f32: x^2 is a multiplication.
//       CHECK:   %[[X:.*]] = arith.extf %arg0 : f16 to f32
//       CHECK:   %[[SQUARE:.*]] = arith.mulf %[[X]], %[[X]] : f32
//       CHECK:   arith.truncf %[[SQUARE]] : f32 to f16
gpu.module @kernels {
  gpu.func @narrow(%x: f16, %b: bf16) -> (f16, bf16, f16) {
    %f = math.fma %x, %x, %x : f16
    %c = math.ceil %b : bf16
    %two = arith.constant 2.0 : f16
    %p = math.powf %x, %two : f16
    gpu.return %f, %c, %p : f16, bf16, f16
  }
}

// -----

// An op of two results is not widened (nor lowered).
gpu.module @kernels {
  gpu.func @sincos(%x: f16) -> f16 {
    // expected-error@+1 {{'math.sincos' here has no lowering on the GPU}}
    %s, %c = math.sincos %x : f16
    %t = arith.addf %s, %c : f16
    gpu.return %t : f16
  }
}

// -----

gpu.module @kernels {
  gpu.func @f128_ceil(%x: f128) -> f128 {
    // expected-error@+1 {{'math.ceil' is lowered on the GPU for f16, bf16, f32 and f64 only, scalars or vectors}}
    %c = math.ceil %x : f128
    gpu.return %c : f128
  }
}
