// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(expand-f8-conversions)' | FileCheck %s
// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(sptir-stage3-to-llvm)' -o /dev/null

// Widening builds the f32 from the f8's bits: the sign moved to bit 31,
// a normal exponent rebiased (127 - 7 = 120 for E4M3FN) and the mantissa
// moved up by 20, a subnormal scaled from its mantissa; f8E4M3FN's NaN is
// all ones.
// CHECK-LABEL: func.func @widen(
//       CHECK: %[[BYTE:.*]] = arith.bitcast %arg0 : f8E4M3FN to i8
//       CHECK: %[[BITS:.*]] = arith.extui %[[BYTE]] : i8 to i32
//       CHECK: arith.constant 120 : i32
//       CHECK: arith.constant 20 : i32
//       CHECK: arith.uitofp
//       CHECK: arith.constant 2143289344 : i32
//       CHECK: %[[F:.*]] = arith.bitcast %{{.*}} : i32 to f32
//       CHECK: arith.extf %[[F]] : f32 to f64
//   CHECK-NOT: arith.extf %{{.*}} : f8
func.func @widen(%a: f8E4M3FN) -> f64 {
  %0 = arith.extf %a : f8E4M3FN to f64
  return %0 : f64
}

// Narrowing rounds on the source's own bits (f64 here: no double
// rounding), in the shape of the source (vectors too).
// CHECK-LABEL: func.func @narrow(
//       CHECK: arith.bitcast %arg0 : vector<4xf64> to vector<4xi64>
//       CHECK: arith.fptoui %{{.*}} : vector<4xf64> to vector<4xi64>
//       CHECK: %[[B:.*]] = arith.trunci %{{.*}} : vector<4xi64> to vector<4xi8>
//       CHECK: arith.bitcast %[[B]] : vector<4xi8> to vector<4xf8E5M2>
//   CHECK-NOT: arith.truncf
func.func @narrow(%a: vector<4xf64>) -> vector<4xf8E5M2> {
  %0 = arith.truncf %a : vector<4xf64> to vector<4xf8E5M2>
  return %0 : vector<4xf8E5M2>
}

// -----

// Other 8-bit formats are refused where they are converted.
func.func @unsupported(%a: f32) {
  // expected-error@+1 {{f8E4M3 is not supported; sptir}}
  %0 = arith.truncf %a : f32 to f8E4M3
  return
}

// -----

// f80 is no 8-bit format: its casts are left to the LLVM lowering.
// CHECK-LABEL: func.func @x87
//       CHECK: arith.extf %arg0 : f64 to f80
func.func @x87(%a: f64) -> f80 {
  %0 = arith.extf %a : f64 to f80
  return %0 : f80
}
