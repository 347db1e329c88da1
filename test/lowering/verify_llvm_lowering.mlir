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

// -----

// An op of a dialect no sptir pipeline lowers is named for its dialect,
// whatever its types.
func.func @fill(%zero: f32, %y: memref<?xf32>) {
  // expected-error@+1 {{verify-llvm-lowering: 'linalg.fill' was not lowered to the LLVM dialect: sptir's pipelines do not lower the linalg dialect; write it as a sparse iteration, or with scf, memref and arith}}
  linalg.fill ins(%zero : f32) outs(%y : memref<?xf32>)
  return
}

// -----

// A call into CUDA's libdevice (what upstream convert-gpu-to-nvvm writes
// for ops with no instruction) would leave the kernel unloadable: the
// call is named where its op was.
gpu.module @kernels {
  llvm.func @__nv_fmodf(f32, f32) -> f32
  llvm.func @remainder(%x: f32, %y: f32) -> f32 {
    // expected-error@+1 {{verify-llvm-lowering: this op became a call to CUDA's libdevice function '__nv_fmodf', which sptir does not link: the kernel would not load}}
    %r = llvm.call @__nv_fmodf(%x, %y) : (f32, f32) -> f32
    llvm.return %r : f32
  }
}

// -----

// A GPU launch left for the CPU's lowering: named with the pipelines that
// take it, not blamed on its types.
func.func @launch(%n: index, %c1: index) {
  // expected-error@+1 {{verify-llvm-lowering: 'gpu.launch' was not lowered to the LLVM dialect: this lowering runs on the CPU, which has no GPU launches}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%i = %c1, %j = %c1, %k = %c1) {
    gpu.terminator
  }
  return
}
