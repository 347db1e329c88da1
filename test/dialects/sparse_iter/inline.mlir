// RUN: sptir-opt %s -p 'builtin.module(inline{default-pipeline=})' | FileCheck %s

// MLIR's inliner inlines functions whose bodies hold sparse_iter ops (the
// dialect's inliner interface): a helper that takes a kernel's buffers
// lands where they are defined, which lower-sparse-iter needs.
// CHECK-NOT: func.func private @accumulate
// CHECK-LABEL: func.func @rows
//   CHECK-NOT: func.call
//       CHECK: sparse_iter.iterate "rows"
//       CHECK: sparse_iter.load %{{.*}}[%{{.*}}] : <1, f32>
//       CHECK: sparse_iter.store
func.func private @accumulate(%Y: !sparse_iter.buffer<1, f32>, %X: !sparse_iter.buffer<2, f32>, %i: index, %j: index) {
  %y = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
  %x = sparse_iter.load %X[%i, %j] : !sparse_iter.buffer<2, f32>
  %s = arith.addf %y, %x : f32
  sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  return
}
func.func @rows(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "rows" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    func.call @accumulate(%Y, %X, %i, %j) : (!sparse_iter.buffer<1, f32>, !sparse_iter.buffer<2, f32>, index, index) -> ()
  }
  return
}
