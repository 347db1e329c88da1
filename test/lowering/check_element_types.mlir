// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(check-element-types)' | FileCheck %s
// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(sptir-stage3-to-llvm)' -o /dev/null

// The floats the LLVM lowering handles pass, f80 and f128 on the CPU too.
// CHECK-LABEL: func.func @lowered
func.func @lowered(%a: memref<?xf128>, %b: vector<4xf80>, %c: complex<f16>, %d: f8E5M2, %i: index) -> f128 {
  %v = memref.load %a[%i] : memref<?xf128>
  %w = arith.addf %v, %v : f128
  return %w : f128
}

// -----

// A float no conversion has a type for is named with the first op that
// holds it, before the conversions fail on a branch or a function.
func.func @tf32(%a: memref<?xf32>, %i: index) {
  %v = memref.load %a[%i] : memref<?xf32>
  // expected-error@+1 {{check-element-types: tf32 is not supported; sptir lowers integers, f8E4M3FN, f8E5M2, f16, bf16, f32, f64, f80 and f128}}
  %t = arith.truncf %v : f32 to tf32
  return
}

// -----

// Inside memrefs and complex numbers too.
// expected-error@+1 {{check-element-types: f4E2M1FN is not supported}}
func.func @f4(%a: memref<?xcomplex<f4E2M1FN>>) {
  return
}

// -----

// A constant without a place in the source (canonicalization hoists them
// without their locations) is not the one named: the next op that holds
// the type is.
func.func @placed(%n: index) {
  %zero = arith.constant 0.0 : f4E2M1FN loc(unknown)
  // expected-error@+1 {{check-element-types: f4E2M1FN is not supported}}
  %buffer = memref.alloc(%n) : memref<?xf4E2M1FN>
  return
}
