// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(sparse-pos-reorder{loops=a,b})'
// RUN: not sptir-opt %examples/csc_spmm.mlir -p 'builtin.module(lower-sparse-iter,sparse-pos-split{loop=cscmm.2 factor=4},sparse-pos-unroll{loop=cscmm.2.i},sparse-pos-reorder{loops=cscmm.2.i,cscmm.2.o})' 2>&1 | FileCheck %s --check-prefix=MARKED

// An unrolled loop's copies sit in its thread's innermost body: moved out,
// they would hold the loop that was around them.
// MARKED: csc_spmm.mlir:27:3: error: sparse-pos-reorder: loop "cscmm.2.i" is marked to unroll; reorder before marking it

func.func @not_perfect(%n: index, %out: !sparse_iter.buffer<1, f32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  sparse_pos.for "b" spatial %c0 to %n {
  ^bb0(%i: index):
    // expected-error@+1 {{sparse-pos-reorder: loops "b" and "a" are not perfectly nested: this op between them writes or loops}}
    sparse_pos.store %f, %out[%i] : !sparse_iter.buffer<1, f32>
    sparse_pos.for "a" spatial %c0 to %n {
    ^bb0(%j: index):
      sparse_pos.store %f, %out[%j] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}

// -----
func.func @after_inner(%n: index, %out: !sparse_iter.buffer<1, f32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  sparse_pos.for "b" spatial %c0 to %n {
  ^bb0(%i: index):
    sparse_pos.for "a" spatial %c0 to %n {
    ^bb0(%j: index):
      sparse_pos.store %f, %out[%j] : !sparse_iter.buffer<1, f32>
    }
    // expected-error@+1 {{sparse-pos-reorder: loops "b" and "a" are not perfectly nested: this op follows "a" inside "b"}}
    sparse_pos.store %f, %out[%i] : !sparse_iter.buffer<1, f32>
  }
  return
}

// -----
// A triangular nest cannot be interchanged.
func.func @dependent_bounds(%n: index, %out: !sparse_iter.buffer<1, f32>) {
  %c0 = arith.constant 0 : index
  %f = arith.constant 1.0 : f32
  sparse_pos.for "b" spatial %c0 to %n {
  ^bb0(%i: index):
    // expected-error@+1 {{sparse-pos-reorder: the bounds of "a" depend on the position of "b"}}
    sparse_pos.for "a" spatial %c0 to %i {
    ^bb0(%j: index):
      sparse_pos.store %f, %out[%j] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}

// -----

// A wavefront: Y[i, k] needs Y[i-1, k+1], so row i's element k must come
// after row i-1's element k+1, which k outside i would turn around.
func.func @wavefront(%n: index, %y: !sparse_iter.buffer<2, f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  sparse_pos.for "b" spatial %c1 to %n {
  ^bb0(%i: index):
    // expected-error@+1 {{sparse-pos-reorder: loops "b" and "a" may both carry data from position to position (the sparse_pos.load at line}}
    sparse_pos.for "a" spatial %c0 to %n {
    ^bb0(%k: index):
      %im = arith.subi %i, %c1 : index
      %kp = arith.addi %k, %c1 : index
      %up = sparse_pos.load %y[%im, %kp] : !sparse_iter.buffer<2, f32>
      sparse_pos.store %up, %y[%i, %k] : !sparse_iter.buffer<2, f32>
    }
  }
  return
}

// -----

// The same fold at stage II: both loops are reductions.
func.func @ordered_fold(%x: !sparse_iter.buffer<2, f32>, %y: !sparse_iter.buffer<1, f32>, %n: index) {
  %c0 = arith.constant 0 : index
  sparse_pos.for "b" reduction %c0 to %n {
  ^bb0(%i: index):
    sparse_pos.for "a" reduction %c0 to %n {
    ^bb0(%j: index):
      %two = arith.constant 2.0 : f32
      %v = sparse_pos.load %x[%i, %j] : !sparse_iter.buffer<2, f32>
      %o = sparse_pos.load %y[%c0] : !sparse_iter.buffer<1, f32>
      %t = arith.mulf %o, %two : f32
      %s = arith.addf %t, %v : f32
      // expected-error@+1 {{sparse-pos-reorder: loops "b" and "a" are both reductions, and this store is not an update whose order does not matter}}
      sparse_pos.store %s, %y[%c0] : !sparse_iter.buffer<1, f32>
    }
  }
  return
}
