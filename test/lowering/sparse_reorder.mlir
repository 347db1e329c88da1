// RUN: sptir-opt %s --split-input-file --pass-pipeline='builtin.module(sparse-reorder{iteration=csrmm order=0,2,1})' | FileCheck %s

// The feature loop moves outside the reduction; coordinates follow axes.
// CHECK-LABEL: func.func @csrmm
//       CHECK: %[[I:.*]] = sparse_iter.dense_fixed
//       CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]]
//       CHECK: %[[K:.*]] = sparse_iter.dense_fixed %arg8
//       CHECK: sparse_iter.iterate "csrmm" [%[[I]], %[[K]], %[[J]]] "SSR" init {
//  CHECK-NEXT: ^bb0(%[[II:.*]]: index, %[[IK:.*]]: index):
//  CHECK-NEXT: arith.constant
//  CHECK-NEXT: sparse_iter.store %{{.*}}, %{{.*}}[%[[II]], %[[IK]]]
//       CHECK: } body {
//  CHECK-NEXT: ^bb0(%[[BI:.*]]: index, %[[BK:.*]]: index, %[[BJ:.*]]: index):
//  CHECK-NEXT: sparse_iter.load %{{.*}}[%[[BI]], %[[BK]]]
//  CHECK-NEXT: sparse_iter.load %{{.*}}[%[[BI]], %[[BJ]]]
//  CHECK-NEXT: sparse_iter.load %{{.*}}[%[[BJ]], %[[BK]]]
func.func @csrmm(%indptr: memref<?xi32>, %indices: memref<?xi32>,
                 %a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>,
                 %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %J_detach = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_detach, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "csrmm" [%I, %J, %K] "SRS" init {
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
