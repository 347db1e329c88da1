// RUN: sptir-opt %s -p 'builtin.module(cse,canonicalize)' | FileCheck %s

// Two axes with the same operands are different dimensions: CSE keeps
// both, while an axis nobody uses is dead.
// CHECK-LABEL: func.func @distinct_axes
//       CHECK: %[[BI:.*]] = sparse_iter.dense_fixed %arg1
//       CHECK: %[[BJ:.*]] = sparse_iter.dense_fixed %arg1
//   CHECK-NOT: sparse_iter.dense_fixed
//       CHECK: sparse_iter.match_buffer %arg0[%[[BI]], %[[BJ]]]
func.func @distinct_axes(%a: memref<?xf32>, %blk: index, %unused: index) -> !sparse_iter.buffer<2, f32> {
  %BI = sparse_iter.dense_fixed %blk
  %BJ = sparse_iter.dense_fixed %blk
  %dead = sparse_iter.dense_fixed %unused
  %A = sparse_iter.match_buffer %a [%BI, %BJ] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  return %A : !sparse_iter.buffer<2, f32>
}
