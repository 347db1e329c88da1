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
