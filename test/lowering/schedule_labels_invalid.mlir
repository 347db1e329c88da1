// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-split{loop=k factor=2})' 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-cache-read{loop=c})' 2>&1 | FileCheck %s --check-prefix=CACHE
// RUN: not sptir-opt %s -p 'builtin.module(sparse-pos-fuse{loops=f,g})' 2>&1 | FileCheck %s --check-prefix=FUSE

// A schedule's new loop may not take a label the program already has: a
// later schedule naming it would apply to the user's loop too.
// SPLIT: schedule_labels_invalid.mlir:[[# @LINE + 10]]:3: error: sparse-pos-split: it would label a new loop "k.o", which already labels a loop here, so that schedules naming "k.o" would apply to both; give the existing loop another label
// CACHE: schedule_labels_invalid.mlir:[[# @LINE + 19]]:5: error: sparse-pos-cache-read: it would label a new loop "c.cache", which already labels a loop here
// FUSE: schedule_labels_invalid.mlir:[[# @LINE + 24]]:3: error: sparse-pos-fuse: it would label a new loop "f+g", which already labels a loop here
func.func @taken(%x: memref<?xf32>, %y: memref<?xf32>, %m: index) {
  %I = sparse_iter.dense_fixed %m
  %X = sparse_iter.match_buffer %x [%I] : memref<?xf32> -> !sparse_iter.buffer<1, f32>
  %J = sparse_iter.dense_fixed %m
  %Y = sparse_iter.match_buffer %y [%I, %J] : memref<?xf32> -> !sparse_iter.buffer<2, f32>
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  sparse_pos.for "k" spatial %c0 to %m {
  ^bb0(%i: index):
    sparse_pos.for "k.o" spatial %c0 to %m {
    ^bb0(%j: index):
      %a = sparse_pos.load %X[%j] : !sparse_iter.buffer<1, f32>
      sparse_pos.store %a, %Y[%i, %j] : !sparse_iter.buffer<2, f32>
    }
  }
  sparse_pos.for "c.cache" spatial %c0 to %m {
  ^bb0(%i: index):
    sparse_pos.for "c" spatial %c0 to %c4 {
    ^bb0(%j: index):
      %a = sparse_pos.load %X[%j] : !sparse_iter.buffer<1, f32>
      sparse_pos.store %a, %Y[%i, %j] : !sparse_iter.buffer<2, f32>
    }
  }
  sparse_pos.for "f" spatial %c0 to %m {
  ^bb0(%i: index):
    sparse_pos.for "g" spatial %c0 to %m {
    ^bb0(%j: index):
      %a = sparse_pos.load %X[%j] : !sparse_iter.buffer<1, f32>
      sparse_pos.store %a, %Y[%i, %j] : !sparse_iter.buffer<2, f32>
    }
  }
  sparse_pos.for "f+g" spatial %c0 to %m {
  ^bb0(%i: index):
    %a = sparse_pos.load %X[%i] : !sparse_iter.buffer<1, f32>
    sparse_pos.store %a, %Y[%i, %i] : !sparse_iter.buffer<2, f32>
  }
  return
}
