// RUN: sptir-opt %s --split-input-file -p 'builtin.module(inline{default-pipeline=},lower-sparse-iter)' 2>&1 | FileCheck %s
// RUN: not sptir-opt %s --split-input-file -p 'builtin.module(inline{default-pipeline=},decompose-format,lower-sparse-iter)' 2>&1 | FileCheck %s --check-prefix=DECOMPOSED

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

// -----

// A copy that decompose-format rewrote into other iterations is no copy
// any more: its "h.init" iteration's loop "h.init.1" and the first copy's
// init loop "h.init.1" are refused (they come from iterations "h.init"
// and "h").
// DECOMPOSED: error: lower-sparse-iter: two iterations of this function make a loop labelled "h.init.1"
func.func private @mm(%I: !sparse_iter.axis, %J: !sparse_iter.axis, %K: !sparse_iter.axis, %A: !sparse_iter.buffer<2, f32>,
                      %B: !sparse_iter.buffer<2, f32>, %C: !sparse_iter.buffer<2, f32>) {
  sparse_iter.iterate "h" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %bv = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %prod = arith.mulf %av, %bv : f32
    %sum = arith.addf %acc, %prod : f32
    sparse_iter.store %sum, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
func.func @rule_between(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                        %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%JD, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %T = sparse_iter.alloc_buffer [%I, %K] scope "global" : !sparse_iter.buffer<2, f32>
  func.call @mm(%I, %J, %K, %A, %B, %T) : (!sparse_iter.axis, !sparse_iter.axis, !sparse_iter.axis, !sparse_iter.buffer<2, f32>, !sparse_iter.buffer<2, f32>, !sparse_iter.buffer<2, f32>) -> ()
  %c1 = arith.constant 1 : index
  %S = sparse_iter.dense_fixed %c1
  %AD = sparse_iter.alloc_buffer [%I, %J, %S] scope "global" : !sparse_iter.buffer<3, f32>
  sparse_iter.format_rewrite %A -> %AD map affine_map<(i, j) -> (i, j, 0)> inverse affine_map<(i, j, s) -> (i, j)>
      : !sparse_iter.buffer<2, f32> -> !sparse_iter.buffer<3, f32>
  func.call @mm(%I, %J, %K, %A, %B, %C) : (!sparse_iter.axis, !sparse_iter.axis, !sparse_iter.axis, !sparse_iter.buffer<2, f32>, !sparse_iter.buffer<2, f32>, !sparse_iter.buffer<2, f32>) -> ()
  return
}
