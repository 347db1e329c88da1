// RUN: sptir-opt %s -p 'builtin.module(inline{default-pipeline=})' | FileCheck %s

// MLIR's inliner inlines functions whose bodies hold sparse_pos ops: a
// helper's loop over a buffer lands where the buffer is defined.
// CHECK-NOT: func.func private @fill
// CHECK-LABEL: func.func @caller
//   CHECK-NOT: func.call
//       CHECK: sparse_pos.for "fill" spatial
//       CHECK:   sparse_pos.store
func.func private @fill(%Y: !sparse_iter.buffer<1, f32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  sparse_pos.for "fill" spatial %c0 to %n {
  ^bb0(%p: index):
    sparse_pos.store %v, %Y[%p] : !sparse_iter.buffer<1, f32>
  }
  return
}
func.func @caller(%y: memref<?xf32>, %n: index, %v: f32) {
  %I = sparse_iter.dense_fixed %n
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  func.call @fill(%Y, %n, %v) : (!sparse_iter.buffer<1, f32>, index, f32) -> ()
  return
}
