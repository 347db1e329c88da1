// RUN: sptir-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(sparse-reorder{iteration=csrmm order=1,0})' | FileCheck %s


// Fused groups move as one loop; other iterations are left alone.
// CHECK-LABEL: func.func @fused
//       CHECK: sparse_iter.iterate "csrmm" [%{{.*}}, fuse(%{{.*}}, %{{.*}})] "SRR" body {
//  CHECK-NEXT: ^bb0(%[[A:.*]]: index, %[[B:.*]]: index, %[[C:.*]]: index):
//  CHECK-NEXT: "test.use"(%[[B]], %[[C]], %[[A]])
//       CHECK: sparse_iter.iterate "other" [%{{.*}}, %{{.*}}] "SR"
func.func @fused(%indptr: memref<?xi32>, %indices: memref<?xi32>, %m: index, %n: index, %nnz: index, %f: index) {
  %I = sparse_iter.dense_fixed %f
  %R = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %R, %indptr, %indices length %n nnz %nnz : memref<?xi32>, memref<?xi32>
  sparse_iter.iterate "csrmm" [fuse(%R, %J), %I] "RRS" body {
  ^bb0(%r: index, %j: index, %i: index):
    "test.use"(%r, %j, %i) : (index, index, index) -> ()
  }
  sparse_iter.iterate "other" [%R, %J] "SR" body {
  ^bb0(%r: index, %j: index):
  }
  return
}
