// RUN: sptir-opt %s | sptir-opt | FileCheck %s
// RUN: sptir-opt %s --mlir-print-op-generic | sptir-opt | FileCheck %s

// CHECK-LABEL: func.func @position_space
func.func @position_space(%indptr: memref<?xi32>, %indices: memref<?xi32>, %a: memref<?xf32>,
                          %m: index, %n: index, %nnz: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %J_dense = sparse_iter.dense_variable %I, %indptr length %n nnz %nnz : memref<?xi32>
  %A = sparse_iter.match_buffer %a [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %J_indptr = sparse_iter.match_buffer %indptr [%I] extra 1 : memref<?xi32> -> !sparse_iter.buffer<1, i32>
  %J_indices = sparse_iter.match_buffer %indices [%I, %J_dense] : memref<?xi32> -> !sparse_iter.buffer<2, i32>
  // CHECK: sparse_pos.assume_domain %{{.*}} in [%{{.*}}, %{{.*}}] : <1, i32>
  sparse_pos.assume_domain %J_indptr in [%c0, %nnz] : !sparse_iter.buffer<1, i32>
  // CHECK: sparse_pos.for "i" spatial %{{.*}} to %{{.*}} attributes {bind = "blockIdx.x"} {
  // CHECK-NEXT: ^bb0(%[[VI:.*]]: index):
  sparse_pos.for "i" spatial %c0 to %m attributes {bind = "blockIdx.x"} {
  ^bb0(%vi: index):
    %vi1 = arith.addi %vi, %c1 : index
    // CHECK: sparse_pos.load %{{.*}}[%[[VI]]] : <1, i32>
    %lo32 = sparse_pos.load %J_indptr[%vi] : !sparse_iter.buffer<1, i32>
    %hi32 = sparse_pos.load %J_indptr[%vi1] : !sparse_iter.buffer<1, i32>
    %lo = arith.index_cast %lo32 : i32 to index
    %hi = arith.index_cast %hi32 : i32 to index
    %len = arith.subi %hi, %lo : index
    // CHECK: sparse_pos.for "j" reduction %{{.*}} to %{{.*}} {
    sparse_pos.for "j" reduction %c0 to %len {
    ^bb0(%vj: index):
      %v = sparse_pos.load %A[%vi, %vj] : !sparse_iter.buffer<2, f32>
      // CHECK: sparse_pos.store %{{.*}}, %{{.*}}[%[[VI]], %{{.*}}] : <2, f32>
      sparse_pos.store %v, %A[%vi, %vj] : !sparse_iter.buffer<2, f32>
    }
    // CHECK: %{{.*}}, %{{.*}} = sparse_pos.find %{{.*}}[%[[VI]]], %{{.*}}
    %pos, %found = sparse_pos.find %J[%vi], %n
  }
  // CHECK: sparse_pos.parent_position %{{.*}}, %{{.*}}
  %row = sparse_pos.parent_position %J, %c0
  return
}
