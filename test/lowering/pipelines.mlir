// RUN: sptir-opt %s --sptir-to-cpu | FileCheck %s --check-prefix=CPU
// RUN: sptir-opt %s --sptir-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: sptir-opt %s --sptir-to-stage3 | FileCheck %s --check-prefix=STAGE3
// RUN: sptir-opt %S/Inputs/vector_math_cpu.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=e.0 factor=4},sparse-pos-vectorize{loop=e.0.i},sparse-pos-bind{loop=e.0.o to=threadIdx.x},sptir-stage2-to-launches,serialize-launches,sptir-stage3-to-llvm)' | FileCheck %S/Inputs/vector_math_cpu.mlir

// Every pipeline a program enters by lowers affine loops and accesses
// first: here an affine loop in an iteration's body, whose sparse load
// needs a guard (an scf.if) that convert-scf-to-cf would otherwise have
// turned into blocks inside the affine.for.

// CPU-LABEL: llvm.func @affine_in_body
// CPU-NOT: affine.
// GPU-LABEL: llvm.func @affine_in_body
// GPU-NOT: affine.
// GPU: gpu.binary
// STAGE3-LABEL: func.func @affine_in_body
// STAGE3-NOT: affine.
// STAGE3: scf.for
// STAGE3: scf.if
func.func @affine_in_body(%x: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "t" [%I] "S" body {
  ^bb0(%i: index):
    affine.for %k = 0 to 4 {
      %v = sparse_iter.load %X[%k] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %v, %X[%i] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}
