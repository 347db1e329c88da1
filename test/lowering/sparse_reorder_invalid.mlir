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

// Options have no source position: the error points at the kernel.
module {
  // expected-error@+1 {{sparse-reorder: no sparse iteration labelled "it"; the labels are "other"}}
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

// -----

// A wavefront: Y[i, k] = Y[i - 1, k + 1] + X[i, k], rows in order. Walking
// features first would read Y[i - 1, k + 1] before it is written.
func.func @wavefront(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %feat: index) {
  %I = sparse_iter.dense_fixed %m
  %K = sparse_iter.dense_fixed %feat
  %X = sparse_iter.match_buffer %x [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%I, %K] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  sparse_iter.iterate "it" [%I, %K] "RS" body {
  ^bb0(%i: index, %k: index):
    %c1 = arith.constant 1 : index
    %im = arith.subi %i, %c1 : index
    %kp = arith.addi %k, %c1 : index
    // expected-error@+1 {{sparse-reorder: the body reads a buffer it writes, at other coordinates than it writes them}}
    %p = sparse_iter.load %Y[%im, %kp] : !sparse_iter.buffer<2, f32>
    %xv = sparse_iter.load %X[%i, %k] : !sparse_iter.buffer<2, f32>
    %s = arith.addf %p, %xv : f32
    sparse_iter.store %s, %Y[%i, %k] : !sparse_iter.buffer<2, f32>
  }
  return
}

// -----

// Y[0] = 2 Y[0] + X[i, j], in order over (i, j): a fold whose result
// depends on the order of its terms; two reduction axes swapped reorder
// them.
func.func @ordered_fold(%x: memref<?xf32>, %y: memref<?xf32>, %m: index, %n: index) {
  %I = sparse_iter.dense_fixed %m
  %J = sparse_iter.dense_fixed %n
  %One = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %Y = sparse_iter.match_buffer %y [%One] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  sparse_iter.iterate "it" [%I, %J] "RR" body {
  ^bb0(%i: index, %j: index):
    %c0 = arith.constant 0 : index
    %two = arith.constant 2.0 : f32
    %v = sparse_iter.load %X[%i, %j] : !sparse_iter.buffer<2, f32>
    %o = sparse_iter.load %Y[%c0] : !sparse_iter.buffer<1, f32>
    %t = arith.mulf %o, %two : f32
    %s = arith.addf %t, %v : f32
    // expected-error@+1 {{sparse-reorder: the order puts two reduction axes the other way round, and this store is not an update whose order does not matter}}
    sparse_iter.store %s, %Y[%c0] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----

// The kernel is the function with iterations, not a helper before it.
module {
  func.func @helper(%x: f32) -> f32 {
    return %x : f32
  }
  // expected-error@+1 {{sparse-reorder: no sparse iteration labelled "it"; the labels are "other"}}
  func.func @kernel(%m: index) {
    %I = sparse_iter.dense_fixed %m
    sparse_iter.iterate "other" [%I] "S" body {
    ^bb0(%i: index):
    }
    return
  }
}
