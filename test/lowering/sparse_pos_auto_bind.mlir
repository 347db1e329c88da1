// RUN: sptir-opt %s --split-input-file --pass-pipeline='builtin.module(lower-sparse-iter,sparse-pos-auto-bind)' | FileCheck %s

// The default schedule binds the outermost loop to blocks, atomically when
// it is a reduction whose updates are sums (integers too), and the
// innermost spatial loop to threads.
// CHECK-LABEL: func.func @int_column_sums
//       CHECK:   sparse_pos.for "colsum.init.1" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:   sparse_pos.for "colsum.0" reduction {{.*}} {atomic, bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "colsum.1" spatial {{.*}} {bind = "threadIdx.x"}
func.func @int_column_sums(%x: memref<?xi32>, %y: memref<?xi32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  sparse_iter.iterate "colsum" [%J, %I] "RS" init {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i32
    sparse_iter.store %zero, %Y[%i] : !sparse_iter.buffer<1, i32>
  } body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, i32>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, i32>
    %s = arith.addi %v, %acc : i32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, i32>
  }
  return
}

// -----

// Blocks cannot share a maximum: the reduction loop stays sequential (on
// the host) and the spatial loop inside it becomes the blocks, a launch
// per position.
// CHECK-LABEL: func.func @column_maxima
//       CHECK:   sparse_pos.for "colmax.0" reduction
//   CHECK-NOT:     attributes
//       CHECK:     sparse_pos.for "colmax.1" spatial {{.*}} {bind = "blockIdx.x"}
func.func @column_maxima(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %X = sparse_iter.match_buffer %x [%J, %I] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "colmax" [%J, %I] "RS" init {
  ^bb0(%i: index):
    %low = arith.constant 0xFF800000 : f32
    sparse_iter.store %low, %Y[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%j: index, %i: index):
    %acc = sparse_iter.load %Y[%i] : !sparse_iter.buffer<1, f32>
    %v = sparse_iter.load %X[%j, %i] : !sparse_iter.buffer<2, f32>
    %s = arith.maximumf %v, %acc : f32
    sparse_iter.store %s, %Y[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// A product over a CSR row's non-zeros, rows in the blocks: the
// non-zero loop stays sequential in each block, and the feature loop
// inside it is the threads.
// CHECK-LABEL: func.func @row_products
//       CHECK:   sparse_pos.for "prod.0" spatial {{.*}} {bind = "blockIdx.x"}
//       CHECK:     sparse_pos.for "prod.1" reduction
//   CHECK-NOT:       atomic
//       CHECK:       sparse_pos.for "prod.2" spatial {{.*}} {bind = "threadIdx.x"}
func.func @row_products(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                        %b: memref<?xf32>, %c: memref<?xf32>, %m: index, %n: index, %nnz: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted
         : memref<?xi32>, memref<?xi32>
  %J_ = sparse_iter.dense_fixed %n
  %K = sparse_iter.dense_fixed %feat
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %B = sparse_iter.match_buffer %b [%J_, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %C = sparse_iter.match_buffer %c [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "prod" [%I, %J, %K] "SRS" init {
  ^bb0(%i: index, %k: index):
    %one = arith.constant 1.0 : f32
    sparse_iter.store %one, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  } body {
  ^bb0(%i: index, %j: index, %k: index):
    %acc = sparse_iter.load %C[%i, %k] : !sparse_iter.buffer<2, f32>
    %v = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %w = sparse_iter.load %B[%j, %k] : !sparse_iter.buffer<2, f32>
    %t = arith.mulf %v, %w : f32
    %s = arith.mulf %t, %acc : f32
    sparse_iter.store %s, %C[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}
