// A dense_fixed axis accessed at a coordinate that may fall outside it
// (computed, a constant, or walked over an axis of another length): the
// element there is not stored, so a load reads the default value and a
// store goes nowhere. Coordinates walked over an axis of the same length
// (the axis itself, or CSR's columns against B's rows) need no test.
// RUN: sptir-opt %s --split-input-file --pass-pipeline='builtin.module(lower-sparse-iter)' | FileCheck %s

// CHECK-LABEL: func.func @stencil
//       CHECK: sparse_pos.for "st.0" spatial %{{.*}} to %arg2 {
//  CHECK-NEXT: ^bb0(%[[I:[^:]+]]: index):
//       CHECK:   %[[PREV:.*]] = arith.subi %[[I]], %c1
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[PREV]], %arg2 : index
//       CHECK:   %[[A:.*]] = scf.if %[[IN]] -> (f32) {
//  CHECK-NEXT:     sparse_pos.load %{{.*}}[%[[PREV]]]
//       CHECK:   } else {
//  CHECK-NEXT:     arith.constant 1.000000e+02 : f32
//       CHECK:   %[[OUT:.*]] = arith.cmpi ult, %c7, %arg2 : index
//  CHECK-NEXT:   scf.if %[[OUT]] {
//  CHECK-NEXT:     sparse_pos.store %[[A]], %{{.*}}[%c7]
//       CHECK:   sparse_pos.load %{{.*}}[%c2] : <1, f32>
//   CHECK-NOT:   arith.cmpi
//       CHECK:   sparse_pos.store %{{.*}}, %{{.*}}[%[[I]]] : <1, f32>
func.func @stencil(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) {
  %I = sparse_iter.dense_fixed %n
  %c4 = arith.constant 4 : index
  %F = sparse_iter.dense_fixed %c4
  %X = sparse_iter.match_buffer %x [%I] {default_value = 100.0 : f32} : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %W = sparse_iter.match_buffer %x [%F] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "st" [%I] "S" body {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c7 = arith.constant 7 : index
    %prev = arith.subi %i, %c1 : index
    %a = sparse_iter.load %X[%prev] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %a, %Y[%c7] : !sparse_iter.buffer<1, f32>
    %w = sparse_iter.load %W[%c2] : !sparse_iter.buffer<1, f32>
    %s = arith.addf %a, %w : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A column index of CSR reads B's row without a test (B's rows are as
// many as A's columns); a row index reading a buffer over the columns
// does not (the matrix need not be square).
// CHECK-LABEL: func.func @rows_and_columns
//       CHECK: sparse_pos.for "rc.1"
//       CHECK:   %[[J:.*]] = arith.index_cast
//   CHECK-NOT:   arith.cmpi
//       CHECK:   sparse_pos.load %{{.*}}[%[[J]]] : <1, f32>
//       CHECK:   arith.cmpi ult, %{{.*}}, %arg5 : index
//       CHECK:   scf.if
//  CHECK-NEXT:     sparse_pos.load
func.func @rows_and_columns(%indptr: memref<?xi32>, %indices: memref<?xi32>, %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %JD = sparse_iter.dense_fixed %n
  %B = sparse_iter.match_buffer %b [%JD] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %C = sparse_iter.match_buffer %c [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "rc" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
    %v = sparse_iter.load %B[%j] : !sparse_iter.buffer<1, f32>
    %w = sparse_iter.load %B[%i] : !sparse_iter.buffer<1, f32>
    %old = sparse_iter.load %C[%i] : !sparse_iter.buffer<1, f32>
    %s = arith.addf %v, %w : f32
    %t = arith.addf %old, %s : f32
    sparse_iter.store %t, %C[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// An accumulation into a coordinate that may fall outside its axis
// (C[i, k + 1]): the load, the add and the store go under one guard, so
// that the update keeps the form `c = c + v` that atomic and register
// accumulation need. Another store to C between the load and the store
// keeps them apart (the load cannot move down past it).
// CHECK-LABEL: func.func @shifted
//       CHECK: sparse_pos.for "sh.1"
//       CHECK:   %[[K1:.*]] = arith.addi %{{.*}}, %c1
//       CHECK:   %[[P:.*]] = arith.mulf
//       CHECK:   %[[IN:.*]] = arith.cmpi ult, %[[K1]], %arg4 : index
//  CHECK-NEXT:   scf.if %[[IN]] {
//  CHECK-NEXT:     %[[OLD:.*]] = sparse_pos.load %[[C:.*]][%{{.*}}, %[[K1]]]
//  CHECK-NEXT:     %[[NEW:.*]] = arith.addf %[[OLD]], %[[P]] : f32
//  CHECK-NEXT:     sparse_pos.store %[[NEW]], %[[C]][%{{.*}}, %[[K1]]]
//  CHECK-NEXT:   }
//       CHECK: sparse_pos.for "apart.1"
//       CHECK:   scf.if %{{.*}} -> (f32) {
//  CHECK-NEXT:     sparse_pos.load
//       CHECK:   scf.if %{{.*}} {
//  CHECK-NEXT:     sparse_pos.store
//       CHECK:   scf.if %{{.*}} {
//  CHECK-NEXT:     sparse_pos.store
func.func @shifted(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %w: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %feat
  %W = sparse_iter.dense_fixed %w
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %B = sparse_iter.match_buffer %b [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %W] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "sh" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %c1 = arith.constant 1 : index
    %k1 = arith.addi %k, %c1 : index
    %old = sparse_iter.load %C[%i, %k1] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    %bv = sparse_iter.load %B[%i, %k] : !sparse_iter.buffer<2, f32>
    %p = arith.mulf %av, %bv : f32
    %new = arith.addf %old, %p : f32
    sparse_iter.store %new, %C[%i, %k1] : !sparse_iter.buffer<2, f32>
  }
  sparse_iter.iterate "apart" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
    %c1 = arith.constant 1 : index
    %k1 = arith.addi %k, %c1 : index
    %old = sparse_iter.load %C[%i, %k1] : !sparse_iter.buffer<2, f32>
    %av = sparse_iter.load %A[%i] : !sparse_iter.buffer<1, f32>
    sparse_iter.store %av, %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %new = arith.addf %old, %av : f32
    sparse_iter.store %new, %C[%i, %k1] : !sparse_iter.buffer<2, f32>
  }
  return
}
