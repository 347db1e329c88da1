// RUN: sptir-opt %s -p 'builtin.module(inline{default-pipeline=},lower-sparse-iter)' | FileCheck %s

// Copies of one iteration (a helper inlined at two calls) may share their
// loops' labels: one schedule is meant for both. (Two iterations of the
// source labelled alike are refused: invalid.mlir.)
// CHECK-LABEL: func.func @twice
//       CHECK: sparse_pos.for "fill.0"
//       CHECK: sparse_pos.for "fill.0"
func.func private @fill(%y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "fill" [%I] "S" body {
  ^bb0(%i: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
func.func @twice(%y: memref<?xf32>, %z: memref<?xf32>, %m: index) {
  func.call @fill(%y, %m) : (memref<?xf32>, index) -> ()
  func.call @fill(%z, %m) : (memref<?xf32>, index) -> ()
  return
}
