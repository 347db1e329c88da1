// RUN: sptir-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sparse-reorder{iteration=it order=1,0})'

func.func @child_before_parent(%indptr: memref<?xi32>, %indices: memref<?xi32>, %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz : memref<?xi32>, memref<?xi32>
  // expected-error@+1 {{sparse-reorder: order puts axis #1 before its parent axis}}
  sparse_iter.iterate "it" [%I, %J] "SR" body {
  ^bb0(%i: index, %j: index):
  }
  return
}

// -----

// expected-error@+1 {{sparse-reorder: no sparse iteration labelled "it"; the labels are "other"}}
module {
  func.func @missing(%m: index) {
    %I = sparse_iter.dense_fixed %m
    sparse_iter.iterate "other" [%I] "S" body {
    ^bb0(%i: index):
    }
    return
  }
}

// -----

func.func @not_a_permutation(%m: index) {
  %I = sparse_iter.dense_fixed %m
  // expected-error@+1 {{sparse-reorder: order [1, 0] is not a permutation of the iteration's 1 loops}}
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
  }
  return
}
