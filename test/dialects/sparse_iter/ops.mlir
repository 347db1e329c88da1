// RUN: sptir-opt %s | sptir-opt | FileCheck %s
// RUN: sptir-opt %s --mlir-print-op-generic | sptir-opt | FileCheck %s

// Every op and every optional piece of syntax survives a round trip.

// CHECK-LABEL: func.func @axes
func.func @axes(%indptr: memref<?xi64>, %indices: memref<?xi64>, %ell: memref<?xi32>,
                %m: index, %n: index, %nnz: index, %k: index) {
  // CHECK: %[[I:.*]] = sparse_iter.dense_fixed %{{.*}}
  %I = sparse_iter.dense_fixed %m
  // CHECK: sparse_iter.dense_variable %[[I]], %{{.*}} length %{{.*}} nnz %{{.*}} : memref<?xi64>
  %L = sparse_iter.dense_variable %I, %indptr length %n nnz %nnz : memref<?xi64>
  // CHECK: sparse_iter.sparse_fixed %[[I]], %{{.*}} length %{{.*}} nnz_cols %{{.*}} sorted : memref<?xi32>
  %E = sparse_iter.sparse_fixed %I, %ell length %n nnz_cols %k sorted : memref<?xi32>
  // CHECK: sparse_iter.sparse_fixed %[[I]], %{{.*}} length %{{.*}} nnz_cols %{{.*}} : memref<?xi32>
  %U = sparse_iter.sparse_fixed %I, %ell length %n nnz_cols %k : memref<?xi32>
  // CHECK: %[[J:.*]] = sparse_iter.sparse_variable %[[I]], %{{.*}}, %{{.*}} length %{{.*}} nnz %{{.*}} : memref<?xi64>, memref<?xi64>
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz : memref<?xi64>, memref<?xi64>
  // A CSF level under a sparse level.
  // CHECK: sparse_iter.sparse_variable %[[J]], {{.*}} sorted
  %K = sparse_iter.sparse_variable %J, %indptr, %indices length %n nnz %nnz sorted : memref<?xi64>, memref<?xi64>
  return
}

// CHECK-LABEL: func.func @buffers
func.func @buffers(%a: memref<?xf32>, %p: memref<?xi32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  // CHECK: sparse_iter.match_buffer %{{.*}}[%{{.*}}] : memref<?xf32> -> <1, f32>
  %A = sparse_iter.match_buffer %a [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // CHECK: sparse_iter.match_buffer %{{.*}}[%{{.*}}] extra 1 : memref<?xi32> -> <1, i32>
  %P = sparse_iter.match_buffer %p [%I] extra 1 : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  // CHECK: sparse_iter.match_buffer %{{.*}}[%{{.*}}] {default_value = -1.000000e+00 : f32}
  %D = sparse_iter.match_buffer %a [%I] {default_value = -1.0 : f32} : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // CHECK: sparse_iter.alloc_buffer [%{{.*}}] scope "shared" : <1, f16>
  %T = sparse_iter.alloc_buffer [%I] scope "shared" : !sparse_iter.buffer<1, f16>
  // CHECK: sparse_iter.alloc_buffer [%{{.*}}] : <1, f32>
  %G = sparse_iter.alloc_buffer [%I] : !sparse_iter.buffer<1, f32>
  return
}

// CHECK-LABEL: func.func @iterations
func.func @iterations(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                      %x: memref<?xf32>, %e: memref<?xi32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %Jd = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %X = sparse_iter.match_buffer %x [%Jd] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %E = sparse_iter.match_buffer %e [%I] : memref<?xi32> -> !sparse_iter.buffer<1, i32>

  // Fused loop, annotation, computed and indirect coordinates.
  // CHECK: sparse_iter.iterate "scale" [fuse(%{{.*}}, %{{.*}})] "SS" attributes {preprocess} body {
  // CHECK-NEXT: ^bb0(%[[I0:.*]]: index, %[[J0:.*]]: index):
  sparse_iter.iterate "scale" [fuse(%I, %J)] "SS" attributes {preprocess} body {
  ^bb0(%i: index, %j: index):
    %e_i = sparse_iter.load %E[%i] : !sparse_iter.buffer<1, i32>
    %col = arith.index_cast %e_i : i32 to index
    %v = sparse_iter.load %X[%col] : !sparse_iter.buffer<1, f32>
    %w = sparse_iter.load %A[%i, %j] : !sparse_iter.buffer<2, f32>
    %p = arith.mulf %v, %w : f32
    // CHECK: sparse_iter.store %{{.*}}, %{{.*}}[%[[I0]], %[[J0]]] : <2, f32>
    sparse_iter.store %p, %A[%i, %j] : !sparse_iter.buffer<2, f32>
  }

  // Nested iterations: the inner one walks J under the outer one's I.
  // CHECK: sparse_iter.iterate "rows" [%{{.*}}] "S" body {
  // CHECK: sparse_iter.iterate "cols" [%{{.*}}] "R" body {
  sparse_iter.iterate "rows" [%I] "S" body {
  ^bb0(%i: index):
    sparse_iter.iterate "cols" [%J] "R" body {
    ^bb0(%j: index):
      %one = arith.constant 1 : index
      %next = arith.addi %j, %one : index
      %v = sparse_iter.load %X[%next] : !sparse_iter.buffer<1, f32>
      sparse_iter.store %v, %A[%i, %j] : !sparse_iter.buffer<2, f32>
    }
  }

  // A yield with attributes is printed (an implicit one would lose them);
  // a plain one is left implicit.
  // CHECK: sparse_iter.iterate "noted" [%{{.*}}, %{{.*}}] "SR" init {
  // CHECK-NEXT: ^bb0(%{{.*}}: index):
  // CHECK-NEXT: sparse_iter.yield {note = 1 : i64}
  // CHECK-NEXT: } body {
  // CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index):
  // CHECK-NEXT: }
  sparse_iter.iterate "noted" [%I, %J] "SR" init {
  ^bb0(%i: index):
    sparse_iter.yield {note = 1}
  } body {
  ^bb0(%i: index, %j: index):
    sparse_iter.yield
  }
  return
}
