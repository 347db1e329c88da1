// RUN: sptir-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(verify-llvm-lowering)' | FileCheck %s

// A module in the LLVM dialect passes.
// CHECK-LABEL: llvm.func @lowered
llvm.func @lowered(%x: f32) -> f32 {
  %y = llvm.fadd %x, %x : f32
  llvm.return %y : f32
}

// -----

// Arithmetic LLVM has no type for stays behind after the conversions,
// between casts; the op is named, not the cast.
llvm.func @f8(%x: i8) -> i8 {
  %a = builtin.unrealized_conversion_cast %x : i8 to f8E4M3FN
  // expected-error@+1 {{verify-llvm-lowering: 'arith.addf' (f8E4M3FN, f8E4M3FN, f8E4M3FN) was not lowered to the LLVM dialect}}
  %b = arith.addf %a, %a : f8E4M3FN
  %c = builtin.unrealized_conversion_cast %b : f8E4M3FN to i8
  llvm.return %c : i8
}
