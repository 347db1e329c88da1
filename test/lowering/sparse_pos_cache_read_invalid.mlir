// RUN: sptir-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(sparse-pos-cache-read{loop=l})'

// The only buffer read is also written: a tile would go stale.
func.func @written(%a: memref<?xf32>, %n: index) {
  %ax = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a[%ax] : memref<?xf32> -> <1, f32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{sparse-pos-cache-read: loop "l" reads nothing cacheable}}
  sparse_pos.for "l" spatial %c0 to %c4 {
  ^bb0(%i: index):
    %v = sparse_pos.load %A[%i] : <1, f32>
    %w = arith.addf %v, %v : f32
    sparse_pos.store %w, %A[%i] : <1, f32>
  }
  return
}

// -----
// The load does not depend on the position (hoisting is what it needs),
// and the other one's index comes from memory.
func.func @invariant(%a: memref<?xf32>, %idx: memref<?xi32>, %out: memref<?xf32>, %n: index) {
  %ax = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a[%ax] : memref<?xf32> -> <1, f32>
  %I = sparse_iter.match_buffer %idx[%ax] : memref<?xi32> -> <1, i32>
  %O = sparse_iter.match_buffer %out[%ax] : memref<?xf32> -> <1, f32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{sparse-pos-cache-read: loop "l" reads nothing cacheable}}
  sparse_pos.for "l" spatial %c0 to %c4 {
  ^bb0(%i: index):
    %v = sparse_pos.load %A[%c0] : <1, f32>
    %k = memref.load %idx[%i] : memref<?xi32>
    %kk = arith.index_cast %k : i32 to index
    %u = sparse_pos.load %A[%kk] : <1, f32>
    %w = arith.addf %v, %u : f32
    sparse_pos.store %w, %O[%i] : <1, f32>
  }
  return
}

// -----
// An index computed by a division that its guard keeps from dividing by
// zero: the copy would compute it unguarded, so it is not cached.
func.func @division(%a: memref<?xf32>, %out: memref<?xf32>, %n: index) {
  %ax = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a[%ax] : memref<?xf32> -> <1, f32>
  %O = sparse_iter.match_buffer %out[%ax] : memref<?xf32> -> <1, f32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  // expected-error@+1 {{sparse-pos-cache-read: loop "l" reads nothing cacheable}}
  sparse_pos.for "l" spatial %c0 to %c4 {
  ^bb0(%i: index):
    %nz = arith.cmpi ne, %i, %c0 : index
    scf.if %nz {
      %q = arith.divui %c8, %i : index
      %v = sparse_pos.load %A[%q] : <1, f32>
      sparse_pos.store %v, %O[%i] : <1, f32>
    }
  }
  return
}

// -----
// A signed clamp: the copy's unsigned guard could not stop at it.
func.func @signed_clamp(%a: memref<?xf32>, %out: memref<?xf32>, %n: index, %k: index) {
  %ax = sparse_iter.dense_fixed %n
  %A = sparse_iter.match_buffer %a[%ax] : memref<?xf32> -> <1, f32>
  %O = sparse_iter.match_buffer %out[%ax] : memref<?xf32> -> <1, f32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %ub = arith.minsi %c4, %k : index
  // expected-error@+1 {{sparse-pos-cache-read: loop "l" must run at most a constant number of times}}
  sparse_pos.for "l" spatial %c0 to %ub {
  ^bb0(%i: index):
    %v = sparse_pos.load %A[%i] : <1, f32>
    sparse_pos.store %v, %O[%i] : <1, f32>
  }
  return
}
