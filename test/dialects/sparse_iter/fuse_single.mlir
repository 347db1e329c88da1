// RUN: sptir-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: sptir-opt %s | FileCheck %s

// `fuse(%I)` alone groups nothing: it prints as `%I`, and the generic form
// has no fuse_groups, as if it had been written so.
// GENERIC-NOT: fuse_groups
// CHECK: sparse_iter.iterate "one" [%{{[^,]*}}, %{{[^,]*}}] "SS"
func.func @single(%x: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "one" [fuse(%I), %J] "SS" body {
  ^bb0(%i: index, %j: index):
    %c = arith.constant 0.0 : f32
    sparse_iter.store %c, %X[%i, %j] : !sparse_iter.buffer<2, f32>
  }
  return
}
