// RUN: sptir-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(sparse-fuse{iteration=it loops=0,1})'

func.func @not_parent_and_child(%m: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %m
  // expected-error@+1 {{sparse-fuse: axis #1 is not the child of axis #0}}
  sparse_iter.iterate "it" [%I, %K] "SS" body {
  ^bb0(%i: index, %k: index):
  }
  return
}

// -----

func.func @too_few_loops(%m: index) {
  %I = sparse_iter.dense_fixed %m
  // expected-error@+1 {{sparse-fuse: loops [0, 1] must be at least two consecutive positions among the iteration's 1 loops}}
  sparse_iter.iterate "it" [%I] "S" body {
  ^bb0(%i: index):
  }
  return
}

// -----

// The rows' zeroing runs once per row, which a loop over the rows and
// their non-zeros together no longer has.
func.func @init_per_fused_row(%indptr: memref<?xi32>, %indices: memref<?xi32>, %c: memref<?xf32>,
                              %m: index, %n: index, %nnz: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.sparse_variable %I, %indptr, %indices length %n nnz %nnz sorted : memref<?xi32>, memref<?xi32>
  %C = sparse_iter.match_buffer %c [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  // expected-error@+1 {{sparse-fuse: the init region runs per element of spatial axis #0, which these loops would fuse with a reduction axis; write the initialization as its own iteration}}
  sparse_iter.iterate "it" [%I, %J] "SR" init {
  ^bb0(%i: index):
    %zero = arith.constant 0.0 : f32
    sparse_iter.store %zero, %C[%i] : !sparse_iter.buffer<1, f32>
  } body {
  ^bb0(%i: index, %j: index):
    %one = arith.constant 1.0 : f32
    %acc = sparse_iter.load %C[%i] : !sparse_iter.buffer<1, f32>
    %sum = arith.addf %acc, %one : f32
    sparse_iter.store %sum, %C[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}
